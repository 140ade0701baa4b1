// One game on screen: its state, the panels, moving (click, drag, type, premove) and the
// actions (takeback, hint, draw, resign, rematch). Everything drawn comes from the server's view.
import { $, el, store, seatOf, toast } from './dom.mjs';
import { api, plainError } from './api.mjs';
import { t } from './i18n.mjs';
import { drawFrame, drawPosition, discIcon, handIcons, squareWords, stackLetters } from './board.mjs';
import { initInput, keepTabStop } from './input.mjs';
import { clickTargets, afterClick, afterDrop, matchPremove } from './select.mjs';
import { events, resultWords, winner } from './events.mjs';
import { moveLabel } from './notation.mjs';
import { renderMoves, scoreText, colorWords } from './movelist.mjs';
import { openLive, closeLive } from './live.mjs';
import { ratingNode, setWatchers, resetWatchers } from './people.mjs';
import { takeState } from './paging.mjs';
import { play as playSound } from './sound.mjs';
import { createGame, visit } from './lobby.mjs';
import { lookForReview, renderReview, betterPath, startReview, resetReview } from './review.mjs';
import { clockFigures, formatClock, isLow, crossedLow, untilDeadline } from './clock.mjs';
import { renderTakeback, initTakeback } from './takeback.mjs';
import { resetChat, renderChat, takeChat, initChat } from './chat.mjs';

const other = (c) => (c === 'white' ? 'black' : 'white');

export const st = {
  id: null,
  game: null,
  seat: null, // 'white' | 'black' | null (watching)
  token: null,
  viewPly: 0,
  flipped: false,
  sel: [], // squares chosen so far for a move
  busy: false,
  hint: null, // {move, score}
  premove: null, // {from, to} or {text}, with `squares` to draw
  preSel: null, // a square chosen for a premove
  lifted: null, // the square whose column is being dragged
  tipSquare: null,
  lastEvent: null,
  stateAt: 0, // when the current state arrived (performance.now()), for the clocks
  shownMs: null, // what the running clocks showed at the last tick: {white, black}
};

/* ------------------------------------------------------------------ opening a game */

export async function openGame(id, onMissing) {
  $('#lobby').hidden = true;
  $('#game').hidden = false;
  $('#conn').hidden = false;
  if (st.id !== id) {
    for (const k of Object.keys($('#game').dataset)) delete $('#game').dataset[k];
    Object.assign(st, { id, game: null, sel: [], hint: null, premove: null, preSel: null, viewPly: 0, lastEvent: null });
  }
  const params = new URLSearchParams(location.search);
  const invite = params.get('invite');
  let mine = seatOf(id);
  if (invite && !mine) {
    try {
      const grant = await api('POST', `/api/games/${id}/join`, { invite });
      store.set(`emergo.seat.${id}`, { seat: grant.seat, token: grant.token });
      mine = { seat: grant.seat, token: grant.token };
      toast(t('join.joined', { color: t(`color.${grant.seat}`) }), 'info');
    } catch (err) {
      toast(err.code === 'bad_token' ? t('join.badInvite') : plainError(err));
    }
  }
  if (invite) history.replaceState(null, '', `/game/${id}`);
  st.seat = mine ? mine.seat : null;
  st.token = mine ? mine.token : null;
  resetChat(id);
  st.flipped = st.seat === 'black';
  drawFrame($('#board'), st.flipped);
  try {
    setGame(await api('GET', `/api/games/${id}`), 'load');
  } catch (err) {
    if (err.code === 'not_found') {
      onMissing();
      toast(t('game.missing', { path: `/game/${id}` }));
      return;
    }
    toast(plainError(err));
  }
  resetWatchers();
  openLive(id, (g) => setGame(g, 'ws'), () => (st.game && st.game.id === id ? st.game.ply : 0), {
    // issue 18: the spectators' count, the chat; a seat's holder says so (it is no spectator
    // and reads the players' room)
    watchers: (msg) => setWatchers(msg.count),
    chat: (msg) => { if (Array.isArray(msg.messages)) takeChat(msg); },
    hello: () => (st.token ? { type: 'seat', token: st.token } : null),
  });
}

export function closeGame() {
  closeLive();
  resetReview();
  st.id = null;
  st.game = null;
}

/** Takes a new state, whole or a delta (docs/api.md). `source`: 'load', 'ws' (in order),
 * 'post' (may be stale) or 'reread' (the answer to a re-read from a ply). */
function setGame(g, source) {
  if (!g || g.id !== st.id) return;
  // A delta joins the view we hold; one that does not (a state missed) has us read again.
  const taken = takeState(st.game, g, source === 'reread');
  if (taken.ask !== undefined) {
    refresh(taken.ask);
    return;
  }
  if (!taken.game) return;
  g = taken.game;
  const old = st.game;
  const follow = !old || st.viewPly >= old.ply;
  st.game = g;
  st.stateAt = performance.now();
  st.shownMs = null;
  if (!old || old.ply !== g.ply || old.moves[old.moves.length - 1] !== g.moves[g.moves.length - 1]) {
    st.sel = [];
    st.hint = null;
  }
  st.viewPly = follow ? g.ply : Math.min(st.viewPly, g.ply);
  for (const ev of events(old, g, st.seat)) say(ev);
  render();
  tryPremove();
  // The other side accepted our rematch offer: take our seat there and go.
  if (old && !old.rematch_game && g.rematch_game && st.token && g.rematch_offer === st.seat && !seatOf(g.rematch_game)) {
    rematchAction('join');
  }
}

/** An event in words (status box and, for the important ones, a toast) and its sound. */
function say(ev) {
  if (ev.sound) playSound(ev.sound);
  if (!ev.key) return;
  let text;
  if (ev.key === 'ev.end') {
    const { head, why } = ev.params;
    text = `${t(head.key, colorWords(head.params))} — ${t(why.key, colorWords(why.params))}`;
  } else {
    text = t(ev.key, colorWords(ev.params));
  }
  st.lastEvent = text;
  if (ev.key !== 'ev.moved') toast(text, 'info');
}

/* ------------------------------------------------------------------ moving */

function atLatest() {
  return st.game && st.viewPly === st.game.ply;
}

function canMove() {
  const g = st.game;
  // the server says when a game waits for a seat (docs/api.md `waiting_for`): no move before
  return !!(g && st.token && g.status === 'ongoing' && !g.waiting_for && g.turn === st.seat && atLatest() && !st.busy && !g.engine_thinking);
}

/** A premove may be entered while the other side is to move. */
function canPremove() {
  const g = st.game;
  return !!(g && st.token && g.status === 'ongoing' && g.turn !== st.seat && atLatest() && g[other(st.seat)].joined);
}

function targets() {
  if (!canMove()) return { entries: new Set(), starts: new Set(), next: new Set() };
  return clickTargets(st.game.legal, st.sel);
}

function apply(result) {
  if (result.submit) return submitMove(result.submit);
  st.sel = result.sel;
  render();
  return null;
}

function onSquare(sq, pointerType) {
  if (canMove()) {
    apply(afterClick(st.game.legal, st.sel, sq));
  } else if (canPremove()) {
    premoveClick(sq);
  }
  const board = st.game && st.game.boards[st.viewPly];
  if (board && board.columns[sq] && pointerType !== 'mouse') showTip(sq);
}

function onDrop(from, to) {
  st.lifted = null;
  if (!to) return render();
  if (canMove()) return apply(afterDrop(st.game.legal, from, to));
  if (canPremove()) {
    setPremove({ from, to });
    return null;
  }
  return render();
}

/** What may be dragged from `sq`: the column there, if a move (or a premove) may start there. */
function liftable(sq) {
  const g = st.game;
  if (!g) return null;
  const col = g.boards[st.viewPly].columns[sq];
  if (!col) return null;
  if (canMove()) return targets().starts.has(sq) ? col : null;
  if (canPremove() && col.owner === st.seat) return col;
  return null;
}

function premoveClick(sq) {
  const board = st.game.boards[st.game.ply];
  const col = board.columns[sq];
  if (st.preSel) {
    if (st.preSel === sq) st.preSel = null;
    else setPremove({ from: st.preSel, to: sq });
  } else if (col && col.owner === st.seat) {
    st.preSel = sq;
    st.premove = null;
  } else if (!col && board.hand[st.seat] > 0) {
    setPremove({ from: null, to: sq });
  } else {
    st.premove = null;
  }
  render();
}

function setPremove(pre) {
  st.preSel = null;
  st.premove = { ...pre, squares: pre.text ? [] : [pre.from, pre.to].filter(Boolean) };
  render();
}

function clearPremove() {
  st.premove = null;
  st.preSel = null;
}

/** Plays the pending premove now that it is our turn, or cancels it. */
function tryPremove() {
  const pre = st.premove;
  if (!pre || !canMove()) return;
  st.premove = null;
  const mv = matchPremove(st.game.legal, pre);
  if (mv) {
    submitMove(mv);
  } else {
    st.lastEvent = t('premove.cancelled');
    toast(st.lastEvent, 'info');
    render();
  }
}

async function submitMove(text) {
  const g = st.game;
  if (!g || !st.token) {
    toast(t('err.bad_token'));
    return false;
  }
  st.busy = true;
  const known = g.legal.find((m) => m.move === text);
  st.sel = known ? known.passed : [];
  render();
  try {
    const next = await api('POST', `/api/games/${g.id}/moves`, { token: st.token, ply: g.ply, move: text });
    st.busy = false;
    st.sel = [];
    setGame(next, 'post');
    render();
    return true;
  } catch (err) {
    st.busy = false;
    st.sel = [];
    toast(err.code === 'illegal_move' ? t('err.illegalTyped', { move: text }) : plainError(err));
    if (['stale_ply', 'not_your_turn', 'game_over'].includes(err.code)) refresh(st.game ? st.game.ply : 0);
    else render();
    return false;
  }
}

/** Reads the game again: from ply `from` on (joined to what we hold), or whole. */
async function refresh(from = 0) {
  if (!st.id) return;
  try {
    setGame(await api('GET', `/api/games/${st.id}${from ? `?from=${from}` : ''}`), from ? 'reread' : 'load');
  } catch (err) {
    toast(plainError(err));
  }
}

async function seatAction(path, body = {}) {
  if (!st.game || !st.token) return;
  try {
    setGame(await api('POST', `/api/games/${st.game.id}/${path}`, { token: st.token, ...body }), 'load');
  } catch (err) {
    toast(plainError(err));
  }
}

/** A rematch between people (docs/api.md): offer, accept, decline, join. An answer with a
 * token is our seat in the new game, which we then open. */
async function rematchAction(action) {
  if (!st.game || !st.token) return;
  try {
    const answer = await api('POST', `/api/games/${st.game.id}/rematch`, { token: st.token, action });
    if (answer.token) {
      store.set(`emergo.seat.${answer.game.id}`, { seat: answer.seat, token: answer.token });
      visit(`/game/${answer.game.id}`);
    } else {
      setGame(answer, 'load');
    }
  } catch (err) {
    toast(plainError(err));
  }
}

/** Whether this game's rematch is offered to the other seat holder (between people). */
function rematchByOffer() {
  const g = st.game;
  return g.mode === 'human' && g.white.joined && g.black.joined;
}

/* ------------------------------------------------------------------ the column's contents */

function showTip(sq) {
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
    const sub = [...(st.seat === color ? [t('who.you')] : []), colorWord, ...(g.players.rated ? [t(`category.${g.players.rated}`)] : [])].join(' · ');
    return { name: account.deleted || !account.name ? t('player.deleted') : account.name, sub };
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
  const toMove = g.status === 'ongoing' && !g.waiting_for && board.turn === color && atLatest();
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
function tickClocks() {
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

function renderStatus() {
  const g = st.game;
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
  if (!atLatest()) {
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
    if (mine && !g.engine_thinking) detail += ` ${t(st.sel.length ? 'help.next' : g.phase === 'enter' ? 'help.enter' : 'help.start')}`;
    if (!st.seat && g.mode !== 'imported') detail += ` ${t('status.watching')}`;
    lines.push(el('div', { class: 'detail', text: detail }));
  } else {
    lines.push(el('div', { class: 'main', text: g.ply ? t('status.overAt', { move: moveLabel(g.ply, startTurn, g.moves[g.ply - 1]) }) : t('status.over') }));
  }
  if (atLatest() && g.shadowpiece && g.status === 'ongoing') {
    const board = g.boards[g.ply];
    const side = board.hand.white > 0 ? 'white' : 'black';
    lines.push(el('div', { class: 'shadow', 'data-shadow': String(board.hand[side]), text: t('status.shadow', { color: t(`color.${side}`), n: board.hand[side] }) }));
  }
  if (st.premove || st.preSel) {
    const what = st.premove ? (st.premove.text || `${st.premove.from ? `${st.premove.from}–` : ''}${st.premove.to}`) : `${st.preSel}…`;
    lines.push(el('div', { class: 'premove-line', 'data-premove': what },
      el('span', { text: t('premove.pending', { move: what }) }), ' ',
      el('button', { type: 'button', class: 'link', id: 'premove-cancel', text: t('premove.cancel'), onclick: () => { clearPremove(); render(); } })));
  }
  if (st.lastEvent && atLatest()) lines.push(el('div', { class: 'event', id: 'event', text: st.lastEvent }));
  box.replaceChildren(...lines);
}

function renderActions() {
  const g = st.game;
  const ongoing = g.status === 'ongoing';
  const mine = !!st.token;
  const engine = g.mode === 'engine';
  const human = g.mode === 'human';
  const show = (id, on) => ($(`#${id}`).hidden = !on);
  // Take back: also while the engine thinks and after a game ended on the board (docs/api.md);
  // not after a resignation.
  show('takeback', engine && mine && (ongoing || g.reason !== 'resignation'));
  $('#takeback').disabled = g.ply === 0;
  show('hint', engine && mine && ongoing);
  $('#hint').disabled = g.engine_thinking || g.turn !== st.seat;
  const bothJoined = g.white.joined && g.black.joined;
  show('draw-offer', human && mine && ongoing && bothJoined && g.draw_offer !== other(st.seat));
  $('#draw-offer').disabled = g.draw_offer === st.seat;
  $('#draw-offer').textContent = t(g.draw_offer === st.seat ? 'act.drawOffered' : 'act.offerDraw');
  show('draw-accept', human && mine && ongoing && g.draw_offer === other(st.seat));
  show('draw-decline', human && mine && ongoing && g.draw_offer === other(st.seat));
  show('resign', mine && ongoing && g.mode !== 'imported');
  renderTakeback(g, st.seat, st.token);
  const offer = g.rematch_offer;
  const made = g.rematch_game;
  const byOffer = rematchByOffer();
  show('rematch', mine && !ongoing && g.mode !== 'imported' && !made && !(byOffer && offer === other(st.seat)));
  $('#rematch').disabled = byOffer && offer === st.seat;
  $('#rematch').textContent = t(byOffer && offer === st.seat ? 'act.rematchOffered' : 'act.rematch');
  show('rematch-accept', mine && !ongoing && byOffer && !made && offer === other(st.seat));
  show('rematch-decline', mine && !ongoing && byOffer && !made && offer === other(st.seat));
  show('rematch-go', !ongoing && !!made);
  show('same-again', mine && !ongoing && g.mode !== 'imported');
  const exp = $('#export');
  exp.href = `/api/games/${g.id}/record`;
  exp.setAttribute('download', `emergo-${g.id}.txt`);
  // The analysis board from the ply on screen; not for a player of a game still going on.
  show('analyse', !(mine && ongoing));
  $('#analyse').href = `/analysis?game=${encodeURIComponent(g.id)}&ply=${st.viewPly}`;
  $('#move-form').hidden = !(mine && ongoing);
  $('#move-input').disabled = !(canMove() || canPremove());
  $('#move-submit').disabled = !(canMove() || canPremove());
  const ht = $('#hint-text');
  ht.hidden = !(st.hint && atLatest());
  if (st.hint) {
    const raw = st.hint.score || 0;
    const men = raw / 100;
    const score = `${men > 0 ? '+' : men < 0 ? '−' : '±'}${Math.abs(men).toLocaleString(document.documentElement.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 })}`;
    // beyond this the engine has found a forced result (its scores near ±30000)
    if (Math.abs(raw) >= 20000) ht.textContent = t(raw > 0 ? 'hint.win' : 'hint.loss', { move: st.hint.move });
    else ht.textContent = t('hint.text', { move: st.hint.move, score });
    ht.dataset.score = String(st.hint.score || 0);
  }
  const invite = store.get(`emergo.invite.${g.id}`);
  const waiting = human && mine && ongoing && !bothJoined;
  $('#invite-box').hidden = !(waiting && invite);
  if (waiting && invite) {
    $('#invite-link').value = `${location.origin}/game/${g.id}?invite=${encodeURIComponent(invite)}`;
    $('#own-link').value = `${location.origin}/game/${g.id}`;
  }
}

export function render() {
  if (!st.game) return;
  const g = st.game;
  document.title = g.status === 'finished' ? t('title.over', { score: scoreText(g.result) }) : t('title.toMove', { color: t(`color.${g.turn}`) });
  const bottom = st.flipped ? 'black' : 'white';
  renderBar($('#bar-bottom'), bottom);
  renderBar($('#bar-top'), other(bottom));
  const last = st.viewPly > 0 ? g.history[st.viewPly - 1] : null;
  const hintMove = st.hint && atLatest() ? g.legal.find((m) => m.move === st.hint.move) : null;
  const b = $('#board');
  drawPosition(b, {
    board: g.boards[st.viewPly],
    flipped: st.flipped,
    last,
    sel: st.sel,
    hint: hintMove ? hintMove.passed : null,
    premove: st.premove ? st.premove.squares : st.preSel ? [st.preSel] : [],
    targets: targets(),
    lifted: st.lifted,
    better: betterPath(st.viewPly),
  });
  keepTabStop(b, st.sel[0]);
  renderStatus();
  renderMoves(g, st.viewPly, atLatest(), goTo);
  lookForReview(g, render);
  renderReview(g, st.viewPly, goTo);
  renderActions();
  renderChat(g, st.seat, st.token);
  const d = $('#game').dataset;
  d.ply = String(g.ply);
  d.viewPly = String(st.viewPly);
  d.position = g.positions[st.viewPly] || '';
  d.status = g.status;
  d.turn = g.turn;
  d.thinking = String(!!g.engine_thinking);
  d.busy = String(st.busy);
  d.premove = st.premove ? 'pending' : '';
  if (st.tipSquare) showTip(st.tipSquare);
}

export function goTo(ply) {
  if (!st.game) return;
  st.viewPly = Math.max(0, Math.min(st.game.ply, ply));
  st.sel = [];
  render();
}

export function flip() {
  st.flipped = !st.flipped;
  drawFrame($('#board'), st.flipped);
  render();
}

/* ------------------------------------------------------------------ wiring */

function copyField(input) {
  input.select();
  const text = input.value;
  const done = () => toast(t('invite.copied'), 'info');
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, () => document.execCommand('copy') && done());
  } else if (document.execCommand('copy')) {
    done();
  }
}

/** The settings of this game for a new one: the same mode, level and start; the seat's colour
 * (`swap`: the other colour, for a rematch). */
function settings(swap) {
  const g = st.game;
  const body = { mode: g.mode, color: swap ? other(st.seat) : st.seat };
  if (g.mode === 'engine') body.level = g.level || 1;
  if (g.mode === 'human' && g.time_control) body.time = g.time_control;
  const saved = store.get(`emergo.settings.${g.id}`);
  if (saved && saved.position) body.position = saved.position;
  else if (g.start !== 'W:12:12') body.position = g.start;
  return body;
}

export function initGame() {
  setInterval(tickClocks, 100);
  // On a phone the actions are a bar fixed at the bottom: the game keeps room for all its rows.
  const bar = $('#actions');
  if (window.ResizeObserver) new ResizeObserver(() => document.documentElement.style.setProperty('--actions-height', `${bar.offsetHeight}px`)).observe(bar);
  const b = $('#board');
  initInput(b, {
    flipped: () => st.flipped,
    liftable,
    lift: (sq) => {
      st.lifted = sq;
      if (canMove()) st.sel = [sq];
      render();
    },
    click: onSquare,
    drop: onDrop,
    hover: (sq) => showTip(sq),
    longPress: (sq) => showTip(sq),
  });
  $('#nav-first').addEventListener('click', () => goTo(0));
  $('#nav-prev').addEventListener('click', () => goTo(st.viewPly - 1));
  $('#nav-next').addEventListener('click', () => goTo(st.viewPly + 1));
  $('#nav-last').addEventListener('click', () => goTo(st.game ? st.game.ply : 0));
  $('#flip').addEventListener('click', flip);
  $('#move-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const input = $('#move-input');
    const text = input.value.trim();
    if (!text) return;
    if (/\s/.test(text)) {
      toast(t('err.oneWord'));
      return;
    }
    if (canPremove()) {
      setPremove({ text });
      input.value = '';
      return;
    }
    if (await submitMove(text)) input.value = '';
  });
  $('#takeback').addEventListener('click', () => {
    clearPremove();
    seatAction('takeback');
  });
  $('#hint').addEventListener('click', async () => {
    if (!st.game || !st.token) return;
    try {
      const h = await api('POST', `/api/games/${st.game.id}/hint`, { token: st.token });
      st.hint = h.move ? { move: h.move, score: h.score } : null;
      if (!st.hint) toast(t('hint.none'), 'info');
      render();
      // its words in view (on a phone, above the bar of actions: the page's scroll padding)
      if (st.hint) $('#hint-text').scrollIntoView({ block: 'nearest' });
    } catch (err) {
      toast(plainError(err));
    }
  });
  initTakeback((path, body) => {
    clearPremove();
    return seatAction(path, body);
  });
  initChat();
  $('#draw-offer').addEventListener('click', () => seatAction('draw', { action: 'offer' }));
  $('#draw-accept').addEventListener('click', () => seatAction('draw', { action: 'accept' }));
  $('#draw-decline').addEventListener('click', () => seatAction('draw', { action: 'decline' }));
  let resignTimer = null;
  $('#resign').addEventListener('click', (e) => {
    const button = e.currentTarget;
    if (!button.classList.contains('confirm')) {
      button.classList.add('confirm');
      button.textContent = t('act.reallyResign');
      resignTimer = setTimeout(() => {
        button.classList.remove('confirm');
        button.textContent = t('act.resign');
      }, 4000);
      return;
    }
    clearTimeout(resignTimer);
    button.classList.remove('confirm');
    button.textContent = t('act.resign');
    seatAction('resign');
  });
  $('#rematch').addEventListener('click', (e) => {
    if (st.game && rematchByOffer()) rematchAction('offer');
    else createGame(settings(true), e.currentTarget);
  });
  $('#rematch-accept').addEventListener('click', () => rematchAction('accept'));
  $('#rematch-decline').addEventListener('click', () => rematchAction('decline'));
  $('#rematch-go').addEventListener('click', () => {
    const g = st.game;
    if (!g || !g.rematch_game) return;
    if (st.token && g.rematch_offer === st.seat && !seatOf(g.rematch_game)) rematchAction('join');
    else visit(`/game/${g.rematch_game}`);
  });
  $('#same-again').addEventListener('click', (e) => createGame(settings(false), e.currentTarget));
  $('#review').addEventListener('click', () => st.game && startReview(st.game, render));
  $('#copy-invite').addEventListener('click', () => copyField($('#invite-link')));
  $('#copy-own').addEventListener('click', () => copyField($('#own-link')));

  document.addEventListener('keydown', (e) => {
    if (!st.game || $('#game').hidden) return;
    if (e.target.closest && e.target.closest('input, textarea, select') && e.key !== 'Escape') return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const keys = {
      ArrowLeft: () => goTo(st.viewPly - 1),
      ArrowRight: () => goTo(st.viewPly + 1),
      Home: () => goTo(0),
      End: () => goTo(st.game.ply),
      f: flip,
      F: flip,
      Escape: () => {
        st.sel = [];
        clearPremove();
        showTip(null);
        render();
      },
    };
    if (keys[e.key]) {
      e.preventDefault();
      keys[e.key]();
    }
  });
}

