// The analysis board at /analysis: a position from the URL (`?position=<N2>`, or
// `?game=<id>&ply=<n>` for a ply of a game), on the board `?variant=` names (emergo, 7x7, hex;
// a game's own board for a game), the engine's best lines streamed depth by depth with an
// evaluation bar (the 9×9 board only, for now), and a tree of moves with variations that can be
// played on, promoted, deleted and exported as a record. Legal moves and positions come from
// the server.
import { $, el, toast } from './dom.mjs';
import { api, plainError } from './api.mjs';
import { t } from './i18n.mjs';
import { createBoard } from './board.mjs';
import { newTree, nodeAt, mainPath, play, promote, remove, step, recordMoves, layout, samePath } from './analysis-tree.mjs';
import { analyse, forget, setEngine, watchVisibility, forWhite, whiteShare, scoreWords } from './analysis-live.mjs';
import { fillVariants, isVariant, variantInfo } from './variants.mjs';
import { createExplorer } from './analysis-explorer.mjs';

const LINES = 3;

const st = {
  open: false,
  root: null,
  path: [],
  startPly: 0,
  board: null, // the board component on #an-board
  views: new Map(), // N2 text -> the server's PositionView
  analysis: null, // the last `lines` event for the current position
  done: false,
  gameId: null,
  variant: 'emergo', // the board: 'emergo', '7x7' or 'hex'
  explorer: null, // the opening explorer's panel (every board)
};


function node() {
  return nodeAt(st.root, st.path) || st.root;
}

function view() {
  return st.views.get(node().after) || null;
}

/** The server's view of a position (board, status, legal moves with the positions after). */
async function fetchView(position) {
  if (st.views.has(position)) return st.views.get(position);
  const v = await api('POST', '/api/position/moves', { position, variant: st.variant });
  if (st.views.size > 500) st.views.clear();
  st.views.set(position, v);
  return v;
}

/* ------------------------------------------------------------------ opening */

export async function openAnalysis(params) {
  st.open = true;
  for (const id of ['#lobby', '#game']) $(id).hidden = true;
  $('#analysis').hidden = false;
  document.title = `${t('an.title')} · ${t('title')}`;
  $('#board').replaceChildren(); // one board in the document at a time (ids of its markers)
  st.board.select([]);
  st.board.set({ board: null, legal: null, last: null, hint: null });
  st.board.redrawAll();
  $('#an-status').textContent = '';
  st.views.clear();
  st.analysis = null;
  st.gameId = null;
  const asked = params.get('variant');
  st.variant = isVariant(asked) ? asked : 'emergo';
  if (asked && !isVariant(asked)) toast(t('err.bad_request'));
  const start = () => variantInfo(st.variant).start;
  try {
    const id = params.get('game');
    if (id) {
      const g = await api('GET', `/api/games/${encodeURIComponent(id)}`);
      st.variant = g.variant && isVariant(g.variant) ? g.variant : 'emergo';
      st.gameId = g.id;
      st.root = newTree(g.start, g.moves, g.positions.slice(1));
      st.startPly = g.boards[0].turn === 'black' ? 1 : 0;
      const ply = Number.parseInt(params.get('ply') || '0', 10);
      st.path = mainPath(st.root, Number.isFinite(ply) ? ply : 0);
    } else {
      const position = (params.get('position') || start()).trim();
      const v = await fetchView(position);
      st.root = newTree(v.position);
      st.startPly = v.board.turn === 'black' ? 1 : 0;
      st.path = [];
    }
  } catch (err) {
    toast(plainError(err));
    const v = await fetchView(start()).catch(() => null);
    if (!v) return;
    st.root = newTree(start());
    st.startPly = 0;
    st.path = [];
  }
  showVariant();
  watchVisibility();
  await show();
  // `move=`: a move played at once (the game page's explorer opens the board so).
  const then = params.get('move');
  if (then && st.open) await playMove(then);
}

/** The board chosen: the selector, the board drawn, whether the engine is offered. */
function showVariant() {
  const select = $('#an-variant');
  fillVariants(select);
  select.value = st.variant;
  select.disabled = st.gameId !== null; // a game's own board
  st.board.set({ variant: st.variant });
  $('#analysis').dataset.variant = st.variant;
}

/** Another board chosen: its start position, the address saying which board. */
function chooseVariant(name) {
  if (!isVariant(name) || name === st.variant) return;
  const url = `/analysis?variant=${encodeURIComponent(name)}`;
  history.pushState(null, '', url);
  openAnalysis(new URLSearchParams(url.split('?')[1]));
}

/** The language changed: the status, the tree and the lines said again in it. */
export function relabelAnalysis() {
  if (!st.open) return;
  st.explorer.relabel();
  render();
}

export function closeAnalysis() {
  if (!st.open) return;
  st.open = false;
  forget();
  $('#analysis').hidden = true;
  st.board.clear();
}

/** Goes to `path`: fetches its position if needed, draws, and asks the engine about it. */
async function goTo(path) {
  st.path = path;
  st.board.select([]);
  await show();
}

async function show() {
  const position = node().after;
  st.analysis = null;
  st.done = false;
  render();
  try {
    await fetchView(position);
  } catch (err) {
    toast(plainError(err));
    return;
  }
  if (node().after !== position || !st.open) return;
  // The explorer's moves from here on this board (its ply counts from the board's start
  // position, when the line does).
  const fromStart = st.root.after === variantInfo(st.variant).start;
  st.explorer.show(position, fromStart ? st.path.length : null, st.variant);
  const v = view();
  if (v.legal_moves.length) analyse(position, st.variant, LINES, onEngine);
  else forget();
  render();
}

function onEngine(ev) {
  if (!st.open || ev.position !== node().after) return;
  if (ev.type === 'lines') st.analysis = ev;
  else if (ev.type === 'done') st.done = true;
  else if (ev.type === 'stopped') {
    st.done = true;
    toast(t('an.stopped'), 'info');
  }
  renderEngine();
}

/* ------------------------------------------------------------------ playing moves */

async function playMove(text) {
  const v = view();
  const m = v && v.legal_moves.find((x) => x.move === text);
  if (!m) return;
  await goTo(play(st.root, st.path, m.move, m.after));
}

/** Plays the first `count` moves of a line from the current position. */
async function playLine(moves, count) {
  let path = st.path;
  for (const text of moves.slice(0, count)) {
    const at = nodeAt(st.root, path);
    const v = await fetchView(at.after).catch(() => null);
    const m = v && v.legal_moves.find((x) => x.move === text);
    if (!m) break;
    path = play(st.root, path, m.move, m.after);
  }
  await goTo(path);
}

/* ------------------------------------------------------------------ drawing */

function lastMove() {
  if (!st.path.length) return null;
  const parent = nodeAt(st.root, st.path.slice(0, -1));
  const pv = parent && st.views.get(parent.after);
  const m = pv && pv.legal_moves.find((x) => x.move === node().move);
  return m ? { passed: m.passed, captured: m.captured } : null;
}

function render() {
  if (!st.open || !st.root) return;
  const v = view();
  renderTree();
  renderEngine();
  if (!v) {
    // Until the server's view of the new position arrives, the board keeps the last one drawn
    // (no blank flash between moves) but takes no move: its legal moves belong to that position.
    st.board.set({ legal: null, hint: null });
  } else {
    const best = st.analysis && st.analysis.lines[0];
    const bestMove = best ? v.legal_moves.find((m) => m.move === best.move) : null;
    st.board.set({
      board: v.board,
      legal: v.legal_moves,
      last: lastMove(),
      hint: bestMove ? bestMove.passed : null,
    });
    const status = $('#an-status');
    if (v.result) status.textContent = t('an.over', { result: v.result });
    else status.textContent = t('status.toMove', { color: t(`color.${v.board.turn}`) });
    // What the board shows, for whoever reads the page (and its tests).
    const d = $('#analysis').dataset;
    d.position = node().after;
    d.path = st.path.join('.');
  }
  $('#an-first').disabled = $('#an-prev').disabled = st.path.length === 0;
  $('#an-next').disabled = $('#an-last').disabled = node().children.length === 0;
  $('#an-promote').disabled = !st.path.some((i) => i !== 0);
  $('#an-delete').disabled = st.path.length === 0;
}

function renderEngine() {
  const v = view();
  const a = st.analysis;
  const turn = v ? v.board.turn : 'white';
  const list = $('#an-lines');
  list.replaceChildren();
  const depth = $('#an-depth');
  const bar = $('#an-eval');
  const fill = $('#an-eval-fill');
  if (!a || !a.lines.length) {
    depth.textContent = v && !v.legal_moves.length ? '' : t('an.thinking');
    fill.style.height = '50%';
    bar.setAttribute('aria-label', t('an.evalNone'));
    $('#analysis').dataset.depth = '0';
    padLines(list);
    return;
  }
  depth.textContent = t(st.done ? 'an.depthDone' : 'an.depth', { depth: a.depth });
  $('#analysis').dataset.depth = String(a.depth);
  const words = (line) => {
    const white = forWhite(line.score, turn);
    const mate = line.mate === null ? null : forWhite(line.mate, turn);
    const w = scoreWords(white, mate);
    return w.text || t('an.wins', { color: t(`color.${w.winner}`), n: w.n });
  };
  const top = a.lines[0];
  const share = whiteShare(forWhite(top.score, turn), top.mate === null ? null : forWhite(top.mate, turn));
  const flipped = st.board.state().orientation === 'black';
  const shown = flipped ? 1 - share : share;
  fill.style.height = `${Math.round(shown * 1000) / 10}%`;
  bar.classList.toggle('flipped', flipped);
  bar.setAttribute('aria-label', t('an.eval', { score: words(top) }));
  bar.dataset.share = share.toFixed(3);
  a.lines.forEach((line, k) => {
    const moves = line.pv.map((mv, i) =>
      el('button', { type: 'button', class: 'an-pv-move', text: mv, 'aria-label': t('an.playTo', { move: mv }), onclick: () => playLine(line.pv, i + 1) }));
    list.append(el('li', { class: 'an-line', 'data-line': String(k + 1) },
      el('button', { type: 'button', class: 'an-line-play', text: words(line), 'aria-label': t('an.playLine', { score: words(line), move: line.move }), onclick: () => playLine(line.pv, line.pv.length) }),
      el('span', { class: 'an-pv' }, ...moves)));
  });
  padLines(list);
}

/** Empty places up to LINES lines: the engine's lines come and go without moving the tree
 * and the explorer below them (a click there lands where the person aimed). */
function padLines(list) {
  while (list.children.length < LINES) {
    list.append(el('li', { class: 'an-line-empty', 'aria-hidden': 'true' },
      el('button', { type: 'button', class: 'an-line-play', disabled: true, tabindex: '-1' }, '\u00a0')));
  }
}

function renderTree() {
  const box = $('#an-tree');
  box.replaceChildren();
  const items = layout(st.root, st.startPly);
  if (!items.length) {
    box.append(el('p', { class: 'none', text: t('an.noMoves') }));
    return;
  }
  let current = null;
  const stack = [box];
  for (const item of items) {
    if (item.open) {
      const v = el('span', { class: 'an-variation' });
      stack[stack.length - 1].append(v);
      stack.push(v);
      continue;
    }
    if (item.close) {
      stack.pop();
      continue;
    }
    const here = samePath(item.path, st.path);
    const b = el('button', {
      type: 'button',
      class: `an-move${here ? ' current' : ''}`,
      'data-path': item.path.join('.'),
      'aria-current': here ? 'step' : null,
      text: item.number ? `${item.number} ${item.move}` : item.move,
      onclick: () => goTo(item.path),
    });
    if (here) current = b;
    stack[stack.length - 1].append(b);
  }
  if (current) current.scrollIntoView({ block: 'nearest' });
}

/* ------------------------------------------------------------------ export */

async function exportRecord() {
  try {
    const text = await api('POST', '/api/position/record', { position: st.root.after, variant: st.variant, moves: recordMoves(st.root) }, true);
    const area = $('#an-record');
    area.value = text;
    area.hidden = false;
    const link = $('#an-download');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.hidden = false;
  } catch (err) {
    toast(plainError(err));
  }
}

/* ------------------------------------------------------------------ wiring */

export function initAnalysis() {
  st.board = createBoard($('#an-board'), { onMove: playMove });
  st.explorer = createExplorer({ box: $('#an-explorer'), prefix: 'ex', onMove: playMove });
  $('#an-first').addEventListener('click', () => goTo(step(st.root, st.path, 'first')));
  $('#an-prev').addEventListener('click', () => goTo(step(st.root, st.path, 'back')));
  $('#an-next').addEventListener('click', () => goTo(step(st.root, st.path, 'next')));
  $('#an-last').addEventListener('click', () => goTo(step(st.root, st.path, 'last')));
  const flip = () => {
    st.board.flip();
    render();
  };
  $('#an-flip').addEventListener('click', flip);
  $('#an-promote').addEventListener('click', () => goTo(promote(st.root, st.path)));
  $('#an-delete').addEventListener('click', () => goTo(remove(st.root, st.path)));
  $('#an-export').addEventListener('click', exportRecord);
  $('#an-variant').addEventListener('change', (e) => chooseVariant(e.currentTarget.value));
  $('#an-engine-on').addEventListener('change', (e) => {
    setEngine(e.currentTarget.checked);
    if (e.currentTarget.checked) show();
  });
  document.addEventListener('keydown', (e) => {
    if (!st.open) return;
    if (e.target.closest && e.target.closest('input, textarea, select')) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const keys = {
      ArrowLeft: () => goTo(step(st.root, st.path, 'back')),
      ArrowRight: () => goTo(step(st.root, st.path, 'next')),
      Home: () => goTo(step(st.root, st.path, 'first')),
      End: () => goTo(step(st.root, st.path, 'last')),
      f: flip,
      F: flip,
      Escape: () => {
        st.board.select([]);
        render();
      },
    };
    if (keys[e.key]) {
      e.preventDefault();
      keys[e.key]();
    }
  });
}
