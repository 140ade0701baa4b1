// Emergo in the browser: the start screen, the board, live play over the API of docs/api.md.
// Plain modern JavaScript, no build step, no outside resources.
'use strict';

// A script error is noted on the page (the browser tests check that there is none).
window.addEventListener('error', (e) => {
  document.documentElement.dataset.scriptError = String(e.message || e.error || 'error');
});
window.addEventListener('unhandledrejection', (e) => {
  document.documentElement.dataset.scriptError = String((e.reason && e.reason.message) || e.reason || 'rejection');
});

/* ------------------------------------------------------------------ squares (RULES.md R1) */

const LETTERS = 'abcdefghi';
const SVGNS = 'http://www.w3.org/2000/svg';
const SQ = 100; // one checkerboard square in SVG units
const MARGIN = 50; // room for the coordinates

/** The checkerboard file x and rank y (1..9) of a square name such as `e5`, or null. */
function squareXY(name) {
  if (typeof name !== 'string' || name.length !== 2) return null;
  const l = LETTERS.indexOf(name[0].toLowerCase());
  const n = name.charCodeAt(1) - 48;
  if (l < 0 || n < 1 || n > 9 || Math.abs(l - 4) + Math.abs(n - 5) > 4) return null;
  return { x: n + l - 4, y: n - l + 4 };
}

/** The name of the dark square on file x, rank y. */
function squareName(x, y) {
  return LETTERS[(x - y) / 2 + 4] + String((x + y) / 2);
}

/** All 41 square names, rank by rank. */
const SQUARES = [];
for (let y = 1; y <= 9; y++) for (let x = 1; x <= 9; x++) if ((x + y) % 2 === 0) SQUARES.push(squareName(x, y));

/* ------------------------------------------------------------------ what the server says */

// The page knows no rule: every position it draws (`boards`), the squares of every move played
// (`history`) and of every legal move (`legal`) come from the game view (docs/api.md).

function otherColor(c) {
  return c === 'white' ? 'black' : 'white';
}
function letterOf(c) {
  return c === 'white' ? 'W' : 'B';
}

/** A column's men from the top as letters, for drawing: `WWWBB` is 3 White over 2 Black. */
function stackLetters(col) {
  return letterOf(col.owner).repeat(col.men) + letterOf(otherColor(col.owner)).repeat(col.prisoners);
}

/** The legal move whose text is `text`, if any. */
function legalMove(text) {
  return st.game ? st.game.legal.find((m) => m.move === text) || null : null;
}

/* ------------------------------------------------------------------ the API */

class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const PLAIN_WORDS = {
  not_your_turn: 'It is not your turn: the other side is to move.',
  stale_ply: 'The game moved on before your move arrived. The board now shows the current position.',
  bad_token: 'This browser does not hold a seat in this game, so it can only watch.',
  not_found: 'There is no such game. It may have been typed wrong.',
  game_over: 'The game is already over.',
  seat_taken: 'Both seats of this game are taken already. You can watch it.',
  not_allowed: 'That is not possible in this game.',
  illegal_move: 'That move is not legal here.',
  bad_request: 'The server did not accept that.',
};

async function api(method, path, body, asText) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    if (typeof body === 'string') {
      init.headers['content-type'] = 'text/plain; charset=utf-8';
      init.body = body;
    } else {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, 'network', 'The server cannot be reached. Check your connection; the page retries by itself.');
  }
  if (!res.ok) {
    let code = 'error';
    let message = '';
    try {
      const j = await res.json();
      code = j.error || code;
      message = j.message || '';
    } catch (e) {
      message = res.statusText;
    }
    throw new ApiError(res.status, code, message);
  }
  return asText ? res.text() : res.json();
}

/** An API error in words for a person. */
function plainError(err) {
  if (!(err instanceof ApiError)) return `Something went wrong: ${err && err.message ? err.message : err}`;
  if (err.code === 'network') return err.message;
  const base = PLAIN_WORDS[err.code] || `The server answered with an error (${err.status}).`;
  if (!err.message || err.code === 'stale_ply' || err.code === 'not_your_turn') return base;
  let detail = err.message.trim();
  if (detail.length > 400) detail = `${detail.slice(0, 400)}…`;
  return `${base} ${detail.charAt(0).toUpperCase()}${detail.slice(1)}${/[.!?]$/.test(detail) ? '' : '.'}`;
}

/* ------------------------------------------------------------------ little helpers */

const $ = (sel, root = document) => root.querySelector(sel);
function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}
function svg(tag, attrs = {}, parent = null) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}
function cap(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const store = {
  get(key) {
    try {
      return JSON.parse(localStorage.getItem(key));
    } catch (e) {
      return null;
    }
  },
  set(key, value) {
    try {
      localStorage.setItem(key, JSON.stringify(value));
    } catch (e) {
      /* storage full or disabled: the seat lasts as long as the page */
    }
  },
};
function seatOf(id) {
  const s = store.get(`emergo.seat.${id}`);
  return s && s.token && (s.seat === 'white' || s.seat === 'black') ? s : null;
}

let toastTimer = null;
function toast(text, kind = 'error') {
  const box = $('#toast');
  $('#toast-text').textContent = text;
  box.className = `toast ${kind === 'info' ? 'info' : ''}`;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), kind === 'info' ? 3500 : 9000);
}

/* ------------------------------------------------------------------ state */

const st = {
  id: null,
  game: null,
  seat: null, // 'white' | 'black' | null (watching)
  token: null,
  positions: [], // the board before each move and after the last, from the server
  viewPly: 0,
  flipped: false,
  sel: [], // squares clicked so far for a move
  busy: false,
  hint: null,
  ws: null,
  wsTimer: null,
  wsRetry: 0,
  listStatus: 'ongoing',
  tipSquare: null,
  hoverSquare: null,
};

/* ------------------------------------------------------------------ routing */

function route() {
  const m = location.pathname.match(/^\/game\/([A-Za-z0-9_-]+)\/?$/);
  if (m) openGame(m[1]);
  else showLobby();
}
function navigate(path) {
  history.pushState(null, '', path);
  route();
}
document.addEventListener('click', (e) => {
  const a = e.target.closest('a[data-link]');
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(a.getAttribute('href'));
});
window.addEventListener('popstate', route);

/* ------------------------------------------------------------------ the start screen */

let listTimer = null;
function showLobby() {
  closeWs();
  clearInterval(listTimer);
  listTimer = setInterval(() => {
    if ($('#game').hidden && document.visibilityState === 'visible') loadGameList();
  }, 15000);
  st.id = null;
  st.game = null;
  document.title = 'Emergo';
  $('#game').hidden = true;
  $('#lobby').hidden = false;
  $('#conn').hidden = true;
  loadGameList();
}

async function createGame(form, mode) {
  const data = new FormData(form);
  const body = { mode, color: data.get('color') || 'white' };
  if (mode === 'engine') body.level = Number(data.get('level')) || 1;
  const position = String(data.get('position') || '').trim();
  if (position) body.position = position;
  const button = form.querySelector('button[type=submit]');
  button.disabled = true;
  try {
    const grant = await api('POST', '/api/games', body);
    store.set(`emergo.seat.${grant.game.id}`, { seat: grant.seat, token: grant.token });
    if (grant.invite) store.set(`emergo.invite.${grant.game.id}`, grant.invite);
    navigate(`/game/${grant.game.id}`);
  } catch (err) {
    toast(plainError(err));
  } finally {
    button.disabled = false;
  }
}

function sideLabel(summary, color) {
  const side = summary[color] || {};
  if (summary.mode === 'imported') return cap(color);
  if (side.kind === 'engine') return `Engine ${summary.level ? `(level ${summary.level})` : ''}`.trim();
  const mine = seatOf(summary.id);
  if (mine && mine.seat === color) return 'You';
  return side.joined === false ? 'Open seat' : 'Person';
}
function resultWords(result) {
  return { '1-0': '1–0', '0-1': '0–1', '1/2-1/2': '½–½' }[result] || result || '';
}
function timeAgo(iso) {
  const t = Date.parse(iso);
  if (!t) return '';
  const s = Math.max(0, (Date.now() - t) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(t).toLocaleDateString();
}

async function loadGameList() {
  const list = $('#game-list');
  for (const b of document.querySelectorAll('.tabs button')) {
    b.setAttribute('aria-selected', String(b.dataset.status === st.listStatus));
  }
  try {
    const { games } = await api('GET', `/api/games?status=${st.listStatus}&limit=50`);
    list.replaceChildren();
    if (!games.length) {
      list.append(el('li', { class: 'empty', text: st.listStatus === 'ongoing' ? 'No games in progress yet. Start one above.' : 'No finished games yet.' }));
    }
    for (const g of games) {
      const mode = { engine: 'against the engine', human: 'between people', imported: 'imported' }[g.mode] || g.mode;
      const who = el('span', { class: 'who' },
        el('span', { class: 'dot white' }), sideLabel(g, 'white'), ' vs ',
        el('span', { class: 'dot black' }), sideLabel(g, 'black'));
      const meta = el('span', { class: 'meta', text: `${mode} · ${g.ply} ${g.ply === 1 ? 'move' : 'moves'}${g.reason ? ` · ${g.reason}` : ''} · ${timeAgo(g.updated_at)}` });
      const mine = seatOf(g.id);
      const action = g.status === 'finished' || g.mode === 'imported' ? 'Replay' : mine ? 'Resume' : 'Watch';
      const res = el('span', { class: 'res' },
        g.status === 'finished' ? el('b', { text: resultWords(g.result) }) : null,
        el('span', { class: 'go', text: `${action} ›` }));
      list.append(el('li', {}, el('a', { href: `/game/${g.id}`, 'data-link': true, 'data-game': g.id }, who, res, meta)));
    }
  } catch (err) {
    list.replaceChildren(el('li', { class: 'empty', text: plainError(err) }));
  }
}

/* ------------------------------------------------------------------ opening a game */

async function openGame(id) {
  closeWs();
  clearInterval(listTimer);
  $('#lobby').hidden = true;
  $('#game').hidden = false;
  $('#conn').hidden = false;
  if (st.id !== id) {
    for (const k of Object.keys($('#game').dataset)) delete $('#game').dataset[k];
    st.id = id;
    st.game = null;
    st.positions = [];
    st.sel = [];
    st.hint = null;
    st.viewPly = 0;
  }
  const params = new URLSearchParams(location.search);
  const invite = params.get('invite');
  let mine = seatOf(id);
  if (invite && !mine) {
    try {
      const grant = await api('POST', `/api/games/${id}/join`, { invite });
      store.set(`emergo.seat.${id}`, { seat: grant.seat, token: grant.token });
      mine = { seat: grant.seat, token: grant.token };
      toast(`You joined the game with ${cap(grant.seat)}.`, 'info');
    } catch (err) {
      toast(err.code === 'bad_token' ? 'This invitation link is not valid for this game. You can watch it.' : plainError(err));
    }
  }
  if (invite) history.replaceState(null, '', `/game/${id}`);
  st.seat = mine ? mine.seat : null;
  st.token = mine ? mine.token : null;
  st.flipped = st.seat === 'black';
  drawBoardFrame();
  try {
    setGame(await api('GET', `/api/games/${id}`), 'load');
  } catch (err) {
    if (err.code === 'not_found') {
      history.replaceState(null, '', '/');
      showLobby();
      toast(`There is no game at the address /game/${id}. It may have been typed wrong, or the game is on another server.`);
      return;
    }
    toast(plainError(err));
  }
  connectWs(id);
}

/* ------------------------------------------------------------------ live updates */

function setConn(kind) {
  const c = $('#conn');
  c.className = `conn ${kind === 'live' ? 'live' : kind === 'down' ? 'down' : ''}`;
  c.textContent = { live: '● live', connecting: 'connecting…', down: 'reconnecting…' }[kind] || kind;
  c.dataset.state = kind;
}

function closeWs() {
  clearTimeout(st.wsTimer);
  const ws = st.ws;
  st.ws = null;
  if (ws) ws.close();
}

function connectWs(id) {
  clearTimeout(st.wsTimer);
  if (st.id !== id) return;
  setConn(st.wsRetry ? 'down' : 'connecting');
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/games/${encodeURIComponent(id)}/ws`;
  let ws;
  try {
    ws = new WebSocket(url);
  } catch (e) {
    scheduleReconnect(id);
    return;
  }
  st.ws = ws;
  ws.onopen = () => {
    if (st.ws !== ws) return;
    st.wsRetry = 0;
    setConn('live');
  };
  ws.onmessage = (e) => {
    if (st.ws !== ws) return;
    let msg;
    try {
      msg = JSON.parse(e.data);
    } catch (err) {
      return;
    }
    if (msg && msg.type === 'state' && msg.game && msg.game.id === st.id) setGame(msg.game, 'ws');
  };
  ws.onclose = () => {
    if (st.ws !== ws) return;
    st.ws = null;
    scheduleReconnect(id);
  };
  ws.onerror = () => ws.close();
}

function scheduleReconnect(id) {
  setConn('down');
  const delay = Math.min(10000, 400 * 2 ** st.wsRetry) * (0.75 + Math.random() * 0.5);
  st.wsRetry = Math.min(st.wsRetry + 1, 8);
  st.wsTimer = setTimeout(() => connectWs(id), delay);
}

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && st.id && !st.ws) {
    st.wsRetry = 0;
    connectWs(st.id);
  }
});
window.addEventListener('online', () => {
  if (st.id && !st.ws) connectWs(st.id);
});

/** Takes a new state of the game. `source`: 'load', 'ws' (authoritative, in order) or 'post'. */
function setGame(g, source) {
  if (!g || g.id !== st.id) return;
  const old = st.game;
  // An answer to our own move can arrive after the server already pushed a later state.
  if (old && source === 'post' && g.ply < old.ply) return;
  const follow = !old || st.viewPly >= old.ply;
  st.game = g;
  st.positions = g.boards;
  if (!old || old.ply !== g.ply || old.moves[old.moves.length - 1] !== g.moves[g.moves.length - 1]) {
    st.sel = [];
    st.hint = null;
  }
  st.viewPly = follow ? g.ply : Math.min(st.viewPly, g.ply);
  render();
}

/* ------------------------------------------------------------------ moving */

function atLatest() {
  return st.game && st.viewPly === st.game.ply;
}
function canMove() {
  const g = st.game;
  return !!(g && st.token && g.status === 'ongoing' && g.turn === st.seat && atLatest() && !st.busy && !g.engine_thinking);
}

/** What the next click may do: entries, starts, or the next landing squares of the moves begun. */
function clickable() {
  const out = { entries: new Set(), starts: new Set(), next: new Set() };
  if (!canMove()) return out;
  const legal = st.game.legal.map((m) => m.passed);
  if (st.sel.length === 0) {
    for (const sqs of legal) {
      if (sqs.length === 1) out.entries.add(sqs[0]);
      else out.starts.add(sqs[0]);
    }
  } else {
    for (const sqs of candidates(legal, st.sel)) if (sqs.length > st.sel.length) out.next.add(sqs[st.sel.length]);
    for (const sqs of legal) if (sqs.length > 1) out.starts.add(sqs[0]);
  }
  return out;
}
function candidates(legal, sel) {
  return legal.filter((sqs) => sqs.length >= sel.length && sel.every((s, i) => sqs[i] === s));
}

function clickSquare(sq) {
  if (!canMove()) return;
  const c = clickable();
  if (st.sel.length === 0) {
    if (c.entries.has(sq)) return submitMove(sq);
    if (c.starts.has(sq)) {
      st.sel = [sq];
      return render();
    }
    return;
  }
  if (c.next.has(sq)) {
    st.sel = [...st.sel, sq];
    const left = st.game.legal.filter((m) => m.passed.length >= st.sel.length && st.sel.every((s, i) => m.passed[i] === s));
    if (left.length === 1) return submitMove(left[0].move);
    return render();
  }
  if (c.starts.has(sq) && !(st.sel.length === 1 && st.sel[0] === sq)) {
    st.sel = [sq];
    return render();
  }
  st.sel = [];
  render();
}

async function submitMove(text) {
  const g = st.game;
  if (!g || !st.token) {
    toast(PLAIN_WORDS.bad_token);
    return false;
  }
  st.busy = true;
  const known = legalMove(text);
  st.sel = known ? known.passed : [];
  render();
  try {
    const next = await api('POST', `/api/games/${g.id}/moves`, { token: st.token, ply: g.ply, move: text });
    st.busy = false;
    st.sel = [];
    // (a later state may have come over the WebSocket already; then this answer is stale, but
    // the page must still be drawn again now that it is no longer busy)
    setGame(next, 'post');
    render();
    return true;
  } catch (err) {
    st.busy = false;
    st.sel = [];
    toast(plainError(err));
    if (err.code === 'stale_ply' || err.code === 'not_your_turn' || err.code === 'game_over') refresh();
    else render();
    return false;
  }
}

async function refresh() {
  if (!st.id) return;
  try {
    setGame(await api('GET', `/api/games/${st.id}`), 'load');
  } catch (err) {
    toast(plainError(err));
  }
}

async function seatAction(path, body = {}) {
  if (!st.game || !st.token) return;
  try {
    const g = await api('POST', `/api/games/${st.game.id}/${path}`, { token: st.token, ...body });
    setGame(g, 'load');
  } catch (err) {
    toast(plainError(err));
  }
}

/* ------------------------------------------------------------------ drawing the board */

/** SVG centre of a square, after the flip. */
function centre(sq) {
  const p = squareXY(sq);
  let col = p.x - 1;
  let row = 9 - p.y;
  if (st.flipped) {
    col = 8 - col;
    row = 8 - row;
  }
  return { cx: MARGIN + col * SQ + SQ / 2, cy: MARGIN + row * SQ + SQ / 2 };
}

function drawBoardFrame() {
  const b = $('#board');
  b.replaceChildren();
  const defs = svg('defs', {}, b);
  const frame = svg('linearGradient', { id: 'g-frame', x1: 0, y1: 0, x2: 1, y2: 1 }, defs);
  svg('stop', { offset: 0, 'stop-color': '#6b4528' }, frame);
  svg('stop', { offset: 1, 'stop-color': '#4a2e1a' }, frame);
  svg('rect', { x: 0, y: 0, width: 1000, height: 1000, rx: 22, fill: 'url(#g-frame)' }, b);
  svg('rect', { x: MARGIN - 3, y: MARGIN - 3, width: 9 * SQ + 6, height: 9 * SQ + 6, fill: '#3a2414' }, b);
  const squares = svg('g', { class: 'squares' }, b);
  for (let row = 0; row < 9; row++) {
    for (let col = 0; col < 9; col++) {
      const used = (col + row) % 2 === 0; // corners dark, whichever way up
      svg('rect', { x: MARGIN + col * SQ, y: MARGIN + row * SQ, width: SQ, height: SQ, fill: used ? '#b4875b' : '#ecdab8' }, squares);
    }
  }
  // Coordinates: each letter line is labelled at its lower-left end, each number line at its
  // lower-right end (as seen with White at the bottom), in the margin next to that square.
  const coords = svg('g', { class: 'coords' }, b);
  for (let l = 0; l < 9; l++) label(coords, LETTERS[l] + (1 + Math.abs(l - 4)), -1, LETTERS[l]);
  for (let n = 1; n <= 9; n++) label(coords, LETTERS[8 - Math.abs(n - 5)] + n, 1, String(n));
  svg('g', { class: 'under' }, b); // last move, selection
  svg('g', { class: 'pieces' }, b);
  svg('g', { class: 'marks' }, b); // legal starts, targets
  svg('g', { class: 'over' }, b); // captured men, hint
  const hits = svg('g', { class: 'hits' }, b);
  for (const sq of SQUARES) {
    const { cx, cy } = centre(sq);
    const r = svg('rect', { class: 'hit', 'data-sq': sq, x: cx - SQ / 2, y: cy - SQ / 2, width: SQ, height: SQ }, hits);
    const t = svg('title', {}, r);
    t.textContent = sq;
  }
}

/**
 * A coordinate in the margin beside an edge square, towards the end of its line: `side` -1 for
 * a letter line (it leaves the board down and left), +1 for a number line (down and right).
 * On the bottom edge the label sits under the square, to that side; on the left or right edge
 * it sits beside the square, a little low.
 */
function label(parent, sq, side, text) {
  const { y } = squareXY(sq);
  const f = st.flipped ? -1 : 1;
  let dx;
  let dy;
  if (y === 1) {
    dx = side * 0.27;
    dy = 0.75;
  } else {
    dx = side * 0.75;
    dy = 0.3;
  }
  const { cx, cy } = centre(sq);
  const t = svg('text', { class: 'coord', x: cx + f * dx * SQ, y: cy + f * dy * SQ }, parent);
  t.textContent = text;
}

const MAN = {
  W: { face: '#f8f3e7', side: '#d8ccb3', edge: '#6f5d47' },
  B: { face: '#3a332e', side: '#1d1916', edge: '#0b0908' },
};

/** One column as a stack of discs, bottom man first; a badge gives men/prisoners. */
function drawColumn(parent, sq, col) {
  const stack = stackLetters(col);
  const { cx, cy } = centre(sq);
  const g = svg('g', { class: 'column', 'data-col': sq, 'data-stack': stack }, parent);
  const h = stack.length;
  const rx = 37;
  const ry = 17;
  const t = h === 1 ? 11 : Math.max(2.4, Math.min(10, 58 / h));
  const base = cy + (h === 1 ? 22 : 27);
  svg('ellipse', { cx, cy: base + 4, rx: rx + 3, ry: ry + 2, fill: 'rgba(30,15,5,.35)' }, g);
  for (let i = 0; i < h; i++) {
    const man = MAN[stack[h - 1 - i]]; // bottom first
    const y = base - i * t;
    svg('path', {
      d: `M${cx - rx},${y - t} L${cx - rx},${y} A${rx},${ry} 0 0 0 ${cx + rx},${y} L${cx + rx},${y - t} Z`,
      fill: man.side,
      stroke: man.edge,
      'stroke-width': h > 14 ? 0.6 : 1.1,
    }, g);
  }
  const top = MAN[stack[0]];
  const topY = base - h * t;
  svg('ellipse', { cx, cy: topY, rx, ry, fill: top.face, stroke: top.edge, 'stroke-width': 1.4 }, g);
  svg('ellipse', { cx, cy: topY, rx: rx - 9, ry: ry - 4.5, fill: 'none', stroke: top.edge, 'stroke-opacity': 0.35, 'stroke-width': 1.5 }, g);
  if (h > 1) {
    drawBadge(g, cx, topY, col, stack[0]);
  }
}

function drawBadge(g, cx, y, info, ownerLetter) {
  const prisonerLetter = ownerLetter === 'W' ? 'B' : 'W';
  const a = String(info.men);
  const bText = info.prisoners ? String(info.prisoners) : '';
  const wa = 13 + 13 * a.length;
  const wb = bText ? 13 + 13 * bText.length : 0;
  const w = wa + wb;
  const x0 = cx - w / 2;
  const hgt = 29;
  const y0 = y - hgt / 2;
  const clip = `clip-${g.getAttribute('data-col')}`;
  const cp = svg('clipPath', { id: clip }, g);
  svg('rect', { x: x0, y: y0, width: w, height: hgt, rx: 7 }, cp);
  const inner = svg('g', { 'clip-path': `url(#${clip})` }, g);
  svg('rect', { x: x0, y: y0, width: wa, height: hgt, fill: MAN[ownerLetter].face }, inner);
  const ta = svg('text', { class: 'badge-text', x: x0 + wa / 2, y: y + 1, fill: ownerLetter === 'W' ? '#2b2622' : '#f8f3e7' }, inner);
  ta.textContent = a;
  if (bText) {
    svg('rect', { x: x0 + wa, y: y0, width: wb, height: hgt, fill: MAN[prisonerLetter].face }, inner);
    const tb = svg('text', { class: 'badge-text', x: x0 + wa + wb / 2, y: y + 1, fill: prisonerLetter === 'W' ? '#2b2622' : '#f8f3e7' }, inner);
    tb.textContent = bText;
  }
  svg('rect', { x: x0, y: y0, width: w, height: hgt, rx: 7, fill: 'none', stroke: '#1d1916', 'stroke-width': 1.6 }, g);
}

function pathLine(parent, sqs, attrs) {
  if (sqs.length < 2) return;
  const pts = sqs.map((s) => centre(s)).map((p) => `${p.cx},${p.cy}`).join(' ');
  svg('polyline', { points: pts, fill: 'none', 'stroke-linecap': 'round', 'stroke-linejoin': 'round', ...attrs }, parent);
}

function shade(parent, sq, fill, opacity, cls) {
  const { cx, cy } = centre(sq);
  svg('rect', { class: cls, 'data-sq': sq, x: cx - SQ / 2, y: cy - SQ / 2, width: SQ, height: SQ, fill, 'fill-opacity': opacity }, parent);
}

function renderBoard() {
  const b = $('#board');
  const under = b.querySelector('.under');
  const pieces = b.querySelector('.pieces');
  const marks = b.querySelector('.marks');
  const over = b.querySelector('.over');
  for (const layer of [under, pieces, marks, over]) layer.replaceChildren();
  const pos = st.positions[st.viewPly];
  if (!pos) return;

  // the last move (up to the ply on view) and the men it captured
  const last = st.viewPly > 0 ? st.game.history[st.viewPly - 1] : null;
  const lastSqs = last ? last.passed : [];
  for (const sq of lastSqs) shade(under, sq, '#f6d860', 0.5, 'last');
  if (lastSqs.length >= 2) {
    pathLine(under, lastSqs, { stroke: '#e0a92e', 'stroke-width': 7, 'stroke-opacity': 0.95, class: 'last-path' });
    for (const sq of lastSqs.slice(1)) {
      const { cx, cy } = centre(sq);
      svg('circle', { cx, cy, r: 9, fill: '#e0a92e' }, under);
    }
  }

  // the selection so far
  for (const sq of st.sel) shade(under, sq, '#3f9a6a', 0.55, 'selected');

  for (const sq of Object.keys(pos.columns)) drawColumn(pieces, sq, pos.columns[sq]);

  for (const sq of last ? last.captured : []) {
    const { cx, cy } = centre(sq);
    const g = svg('g', { class: 'captured', 'data-captured': sq }, over);
    svg('circle', { cx: cx + 30, cy: cy - 30, r: 14, fill: '#b3261e', stroke: '#fff', 'stroke-width': 3 }, g);
    svg('path', { d: `M${cx + 24},${cy - 36} l12,12 m0,-12 l-12,12`, stroke: '#fff', 'stroke-width': 3.5, 'stroke-linecap': 'round' }, g);
  }

  // the selection's route
  if (st.sel.length >= 2) pathLine(over, st.sel, { stroke: '#2f7d55', 'stroke-width': 8, 'stroke-opacity': 0.9 });

  // the hint
  if (st.hint && atLatest()) {
    const known = legalMove(st.hint);
    const hs = known ? known.passed : [];
    for (const sq of hs) {
      const { cx, cy } = centre(sq);
      svg('rect', { class: 'hint-mark', x: cx - SQ / 2 + 4, y: cy - SQ / 2 + 4, width: SQ - 8, height: SQ - 8, rx: 8, fill: 'none', stroke: '#2a6fdb', 'stroke-width': 5 }, over);
    }
    pathLine(over, hs, { stroke: '#2a6fdb', 'stroke-width': 7, 'stroke-opacity': 0.8 });
  }

  // what can be clicked
  const c = clickable();
  for (const sq of c.starts) {
    if (st.sel[0] === sq) continue;
    const { cx, cy } = centre(sq);
    svg('rect', { class: 'start', 'data-mark': sq, x: cx - SQ / 2 + 4, y: cy - SQ / 2 + 4, width: SQ - 8, height: SQ - 8, rx: 10, fill: 'none', stroke: '#2f7d55', 'stroke-width': 5 }, marks);
  }
  for (const sq of [...c.entries, ...c.next]) {
    const { cx, cy } = centre(sq);
    const occupied = pos.columns[sq] !== undefined;
    svg('circle', {
      class: 'target', 'data-mark': sq, cx, cy, r: occupied ? 40 : 15,
      fill: occupied ? 'none' : '#1f5e3e', 'fill-opacity': 0.6,
      stroke: occupied ? '#1f5e3e' : 'none', 'stroke-width': 6,
    }, marks);
  }
  for (const r of b.querySelectorAll('.hit')) {
    const sq = r.dataset.sq;
    r.classList.toggle('active', c.starts.has(sq) || c.entries.has(sq) || c.next.has(sq) || st.sel.includes(sq));
  }
}

/* ------------------------------------------------------------------ the column tooltip */

function showTip(sq) {
  const pos = st.positions[st.viewPly];
  const tip = $('#tip');
  const info = pos && pos.columns[sq];
  if (!info) {
    hideTip();
    return;
  }
  const stack = stackLetters(info);
  const other = otherColor(info.owner);
  tip.replaceChildren(
    el('div', {}, el('b', { text: sq }), ` · ${cap(info.owner)}’s column`),
    el('div', { text: `${info.men} ${cap(info.owner)}${info.prisoners ? ` over ${info.prisoners} ${cap(other)} prisoner${info.prisoners === 1 ? '' : 's'}` : ''}` }),
    el('div', { class: 'lbl', text: 'from the top' }),
    el('div', { class: 'men' }, ...[...stack].map((m) => el('span', { class: `man ${m}` }))),
  );
  const { cx, cy } = centre(sq);
  const wrap = $('#board-wrap').getBoundingClientRect();
  const scale = wrap.width / 1000;
  tip.style.left = `${Math.min(Math.max(cx * scale, 70), wrap.width - 70)}px`;
  tip.style.top = `${(cy - SQ / 2 + 6) * scale}px`;
  tip.hidden = false;
  st.tipSquare = sq;
}
function hideTip() {
  $('#tip').hidden = true;
  st.tipSquare = null;
}

/* ------------------------------------------------------------------ the panels */

function playerName(color) {
  const g = st.game;
  const side = g[color] || {};
  if (g.mode === 'imported') return { name: cap(color), sub: 'imported game' };
  if (side.kind === 'engine') return { name: 'Engine', sub: `level ${g.level || '?'}` };
  if (st.seat === color) return { name: 'You', sub: cap(color) };
  if (!side.joined) return { name: 'Waiting for an opponent', sub: `${cap(color)} · the invitation link is not used yet` };
  return { name: g.mode === 'engine' ? 'Player' : 'Opponent', sub: cap(color) };
}

function discIcon(color) {
  const s = document.createElementNS(SVGNS, 'svg');
  s.setAttribute('viewBox', '0 0 24 24');
  s.setAttribute('class', 'disc-icon');
  const m = MAN[letterOf(color)];
  svg('ellipse', { cx: 12, cy: 15, rx: 10, ry: 6, fill: m.side, stroke: m.edge }, s);
  svg('rect', { x: 2, y: 10, width: 20, height: 5, fill: m.side }, s);
  svg('ellipse', { cx: 12, cy: 10, rx: 10, ry: 6, fill: m.face, stroke: m.edge }, s);
  return s;
}

/** The men in hand as a row of overlapping discs seen from above. */
function handIcons(color, count) {
  const s = document.createElementNS(SVGNS, 'svg');
  const n = Math.max(count, 0);
  s.setAttribute('viewBox', `0 0 ${Math.max(1, n) * 7 + 13} 22`);
  s.setAttribute('aria-hidden', 'true');
  const m = MAN[letterOf(color)];
  for (let i = 0; i < n; i++) {
    const cx = 10 + i * 7;
    svg('circle', { cx, cy: 11, r: 8.5, fill: m.face, stroke: m.edge, 'stroke-width': 1.3 }, s);
    svg('circle', { cx, cy: 11, r: 4.5, fill: 'none', stroke: m.edge, 'stroke-opacity': 0.35, 'stroke-width': 1 }, s);
  }
  return s;
}

function renderBar(box, color) {
  const g = st.game;
  const pos = st.positions[st.viewPly];
  const { name, sub } = playerName(color);
  const toMove = g.status === 'ongoing' && pos.turn === color && atLatest();
  box.className = `player${toMove ? ' to-move' : ''}`;
  box.dataset.color = color;
  const flag = toMove
    ? el('span', { class: `turn-flag${g.engine_thinking && g[color].kind === 'engine' ? ' thinking' : ''}`, text: g.engine_thinking && g[color].kind === 'engine' ? 'thinking' : st.seat === color ? 'your move' : 'to move' })
    : null;
  box.replaceChildren(
    ...[discIcon(color),
    el('div', { class: 'who-box' }, el('span', { class: 'name', text: name }), el('span', { class: 'sub', text: sub })),
    flag,
    el('div', { class: 'hand', title: `${pos.hand[color]} in hand`, 'data-hand': color },
      handIcons(color, pos.hand[color]), el('span', { class: 'count', text: String(pos.hand[color]) }), el('span', { class: 'sub', text: 'in hand' }))].filter(Boolean),
  );
}

const REASON_WORDS = {
  'no pieces': (w, l) => `${cap(l)} has no pieces left.`,
  blocked: (w, l, turn) => `${cap(turn)} has no legal move.`,
  'threefold repetition': () => 'The same position occurred three times.',
  resignation: (w, l) => `${cap(l)} resigned.`,
  agreement: () => 'The players agreed to a draw.',
};

function renderStatus() {
  const g = st.game;
  const pos = st.positions[st.viewPly];
  const box = $('#status');
  const res = $('#result');
  if (g.status === 'finished') {
    const winner = g.result === '1-0' ? 'white' : g.result === '0-1' ? 'black' : null;
    const loser = winner ? otherColor(winner) : null;
    const head = winner ? `${cap(winner)} wins` : 'Draw';
    const why = (REASON_WORDS[g.reason] || (() => g.reason || ''))(winner, loser, g.turn);
    res.replaceChildren(el('span', { class: 'score', text: resultWords(g.result) }), el('b', { text: head }), el('div', { text: why }));
    res.dataset.result = g.result || '';
    res.dataset.reason = g.reason || '';
    res.hidden = false;
  } else {
    res.hidden = true;
  }
  const lines = [];
  if (!atLatest()) {
    lines.push(el('div', { class: 'main', text: st.viewPly === 0 ? 'Start position' : `After move ${st.viewPly}: ${g.moves[st.viewPly - 1]}` }));
    lines.push(el('div', { class: 'detail', text: `Viewing ${st.viewPly} of ${g.ply}. Press End or ⏭ to return to the game.` }));
  } else if (g.status === 'ongoing') {
    const mine = st.seat === g.turn;
    const captures = g.phase === 'capture' && g.legal.length > 0;
    let main = `${cap(g.turn)} to move${mine ? ' — your move' : ''}`;
    if (g.engine_thinking) main = `${cap(g.turn)} to move — the engine is thinking…`;
    lines.push(el('div', { class: 'main', text: main }));
    let detail = g.hand[g.turn] > 0 ? `Entering: ${g.hand[g.turn]} in hand.` : 'Movement: every man is on the board.';
    if (captures) {
      const n = g.legal[0].captured.length;
      detail += ` A capture is compulsory (${n} ${n === 1 ? 'man' : 'men'}).`;
    }
    if (mine && !g.engine_thinking) {
      detail += st.sel.length ? ' Click the next marked square.' : g.phase === 'enter' ? ' Click a marked square to enter a man.' : ' Click a marked column.';
    }
    if (!st.seat && g.mode !== 'imported') detail += ' You are watching.';
    lines.push(el('div', { class: 'detail', text: detail }));
  } else {
    lines.push(el('div', { class: 'main', text: `Game over after ${g.ply} ${g.ply === 1 ? 'move' : 'moves'}` }));
  }
  if (atLatest() && g.shadowpiece && g.status === 'ongoing') {
    const side = pos.hand.white > 0 ? 'white' : 'black';
    lines.push(el('div', { class: 'shadow', 'data-shadow': String(pos.hand[side]), text: `Shadowpiece pending: ${cap(side)} enters all ${pos.hand[side]} men in hand at once, as one column.` }));
  }
  box.replaceChildren(...lines);
}

function renderMoves() {
  const g = st.game;
  const list = $('#moves');
  list.replaceChildren();
  if (!g.moves.length) {
    list.append(el('li', { class: 'none', text: 'No moves yet.' }));
  }
  const blackFirst = g.boards[0].turn === 'black';
  let n = 1;
  let i = 0;
  let current = null;
  const cell = (ply) => {
    const mv = g.history[ply - 1];
    const text = mv.move;
    const li = el('li', { class: `mv${mv.captured.length ? ' capture' : ''}${ply === st.viewPly ? ' current' : ''}`, 'data-ply': String(ply), text, onclick: () => goTo(ply) });
    if (ply === st.viewPly) current = li;
    return li;
  };
  if (blackFirst && g.moves.length) {
    list.append(el('li', { class: 'num', text: `${n}.` }), el('li', { class: 'mv', text: '…' }), cell(1));
    n++;
    i = 1;
  }
  for (; i < g.moves.length; i += 2) {
    list.append(el('li', { class: 'num', text: `${n}.` }), cell(i + 1));
    if (i + 1 < g.moves.length) list.append(cell(i + 2));
    n++;
  }
  if (g.status === 'finished') {
    list.append(el('li', { class: 'end', text: `${resultWords(g.result)}${g.reason ? ` · ${g.reason}` : ''}` }));
  }
  if (current) current.scrollIntoView({ block: 'nearest' });
  else if (atLatest()) list.scrollTop = list.scrollHeight;
  $('#nav-first').disabled = $('#nav-prev').disabled = st.viewPly === 0;
  $('#nav-last').disabled = $('#nav-next').disabled = st.viewPly === g.ply;
}

function renderActions() {
  const g = st.game;
  const ongoing = g.status === 'ongoing';
  const mine = !!st.token;
  const engine = g.mode === 'engine';
  const human = g.mode === 'human';
  const show = (id, on) => ($(`#${id}`).hidden = !on);
  show('takeback', engine && mine && ongoing);
  $('#takeback').disabled = g.engine_thinking || g.ply === 0;
  show('hint', engine && mine && ongoing);
  $('#hint').disabled = g.engine_thinking || g.turn !== st.seat;
  const bothJoined = g.white.joined && g.black.joined;
  show('draw-offer', human && mine && ongoing && bothJoined && g.draw_offer !== otherColor(st.seat));
  $('#draw-offer').disabled = g.draw_offer === st.seat;
  $('#draw-offer').textContent = g.draw_offer === st.seat ? 'Draw offered' : 'Offer draw';
  show('draw-accept', human && mine && ongoing && g.draw_offer === otherColor(st.seat));
  show('draw-decline', human && mine && ongoing && g.draw_offer === otherColor(st.seat));
  show('resign', mine && ongoing && g.mode !== 'imported');
  const exp = $('#export');
  exp.href = `/api/games/${g.id}/record`;
  exp.setAttribute('download', `emergo-${g.id}.txt`);
  $('#move-form').hidden = !(mine && ongoing);
  $('#move-input').disabled = !canMove();
  $('#move-submit').disabled = !canMove();
  const ht = $('#hint-text');
  ht.hidden = !(st.hint && atLatest());
  if (st.hint) ht.textContent = `Hint: ${st.hint}`;

  // invitation
  const invite = store.get(`emergo.invite.${g.id}`);
  const waiting = human && mine && ongoing && !(g.white.joined && g.black.joined);
  $('#invite-box').hidden = !(waiting && invite);
  if (waiting && invite) {
    $('#invite-link').value = `${location.origin}/game/${g.id}?invite=${encodeURIComponent(invite)}`;
    $('#own-link').value = `${location.origin}/game/${g.id}`;
  }
}

function render() {
  if (!st.game) return;
  const g = st.game;
  document.title = `Emergo · ${g.status === 'finished' ? resultWords(g.result) : `${cap(g.turn)} to move`}`;
  const bottom = st.flipped ? 'black' : 'white';
  renderBar($('#bar-bottom'), bottom);
  renderBar($('#bar-top'), otherColor(bottom));
  renderBoard();
  renderStatus();
  renderMoves();
  renderActions();
  $('#game').dataset.ply = String(g.ply);
  $('#game').dataset.viewPly = String(st.viewPly);
  $('#game').dataset.position = g.positions[st.viewPly] || '';
  $('#game').dataset.status = g.status;
  $('#game').dataset.turn = g.turn;
  $('#game').dataset.thinking = String(!!g.engine_thinking);
  $('#game').dataset.busy = String(st.busy);
  if (st.tipSquare || st.hoverSquare) showTip(st.tipSquare || st.hoverSquare);
}

function goTo(ply) {
  if (!st.game) return;
  st.viewPly = Math.max(0, Math.min(st.game.ply, ply));
  st.sel = [];
  render();
}

/* ------------------------------------------------------------------ wiring */

function copyField(input) {
  input.select();
  const text = input.value;
  const done = () => toast('Link copied.', 'info');
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, () => document.execCommand('copy') && done());
  } else if (document.execCommand('copy')) {
    done();
  }
}

function init() {
  $('#toast-close').addEventListener('click', () => ($('#toast').hidden = true));
  $('#new-engine').addEventListener('submit', (e) => {
    e.preventDefault();
    createGame(e.currentTarget, 'engine');
  });
  $('#new-human').addEventListener('submit', (e) => {
    e.preventDefault();
    createGame(e.currentTarget, 'human');
  });
  $('#import').addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = $('#import-text').value;
    if (!text.trim()) {
      toast('Paste a game record first.');
      return;
    }
    try {
      const g = await api('POST', '/api/games/import', text);
      $('#import-text').value = '';
      navigate(`/game/${g.id}`);
    } catch (err) {
      toast(plainError(err));
    }
  });
  for (const b of document.querySelectorAll('.tabs button')) {
    b.addEventListener('click', () => {
      st.listStatus = b.dataset.status;
      loadGameList();
    });
  }

  const board = $('#board');
  board.addEventListener('click', (e) => {
    const hit = e.target.closest('.hit');
    if (!hit) return;
    const sq = hit.dataset.sq;
    if (canMove()) clickSquare(sq);
    const pos = st.positions[st.viewPly];
    if (pos && pos.columns[sq] && (e.pointerType === 'touch' || !canMove() || st.tipSquare === sq)) {
      showTip(sq);
      if (e.pointerType !== 'mouse') {
        clearTimeout(st.tipTimer);
        st.tipTimer = setTimeout(hideTip, 4000);
      }
    }
  });
  board.addEventListener('pointerover', (e) => {
    const hit = e.target.closest('.hit');
    if (hit && e.pointerType === 'mouse') {
      st.hoverSquare = hit.dataset.sq;
      showTip(hit.dataset.sq);
    }
  });
  board.addEventListener('pointerleave', () => {
    st.hoverSquare = null;
    hideTip();
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
      toast('A move is one word without spaces, such as e5, e4-e5 or e4xc4xc6.');
      return;
    }
    if (await submitMove(text)) input.value = '';
  });
  $('#takeback').addEventListener('click', () => seatAction('takeback'));
  $('#hint').addEventListener('click', async () => {
    if (!st.game || !st.token) return;
    try {
      const h = await api('POST', `/api/games/${st.game.id}/hint`, { token: st.token });
      st.hint = h.move || null;
      if (!st.hint) toast('The engine has no move to suggest.', 'info');
      render();
    } catch (err) {
      toast(plainError(err));
    }
  });
  $('#draw-offer').addEventListener('click', () => seatAction('draw', { action: 'offer' }));
  $('#draw-accept').addEventListener('click', () => seatAction('draw', { action: 'accept' }));
  $('#draw-decline').addEventListener('click', () => seatAction('draw', { action: 'decline' }));
  let resignTimer = null;
  $('#resign').addEventListener('click', (e) => {
    const b = e.currentTarget;
    if (!b.classList.contains('confirm')) {
      b.classList.add('confirm');
      b.textContent = 'Really resign?';
      resignTimer = setTimeout(() => {
        b.classList.remove('confirm');
        b.textContent = 'Resign';
      }, 4000);
      return;
    }
    clearTimeout(resignTimer);
    b.classList.remove('confirm');
    b.textContent = 'Resign';
    seatAction('resign');
  });
  $('#copy-invite').addEventListener('click', () => copyField($('#invite-link')));
  $('#copy-own').addEventListener('click', () => copyField($('#own-link')));

  document.addEventListener('keydown', (e) => {
    if (!st.game || $('#game').hidden) return;
    if (e.target.closest && e.target.closest('input, textarea, select')) return;
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
        hideTip();
        render();
      },
    };
    if (keys[e.key]) {
      e.preventDefault();
      keys[e.key]();
    }
  });
  window.addEventListener('resize', () => st.tipSquare && showTip(st.tipSquare));
  route();
}

function flip() {
  st.flipped = !st.flipped;
  drawBoardFrame();
  render();
}

init();
