// The game screen's panels, drawn from the state (game/state.mjs): the player bars with their
// clocks, the status, the buttons a seat sees (game/actions.mjs), the column box, the move list
// and review, the chat. The board is the board component's (board.mjs); the game page (game.mjs)
// holds the transport and the wiring.
import { $, el, store } from '../dom.mjs';
import { t } from '../i18n.mjs';
import { shownName } from '../names.mjs';
import { discIcon, handIcons, squareWords, stackLetters } from '../board.mjs';
import { resultWords, winner } from '../events.mjs';
import { moveLabel } from '../notation.mjs';
import { renderMoves, scoreText, colorWords } from '../movelist.mjs';
import { ratingNode } from '../people.mjs';
import { play as playSound } from '../sound.mjs';
import { lookForReview, renderReview } from '../review.mjs';
import { clockFigures, formatClock, isLow, crossedLow, untilDeadline } from '../clock.mjs';
import { renderChat } from '../chat.mjs';
import { st, other, atLatest, canMove, canPremove } from './state.mjs';
import { seatActions } from './actions.mjs';
import { premoveWords } from './premove.mjs';

/* ------------------------------------------------------------------ the column's contents */

export function showTip(sq) {
  const board = st.game && st.game.boards[st.viewPly];
  const col = board && sq ? board.columns[sq] : null;
  const tip = $('#tip');
  if (!col) {
    tip.hidden = true;
    st.tipSquare = null;
    return;
  }
  st.tipSquare = sq;
  tip.replaceChildren(
    el('div', { class: 'tip-head', text: squareWords(sq, col) }),
    el('div', { class: 'men', 'aria-hidden': 'true' }, ...[...stackLetters(col)].map((m) => el('span', { class: `man ${m}` }))),
    el('div', { class: 'lbl', text: t('tip.fromTop') }),
  );
  tip.hidden = false;
}

/* ------------------------------------------------------------------ the panels */

function playerName(color) {
  const g = st.game;
  const side = g[color] || {};
  const colorWord = t(`color.${color}`);
  if (g.mode === 'imported') return { name: colorWord, sub: t('who.imported') };
  if (side.kind === 'engine') return { name: t('who.engine'), sub: t('who.level', { level: g.level || '?' }) };
  const account = g.players && g.players[color];
  if (account) {
    // a game between accounts: the names, and the category of a rated game
    const berserk = !!(g.tournament && g.tournament.berserk && g.tournament.berserk[color]);
    const sub = [...(account.bot ? [t('player.bot')] : []), ...(st.seat === color ? [t('who.you')] : []), colorWord, ...(g.players.rated ? [t(`category.${g.players.rated}`)] : []), ...(berserk ? [t('bar.berserk')] : [])].join(' · ');
    return { name: shownName(account.deleted ? null : account.name), sub };
  }
  if (st.seat === color) return { name: t('who.you'), sub: colorWord };
  if (!side.joined) return { name: t('who.waiting'), sub: t('who.waitingSub', { color: colorWord }) };
  if (!st.seat) return { name: colorWord, sub: t('who.person') };
  return { name: t(g.mode === 'engine' ? 'who.player' : 'who.opponent'), sub: colorWord };
}

function renderBar(box, color) {
  const g = st.game;
  const board = g.boards[st.viewPly];
  const { name, sub } = playerName(color);
  const toMove = g.status === 'ongoing' && !g.waiting_for && board.turn === color && atLatest(st);
  box.className = `player${toMove ? ' to-move' : ''}`;
  box.dataset.color = color;
  const thinking = g.engine_thinking && g[color].kind === 'engine';
  const flag = toMove ? el('span', { class: `turn-flag${thinking ? ' thinking' : ''}`, text: t(thinking ? 'bar.thinking' : st.seat === color ? 'bar.yourMove' : 'bar.toMove') }) : null;
  const hand = board.hand[color];
  const clock = clockElement(color);
  box.replaceChildren(
    discIcon(color),
    el('div', { class: 'who-box' }, el('span', { class: 'name-row' }, el('span', { class: 'name', text: name }), ratingNode(g, color)), el('span', { class: 'sub', text: sub })),
    ...(flag ? [flag] : []),
    ...(clock ? [clock] : []),
    el('div', { class: 'hand', title: t('bar.inHand', { n: hand }), 'data-hand': color },
      handIcons(color, hand), el('span', { class: 'count', text: String(hand) }), el('span', { class: 'sub', text: t('bar.inHandShort') })),
  );
}

/* ------------------------------------------------------------------ the clocks */

/** The clock of `color` in its bar: a real-time clock (ticking while it runs), or for the side
 * to move of a correspondence game the time left to its deadline; null for untimed games. */
function clockElement(color) {
  const g = st.game;
  const figures = clockFigures(g, performance.now() - st.stateAt);
  if (figures) {
    const box = el('span', { class: 'clock', 'data-clock': color, role: 'timer' });
    paintClock(box, color, figures);
    return box;
  }
  if (g.deadline && g.status === 'ongoing' && g.turn === color) {
    const left = untilDeadline(g.deadline, Date.now());
    const date = new Date(Date.parse(g.deadline)).toLocaleString(document.documentElement.lang);
    return el('span', { class: 'clock corr', 'data-deadline': g.deadline, title: t('clock.deadline', { date }), text: t('clock.corrLeft', left) });
  }
  return null;
}

function paintClock(box, color, figures) {
  const ms = figures[color];
  box.textContent = formatClock(ms);
  box.dataset.ms = String(ms);
  box.classList.toggle('running', figures.running === color);
  box.classList.toggle('low', isLow(ms) && st.game.status === 'ongoing');
  box.setAttribute('aria-label', t('clock.aria', { color: t(`color.${color}`), time: formatClock(ms) }));
}

/** Counts the running clock down between states (the server's figures come with each state);
 * sounds once when the player's own clock runs low. */
export function tickClocks() {
  const g = st.game;
  if (!g || !g.clock || $('#game').hidden) return;
  const figures = clockFigures(g, performance.now() - st.stateAt);
  if (!figures.running) return;
  for (const box of document.querySelectorAll('#game [data-clock]')) paintClock(box, box.dataset.clock, figures);
  const mine = st.seat && figures.running === st.seat;
  if (mine && st.shownMs && crossedLow(st.shownMs[st.seat], figures[st.seat])) {
    playSound('low');
    st.lastEvent = t('clock.low');
  }
  st.shownMs = figures;
}

function renderStatus(on) {
  const g = st.game;
  const { selected, premove, premoveStart } = st.board.state();
  const box = $('#status');
  const res = $('#result');
  const startTurn = g.boards[0].turn;
  if (g.status === 'finished') {
    const { head, why } = resultWords(g, st.seat);
    res.replaceChildren(el('span', { class: 'score', text: scoreText(g.result) }), el('b', { text: t(head.key, colorWords(head.params)) }), el('div', { text: t(why.key, colorWords(why.params)) }));
    res.dataset.result = g.result || '';
    res.dataset.reason = g.reason || '';
    res.dataset.winner = winner(g) || '';
    res.hidden = false;
  } else {
    res.hidden = true;
  }
  const lines = [];
  if (!atLatest(st)) {
    const main = st.viewPly === 0 ? t('status.start') : t('status.after', { move: moveLabel(st.viewPly, startTurn, g.moves[st.viewPly - 1]) });
    lines.push(el('div', { class: 'main', text: main }));
    lines.push(el('div', { class: 'detail', text: t('status.back') }));
  } else if (g.status === 'ongoing' && g.waiting_for) {
    const color = t(`color.${g.waiting_for}`);
    lines.push(el('div', { class: 'main', 'data-waiting': g.waiting_for, text: t('status.waiting', { color }) }));
    lines.push(el('div', { class: 'detail', text: t('status.waitingDetail', { color }) }));
  } else if (g.status === 'ongoing') {
    const mine = st.seat === g.turn;
    const color = t(`color.${g.turn}`);
    let main = t(mine ? 'status.yourMove' : 'status.toMove', { color });
    if (g.engine_thinking) main = t('status.thinking', { color });
    lines.push(el('div', { class: 'main', text: main }));
    let detail = '';
    if (g.phase === 'capture') detail = t('phase.capture', { n: g.legal.length ? g.legal[0].captured.length : 0 });
    else if (g.phase === 'enter') detail = t('phase.enter', { n: g.hand[g.turn] });
    else detail = t('phase.step');
    if (mine && !g.engine_thinking) detail += ` ${t(selected.length ? 'help.next' : g.phase === 'enter' ? 'help.enter' : 'help.start')}`;
    if (!st.seat && g.mode !== 'imported') detail += ` ${t('status.watching')}`;
    lines.push(el('div', { class: 'detail', text: detail }));
  } else {
    lines.push(el('div', { class: 'main', text: g.ply ? t('status.overAt', { move: moveLabel(g.ply, startTurn, g.moves[g.ply - 1]) }) : t('status.over') }));
  }
  if (atLatest(st) && g.shadowpiece && g.status === 'ongoing') {
    const board = g.boards[g.ply];
    const side = board.hand.white > 0 ? 'white' : 'black';
    lines.push(el('div', { class: 'shadow', 'data-shadow': String(board.hand[side]), text: t('status.shadow', { color: t(`color.${side}`), n: board.hand[side] }) }));
  }
  const what = premoveWords(premove, premoveStart);
  if (what) {
    lines.push(el('div', { class: 'premove-line', 'data-premove': what },
      el('span', { text: t('premove.pending', { move: what }) }), ' ',
      el('button', { type: 'button', class: 'link', id: 'premove-cancel', text: t('premove.cancel'), onclick: on.cancelPremove })));
  }
  if (st.lastEvent && atLatest(st)) lines.push(el('div', { class: 'event', id: 'event', text: st.lastEvent }));
  box.replaceChildren(...lines);
}

/** The buttons the seat sees (game/actions.mjs), the links, the move form and the hint. */
function renderActions() {
  const g = st.game;
  const actions = seatActions(g, st.seat, st.token);
  for (const [id, b] of Object.entries(actions)) {
    const e = $(`#${id}`);
    e.hidden = !b.show;
    if (b.disabled !== undefined) e.disabled = b.disabled;
    if (b.label) e.textContent = t(b.label);
  }
  const exp = $('#export');
  exp.href = `/api/games/${g.id}/record`;
  exp.setAttribute('download', `emergo-${g.id}.txt`);
  $('#analyse').href = `/analysis?game=${encodeURIComponent(g.id)}&ply=${st.viewPly}`;
  if (g.tournament) $('#to-tournament').href = `/tournament/${encodeURIComponent(g.tournament.id)}`;
  $('#move-input').disabled = !(canMove(st) || canPremove(st));
  $('#move-submit').disabled = !(canMove(st) || canPremove(st));
  const ht = $('#hint-text');
  ht.hidden = !(st.hint && atLatest(st));
  if (st.hint) {
    const raw = st.hint.score || 0;
    const men = raw / 100;
    const score = `${men > 0 ? '+' : men < 0 ? '−' : '±'}${Math.abs(men).toLocaleString(document.documentElement.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 })}`;
    // beyond this the engine has found a forced result (its scores near ±30000)
    if (Math.abs(raw) >= 20000) ht.textContent = t(raw > 0 ? 'hint.win' : 'hint.loss', { move: st.hint.move });
    else ht.textContent = t('hint.text', { move: st.hint.move, score });
    ht.dataset.score = String(st.hint.score || 0);
  }
  // the invitation links, while the friend has not come (the link kept by this browser)
  const invite = store.get(`emergo.invite.${g.id}`);
  const waiting = actions['invite-box'].show;
  $('#invite-box').hidden = !(waiting && invite);
  if (waiting && invite) {
    $('#invite-link').value = `${location.origin}/game/${g.id}?invite=${encodeURIComponent(invite)}`;
    $('#own-link').value = `${location.origin}/game/${g.id}`;
  }
}

/** Everything on the game screen but the board. `on`: the game page's `goTo(ply)` (the move
 * list, the review's graph), `render()` (a review arrived) and `cancelPremove()`. */
export function renderPanels(on) {
  if (!st.game) return;
  const g = st.game;
  document.title = g.status === 'finished' ? t('title.over', { score: scoreText(g.result) }) : t('title.toMove', { color: t(`color.${g.turn}`) });
  const bottom = st.board.state().orientation;
  renderBar($('#bar-bottom'), bottom);
  renderBar($('#bar-top'), other(bottom));
  renderStatus(on);
  renderMoves(g, st.viewPly, atLatest(st), on.goTo);
  lookForReview(g, on.render);
  renderReview(g, st.viewPly, on.goTo);
  renderActions();
  renderChat(g, st.seat, st.token);
  const d = $('#game').dataset;
  d.ply = String(g.ply);
  d.variant = g.variant || 'emergo';
  d.viewPly = String(st.viewPly);
  d.position = g.positions[st.viewPly] || '';
  d.status = g.status;
  d.turn = g.turn;
  d.thinking = String(!!g.engine_thinking);
  d.busy = String(st.busy);
  d.premove = st.board.state().premove ? 'pending' : '';
  if (st.tipSquare) showTip(st.tipSquare);
}

