// Where the board component puts each board's cells (assets/js/board/layout.mjs), from the
// boards as the server lists them (variants.json, which tests/server/study_api.rs checks against
// GET /api/variants): the 9×9 board exactly as it was drawn before the variants, the 7×7
// checkerboard, and the hexagon as RULES-hex.md R1 draws it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { boardLayout, VIEW } from '../../assets/js/board/layout.mjs';

const { variants } = JSON.parse(readFileSync(new URL('./variants.json', import.meta.url)));
const board = (name) => variants.find((v) => v.variant === name);

/* The 9×9 drawing as it was (board/draw.mjs before the variants), to compare with. */
const LETTERS = 'abcdefghi';
const oldXY = (name) => {
  const l = LETTERS.indexOf(name[0]);
  const n = name.charCodeAt(1) - 48;
  return { x: n + l - 4, y: n - l + 4 };
};
const oldName = (x, y) => LETTERS[(x - y) / 2 + 4] + String((x + y) / 2);
function oldCentre(sq, flipped) {
  const p = oldXY(sq);
  let col = p.x - 1;
  let row = 9 - p.y;
  if (flipped) {
    col = 8 - col;
    row = 8 - row;
  }
  return { cx: 50 + col * 100 + 50, cy: 50 + row * 100 + 50 };
}
function oldSquareAt(px, py, flipped) {
  let col = Math.floor((px - 50) / 100);
  let row = Math.floor((py - 50) / 100);
  if (col < 0 || col > 8 || row < 0 || row > 8) return null;
  if (flipped) {
    col = 8 - col;
    row = 8 - row;
  }
  const x = col + 1;
  const y = 9 - row;
  return (x + y) % 2 === 0 ? oldName(x, y) : null;
}
function oldNeighbour(sq, key, flipped) {
  const f = flipped ? -1 : 1;
  const { x, y } = oldXY(sq);
  const tries = { left: [[-2, 0]], right: [[2, 0]], up: [[1, 1], [-1, 1]], down: [[-1, -1], [1, -1]] }[key];
  for (const [dx, dy] of tries) {
    const nx = x + f * dx;
    const ny = y + f * dy;
    if (nx >= 1 && nx <= 9 && ny >= 1 && ny <= 9) return oldName(nx, ny);
  }
  return null;
}
function oldLabels(flipped) {
  const out = [];
  const f = flipped ? -1 : 1;
  const one = (sq, side, text) => {
    const { y } = oldXY(sq);
    const [dx, dy] = y === 1 ? [side * 0.27, 0.75] : [side * 0.75, 0.3];
    const { cx, cy } = oldCentre(sq, flipped);
    out.push({ text, x: Math.round((cx + f * dx * 100) * 10) / 10, y: Math.round((cy + f * dy * 100) * 10) / 10 });
  };
  for (let l = 0; l < 9; l++) one(LETTERS[l] + (1 + Math.abs(l - 4)), -1, LETTERS[l]);
  for (let n = 1; n <= 9; n++) one(LETTERS[8 - Math.abs(n - 5)] + n, 1, String(n));
  return out;
}
const byText = (a, b) => a.text.localeCompare(b.text);

test('the 9×9 board is drawn where it always was: centres, the square under a point, arrow keys, coordinates', () => {
  const lay = boardLayout(board('emergo'));
  assert.equal(lay.names.length, 41);
  for (const flipped of [false, true]) {
    for (const sq of lay.names) {
      assert.deepEqual(lay.centre(sq, flipped), oldCentre(sq, flipped), `${sq} flipped ${flipped}`);
      for (const key of ['left', 'right', 'up', 'down']) {
        assert.equal(lay.screenNeighbour(sq, key, flipped), oldNeighbour(sq, key, flipped), `${key} of ${sq}, flipped ${flipped}`);
      }
    }
    for (let px = 3; px < VIEW; px += 7) {
      for (let py = 5; py < VIEW; py += 7) {
        assert.equal(lay.squareAt(px, py, flipped), oldSquareAt(px, py, flipped), `(${px}, ${py}) flipped ${flipped}`);
      }
    }
    assert.deepEqual([...lay.labels(flipped)].sort(byText), oldLabels(flipped).sort(byText));
  }
  assert.equal(lay.lightSquares().length, 81 - 41);
  assert.equal(lay.home, 'e5');
});

test('the 7×7 board: 25 dark squares of a checkerboard, d1 bottom-left, a4 top-left, d7 top-right, g4 bottom-right', () => {
  const lay = boardLayout(board('7x7'));
  assert.equal(lay.names.length, 25);
  assert.equal(lay.lightSquares().length, 49 - 25);
  const c = (sq) => lay.centre(sq, false);
  assert.ok(c('d1').cx < c('d4').cx && c('d1').cy > c('d4').cy, 'd1 bottom-left');
  assert.ok(c('a4').cx < 200 && c('a4').cy < 200, 'a4 top-left');
  assert.ok(c('d7').cx > 800 && c('d7').cy < 200, 'd7 top-right');
  assert.ok(c('g4').cx > 800 && c('g4').cy > 800, 'g4 bottom-right');
  assert.deepEqual(c('d4'), { cx: 500, cy: 500 }, 'the centre in the middle');
  for (const sq of lay.names) {
    const { rect } = lay.outline(sq, false);
    assert.ok(rect.x >= 50 && rect.y >= 50 && rect.x + rect.width <= 950.01 && rect.y + rect.height <= 950.01, sq);
    assert.equal(lay.squareAt(c(sq).cx + 20, c(sq).cy - 20, false), sq);
    assert.equal(lay.squareAt(VIEW - c(sq).cx, VIEW - c(sq).cy, true), sq, 'flipped: a half turn');
  }
  // a light square is no square
  assert.equal(lay.squareAt(c('d4').cx + lay.size, c('d4').cy, false), null);
  assert.equal(lay.screenNeighbour('d4', 'up', false), 'd5', 'up-right first');
  assert.equal(lay.screenNeighbour('d4', 'right', false), 'e5');
  for (const l of lay.labels(false)) {
    assert.ok(l.x > 5 && l.x < VIEW - 5 && l.y > 5 && l.y < VIEW - 5, `${l.text} in view`);
    assert.equal(lay.squareAt(l.x, l.y, false), null, `${l.text} off the squares`);
  }
  assert.equal(lay.labels(false).length, 7 + 7);
});

test('the hexagon: 37 cells, row 7 at the top, letters right to left in a row, neighbours side by side, nothing overlapping', () => {
  const lay = boardLayout(board('hex'));
  assert.equal(lay.names.length, 37);
  assert.equal(lay.shape, 'hex');
  const c = (sq) => lay.centre(sq, false);
  assert.deepEqual(c('d4'), { cx: 500, cy: 500 }, 'the centre d4 in the middle');
  const row = (n) => lay.names.filter((s) => s.slice(1) === String(n)).sort((a, b) => c(a).cx - c(b).cx).join(' ');
  assert.equal(row(4), 'g4 f4 e4 d4 c4 b4 a4');
  assert.equal(row(1), 'd1 c1 b1 a1');
  assert.equal(row(7), 'g7 f7 e7 d7');
  assert.ok(c('d7').cy < c('d4').cy && c('d4').cy < c('d1').cy, 'row 7 at the top');
  // a1 a2 a3 a4 from lower left to upper right
  for (const [a, b] of [['a1', 'a2'], ['a2', 'a3'], ['a3', 'a4']]) assert.ok(c(b).cx > c(a).cx && c(b).cy < c(a).cy, `${a} ${b}`);
  // R1's six directions put a cell's neighbours one cell's width away; every other cell is further
  const letterNumber = (s) => [s.charCodeAt(0) - 97, Number(s.slice(1))];
  const adjacent = (a, b) => {
    const [la, na] = letterNumber(a);
    const [lb, nb] = letterNumber(b);
    return [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, -1]].some(([dl, dn]) => la + dl === lb && na + dn === nb);
  };
  let pairs = 0;
  for (const a of lay.names) {
    for (const b of lay.names) {
      if (a >= b) continue;
      const d = Math.hypot(c(a).cx - c(b).cx, c(a).cy - c(b).cy);
      if (adjacent(a, b)) {
        pairs++;
        assert.ok(Math.abs(d - lay.size) < 0.01, `${a} ${b} side by side: ${d}`);
      } else {
        assert.ok(d > lay.size * 1.5, `${a} ${b} apart: ${d}`);
      }
    }
  }
  assert.equal(pairs, 90, 'R1: 90 adjacent pairs');
  for (const sq of lay.names) {
    const pts = lay.outline(sq, false).points.split(' ').map((p) => p.split(',').map(Number));
    assert.equal(pts.length, 6);
    for (const [x, y] of pts) assert.ok(x > 20 && x < VIEW - 20 && y > 20 && y < VIEW - 20, `${sq} in the frame`);
    assert.equal(lay.squareAt(c(sq).cx, c(sq).cy, false), sq);
    assert.equal(lay.squareAt(c(sq).cx + 50, c(sq).cy, false), sq, 'near the flat side, inside');
    assert.equal(lay.squareAt(VIEW - c(sq).cx, VIEW - c(sq).cy, true), sq, 'flipped: a half turn');
  }
  assert.equal(lay.squareAt(30, 30, false), null, 'the corner of the frame');
  // arrow keys: left and right along a row, up to the upper right first
  assert.equal(lay.screenNeighbour('d4', 'right', false), 'c4');
  assert.equal(lay.screenNeighbour('d4', 'left', false), 'e4');
  assert.equal(lay.screenNeighbour('d4', 'up', false), 'd5');
  assert.equal(lay.screenNeighbour('d4', 'down', false), 'd3', 'down-left first');
  assert.equal(lay.screenNeighbour('d4', 'right', true), 'e4', 'flipped');
  assert.equal(lay.screenNeighbour('d7', 'up', false), null);
  // coordinates: one per letter line and per row, in view, on no cell, near the board
  const labels = lay.labels(false);
  assert.deepEqual(labels.map((l) => l.text).sort(), ['1', '2', '3', '4', '5', '6', '7', 'a', 'b', 'c', 'd', 'e', 'f', 'g']);
  for (const l of labels) {
    assert.ok(l.x > 15 && l.x < VIEW - 15 && l.y > 15 && l.y < VIEW - 15, `${l.text} in view`);
    assert.equal(lay.squareAt(l.x, l.y, false), null, `${l.text} on no cell`);
    const nearest = Math.min(...lay.names.map((s) => Math.hypot(c(s).cx - l.x, c(s).cy - l.y)));
    assert.ok(nearest < lay.size, `${l.text} beside its line`);
  }
  const number4 = labels.find((l) => l.text === '4');
  assert.ok(number4.cx === undefined && number4.x > c('a4').cx && Math.abs(number4.y - c('a4').cy) < 1, 'row 4 labelled right of a4');
  assert.equal(lay.lightSquares().length, 0);
  assert.equal(lay.home, 'd4');
});
