// Issue 23: a tournament page's countdown and podium, from its view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clockText, countdown, podium } from '../../assets/js/tournaments.mjs';

test('the clock shows m:ss, then h:mm:ss from an hour on, never below zero', () => {
  assert.equal(clockText(0), '0:00');
  assert.equal(clockText(59_001), '1:00');
  assert.equal(clockText(272_000), '4:32');
  assert.equal(clockText(3_725_000), '1:02:05');
  assert.equal(clockText(-5_000), '0:00');
});

test('the countdown runs to the start, then to an arena\'s end, then stops', () => {
  const now = Date.parse('2026-12-02T18:00:00Z');
  assert.deepEqual(countdown({ status: 'created', starts_at: '2026-12-02T18:04:32Z' }, now), { key: 'tournament.startsIn', params: { time: '4:32' } });
  assert.deepEqual(countdown({ status: 'started', ends_at: '2026-12-02T19:00:00Z' }, now), { key: 'tournament.endsIn', params: { time: '1:00:00' } });
  // A Swiss under way has no end time; a finished tournament none at all.
  assert.equal(countdown({ status: 'started', ends_at: null }, now), null);
  assert.equal(countdown({ status: 'finished', ends_at: '2026-12-02T19:00:00Z' }, now), null);
});

test('the podium is the first three places of a finished tournament, ties included', () => {
  const standings = [
    { rank: 1, name: 'a', score: 8 }, { rank: 2, name: 'b', score: 6 }, { rank: 2, name: 'c', score: 6 },
    { rank: 4, name: 'd', score: 2 },
  ];
  assert.deepEqual(podium({ status: 'finished', standings }).map((s) => s.name), ['a', 'b', 'c']);
  assert.deepEqual(podium({ status: 'started', standings }), []);
});
