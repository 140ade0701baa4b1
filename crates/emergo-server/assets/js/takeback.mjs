// Takeback requests and the Abort button in games between people (issue 18; docs/api.md
// "Takebacks between people", "Abort"): the buttons each side sees, from the server's view.
import { $ } from './dom.mjs';
import { t } from './i18n.mjs';

const other = (c) => (c === 'white' ? 'black' : 'white');

/** Shows the takeback and abort buttons of game view `g` for the holder of `seat`. */
export function renderTakeback(g, seat, token) {
  const mine = !!token && !!seat;
  const ongoing = g.status === 'ongoing';
  const people = g.mode === 'human' && mine && ongoing && g.white.joined && g.black.joined;
  const askedOfMe = g.takeback_offer === other(seat);
  const show = (id, on) => ($(`#${id}`).hidden = !on);
  const ask = $('#takeback-ask');
  show('takeback-ask', people && g.takebacks && !askedOfMe && g.ply > 0);
  ask.disabled = g.takeback_offer === seat || g.takeback_declined === seat || !g.boards.slice(0, g.ply).some((b) => b.turn === seat);
  ask.textContent = t(g.takeback_offer === seat ? 'act.takebackAsked' : 'act.askTakeback');
  show('takeback-accept', people && askedOfMe);
  show('takeback-decline', people && askedOfMe);
  // Abort while each side has not moved yet (the server's `can_abort`), instead of Resign.
  show('abort', mine && ongoing && !!g.can_abort);
  if (g.can_abort && mine) $('#resign').hidden = true;
}

/** Wires the buttons; `act(path, body)` posts for the seat and takes the answer. */
export function initTakeback(act) {
  $('#takeback-ask').addEventListener('click', () => act('takeback', { action: 'offer' }));
  $('#takeback-accept').addEventListener('click', () => act('takeback', { action: 'accept' }));
  $('#takeback-decline').addEventListener('click', () => act('takeback', { action: 'decline' }));
  $('#abort').addEventListener('click', () => act('abort'));
}
