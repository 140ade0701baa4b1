// The analysis board's move tree: play, variations, promote, delete, and the record's tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newTree, nodeAt, mainPath, play, promote, remove, movesTo, step, recordMoves, layout } from '../../assets/js/analysis-tree.mjs';

const game = () => newTree('W:12:12', ['d3', 'f7', 'c4'], ['B:11:12:d3=W', 'W:11:11:d3=W,f7=B', 'B:10:11:c4=W,d3=W,f7=B']);

test('a main line from a game; the path of a ply; stepping along it', () => {
  const root = game();
  assert.deepEqual(mainPath(root, 2), [0, 0]);
  assert.deepEqual(movesTo(root, [0, 0, 0]), ['d3', 'f7', 'c4']);
  assert.equal(nodeAt(root, [0, 0]).after, 'W:11:11:d3=W,f7=B');
  assert.deepEqual(step(root, [0], 'next'), [0, 0]);
  assert.deepEqual(step(root, [0], 'last'), [0, 0, 0]);
  assert.deepEqual(step(root, [0, 0], 'back'), [0]);
  assert.deepEqual(step(root, [0, 0], 'first'), []);
});

test('a different move makes a variation, the same move follows the line; promote and delete', () => {
  const root = game();
  assert.deepEqual(play(root, [0], 'f7', 'x'), [0, 0]);
  const v = play(root, [0], 'a5', 'B-after-a5');
  assert.deepEqual(v, [0, 1]);
  const deeper = play(root, v, 'e2', 'after-e2');
  assert.deepEqual(deeper, [0, 1, 0]);
  assert.deepEqual(movesTo(root, deeper), ['d3', 'a5', 'e2']);
  assert.deepEqual(recordMoves(root), [
    { move: 'd3', variations: [] },
    { move: 'f7', variations: [[{ move: 'a5', variations: [] }, { move: 'e2', variations: [] }]] },
    { move: 'c4', variations: [] },
  ]);
  const items = layout(root).filter((i) => i.move).map((i) => `${i.number || ''}${i.move}`);
  assert.deepEqual(items, ['1.d3', 'f7', '1…a5', '2.e2', '2.c4']);
  const promoted = promote(root, deeper);
  assert.deepEqual(promoted, [0, 0, 0]);
  assert.deepEqual(movesTo(root, [0, 0, 0]), ['d3', 'a5', 'e2']);
  assert.equal(nodeAt(root, [0, 1]).move, 'f7');
  assert.deepEqual(remove(root, [0, 1]), [0]);
  assert.equal(nodeAt(root, [0]).children.length, 1);
});
