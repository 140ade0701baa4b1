// Paged game views joined to the one the page holds (WebSocket catch-up).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeView } from '../../assets/js/paging.mjs';

function view(moves, from = 0) {
  const positions = ['P0', ...moves.map((m, i) => `P${i + 1}${m}`)];
  return {
    id: 'g', ply: moves.length, from,
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
