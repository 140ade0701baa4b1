// The opening explorer's panel (issue 22): its request, the share of each result, the rows of
// the move table and what its note says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explorerPath, shares, moveRows, noteKey, bookText } from '../../assets/js/analysis-explorer.mjs';

const answer = {
  position: 'W:12:12',
  white: 6, draws: 1, black: 3, average_rating: 1600,
  moves: [
    { move: 'd3', white: 4, draws: 0, black: 2, average_rating: 1650 },
    { move: 'a5', white: 1, draws: 1, black: 0, average_rating: null },
  ],
  games: [], indexed_plies: 60, past_indexed_plies: false,
};

test('the request names the position, the ply when known, and the filters chosen', () => {
  assert.equal(explorerPath('W:12:12', 0, {}), '/api/explorer?position=W%3A12%3A12&ply=0');
  assert.equal(explorerPath('B:11:12:d3=W', null, { source: 'rated', speed: '', ratings: '1600' }),
    '/api/explorer?position=B%3A11%3A12%3Ad3%3DW&source=rated&ratings=1600');
});

test('the request names the board when it is not the 9×9 one (the server\'s default)', () => {
  assert.equal(explorerPath('W:12:12', 0, {}, 'hex'), '/api/explorer?variant=hex&position=W%3A12%3A12&ply=0');
  assert.equal(explorerPath('W:8:8', null, { source: 'casual' }, '7x7'),
    '/api/explorer?variant=7x7&position=W%3A8%3A8&source=casual');
  assert.equal(explorerPath('W:12:12', 3, {}, 'emergo'), '/api/explorer?position=W%3A12%3A12&ply=3');
});

test('shares are of the games counted, none without games', () => {
  assert.deepEqual(shares({ white: 2, draws: 1, black: 1 }), { total: 4, white: 50, draws: 25, black: 25 });
  assert.deepEqual(shares({ white: 1, draws: 1, black: 1 }), { total: 3, white: 33.3, draws: 33.3, black: 33.3 });
  assert.deepEqual(shares({ white: 0, draws: 0, black: 0 }), { total: 0, white: 0, draws: 0, black: 0 });
});

test('each move row has its games, its share of the position and its results', () => {
  const rows = moveRows(answer);
  assert.deepEqual(rows.map((r) => [r.move, r.games, r.played]), [['d3', 6, 60], ['a5', 2, 20]]);
  assert.equal(rows[0].white, 66.7);
  assert.equal(rows[1].average, null);
});

test('the book column: a played move keeps its book score, the book\'s unplayed moves follow, scores from White\'s side', () => {
  const booked = { ...answer, book: [{ move: 'g5', score: 51 }, { move: 'd3', score: 40 }] };
  const rows = moveRows(booked);
  assert.deepEqual(rows.map((r) => [r.move, r.games, r.book]), [['d3', 6, 40], ['a5', 2, null], ['g5', 0, 51]]);
  assert.equal(bookText(51), '+0.51');
  assert.equal(bookText(null), '–');
  // Black to move: the book's score is Black's, the column White's.
  const black = { ...answer, position: 'B:11:12:d3=W', moves: [], book: [{ move: 'f7', score: 35 }] };
  assert.deepEqual(moveRows(black).map((r) => [r.move, r.book]), [['f7', -35]]);
  assert.equal(bookText(-35), '−0.35');
  // An answer without the list (an older server) has no book column values.
  assert.deepEqual(moveRows(answer).map((r) => r.book), [null, null]);
});

test('the note says past the index, no game, or that positions merge', () => {
  assert.equal(noteKey(answer), 'ex.transpositions');
  const none = { ...answer, white: 0, draws: 0, black: 0, moves: [] };
  assert.equal(noteKey(none), 'ex.none');
  assert.equal(noteKey({ ...none, past_indexed_plies: true }), 'ex.past');
});
