// The puzzle trainer at /puzzles (issue 21): a position from an engine game where one line wins.
// The page judges nothing by the rules: the board offers the legal moves the server sends
// (`POST /api/position/moves`), a move is right when it reaches the position the line's move
// reaches (two capture routes to one position are one move), forced plies (every legal move
// reaching one position) are played for the solver, and the result is sent once
// (`POST /api/puzzles/{id}/attempt`). Streak: puzzles one after another until the first mistake.
import { $ } from './dom.mjs';
import { api, plainError } from './api.mjs';
import { t } from './i18n.mjs';
import { createBoard } from './board.mjs';

const REPLY_DELAY_MS = 350;

const pz = {
  puzzle: null, // GET /api/puzzles/next or /api/puzzles/{id}
  ply: 0, // index into puzzle.line of the next move
  view: null, // POST /api/position/moves of the position on the board
  state: 'idle', // 'play', 'solved', 'failed', 'loading' (the next one asked for)
  sent: false, // the attempt was sent
  streak: null, // null, or the number solved in a row in streak mode
  asked: 0,
  // The puzzle shown now, counted: a chain of replies and forced plies of an earlier puzzle
  // (or an earlier start of this one) stops when it changes.
  round: 0,
  open: false,
  board: null,
  navigate: () => {},
};

export function initPuzzles(navigate) {
  pz.navigate = navigate;
  pz.board = createBoard($('#puzzles-board'), { onMove: (text) => tryMove(text) });
  $('#puzzles-next').addEventListener('click', () => loadNext());
  $('#puzzles-retry').addEventListener('click', () => start(pz.puzzle));
  $('#puzzles-streak').addEventListener('click', () => {
    pz.streak = 0;
    drawStreak();
    loadNext();
  });
  $('#puzzles-theme').addEventListener('change', () => loadNext());
  $('#puzzles-analysis').addEventListener('click', () => {
    if (pz.puzzle) pz.navigate(`/analysis?position=${encodeURIComponent(pz.puzzle.position)}`);
  });
}

export async function showPuzzles(params) {
  pz.open = true;
  for (const id of ['#lobby', '#game', '#conn']) {
    const e = $(id);
    if (e) e.hidden = true;
  }
  $('#puzzles').hidden = false;
  document.title = `${t('puzzles.title')} · ${t('title')}`;
  const id = params.get('id');
  if (id) {
    try {
      start(await api('GET', `/api/puzzles/${encodeURIComponent(id)}`));
    } catch (err) {
      status(plainError(err), 'error');
    }
  } else if (!pz.puzzle) {
    loadNext();
  }
}

export function closePuzzles() {
  if (!pz.open) return;
  pz.open = false;
  pz.asked++;
  pz.round++;
  $('#puzzles').hidden = true;
}

export function relabelPuzzles() {
  if (!pz.open) return;
  drawInfo();
  drawStreak();
}

function status(text, kind) {
  const s = $('#puzzles-status');
  s.textContent = text;
  s.dataset.kind = kind || '';
}

/** A theme's name in the page's language (the generator's word when it has none). */
function themeName(theme) {
  const won = theme.match(/^win_in_(\d+)$/);
  if (won) return t('puzzles.theme.win_in', { count: won[1] });
  const key = `puzzles.theme.${theme}`;
  const name = t(key);
  return name === key ? theme : name;
}

function drawInfo() {
  const p = pz.puzzle;
  $('#puzzles-info').textContent = p ? t('puzzles.info', { rating: p.rating, themes: p.themes.map(themeName).join(', ') }) : '';
  $('#puzzles-next').hidden = pz.state === 'play';
  $('#puzzles-retry').hidden = pz.state !== 'failed' || pz.streak !== null;
  if (p && pz.state === 'play') {
    const turn = p.position.startsWith('B') ? t('puzzles.black') : t('puzzles.white');
    status(t('puzzles.yourTurn', { color: turn }), '');
  }
}

function drawStreak() {
  $('#puzzles-streak-count').textContent = pz.streak === null ? '' : t('puzzles.streakCount', { n: pz.streak });
}

async function loadNext() {
  const theme = $('#puzzles-theme').value;
  // The puzzle on the board is no longer played: its replies stop, and its board takes no move
  // until the next one is shown.
  pz.round++;
  if (pz.puzzle) {
    pz.state = 'loading';
    pz.board.set({ legal: null });
    mark();
  }
  const asked = ++pz.asked;
  try {
    const p = await api('GET', `/api/puzzles/next${theme ? `?theme=${encodeURIComponent(theme)}` : ''}`);
    if (asked !== pz.asked || !pz.open) return;
    start(p);
  } catch (err) {
    status(plainError(err), 'error');
  }
}

async function showPosition(position, last) {
  const asked = ++pz.asked;
  const v = await api('POST', '/api/position/moves', { position });
  if (asked !== pz.asked || !pz.open) return null;
  pz.view = v;
  pz.board.set({ board: v.board, legal: pz.state === 'play' ? v.legal_moves : null, last: last || null });
  mark();
  return v;
}

/** The puzzle, the ply reached and the state, on the section (for tests and styles). */
function mark() {
  const d = $('#puzzles').dataset;
  d.puzzle = pz.puzzle ? pz.puzzle.id : '';
  d.ply = String(pz.ply);
  d.state = pz.state;
}

/** The legal move of the board named `text`. */
function legal(text) {
  return pz.view && pz.view.legal_moves.find((m) => m.move === text);
}

/** Whether every legal move of the board reaches one position. */
function forced() {
  const moves = (pz.view && pz.view.legal_moves) || [];
  return moves.length > 0 && moves.every((m) => m.after === moves[0].after);
}

async function start(p) {
  if (!p) return;
  const round = ++pz.round;
  pz.puzzle = p;
  pz.ply = 0;
  pz.state = 'play';
  pz.sent = false;
  // The solver's side at the bottom.
  pz.board.set({ orientation: p.position.startsWith('B') ? 'black' : 'white' });
  drawInfo();
  try {
    if (!(await showPosition(p.position)) || round !== pz.round) return;
    await autoPlay();
  } catch (err) {
    status(plainError(err), 'error');
  }
}

/**
 * Plays the line's move at `pz.ply` (a reply, or a forced move of the solver); false when it
 * could not, or when another puzzle (or another start) took the board meanwhile.
 */
async function playLine() {
  const round = pz.round;
  const m = legal(pz.puzzle.line[pz.ply]);
  if (!m) return false;
  pz.ply++;
  const v = await showPosition(m.after, { passed: m.passed, captured: m.captured });
  return v !== null && round === pz.round;
}

/** The solver's forced plies, played for it. */
async function autoPlay() {
  const round = pz.round;
  while (round === pz.round && pz.state === 'play' && pz.ply % 2 === 0 && pz.ply < pz.puzzle.line.length && forced()) {
    if (!(await playLine())) return;
    if (pz.ply >= pz.puzzle.line.length) return solved();
    if (!(await reply())) return;
  }
}

/** The opponent's reply, after a pause; false when it was not played. */
async function reply() {
  if (pz.ply >= pz.puzzle.line.length) return false;
  const round = pz.round;
  await new Promise((r) => setTimeout(r, REPLY_DELAY_MS));
  if (!pz.open || round !== pz.round) return false;
  return playLine();
}

async function tryMove(text) {
  if (pz.state !== 'play' || pz.ply % 2 !== 0) return;
  const round = pz.round;
  const played = legal(text);
  const right = legal(pz.puzzle.line[pz.ply]);
  if (!played || !right) return;
  if (played.after !== right.after) {
    pz.state = 'failed';
    mark();
    status(t('puzzles.wrong', { move: played.move, right: right.move }), 'wrong');
    // Try again (or Next) with the verdict, not after the board and the server have answered.
    drawInfo();
    await showPosition(right.after, { passed: right.passed, captured: right.captured });
    await send(false);
    const ended = pz.streak;
    if (ended !== null) {
      pz.streak = null;
      status(t('puzzles.streakOver', { move: played.move, right: right.move, n: ended }), 'wrong');
    }
    drawInfo();
    return;
  }
  pz.ply++;
  const v = await showPosition(played.after, { passed: played.passed, captured: played.captured });
  if (!v || round !== pz.round) return;
  if (pz.ply >= pz.puzzle.line.length) return solved();
  status(t('puzzles.right'), 'reply');
  if (!(await reply())) return;
  await autoPlay();
}

async function solved() {
  pz.state = 'solved';
  mark();
  pz.board.set({ legal: null });
  const answer = await send(true);
  let text = t('puzzles.solved');
  if (answer && answer.player) text += ` ${t('puzzles.rating', { rating: answer.player.rating })}`;
  status(text, 'solved');
  if (pz.streak !== null) {
    pz.streak++;
    drawStreak();
    drawInfo();
    const round = pz.round;
    setTimeout(() => {
      if (pz.open && pz.streak !== null && round === pz.round) loadNext();
    }, REPLY_DELAY_MS * 2);
    return;
  }
  drawInfo();
}

async function send(win) {
  if (pz.sent) return null;
  pz.sent = true;
  try {
    return await api('POST', `/api/puzzles/${encodeURIComponent(pz.puzzle.id)}/attempt`, { win });
  } catch {
    return null;
  }
}
