// The game page's state rules (game/state.mjs) and premoves (game/premove.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { atLatest, canMove, canPremove } from '../../assets/js/game/state.mjs';
import { premoveNow, premoveWords } from '../../assets/js/game/premove.mjs';

const game = (over = {}) => ({
  status: 'ongoing',
  ply: 4,
  turn: 'white',
  waiting_for: null,
  engine_thinking: false,
  white: { joined: true },
  black: { joined: true },
  ...over,
});
const state = (over = {}) => ({ game: game(), seat: 'white', token: 'tok', viewPly: 4, busy: false, ...over });

test('the seat moves on its turn, at the latest ply, with nothing pending', () => {
  assert.equal(canMove(state()), true);
  assert.equal(atLatest(state()), true);
  assert.equal(canMove(state({ viewPly: 3 })), false, 'stepped back');
  assert.equal(atLatest(state({ viewPly: 3 })), false);
  assert.equal(canMove(state({ busy: true })), false, 'a move being sent');
  assert.equal(canMove(state({ seat: 'black' })), false, 'the other side to move');
  assert.equal(canMove(state({ token: null, seat: null })), false, 'a spectator');
  assert.equal(canMove(state({ game: game({ engine_thinking: true }) })), false);
  assert.equal(canMove(state({ game: game({ waiting_for: 'black' }) })), false, 'a timed game waiting for a seat');
  assert.equal(canMove(state({ game: game({ status: 'finished' }) })), false);
  assert.equal(canMove(state({ game: null })), false);
  assert.equal(atLatest(state({ game: null })), false);
});

test('a premove is entered while the other side, which has joined, is to move', () => {
  assert.equal(canPremove(state({ seat: 'black' })), true);
  assert.equal(canPremove(state()), false, 'our own turn');
  assert.equal(canPremove(state({ seat: 'black', viewPly: 2 })), false, 'stepped back');
  assert.equal(canPremove(state({ seat: 'white', game: game({ turn: 'black', black: { joined: false } }) })), false, 'nobody there yet');
  assert.equal(canPremove(state({ seat: 'black', token: null })), false);
  assert.equal(canPremove(state({ seat: 'black', game: game({ status: 'finished' }) })), false);
});

const legal = ['e4-e5', 'e4-d4', 'c3-c4', 'e4xc4xc6', 'e4xe6xc6'].map((move) => ({ move, passed: move.split(/[-x]/), captured: [] }));

test('the pending premove waits for the turn, then is played when one move fits, else cancelled', () => {
  assert.equal(premoveNow({ from: 'e4', to: 'e5' }, legal, false), null, 'not our turn yet');
  assert.equal(premoveNow(null, legal, true), null, 'none');
  assert.deepEqual(premoveNow({ from: 'e4', to: 'e5' }, legal, true), { move: 'e4-e5' });
  assert.deepEqual(premoveNow({ text: 'C3-C4' }, legal, true), { move: 'c3-c4' });
  assert.deepEqual(premoveNow({ from: 'e4', to: 'c6' }, legal, true), { cancelled: true }, 'two capture routes end on c6');
  assert.deepEqual(premoveNow({ from: null, to: 'd3' }, legal, true), { cancelled: true }, 'no entry now');
});

test('a premove in the status line', () => {
  assert.equal(premoveWords({ from: 'e4', to: 'e5' }, null), 'e4–e5');
  assert.equal(premoveWords({ from: null, to: 'd3' }, null), 'd3');
  assert.equal(premoveWords({ text: 'E4-E5' }, null), 'E4-E5');
  assert.equal(premoveWords(null, 'e4'), 'e4…');
  assert.equal(premoveWords(null, null), null);
});
