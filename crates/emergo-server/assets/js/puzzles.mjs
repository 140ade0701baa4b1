// The puzzle trainer at /puzzles (issue 21): a position from an engine game where one line wins.
// The page judges nothing by the rules: the board offers the legal moves the server sends
// (`POST /api/position/moves`), a move is right when it reaches the position the line's move
// reaches (two capture routes to one position are one move), forced plies (every legal move
// reaching one position) are played for the solver, and the result is sent once
// (`POST /api/puzzles/{id}/attempt`). Streak: puzzles of rising rating one after another until
// the first mistake. Storm: three minutes of them, unrated, with the clock and score of
// puzzles/storm.mjs. After a puzzle: replay its line, vote on it; the dashboard of one's
// attempts; the daily puzzle on the lobby.
import { $, el } from './dom.mjs';
import { api, plainError } from './api.mjs';
import { t } from './i18n.mjs';
import { me, onMe } from './account.mjs';
import { createBoard } from './board.mjs';
import { fillVariants } from './variants.mjs';
import { startStorm, rightMove, puzzleSolved, wrongMove, endStorm, isOver, remaining, report, clockText } from './puzzles/storm.mjs';

const REPLY_DELAY_MS = 350;
/** A storm's replies come quicker. */
const STORM_REPLY_MS = 150;
const REPLAY_STEP_MS = 700;
const STORM_TICK_MS = 200;

const pz = {
  puzzle: null, // GET /api/puzzles/next or /api/puzzles/{id}
  ply: 0, // index into puzzle.line of the next move
  view: null, // POST /api/position/moves of the position on the board
  state: 'idle', // 'play', 'solved', 'failed', 'loading' (the next one asked for)
  sent: false, // the attempt was sent
  streak: null, // null, or the number solved in a row in streak mode
  run: [], // the puzzles still to come of a streak or storm (GET /api/puzzles/run), easiest first
  storm: null, // null, or the storm's state (puzzles/storm.mjs)
  stormTimer: null,
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
    stopStorm();
    pz.streak = 0;
    pz.run = [];
    drawStreak();
    loadNext();
  });
  $('#puzzles-storm').addEventListener('click', () => beginStorm());
  $('#puzzles-replay').addEventListener('click', () => replay());
  $('#puzzles-vote-up').addEventListener('click', () => vote(true));
  $('#puzzles-vote-down').addEventListener('click', () => vote(false));
  $('#puzzles-dashboard').addEventListener('toggle', () => {
    if ($('#puzzles-dashboard').open) loadDashboard();
  });
  onMe(() => {
    if (pz.open) drawInfo();
  });
  $('#puzzles-theme').addEventListener('change', () => loadNext());
  $('#puzzles-variant').addEventListener('change', () => {
    // Another board: the streak or storm of this one ends.
    stopStorm();
    pz.streak = null;
    pz.run = [];
    drawStreak();
    loadNext();
  });
  $('#puzzles-analysis').addEventListener('click', () => {
    if (pz.puzzle) pz.navigate(`/analysis?position=${encodeURIComponent(pz.puzzle.position)}&variant=${encodeURIComponent(pz.puzzle.variant)}`);
  });
}

export async function showPuzzles(params) {
  pz.open = true;
  for (const id of ['#lobby', '#game', '#conn']) {
    const e = $(id);
    if (e) e.hidden = true;
  }
  $('#puzzles').hidden = false;
  const select = $('#puzzles-variant');
  const board = select.value;
  fillVariants(select);
  select.value = board || 'emergo';
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
  stopStorm();
  pz.open = false;
  pz.asked++;
  pz.round++;
  $('#puzzles').hidden = true;
}

export function relabelPuzzles() {
  drawDaily();
  if (!pz.open) return;
  fillVariants($('#puzzles-variant'));
  drawInfo();
  drawStreak();
  drawStorm();
}

let daily = null;

/** The lobby's card of the daily puzzle (GET /api/puzzles/daily). */
export async function showDaily() {
  try {
    daily = await api('GET', '/api/puzzles/daily');
  } catch {
    daily = null;
  }
  drawDaily();
}

function drawDaily() {
  const card = $('#daily');
  if (!card) return;
  card.hidden = !daily;
  if (!daily) return;
  const p = daily.puzzle;
  $('#daily-info').textContent = t('daily.info', { rating: p.rating, themes: p.themes.map(themeName).join(', ') });
  const turn = p.position.startsWith('B') ? t('puzzles.black') : t('puzzles.white');
  $('#daily-turn').textContent = t('daily.turn', { color: turn });
  $('#daily-solve').setAttribute('href', `/puzzles?id=${encodeURIComponent(p.id)}`);
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
  const storming = pz.storm !== null;
  const done = pz.state === 'solved' || pz.state === 'failed';
  $('#puzzles-next').hidden = pz.state === 'play' || pz.state === 'replay' || storming;
  $('#puzzles-retry').hidden = pz.state !== 'failed' || pz.streak !== null || storming;
  $('#puzzles-replay').hidden = !done || storming;
  // A vote from an account that tried the puzzle (the server checks it too).
  $('#puzzles-vote').hidden = !done || storming || !me();
  if (p && pz.state === 'play') {
    const turn = p.position.startsWith('B') ? t('puzzles.black') : t('puzzles.white');
    status(t('puzzles.yourTurn', { color: turn }), '');
  }
}

function drawStorm() {
  const c = $('#puzzles-storm-clock');
  if (!pz.storm) {
    c.textContent = '';
    return;
  }
  const now = Date.now();
  c.textContent = t('puzzles.stormClock', {
    time: clockText(remaining(pz.storm, now)),
    score: pz.storm.solved,
    combo: pz.storm.combo,
  });
  c.dataset.over = String(isOver(pz.storm, now));
}

function stopStorm() {
  clearInterval(pz.stormTimer);
  pz.stormTimer = null;
  pz.storm = null;
  $('#puzzles-storm-clock').textContent = '';
}

/** Starts a storm: a run of rising puzzles, three minutes on the clock. */
async function beginStorm() {
  stopStorm();
  pz.streak = null;
  drawStreak();
  pz.round++;
  const asked = ++pz.asked;
  try {
    const run = await api('GET', `/api/puzzles/run?count=60&variant=${encodeURIComponent(board())}`);
    if (asked !== pz.asked || !pz.open) return;
    pz.run = run.puzzles;
  } catch (err) {
    status(plainError(err), 'error');
    return;
  }
  pz.storm = startStorm(Date.now());
  pz.stormTimer = setInterval(() => {
    drawStorm();
    if (pz.storm && isOver(pz.storm, Date.now())) finishStorm();
  }, STORM_TICK_MS);
  drawStorm();
  loadNext();
}

/** The storm's end: the board stops, the score is shown and, signed in, kept. */
async function finishStorm() {
  if (!pz.storm || pz.state === 'stormOver') return;
  const now = Date.now();
  const run = endStorm(pz.storm);
  pz.storm = run;
  clearInterval(pz.stormTimer);
  pz.stormTimer = null;
  pz.round++;
  pz.state = 'stormOver';
  pz.board.set({ legal: null });
  mark();
  drawStorm();
  let text = t('puzzles.stormOver', { score: run.solved, combo: run.bestCombo, errors: run.errors });
  status(text, 'solved');
  if (me()) {
    try {
      const kept = await api('POST', '/api/puzzles/storm', report(run, now));
      text += ` ${t('puzzles.stormBest', { best: kept.best })}`;
      status(text, 'solved');
    } catch {
      // The run is shown all the same.
    }
  }
  pz.storm = null;
  drawInfo();
  $('#puzzles-storm-clock').textContent = text;
}

function drawStreak() {
  $('#puzzles-streak-count').textContent = pz.streak === null ? '' : t('puzzles.streakCount', { n: pz.streak });
}

/** The next puzzle of a streak or storm, from its run (another run when a streak has used one). */
/** The board the trainer's puzzles are chosen on. */
function board() {
  return $('#puzzles-variant').value || 'emergo';
}

async function nextOfRun(asked) {
  if (pz.run.length === 0 && pz.streak !== null) {
    pz.run = (await api('GET', `/api/puzzles/run?count=40&variant=${encodeURIComponent(board())}`)).puzzles;
    if (asked !== pz.asked) return null;
  }
  return pz.run.shift() || null;
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
    const running = pz.streak !== null || pz.storm !== null;
    const p = running
      ? await nextOfRun(asked)
      : await api('GET', `/api/puzzles/next?variant=${encodeURIComponent(board())}${theme ? `&theme=${encodeURIComponent(theme)}` : ''}`);
    if (asked !== pz.asked || !pz.open) return;
    if (!p && pz.storm) return finishStorm();
    start(p);
  } catch (err) {
    status(plainError(err), 'error');
  }
}

async function showPosition(position, last) {
  const asked = ++pz.asked;
  const v = await api('POST', '/api/position/moves', { position, variant: pz.puzzle.variant });
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
  $('#puzzles-vote-note').textContent = '';
  // The puzzle's board, the solver's side at the bottom.
  pz.board.set({ variant: p.variant, orientation: p.position.startsWith('B') ? 'black' : 'white' });
  $('#puzzles').dataset.variant = p.variant;
  $('#puzzles-variant').value = p.variant;
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
  await new Promise((r) => setTimeout(r, pz.storm ? STORM_REPLY_MS : REPLY_DELAY_MS));
  if (!pz.open || round !== pz.round) return false;
  return playLine();
}

async function tryMove(text) {
  if (pz.state !== 'play' || pz.ply % 2 !== 0) return;
  const round = pz.round;
  const played = legal(text);
  const right = legal(pz.puzzle.line[pz.ply]);
  if (!played || !right) return;
  if (pz.storm && isOver(pz.storm, Date.now())) return finishStorm();
  if (played.after !== right.after) {
    if (pz.storm) {
      // A storm goes on with the next puzzle, ten seconds poorer.
      pz.storm = wrongMove(pz.storm, Date.now());
      pz.state = 'failed';
      mark();
      drawStorm();
      status(t('puzzles.wrong', { move: played.move, right: right.move }), 'wrong');
      if (isOver(pz.storm, Date.now())) return finishStorm();
      pz.round++;
      const round = pz.round;
      setTimeout(() => {
        if (pz.open && pz.storm && round === pz.round) loadNext();
      }, REPLY_DELAY_MS);
      return;
    }
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
  if (pz.storm) {
    pz.storm = rightMove(pz.storm, Date.now());
    drawStorm();
  }
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
  if (pz.storm) {
    pz.storm = puzzleSolved(pz.storm, Date.now());
    drawStorm();
    status(t('puzzles.solved'), 'solved');
    const round = pz.round;
    setTimeout(() => {
      if (pz.open && pz.storm && round === pz.round) loadNext();
    }, STORM_REPLY_MS);
    return;
  }
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

/** Plays the puzzle's line again from its position, a move every REPLAY_STEP_MS. */
async function replay() {
  const p = pz.puzzle;
  if (!p) return;
  const back = pz.state;
  const round = ++pz.round;
  pz.state = 'replay';
  drawInfo();
  mark();
  try {
    let v = await showPosition(p.position);
    for (const text of p.line) {
      if (!v || round !== pz.round) return;
      await new Promise((r) => setTimeout(r, REPLAY_STEP_MS));
      if (round !== pz.round || !pz.open) return;
      const m = v.legal_moves.find((x) => x.move === text);
      if (!m) break;
      v = await showPosition(m.after, { passed: m.passed, captured: m.captured });
    }
  } catch (err) {
    status(plainError(err), 'error');
  }
  if (round !== pz.round) return;
  pz.state = back;
  mark();
  drawInfo();
}

async function vote(up) {
  if (!pz.puzzle) return;
  try {
    await api('POST', `/api/puzzles/${encodeURIComponent(pz.puzzle.id)}/vote`, { up });
    $('#puzzles-vote-note').textContent = t('puzzles.voted');
  } catch (err) {
    $('#puzzles-vote-note').textContent = plainError(err);
  }
}

/** The dashboard, drawn into its <details> when opened. */
async function loadDashboard() {
  const box = $('#puzzles-dashboard-body');
  if (!me()) {
    box.replaceChildren(el('p', { class: 'note', text: t('puzzles.dashboard.signIn') }));
    return;
  }
  try {
    const d = await api('GET', '/api/puzzles/dashboard');
    const rating = d.rating
      ? t('puzzles.dashboard.rating', { rating: d.rating.rating, rd: d.rating.rd })
      : t('puzzles.dashboard.noRating');
    const kids = [
      el('p', { text: rating }),
      el('p', { text: t('puzzles.dashboard.attempts', { wins: d.wins, attempts: d.attempts }) }),
    ];
    if (d.storm) kids.push(el('p', { text: t('puzzles.dashboard.storm', { best: d.storm.best, runs: d.storm.runs }) }));
    if (d.themes.length) {
      kids.push(el('ul', { class: 'dashboard-themes' },
        ...d.themes.map((th) => el('li', { text: t('puzzles.dashboard.theme', { theme: themeName(th.theme), wins: th.wins, attempts: th.attempts }) }))));
    }
    if (d.recent.length) {
      kids.push(el('h3', { text: t('puzzles.dashboard.recent') }));
      kids.push(el('ul', { class: 'dashboard-recent' },
        ...d.recent.map((a) => el('li', {},
          el('a', { href: `/puzzles?id=${encodeURIComponent(a.id)}`, 'data-link': true, text: t('puzzles.dashboard.puzzle', { rating: a.puzzle_rating }) }),
          ` ${a.win ? t('puzzles.dashboard.solved') : t('puzzles.dashboard.failed')} · ${t('puzzles.dashboard.after', { rating: a.rating_after })}`))));
    }
    box.replaceChildren(...kids);
  } catch (err) {
    box.replaceChildren(el('p', { class: 'note', text: plainError(err) }));
  }
}

async function send(win) {
  if (pz.storm) return null;
  if (pz.sent) return null;
  pz.sent = true;
  try {
    return await api('POST', `/api/puzzles/${encodeURIComponent(pz.puzzle.id)}/attempt`, { win });
  } catch {
    return null;
  }
}
