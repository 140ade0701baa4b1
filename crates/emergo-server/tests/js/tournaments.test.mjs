// Issue 23: a tournament page's countdown and podium, from its view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clockText, countdown, podium, standingMarks, tournamentBody, tournamentButtons } from '../../assets/js/tournaments.mjs';

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

test('issue 23: the page shows Join, Pause, Resume and Withdraw as the tournament and the player stand', () => {
  const anna = { name: 'anna' };
  const tour = (over, line) => ({ format: 'arena', status: 'started', open: true, private: false, standings: line ? [{ name: 'Anna', withdrawn: false, paused: false, ...line }] : [], ...over });
  const shown = (b) => Object.keys(b).filter((k) => b[k]).sort();
  assert.deepEqual(shown(tournamentButtons(tour({}, null), anna)), ['join']);
  assert.deepEqual(shown(tournamentButtons(tour({ private: true }, null), anna)), ['join', 'password']);
  assert.deepEqual(shown(tournamentButtons(tour({}, null), null)), [], 'signed out');
  assert.deepEqual(shown(tournamentButtons(tour({}, {}), anna)), ['pause', 'withdraw']);
  assert.deepEqual(shown(tournamentButtons(tour({}, { paused: true }), anna)), ['resume', 'withdraw']);
  assert.deepEqual(shown(tournamentButtons(tour({}, { withdrawn: true }), anna)), [], 'a withdrawal under way is for good');
  assert.deepEqual(shown(tournamentButtons(tour({ status: 'created' }, { withdrawn: true }), anna)), ['join'], 'before the start one joins again');
  assert.deepEqual(shown(tournamentButtons(tour({ format: 'swiss' }, {}), anna)), ['withdraw'], 'no pause in a Swiss');
  assert.deepEqual(shown(tournamentButtons(tour({ status: 'finished', open: false }, {}), anna)), []);
});

test('issue 23: a standing is marked paused, withdrawn or on fire', () => {
  assert.deepEqual(standingMarks({ paused: true, withdrawn: false, on_fire: false }), ['tournament.paused']);
  assert.deepEqual(standingMarks({ paused: true, withdrawn: true, on_fire: true }), ['tournament.withdrawn', 'tournament.onFire']);
  assert.deepEqual(standingMarks({ paused: false, withdrawn: false, on_fire: false }), []);
});
