// The board component (assets/js/board.mjs) on a few fake DOM elements: what a click reports,
// what it marks, premoves, the editor's squares, flipping and removing its listeners.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeSvg } from './fake-dom.mjs';
import { readFileSync } from 'node:fs';
import { createBoard } from '../../assets/js/board.mjs';
import { setVariants } from '../../assets/js/variants.mjs';

// The boards as the server lists them (GET /api/variants; tests/server/study_api.rs checks it).
setVariants(JSON.parse(readFileSync(new URL('./variants.json', import.meta.url))).variants);

const mv = (move) => ({ move, passed: move.split(/[-x]/), captured: [] });
const col = (owner, men = 1, prisoners = 0) => ({ owner, men, prisoners });
// White to move with e4 on the board and men in hand; Black has d5
const position = { turn: 'white', hand: { white: 2, black: 0 }, columns: { e4: col('white'), d5: col('black') } };
const legal = ['b4', 'd3', 'e4-e5', 'e4-d4'].map(mv);

/** A click on square `sq` of the board drawn in `svg`. */
function click(svg, sq, pointerType = 'mouse') {
  svg.dispatch('click', { target: svg.querySelector(`.hit[data-sq='${sq}']`), pointerType });
}
const marked = (svg, cls) => svg.querySelectorAll(`.${cls}`).map((e) => e.getAttribute('data-mark')).sort();

test('a click on an entry reports the move; a start then a target reports the step', () => {
  const svg = fakeSvg();
  const moves = [];
  const clicks = [];
  let changes = 0;
  const board = createBoard(svg, { board: position, legal, onMove: (m) => moves.push(m), onSelect: (sq, how) => clicks.push(`${sq} ${how}`), onChange: () => changes++ });
  board.set({});
  assert.deepEqual(marked(svg, 'target'), ['b4', 'd3'], 'the entries are marked');
  assert.deepEqual(marked(svg, 'start'), ['e4']);
  click(svg, 'd3');
  assert.deepEqual(moves, ['d3']);
  click(svg, 'e4', 'touch');
  assert.deepEqual(board.state().selected, ['e4']);
  assert.deepEqual(marked(svg, 'target'), ['d4', 'e5'], 'the targets of e4');
  assert.equal(svg.querySelectorAll('.selected').length, 1, 'the start shaded');
  click(svg, 'e5');
  assert.deepEqual(moves, ['d3', 'e4-e5']);
  assert.deepEqual(board.state().selected, []);
  assert.deepEqual(clicks, ['d3 mouse', 'e4 touch', 'e5 mouse']);
  assert.equal(changes, 3);
});

test('nobody may move without legal moves: a click only reports the square', () => {
  const svg = fakeSvg();
  const moves = [];
  const clicks = [];
  const board = createBoard(svg, { board: position, legal: null, onMove: (m) => moves.push(m), onSelect: (sq) => clicks.push(sq) });
  board.set({});
  assert.deepEqual(marked(svg, 'target'), []);
  click(svg, 'e4');
  assert.deepEqual([moves, clicks, board.state().selected], [[], ['e4'], []]);
});

test('premoves: your column then a square, an entry, cleared by cancelPremove; drawn in violet squares', () => {
  const svg = fakeSvg();
  const waiting = { ...position, turn: 'black' };
  const board = createBoard(svg, { board: waiting, premovable: 'white' });
  board.set({});
  click(svg, 'e4');
  assert.equal(board.state().premoveStart, 'e4');
  click(svg, 'e6');
  assert.deepEqual(board.state().premove, { from: 'e4', to: 'e6' });
  assert.deepEqual(svg.querySelectorAll('.premove').map((e) => e.getAttribute('data-sq')), ['e4', 'e6']);
  click(svg, 'b4');
  assert.deepEqual(board.state().premove, { from: null, to: 'b4' }, 'an entry replaces it');
  board.cancelPremove();
  assert.equal(board.state().premove, null);
  assert.equal(svg.querySelectorAll('.premove').length, 0);
  board.setPremove({ text: 'e4-e5' });
  assert.deepEqual(board.state().premove, { text: 'e4-e5' }, 'a typed one');
});

test("the editor's board: every square a button, clicks reported, nothing lifted", () => {
  const svg = fakeSvg();
  const clicks = [];
  const board = createBoard(svg, { edit: true, onSelect: (sq) => clicks.push(sq) });
  board.set({ board: position });
  assert.equal(svg.querySelectorAll('.hit').length, 41);
  assert.equal(svg.querySelectorAll('.hit').filter((h) => h.classList.contains('active')).length, 41);
  click(svg, 'e4');
  assert.deepEqual(clicks, ['e4']);
  assert.deepEqual(board.state().selected, []);
});

test('flip turns the board round; the last move and a hint are drawn; destroy removes the listeners', () => {
  const svg = fakeSvg();
  const moves = [];
  const board = createBoard(svg, { board: position, legal, last: { passed: ['c3', 'c4'], captured: [] }, hint: ['e4', 'e5'], onMove: (m) => moves.push(m) });
  board.set({});
  assert.equal(board.state().orientation, 'white');
  const x = () => Number(svg.querySelector(".hit[data-sq='e1']").getAttribute('x'));
  const before = x();
  board.flip();
  assert.equal(board.state().orientation, 'black');
  assert.equal(x(), 1000 - before - 100, 'e1 went to the other side');
  assert.equal(svg.querySelectorAll('.last').length, 2);
  assert.equal(svg.querySelectorAll('.hint-mark').length, 2);
  board.destroy();
  assert.equal(svg.children.length, 0);
  assert.equal(svg.listeners.length, 0);
});

test('the hexagon and the 7×7 board: their cells drawn and clickable, the same marks, the frame redrawn for a new board', () => {
  const svg = fakeSvg();
  const moves = [];
  const hexLegal = ['c3', 'g7', 'd4-d5', 'd4xf4'].map((m) => ({ move: m, passed: m.split(/[-x]/), captured: m.includes('x') ? ['e4'] : [] }));
  const hexPosition = { turn: 'white', hand: { white: 3, black: 0 }, columns: { d4: col('white'), e4: col('black') } };
  const board = createBoard(svg, { variant: 'hex', board: hexPosition, legal: hexLegal, last: { passed: ['e4'], captured: [] }, onMove: (m) => moves.push(m) });
  board.set({});
  assert.equal(svg.querySelectorAll('.hit').length, 37, '37 cells');
  assert.equal(svg.querySelectorAll('.hit')[0].tagName, 'polygon');
  assert.equal(svg.getAttribute('data-variant'), 'hex');
  assert.equal(svg.querySelectorAll('.sq-light').length, 0);
  assert.deepEqual(marked(svg, 'target'), ['c3', 'g7']);
  assert.deepEqual(marked(svg, 'start'), ['d4']);
  assert.equal(svg.querySelectorAll('.last').length, 1, 'the last move shaded');
  click(svg, 'g7');
  assert.deepEqual(moves, ['g7']);
  click(svg, 'd4');
  assert.deepEqual(marked(svg, 'target'), ['d5', 'f4'], 'the targets of d4');
  assert.equal(svg.querySelectorAll('.selected').length, 1);
  click(svg, 'f4');
  assert.deepEqual(moves, ['g7', 'd4xf4']);
  board.set({ variant: '7x7', board: { turn: 'white', hand: { white: 8, black: 8 }, columns: {} }, legal: [mv('d3')], last: null });
  assert.equal(svg.querySelectorAll('.hit').length, 25, '25 squares');
  assert.equal(svg.querySelectorAll('.sq-light').length, 24);
  assert.equal(svg.getAttribute('data-variant'), '7x7');
  assert.equal(svg.querySelectorAll(".hit[tabindex='0']")[0].getAttribute('data-sq'), 'd4', 'the tab stop on the centre');
  click(svg, 'd3');
  assert.deepEqual(moves, ['g7', 'd4xf4', 'd3']);
});
