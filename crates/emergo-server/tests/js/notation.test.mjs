// Move numbers: one numbering everywhere (issue 9, defect 1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { moveNumber, moveLabel, moveRows, fullMoves } from '../../assets/js/notation.mjs';

test('white starts: plies 1 and 2 are move 1, ply 3 is move 2', () => {
  assert.deepEqual(moveNumber(1, 'white'), { n: 1, color: 'white' });
  assert.deepEqual(moveNumber(2, 'white'), { n: 1, color: 'black' });
  assert.deepEqual(moveNumber(3, 'white'), { n: 2, color: 'white' });
  assert.equal(moveLabel(4, 'white', 'e6'), '2… e6');
  assert.equal(moveLabel(27, 'white', 'd4-e4'), '14. d4-e4');
});

test('black starts: its first move is 1…, then 2. for White', () => {
  assert.equal(moveLabel(1, 'black', 'a5'), '1… a5');
  assert.equal(moveLabel(2, 'black', 'd3'), '2. d3');
  assert.deepEqual(moveRows(3, 'black'), [
    { n: 1, white: null, black: 1 },
    { n: 2, white: 2, black: 3 },
  ]);
});

test('the rows of a game with White to start', () => {
  assert.deepEqual(moveRows(3, 'white'), [
    { n: 1, white: 1, black: 2 },
    { n: 2, white: 3, black: null },
  ]);
  assert.equal(fullMoves(78), 39);
  assert.equal(fullMoves(77), 39);
});
