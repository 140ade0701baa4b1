// Clicks, drags and premoves matched against the server's legal moves (no rule in the page).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickTargets, afterClick, afterDrop, matchPremove } from '../../assets/js/select.mjs';

const mv = (move) => {
  const passed = move.split(/[-x]/);
  return { move, passed, captured: move.includes('x') ? passed.slice(1).map(() => '?') : [] };
};
const entries = ['b4', 'b5', 'd3'].map(mv);
const steps = ['e4-e5', 'e4-d4', 'c3-c4'].map(mv);
// two routes from e4 that end on c4 (R7.4: two different moves), one that ends on e6
const captures = ['e4xc4xc6xe6xe4xc4', 'e4xe6xc6xc4', 'e4xc4xc6xe6'].map(mv);

test('entries are one click', () => {
  assert.deepEqual([...clickTargets(entries, []).entries].sort(), ['b4', 'b5', 'd3']);
  assert.deepEqual(afterClick(entries, [], 'd3'), { submit: 'd3' });
  assert.deepEqual(afterClick(entries, [], 'e5'), { sel: [] });
});

test('a step is a start then a target', () => {
  assert.deepEqual(afterClick(steps, [], 'e4'), { sel: ['e4'] });
  assert.deepEqual([...clickTargets(steps, ['e4']).next].sort(), ['d4', 'e5']);
  assert.deepEqual(afterClick(steps, ['e4'], 'e5'), { submit: 'e4-e5' });
  assert.deepEqual(afterClick(steps, ['e4'], 'c3'), { sel: ['c3'] });
});

test('a capture completes itself once one route is left', () => {
  assert.deepEqual(afterClick(captures, ['e4'], 'c4'), { sel: ['e4', 'c4'] });
  assert.deepEqual(afterClick(captures, ['e4'], 'e6'), { submit: 'e4xe6xc6xc4' });
});

test('a step dragged to its target plays it', () => {
  assert.deepEqual(afterDrop(steps, 'e4', 'd4'), { submit: 'e4-d4' });
  assert.deepEqual(afterDrop(steps, 'e4', 'i5'), { sel: [] });
});

test('a capture dragged to its landing plays it when one route ends there, else waits for clicks', () => {
  assert.deepEqual(afterDrop(captures, 'e4', 'e6'), { submit: 'e4xc4xc6xe6' });
  const two = afterDrop(captures, 'e4', 'c4');
  assert.deepEqual(two, { sel: ['e4'] });
  // dropped on a square on the way: as if clicked there
  assert.deepEqual(afterDrop(captures, 'e4', 'c4').sel[0], 'e4');
});

test('a premove is played when exactly one legal move fits, else cancelled', () => {
  assert.equal(matchPremove(steps, { from: 'e4', to: 'e5' }), 'e4-e5');
  assert.equal(matchPremove(steps, { from: 'e4', to: 'e6' }), null);
  assert.equal(matchPremove(entries, { from: null, to: 'b5' }), 'b5');
  assert.equal(matchPremove(captures, { from: 'e4', to: 'c4' }), null, 'two routes: not guessed');
  assert.equal(matchPremove(steps, { text: 'C3-C4' }), 'c3-c4');
  assert.equal(matchPremove(steps, null), null);
});
