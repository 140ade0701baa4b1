// Which buttons a seat sees under a game (game/actions.mjs), from the server's view alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seatActions, rematchByOffer } from '../../assets/js/game/actions.mjs';

/** A view with the fields the rules read; `over` changes some. */
function view(over = {}) {
  return {
    mode: 'human',
    status: 'ongoing',
    reason: null,
    ply: 2,
    turn: 'white',
    boards: [{ turn: 'white' }, { turn: 'black' }, { turn: 'white' }],
    white: { kind: 'human', joined: true },
    black: { kind: 'human', joined: true },
    draw_offer: null,
    takebacks: true,
    takeback_offer: null,
    takeback_declined: null,
    can_abort: false,
    rematch_offer: null,
    rematch_game: null,
    engine_thinking: false,
    ...over,
  };
}

/** The ids of the buttons shown. */
const shown = (a) => Object.keys(a).filter((id) => a[id].show).sort();

test('a player of a game between people sees draw, resign and takeback; a spectator only Analyse', () => {
  assert.deepEqual(shown(seatActions(view(), 'white', 'tok')), ['draw-offer', 'move-form', 'resign', 'takeback-ask']);
  assert.deepEqual(shown(seatActions(view(), null, null)), ['analyse']);
});

test('against the engine: take back, hint and resign; the hint waits for our turn and the engine', () => {
  const g = view({ mode: 'engine', black: { kind: 'engine', joined: true } });
  const a = seatActions(g, 'white', 'tok');
  assert.deepEqual(shown(a), ['hint', 'move-form', 'resign', 'takeback']);
  assert.equal(a.hint.disabled, false);
  assert.equal(seatActions({ ...g, engine_thinking: true }, 'white', 'tok').hint.disabled, true);
  assert.equal(seatActions({ ...g, turn: 'black' }, 'white', 'tok').hint.disabled, true);
  assert.equal(seatActions({ ...g, ply: 0 }, 'white', 'tok').takeback.disabled, true);
});

test('take back after a game lost on the board, not after a resignation', () => {
  const g = view({ mode: 'engine', status: 'finished', black: { kind: 'engine', joined: true } });
  assert.equal(seatActions({ ...g, reason: 'no men' }, 'white', 'tok').takeback.show, true);
  assert.equal(seatActions({ ...g, reason: 'resignation' }, 'white', 'tok').takeback.show, false);
});

test('a draw offered: the offerer sees it offered, the other side accepts or declines', () => {
  const g = view({ draw_offer: 'white' });
  const mine = seatActions(g, 'white', 'tok');
  assert.equal(mine['draw-offer'].show, true);
  assert.equal(mine['draw-offer'].disabled, true);
  assert.equal(mine['draw-offer'].label, 'act.drawOffered');
  assert.equal(mine['draw-accept'].show, false);
  const theirs = seatActions(g, 'black', 'tok');
  assert.equal(theirs['draw-offer'].show, false);
  assert.equal(theirs['draw-accept'].show, true);
  assert.equal(theirs['draw-decline'].show, true);
  assert.equal(seatActions(view(), 'white', 'tok')['draw-offer'].label, 'act.offerDraw');
});

test('Abort stands instead of Resign while the server allows it', () => {
  const a = seatActions(view({ can_abort: true, ply: 1 }), 'white', 'tok');
  assert.equal(a.abort.show, true);
  assert.equal(a.resign.show, false);
  assert.equal(seatActions(view({ can_abort: true }), null, null).abort.show, false);
});

test('a takeback request: asked once, answered by the other side, not before the seat has moved', () => {
  const asked = view({ takeback_offer: 'white' });
  const mine = seatActions(asked, 'white', 'tok')['takeback-ask'];
  assert.deepEqual([mine.show, mine.disabled, mine.label], [true, true, 'act.takebackAsked']);
  const theirs = seatActions(asked, 'black', 'tok');
  assert.deepEqual([theirs['takeback-ask'].show, theirs['takeback-accept'].show, theirs['takeback-decline'].show], [false, true, true]);
  assert.equal(seatActions(view({ takeback_declined: 'white' }), 'white', 'tok')['takeback-ask'].disabled, true);
  // Black has made no move yet at ply 1 (only White's board precedes it)
  assert.equal(seatActions(view({ ply: 1, turn: 'black' }), 'black', 'tok')['takeback-ask'].disabled, true);
  assert.equal(seatActions(view({ ply: 0 }), 'white', 'tok')['takeback-ask'].show, false);
  assert.equal(seatActions(view({ takebacks: false }), 'white', 'tok')['takeback-ask'].show, false);
});

test('a finished game between people: the rematch is offered, then accepted or declined, then opened', () => {
  const over = view({ status: 'finished', reason: 'resignation' });
  assert.equal(rematchByOffer(over), true);
  assert.deepEqual(shown(seatActions(over, 'white', 'tok')), ['analyse', 'rematch', 'same-again']);
  const offered = { ...over, rematch_offer: 'white' };
  const mine = seatActions(offered, 'white', 'tok').rematch;
  assert.deepEqual([mine.show, mine.disabled, mine.label], [true, true, 'act.rematchOffered']);
  assert.deepEqual(shown(seatActions(offered, 'black', 'tok')), ['analyse', 'rematch-accept', 'rematch-decline', 'same-again']);
  const made = { ...offered, rematch_game: 'abc' };
  assert.deepEqual(shown(seatActions(made, 'black', 'tok')), ['analyse', 'rematch-go', 'same-again']);
  assert.deepEqual(shown(seatActions(made, null, null)), ['analyse', 'rematch-go']);
});

test('against the engine the rematch is a new game at once (no offer)', () => {
  const g = view({ mode: 'engine', status: 'finished', black: { kind: 'engine', joined: true } });
  assert.equal(rematchByOffer(g), false);
  const a = seatActions({ ...g, rematch_offer: 'white' }, 'white', 'tok').rematch;
  assert.deepEqual([a.show, a.disabled, a.label], [true, false, 'act.rematch']);
});

test('an imported game has no resignation and no rematch', () => {
  const g = view({ mode: 'imported', white: { kind: 'human', joined: false }, black: { kind: 'human', joined: false } });
  assert.deepEqual(shown(seatActions(g, 'white', 'tok')), ['move-form']);
  assert.deepEqual(shown(seatActions({ ...g, status: 'finished' }, 'white', 'tok')), ['analyse']);
});

test('the invitation links show while the friend has not come, and draws wait for both seats', () => {
  const g = view({ black: { kind: 'human', joined: false } });
  const a = seatActions(g, 'white', 'tok');
  assert.equal(a['invite-box'].show, true);
  assert.equal(a['draw-offer'].show, false);
  assert.equal(a['takeback-ask'].show, false);
  assert.equal(seatActions(view(), 'white', 'tok')['invite-box'].show, false);
});

test('issue 23: an arena game shows Berserk to a seat the server says may, and the way back to its tournament', () => {
  const tournament = (white, black) => ({ id: 'T1', arena: true, berserk: { white: false, black: false }, can_berserk: { white, black } });
  const g = view({ ply: 0, tournament: tournament(true, false) });
  assert.equal(seatActions(g, 'white', 'tok').berserk.show, true);
  assert.equal(seatActions(g, 'black', 'tok').berserk.show, false, 'the server said no for Black');
  assert.equal(seatActions(g, null, null).berserk.show, false, 'a spectator');
  assert.equal(seatActions(g, null, null)['to-tournament'].show, true);
  assert.equal(seatActions(view({ status: 'finished', tournament: tournament(true, true) }), 'white', 'tok').berserk.show, false);
  const casual = seatActions(view(), 'white', 'tok');
  assert.equal(casual.berserk.show, false);
  assert.equal(casual['to-tournament'].show, false);
});
