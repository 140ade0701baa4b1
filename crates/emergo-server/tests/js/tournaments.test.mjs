// Issue 23: a tournament page's countdown and podium, from its view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clockText, countdown, podium, tournamentBody } from '../../assets/js/tournaments.mjs';

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

test('the creation form makes the request its format takes', () => {
  const now = Date.parse('2026-12-02T18:00:00Z');
  const base = { name: ' Evening arena ', time: '3+2', minutes: '45', rounds: '7', miniMatch: true, rated: false, startMinutes: '10', password: '' };
  assert.deepEqual(tournamentBody({ ...base, format: 'arena' }, now), {
    name: 'Evening arena', format: 'arena', time: '3+2', rated: false, minutes: 45, starts_at: '2026-12-02T18:10:00Z',
  });
  assert.deepEqual(tournamentBody({ ...base, format: 'swiss', rated: true, password: 'club' }, now), {
    name: 'Evening arena', format: 'swiss', time: '3+2', rated: true, games_per_pairing: 2, rounds: 7, starts_at: '2026-12-02T18:10:00Z', password: 'club',
  });
  assert.deepEqual(tournamentBody({ ...base, format: 'roundrobin', miniMatch: false, startMinutes: '0', variant: 'hex' }, now), {
    name: 'Evening arena', format: 'roundrobin', time: '3+2', rated: false, games_per_pairing: 1, starts_at: '2026-12-02T18:00:00Z', variant: 'hex',
  });
  assert.equal(tournamentBody({ ...base, format: 'arena', variant: 'emergo' }, now).variant, undefined);
});
