// Events said in words (issue 9, defect 3): what changed between two states of a game.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { events, resultWords } from '../../assets/js/events.mjs';

function view(over = {}) {
  return {
    id: 'g', ply: 2, status: 'ongoing', turn: 'white', result: null, reason: null, draw_offer: null,
    white: { kind: 'human', joined: true }, black: { kind: 'human', joined: true },
    history: [{ move: 'd3', passed: ['d3'], captured: [] }, { move: 'a5', passed: ['a5'], captured: [] }],
    boards: [{ turn: 'white' }, { turn: 'black' }, { turn: 'white' }],
    ...over,
  };
}
const keys = (evs) => evs.map((e) => e.key);

test("the opponent's move is said and sounded; a capture has its own sound", () => {
  const old = view({ ply: 1, history: [{ move: 'd3', passed: ['d3'], captured: [] }] });
  const evs = events(old, view(), 'white');
  assert.deepEqual(keys(evs), ['ev.moved']);
  assert.equal(evs[0].params.color, 'black');
  assert.equal(evs[0].sound, 'move');
  const cap = view({ history: [old.history[0], { move: 'e4xc4', passed: ['e4', 'c4'], captured: ['d4'] }] });
  assert.equal(events(old, cap, 'white')[0].sound, 'capture');
});

test('a draw offer, and its refusal told to the offerer', () => {
  const offered = view({ draw_offer: 'white' });
  assert.deepEqual(keys(events(view(), offered, 'black')), ['ev.drawOffered']);
  assert.deepEqual(keys(events(view(), offered, 'white')), ['ev.drawOfferSent']);
  assert.deepEqual(keys(events(offered, view(), 'white')), ['ev.yourOfferDeclined']);
  assert.deepEqual(keys(events(offered, view(), 'black')), ['ev.youDeclined']);
  assert.deepEqual(keys(events(offered, view(), null)), ['ev.drawDeclined']);
});

test('an opponent joining, a takeback', () => {
  const waiting = view({ black: { kind: 'human', joined: false } });
  assert.deepEqual(keys(events(waiting, view(), 'white')), ['ev.opponentJoined']);
  const back = view({ ply: 0, history: [], boards: [{ turn: 'white' }] });
  assert.deepEqual(keys(events(view(), back, 'white')), ['ev.takeback']);
});

test('the result from the reader\'s side, with its reason', () => {
  const won = view({ status: 'finished', result: '1-0', reason: 'no pieces', turn: 'black' });
  assert.deepEqual(resultWords(won, 'white').head, { key: 'result.youWon' });
  assert.deepEqual(resultWords(won, 'black').head, { key: 'result.youLost' });
  assert.deepEqual(resultWords(won, null).head, { key: 'result.wins', params: { color: 'white' } });
  assert.deepEqual(resultWords(won, 'white').why, { key: 'reason.noPieces', params: { color: 'black' } });
  const end = events(view(), won, 'white');
  assert.deepEqual(keys(end), ['ev.end']);
  assert.equal(end[0].sound, 'end');
  const resigned = view({ status: 'finished', result: '0-1', reason: 'resignation' });
  assert.deepEqual(resultWords(resigned, 'black').why, { key: 'reason.resignation', params: { color: 'white' } });
});

test('a rematch offer between people: told to the other side, its refusal to the offerer, its acceptance to all', () => {
  const over = view({ status: 'finished', result: '1-0', reason: 'resignation', rematch_offer: null, rematch_game: null });
  const offered = { ...over, rematch_offer: 'black' };
  assert.deepEqual(keys(events(over, offered, 'white')), ['ev.rematchOffered']);
  assert.deepEqual(keys(events(over, offered, 'black')), ['ev.rematchOfferSent']);
  assert.deepEqual(keys(events(offered, over, 'black')), ['ev.yourRematchDeclined']);
  assert.deepEqual(keys(events(offered, over, 'white')), ['ev.youDeclinedRematch']);
  assert.deepEqual(keys(events(offered, over, null)), ['ev.rematchDeclined']);
  const made = { ...offered, rematch_game: 'NEW' };
  assert.deepEqual(keys(events(offered, made, 'black')), ['ev.rematchAccepted']);
  assert.deepEqual(keys(events(made, made, 'black')), []);
});

test('a loss on time names who ran out; an aborted game has its own headline', () => {
  const lost = view({ status: 'finished', result: '0-1', reason: 'time', turn: 'white' });
  const { head, why } = resultWords(lost, 'white');
  assert.equal(head.key, 'result.youLost');
  assert.deepEqual(why, { key: 'reason.time', params: { color: 'white' } });
  const aborted = resultWords(view({ status: 'finished', result: null, reason: 'aborted' }), 'black');
  assert.equal(aborted.head.key, 'result.aborted');
  assert.equal(aborted.why.key, 'reason.aborted');
  assert.deepEqual(keys(events(view(), lost, 'black')), ['ev.end']);
});

test('issue 18: a takeback asked for between people is said and sounded; declined, withdrawn, accepted', () => {
  const human = (over = {}) => view({ mode: 'human', takeback_offer: null, takeback_declined: null, ...over });
  const asked = human({ takeback_offer: 'black' });
  const told = events(human(), asked, 'white');
  assert.deepEqual(keys(told), ['ev.takebackOffered']);
  assert.equal(told[0].sound, 'offer');
  assert.deepEqual(keys(events(human(), asked, 'black')), ['ev.takebackAsked']);
  const declined = human({ takeback_declined: 'black' });
  assert.deepEqual(keys(events(asked, declined, 'black')), ['ev.yourTakebackDeclined']);
  assert.deepEqual(keys(events(asked, declined, 'white')), ['ev.youDeclinedTakeback']);
  assert.deepEqual(keys(events(asked, declined, null)), ['ev.takebackDeclined']);
  assert.deepEqual(keys(events(asked, human(), 'white')), ['ev.takebackCancelled']);
  // accepted: Black's move and White's reply go, Black is to move again
  const back = human({ ply: 1, turn: 'black', history: [asked.history[0]], boards: asked.boards.slice(0, 2) });
  const accepted = events(asked, back, 'black');
  assert.deepEqual(keys(accepted), ['ev.takebackAccepted']);
  assert.equal(accepted[0].params.color, 'black');
});
