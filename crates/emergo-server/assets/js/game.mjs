// The game page: opening a game, its transport (the state from the server, its WebSocket, the
// moves and the seat's actions posted) and the wiring of its buttons and keys. Its parts:
// game/state.mjs (the state and what follows from it), game/actions.mjs (which buttons a seat
// sees), game/premove.mjs (premoves), game/view.mjs (the panels); the board is the board
// component (board.mjs). Everything drawn comes from the server's view.
import { $, store, seatOf, toast } from './dom.mjs';
import { api, plainError } from './api.mjs';
import { t } from './i18n.mjs';
import { createBoard } from './board.mjs';
import { events } from './events.mjs';
import { colorWords } from './movelist.mjs';
import { openLive, closeLive } from './live.mjs';
import { setWatchers, resetWatchers } from './people.mjs';
import { takeState } from './paging.mjs';
import { play as playSound } from './sound.mjs';
import { createGame, visit } from './lobby.mjs';
import { betterPath, startReview, resetReview } from './review.mjs';
import { resetChat, takeChat, initChat } from './chat.mjs';
import { st, other, atLatest, canMove, canPremove } from './game/state.mjs';
import { rematchByOffer } from './game/actions.mjs';
import { premoveNow } from './game/premove.mjs';
import { renderPanels, showTip, tickClocks } from './game/view.mjs';
import { createExplorer } from './analysis-explorer.mjs';
import { variantInfo } from './variants.mjs';

export { st };

/* ------------------------------------------------------------------ opening a game */

export async function openGame(id, onMissing) {
  $('#lobby').hidden = true;
  $('#game').hidden = false;
  $('#conn').hidden = false;
  if (st.id !== id) {
    for (const k of Object.keys($('#game').dataset)) delete $('#game').dataset[k];
    Object.assign(st, { id, game: null, hint: null, viewPly: 0, lastEvent: null });
    st.board.select([]);
    st.board.cancelPremove();
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
  st.board.set({ orientation: st.seat === 'black' ? 'black' : 'white', board: null, legal: null, premovable: null, last: null, hint: null, better: null });
  st.board.redrawAll();
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
    st.board.select([]);
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

/** A square clicked (the board has handled the move or the premove): its column's contents
 * shown on a touch or the keyboard. */
function onSquare(sq, pointerType) {
  const board = st.game && st.game.boards[st.viewPly];
  if (board && board.columns[sq] && pointerType !== 'mouse') showTip(sq);
}

function clearPremove() {
  st.board.cancelPremove();
}

/** Plays the pending premove now that it is our turn, or cancels it. */
function tryPremove() {
  const now = premoveNow(st.board.state().premove, st.game.legal, canMove(st));
  if (!now) return;
  st.board.cancelPremove();
  if (now.move) {
    submitMove(now.move);
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
  st.board.select(known ? known.passed : []);
  render();
  try {
    const next = await api('POST', `/api/games/${g.id}/moves`, { token: st.token, ply: g.ply, move: text });
    st.busy = false;
    st.board.select([]);
    setGame(next, 'post');
    render();
    return true;
  } catch (err) {
    st.busy = false;
    st.board.select([]);
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

/** The handlers the panels call. */
const on = {
  goTo: (ply) => goTo(ply),
  render: () => render(),
  cancelPremove: () => {
    clearPremove();
    render();
  },
};

/** Draws the game: the board (the component), then the panels. */
export function render() {
  if (!st.game) return;
  const g = st.game;
  const hintMove = st.hint && atLatest(st) ? g.legal.find((m) => m.move === st.hint.move) : null;
  st.board.set({
    variant: g.variant || 'emergo', // the game view's board (absent before the variants: the 9×9)
    board: g.boards[st.viewPly],
    legal: canMove(st) ? g.legal : null,
    premovable: canPremove(st) ? st.seat : null,
    last: st.viewPly > 0 ? g.history[st.viewPly - 1] : null,
    hint: hintMove ? hintMove.passed : null,
    better: betterPath(st.viewPly),
  });
  renderPanels(on);
  renderExplorer();
}

/** The opening explorer under a finished game, on its board, for the position shown (its ply
 * counted from the board's start when the game began there). */
function renderExplorer() {
  const g = st.game;
  const over = g.status === 'finished';
  st.explorer.setHidden(!over);
  if (!over) return;
  const variant = g.variant || 'emergo'; // (absent before the variants: the 9×9)
  const fromStart = g.start === variantInfo(variant).start;
  st.explorer.show(g.positions[st.viewPly], fromStart ? st.viewPly : null, variant);
}

/** A move clicked in the explorer: the game's own next move steps forward; another opens the
 * analysis board here with it played. */
function exploreMove(text) {
  const g = st.game;
  if (!g) return;
  const next = g.history[st.viewPly];
  if (next && next.move === text) {
    goTo(st.viewPly + 1);
    return;
  }
  const q = new URLSearchParams({ game: g.id, ply: String(st.viewPly), move: text });
  visit(`/analysis?${q}`);
}

export function goTo(ply) {
  if (!st.game) return;
  st.viewPly = Math.max(0, Math.min(st.game.ply, ply));
  st.board.select([]);
  render();
}

export function flip() {
  st.board.flip();
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
  st.explorer = createExplorer({ box: $('#game-explorer'), prefix: 'gx', onMove: exploreMove });
  st.board = createBoard($('#board'), {
    onMove: submitMove,
    onSelect: onSquare,
    onChange: () => renderPanels(on),
    onHover: (sq) => showTip(sq),
    onLongPress: (sq) => showTip(sq),
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
    if (canPremove(st)) {
      st.board.setPremove({ text });
      render();
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
  // takeback requests and Abort between people (issue 18)
  const takebackAction = (path, body) => {
    clearPremove();
    return seatAction(path, body);
  };
  $('#takeback-ask').addEventListener('click', () => takebackAction('takeback', { action: 'offer' }));
  $('#takeback-accept').addEventListener('click', () => takebackAction('takeback', { action: 'accept' }));
  $('#takeback-decline').addEventListener('click', () => takebackAction('takeback', { action: 'decline' }));
  $('#abort').addEventListener('click', () => takebackAction('abort'));
  // an arena's game (issue 23): half the clock for a point more on a win
  $('#berserk').addEventListener('click', () => seatAction('berserk'));
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
    if (st.game && rematchByOffer(st.game)) rematchAction('offer');
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
        st.board.select([]);
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

