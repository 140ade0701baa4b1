// The page's clocks (issue 11): figures counted down locally between the server's states.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clockFigures, formatClock, isLow, crossedLow, untilDeadline, LOW_MS } from '../../assets/js/clock.mjs';

const timed = (over = {}) => ({
  status: 'ongoing',
  clock: { white_ms: 60000, black_ms: 45000, increment_ms: 2000, running: 'white' },
  ...over,
});

test('only the running clock goes down, never below zero', () => {
  assert.deepEqual(clockFigures(timed(), 1500), { white: 58500, black: 45000, running: 'white' });
  assert.deepEqual(clockFigures(timed(), 99999), { white: 0, black: 45000, running: 'white' });
  assert.equal(clockFigures({ status: 'ongoing', clock: null }, 10), null);
});

test('a finished game or one not started has no running clock', () => {
  const over = timed({ status: 'finished', clock: { white_ms: 0, black_ms: 45000, increment_ms: 0, running: null } });
  assert.deepEqual(clockFigures(over, 5000), { white: 0, black: 45000, running: null });
  assert.deepEqual(clockFigures(timed({ status: 'finished' }), 5000).running, null);
});

test('figures: minutes and seconds, hours, then tenths under ten seconds', () => {
  assert.equal(formatClock(180000), '3:00');
  assert.equal(formatClock(61999), '1:01');
  assert.equal(formatClock(3723000), '1:02:03');
  assert.equal(formatClock(LOW_MS), '0:10');
  assert.equal(formatClock(9950), '9.9');
  assert.equal(formatClock(0), '0.0');
  assert.equal(formatClock(-5), '0.0');
});

test('low time is from ten seconds down, and sounds once when crossed', () => {
  assert.ok(isLow(10000));
  assert.ok(!isLow(10001));
  assert.ok(crossedLow(10100, 9900));
  assert.ok(!crossedLow(9900, 9800));
});

test('a correspondence deadline in days, hours and minutes', () => {
  const now = Date.parse('2026-11-30T10:00:00Z');
  assert.deepEqual(untilDeadline('2026-12-03T12:30:59Z', now), { days: 3, hours: 2, minutes: 30 });
  assert.deepEqual(untilDeadline('2026-11-29T10:00:00Z', now), { days: 0, hours: 0, minutes: 0 });
  assert.equal(untilDeadline(null, now), null);
});
