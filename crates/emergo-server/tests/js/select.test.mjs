// Clicks, drags and premoves matched against the server's legal moves (no rule in the page).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickTargets, afterClick, afterDrop, matchPremove, afterPremoveClick, premoveSquares } from '../../assets/js/board/select.mjs';

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

test('the marks: entries only before a start, starts of steps and captures, no next square before one', () => {
  const all = [...entries, ...steps, ...captures];
  const none = clickTargets(all, []);
  assert.deepEqual([...none.starts].sort(), ['c3', 'e4']);
  assert.deepEqual([...none.next], []);
  const begun = clickTargets(all, ['e4']);
  assert.deepEqual([...begun.entries], [], 'no entry once a start is chosen');
  assert.deepEqual([...begun.next].sort(), ['c4', 'd4', 'e5', 'e6']);
  assert.deepEqual([...clickTargets(captures, ['e4', 'c4']).next], ['c6']);
  assert.deepEqual(clickTargets([], []), { entries: new Set(), starts: new Set(), next: new Set() });
});

test('a click on the chosen start again, or off the routes, clears; another start changes the choice', () => {
  assert.deepEqual(afterClick(steps, ['e4'], 'e4'), { sel: [] });
  assert.deepEqual(afterClick(steps, ['e4'], 'i5'), { sel: [] });
  assert.deepEqual(afterClick(steps, ['e4'], 'c3'), { sel: ['c3'] });
  assert.deepEqual(afterClick(captures, ['e4', 'c4'], 'i5'), { sel: [] });
  assert.deepEqual(afterClick(captures, ['e4', 'c4'], 'c6'), { sel: ['e4', 'c4', 'c6'] }, 'two routes go on from c6');
  assert.deepEqual(afterClick(captures, ['e4', 'c4', 'c6'], 'e6'), { sel: ['e4', 'c4', 'c6', 'e6'] }, 'one ends on e6, one goes on');
  assert.deepEqual(afterClick(captures, ['e4', 'c4', 'c6', 'e6'], 'e4'), { submit: 'e4xc4xc6xe6xe4xc4' });
  assert.deepEqual(afterClick([], [], 'e4'), { sel: [] }, 'no legal move: nothing is chosen');
});

test('a drop on its own square chooses it; two routes ending where it is dropped keep what they share', () => {
  assert.deepEqual(afterDrop(steps, 'e4', 'e4'), { sel: ['e4'] });
  const forks = ['e4xc4xc6xe6', 'e4xc4xe2xe6'].map(mv);
  assert.deepEqual(afterDrop(forks, 'e4', 'e6'), { sel: ['e4', 'c4'] });
});

test('a drop on a square on the way, where no route ends, is as if clicked there', () => {
  const long = ['e4xe6xe8', 'e4xe6xg6'].map(mv);
  assert.deepEqual(afterDrop(long, 'e4', 'e6'), { sel: ['e4', 'e6'] });
  const one = ['e4xe6xe8'].map(mv);
  assert.deepEqual(afterDrop(one, 'e4', 'e6'), { submit: 'e4xe6xe8' }, 'one route left: played');
  assert.deepEqual(afterDrop(long, 'e4', 'c4'), { sel: [] });
});

// The other side is to move; White has e4, Black d5, two White men in hand.
const waiting = { turn: 'black', hand: { white: 2, black: 0 }, columns: { e4: { owner: 'white', men: 1, prisoners: 0 }, d5: { owner: 'black', men: 1, prisoners: 0 } } };

test('a premove is entered by clicks: your column then a square, or an empty square with men in hand', () => {
  assert.deepEqual(afterPremoveClick(waiting, 'white', null, 'e4'), { start: 'e4', pre: null });
  assert.deepEqual(afterPremoveClick(waiting, 'white', 'e4', 'e5'), { start: null, pre: { from: 'e4', to: 'e5' } });
  assert.deepEqual(afterPremoveClick(waiting, 'white', 'e4', 'd5'), { start: null, pre: { from: 'e4', to: 'd5' } }, 'onto a column (a capture)');
  assert.deepEqual(afterPremoveClick(waiting, 'white', 'e4', 'e4'), { start: null, pre: null }, 'the start again clears');
  assert.deepEqual(afterPremoveClick(waiting, 'white', null, 'b4'), { start: null, pre: { from: null, to: 'b4' } }, 'an entry');
  assert.deepEqual(afterPremoveClick(waiting, 'white', null, 'd5'), { start: null, pre: null }, "the other side's column");
  assert.deepEqual(afterPremoveClick({ ...waiting, hand: { white: 0, black: 0 } }, 'white', null, 'b4'), { start: null, pre: null }, 'no man in hand');
});

test('the squares a premove marks', () => {
  assert.deepEqual(premoveSquares({ from: 'e4', to: 'e5' }), ['e4', 'e5']);
  assert.deepEqual(premoveSquares({ from: null, to: 'b4' }), ['b4']);
  assert.deepEqual(premoveSquares({ text: 'e4-e5' }), []);
});
