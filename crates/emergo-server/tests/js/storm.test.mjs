// Puzzle storm's scoring (puzzles/storm.mjs): the clock, the combo bonuses, the cost of a
// mistake, the end and the report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  STORM_MS, MISTAKE_MS, comboBonus, startStorm, remaining, isOver, rightMove, puzzleSolved, wrongMove, endStorm, report, clockText,
} from '../../assets/js/puzzles/storm.mjs';

test('a run lasts three minutes and its clock reads m:ss, rounded up', () => {
  const s = startStorm(1000);
  assert.equal(remaining(s, 1000), STORM_MS);
  assert.equal(STORM_MS, 180_000);
  assert.equal(clockText(remaining(s, 1000)), '3:00');
  assert.equal(clockText(59_001), '1:00');
  assert.equal(clockText(500), '0:01');
  assert.equal(clockText(0), '0:00');
  assert.equal(isOver(s, 1000 + STORM_MS - 1), false);
  assert.equal(isOver(s, 1000 + STORM_MS), true);
});

test('combos of 5, 12, 20 and 30 give back 3, 5, 7 and 10 seconds, then every 10 more 10', () => {
  const steps = [];
  for (let c = 1; c <= 60; c++) if (comboBonus(c)) steps.push([c, comboBonus(c)]);
  assert.deepEqual(steps, [[5, 3000], [12, 5000], [20, 7000], [30, 10000], [40, 10000], [50, 10000], [60, 10000]]);
});

test('right moves build the combo and solve puzzles; the fifth right move gives 3 s back', () => {
  let s = startStorm(0);
  for (let i = 1; i <= 5; i++) {
    s = rightMove(s, i * 1000);
    if (i % 2 === 0) s = puzzleSolved(s, i * 1000);
  }
  assert.equal(s.combo, 5);
  assert.equal(s.bestCombo, 5);
  assert.equal(s.solved, 2);
  assert.equal(s.moves, 5);
  assert.equal(remaining(s, 5000), STORM_MS + 3000 - 5000);
});

test('a wrong move costs ten seconds and ends the combo, and can end the run', () => {
  let s = startStorm(0);
  s = rightMove(s, 100);
  s = rightMove(s, 200);
  s = puzzleSolved(s, 200);
  s = wrongMove(s, 300);
  assert.equal(s.combo, 0);
  assert.equal(s.bestCombo, 2);
  assert.equal(s.errors, 1);
  assert.equal(remaining(s, 300), STORM_MS - MISTAKE_MS - 300);
  // Eight seconds before the end, a mistake ends it.
  s = wrongMove(s, STORM_MS - MISTAKE_MS - 8000);
  assert.equal(isOver(s, STORM_MS - MISTAKE_MS - 8000), true);
  // Nothing counts once it is over.
  const later = puzzleSolved(rightMove(s, STORM_MS), STORM_MS);
  assert.equal(later.solved, 1);
  assert.equal(later.moves, s.moves);
});

test('the report is what the server stores, its seconds to the end or to now', () => {
  let s = startStorm(10_000);
  s = puzzleSolved(rightMove(s, 11_000), 11_000);
  s = wrongMove(s, 12_000);
  assert.deepEqual(report(s, 40_000), { score: 1, moves: 2, errors: 1, best_combo: 1, seconds: 30 });
  assert.equal(report(s, 10_000 + 999_000).seconds, (STORM_MS - MISTAKE_MS) / 1000);
  assert.equal(endStorm(s).over, true);
});
