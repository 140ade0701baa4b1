// The board editor's set-up: stacks built a man at a time, written as position text (N2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addMan, removeMan, setupText } from '../../assets/js/setup.mjs';

test('r3 a column of three White over two Black is built by five clicks', () => {
  const columns = {};
  for (const c of ['white', 'white', 'black', 'white', 'black']) addMan(columns, 'c4', c);
  assert.deepEqual(columns.c4, { owner: 'white', men: 3, prisoners: 2 });
  const setup = { turn: 'black', hand: { white: 9, black: 9 }, columns: { ...columns, e5: { owner: 'black', men: 1, prisoners: 0 } } };
  assert.equal(setupText(setup), 'B:9:9:c4=WWWBB,e5=B');
});

test('n2 squares are written in byte order of their names, an empty board has no board field', () => {
  const columns = {};
  addMan(columns, 'i5', 'black');
  addMan(columns, 'a5', 'white');
  addMan(columns, 'e1', 'white');
  assert.equal(setupText({ turn: 'white', hand: { white: 0, black: 11 }, columns }), 'W:0:11:a5=W,e1=W,i5=B');
  assert.equal(setupText({ turn: 'white', hand: { white: 12, black: 12 }, columns: {} }), 'W:12:12');
});

test('removing takes the prisoners first, then the men, then the column', () => {
  const columns = { c4: { owner: 'white', men: 2, prisoners: 1 } };
  removeMan(columns, 'c4');
  assert.deepEqual(columns.c4, { owner: 'white', men: 2, prisoners: 0 });
  removeMan(columns, 'c4');
  removeMan(columns, 'c4');
  assert.equal(columns.c4, undefined);
  removeMan(columns, 'c4');
  assert.equal(columns.c4, undefined);
});
