// Game review on the page: the evaluation graph's points and the counts of marked moves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { graphPoints, plyAt, counts, GRAPH_W, GRAPH_H } from '../../assets/js/review.mjs';

const review = {
  start_score: 0,
  plies: [
    { move: 'd3', score: 40, class: 'best' },
    { move: 'a5', score: 300, class: 'mistake' },
    { move: 'f2', score: -2000, class: 'blunder' },
    { move: 'b6', score: -1000, class: 'inaccuracy' },
  ],
};

test('the graph has a point per position, White up, capped at five men', () => {
  const pts = graphPoints(review);
  assert.equal(pts.length, 5);
  assert.deepEqual(pts[0], { x: 0, y: GRAPH_H / 2, ply: 0 });
  assert.equal(pts[4].x, GRAPH_W);
  assert.ok(pts[2].y < GRAPH_H / 2, 'White better: above the middle');
  assert.equal(pts[3].y, GRAPH_H, 'beyond five men: the bottom edge');
});

test('a click on the graph goes to the nearest ply', () => {
  assert.equal(plyAt(0, 4), 0);
  assert.equal(plyAt(GRAPH_W, 4), 4);
  assert.equal(plyAt(GRAPH_W * 0.49, 4), 2);
  assert.equal(plyAt(-10, 4), 0);
});

test('marked moves are counted for the side that made them', () => {
  const boards = [{ turn: 'white' }, { turn: 'black' }, { turn: 'white' }, { turn: 'black' }, { turn: 'white' }];
  assert.deepEqual(counts(review, 'white', boards), { inaccuracy: 0, mistake: 0, blunder: 1 });
  assert.deepEqual(counts(review, 'black', boards), { inaccuracy: 1, mistake: 1, blunder: 0 });
});
