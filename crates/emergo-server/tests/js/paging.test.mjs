// Paged game views and deltas joined to the one the page holds (docs/api.md, `from`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeView, takeState } from '../../assets/js/paging.mjs';

function view(moves, from = 0, version = moves.length) {
  const positions = ['P0', ...moves.map((m, i) => `P${i + 1}${m}`)];
  return {
    id: 'g', ply: moves.length, from, version,
    moves: moves.slice(from), history: moves.slice(from).map((m) => ({ move: m })),
    positions: positions.slice(from), boards: positions.slice(from).map((p) => ({ p })),
  };
}

test('a paged view joins the held one when it starts in the same game', () => {
  const old = view(['d3', 'a5']);
  const merged = mergeView(old, view(['d3', 'a5', 'f2'], 2));
  assert.deepEqual(merged, view(['d3', 'a5', 'f2']));
  assert.deepEqual(mergeView(old, view(['d3'], 1)), view(['d3']), 'a takeback');
  const whole = view(['e1']);
  assert.equal(mergeView(old, whole), whole, 'a whole view is taken as it is');
});

test('a paged view of another history, or beyond what is held, asks for the whole view', () => {
  const old = view(['d3', 'a5']);
  assert.equal(mergeView(old, view(['d3', 'b4', 'f2'], 2)), null);
  assert.equal(mergeView(view(['d3']), view(['d3', 'a5', 'f2'], 2)), null);
  assert.equal(mergeView(null, view(['d3', 'a5'], 1)), null);
});

test('deltas, one after another, build the whole game', () => {
  const moves = ['d3', 'a5', 'f2', 'b6', 'c3'];
  let held = view([]);
  for (let ply = 1; ply <= moves.length; ply++) {
    // A move's delta: the view paged from the ply before it.
    const taken = takeState(held, view(moves.slice(0, ply), ply - 1));
    assert.ok(taken.game, `ply ${ply}`);
    held = taken.game;
  }
  assert.deepEqual(held, view(moves));
  // A change that adds no ply (a draw offer): the delta from the ply itself.
  const offer = { ...view(moves, 5, 6), draw_offer: 'white' };
  assert.equal(takeState(held, offer).game.draw_offer, 'white');
  assert.deepEqual(takeState(held, offer).game.moves, moves);
});

test('a client that misses a delta re-reads from the ply it holds, and then whole', () => {
  const held = view(['d3', 'a5']);
  // The delta of ply 4 arrives, that of ply 3 was missed.
  const late = view(['d3', 'a5', 'f2', 'b6'], 3);
  assert.deepEqual(takeState(held, late), { ask: 2 });
  // The re-read from ply 2 joins.
  const reread = view(['d3', 'a5', 'f2', 'b6'], 2);
  assert.deepEqual(takeState(held, reread, true).game, view(['d3', 'a5', 'f2', 'b6']));
  // A re-read of another history (a takeback then other moves) asks for the whole view.
  const other = view(['d3', 'b4', 'f2'], 2);
  assert.deepEqual(takeState(held, other), { ask: 2 });
  assert.deepEqual(takeState(held, other, true), { ask: 0 });
  // Nothing held, or another game: the whole view.
  assert.deepEqual(takeState(null, late), { ask: 0 });
  assert.deepEqual(takeState({ ...held, id: 'h' }, late), { ask: 0 });
});

test('a state older than the one held (a late answer) is left aside', () => {
  const held = view(['d3', 'a5', 'f2']);
  assert.deepEqual(takeState(held, view(['d3', 'a5'], 1)), {});
  assert.deepEqual(takeState(held, view(['d3', 'a5'])), {});
  // Of the same version (the engine starts thinking): taken.
  const thinking = { ...view(['d3', 'a5', 'f2'], 3), engine_thinking: true };
  assert.equal(takeState(held, thinking).game.engine_thinking, true);
});
