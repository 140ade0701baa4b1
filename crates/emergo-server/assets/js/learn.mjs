// The rules course at /learn (issue 21): a lesson per rule family, each a short text and a few
// positions with a goal. The page judges nothing: the board offers the legal moves the server
// sends, the server's judge (`POST /api/learn/{lesson}/{exercise}`) says whether a move solves
// the exercise, and a move the rules refuse is explained by the core's own refusal and rule.
// Progress is kept in this browser (localStorage) and, when signed in, on the account
// (`/api/learn/progress`): what the browser solved before is added to the account when the
// course is opened signed in, and the page shows both together.
import { $, el, store } from './dom.mjs';
import { api, plainError } from './api.mjs';
import { me, onMe } from './account.mjs';
import { union, toAccount, fromAccount, lessonDone } from './learn/progress.mjs';
import { t, lang } from './i18n.mjs';
import { createBoard } from './board.mjs';

const PROGRESS_KEY = 'emergo.learn';

const ln = {
  course: null, // GET /api/learn
  lesson: 0, // index into course.lessons
  exercise: 0, // index into the lesson's exercises
  played: [], // the line so far (the solver's moves and the replies)
  view: null, // POST /api/position/moves for the position on the board
  solved: false,
  asked: 0, // the number of the last question, so an old answer never wins
  open: false,
  board: null,
  navigate: () => {},
  account: null, // the signed-in account's progress, as progress() gives it; null when anonymous
  synced: null, // the name of the account `account` is of
};

/** The course's text in the page's language (English where the course has none). */
function say(text) {
  return (text && (text[lang()] || text.en)) || '';
}

/** Which exercises this browser has solved: {lessonId: [index, ...]}. */
function local() {
  const p = store.get(PROGRESS_KEY);
  return p && typeof p === 'object' && !Array.isArray(p) ? p : {};
}

/** Which exercises are solved, here or on the account signed in: {lessonId: [index, ...]}. */
function progress() {
  return union(local(), ln.account || {});
}

/** Reads the account's progress (adding this browser's to it first); anonymous: none. */
async function syncAccount(who) {
  if (!ln.course) return;
  if (!who) {
    ln.account = null;
    ln.synced = null;
  } else if (ln.synced !== who.name) {
    ln.synced = who.name;
    const mine = toAccount(local(), ln.course);
    try {
      const v = Object.keys(mine).length
        ? await api('POST', '/api/learn/progress', { solved: mine })
        : await api('GET', '/api/learn/progress');
      if (ln.synced === who.name) ln.account = fromAccount(v.solved);
    } catch (err) {
      // The course works without it: this browser's progress is still shown.
      ln.synced = null;
      return;
    }
  } else {
    return;
  }
  if (ln.open) drawList();
}

function markSolved(lessonId, index) {
  // The server keeps a signed-in player's solution itself (the judge records it).
  if (ln.account) ln.account = union(ln.account, { [lessonId]: [index] });
  const p = local();
  const done = new Set(Array.isArray(p[lessonId]) ? p[lessonId] : []);
  done.add(index);
  p[lessonId] = [...done].sort((a, b) => a - b);
  store.set(PROGRESS_KEY, p);
}

export function initLearn(navigate) {
  ln.navigate = navigate;
  ln.board = createBoard($('#learn-board'), { onMove: (text) => tryMove(text) });
  $('#learn-hint').addEventListener('click', () => {
    const ex = exercise();
    if (ex) status(say(ex.hint), 'hint');
  });
  $('#learn-retry').addEventListener('click', () => startExercise());
  $('#learn-next').addEventListener('click', () => next());
  onMe((who) => {
    syncAccount(who);
  });
  $('#learn-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('#learn-text').value.trim();
    if (text) tryMove(text);
  });
}

export async function showLearn(params) {
  ln.open = true;
  for (const id of ['#lobby', '#game', '#conn']) {
    const e = $(id);
    if (e) e.hidden = true;
  }
  $('#learn').hidden = false;
  document.title = `${t('learn.title')} · ${t('title')}`;
  if (!ln.course) {
    try {
      ln.course = await api('GET', '/api/learn');
    } catch (err) {
      status(plainError(err), 'error');
      return;
    }
  }
  if (!ln.open) return;
  await syncAccount(me());
  if (!ln.open) return;
  const lessons = ln.course.lessons;
  const wanted = lessons.findIndex((l) => l.id === params.get('lesson'));
  const p = progress();
  ln.lesson = wanted >= 0 ? wanted : Math.max(0, lessons.findIndex((l) => !lessonDone(p, l)));
  const n = Number(params.get('exercise'));
  ln.exercise = Number.isInteger(n) && n >= 1 && n <= lessons[ln.lesson].exercises.length ? n - 1 : 0;
  drawList();
  startExercise();
}

export function closeLearn() {
  if (!ln.open) return;
  ln.open = false;
  ln.asked++;
  $('#learn').hidden = true;
}

/** Redraws the words after a change of language. */
export function relabelLearn() {
  if (!ln.open || !ln.course) return;
  drawList();
  drawLesson();
}

function lesson() {
  return ln.course && ln.course.lessons[ln.lesson];
}

function exercise() {
  const l = lesson();
  return l && l.exercises[ln.exercise];
}

function drawList() {
  const list = $('#learn-lessons');
  const p = progress();
  list.replaceChildren(
    ...ln.course.lessons.map((l, i) => {
      const b = el('button', { type: 'button', class: i === ln.lesson ? 'learn-lesson current' : 'learn-lesson' });
      b.textContent = `${lessonDone(p, l) ? '✓ ' : ''}${say(l.title)}`;
      const solved = (p[l.id] || []).filter((i) => i >= 0 && i < l.exercises.length).length;
      if (solved > 0 && !lessonDone(p, l)) {
        b.append(' ', el('span', { class: 'learn-solved' }, t('learn.solvedOf', { n: solved, of: l.exercises.length })));
      }
      if (i === ln.lesson) b.setAttribute('aria-current', 'step');
      b.addEventListener('click', () => ln.navigate(`/learn?lesson=${encodeURIComponent(l.id)}`));
      return el('li', {}, b);
    }),
  );
}

function drawLesson() {
  const l = lesson();
  const ex = exercise();
  $('#learn-title').textContent = say(l.title);
  $('#learn-rules').textContent = l.rules.join(', ');
  $('#learn-lesson-text').textContent = say(l.text);
  $('#learn-count').textContent = t('learn.exercise', { n: ln.exercise + 1, of: l.exercises.length });
  $('#learn-goal').textContent = say(ex.goal);
  const tries = $('#learn-tries');
  tries.replaceChildren(
    ...ex.refused.map((r) => {
      const b = el('button', { type: 'button', class: 'learn-try mono' });
      b.textContent = t('learn.try', { move: r.move });
      b.addEventListener('click', () => tryMove(r.move));
      return b;
    }),
  );
  $('#learn-next').hidden = !ln.solved;
}

function status(text, kind) {
  const s = $('#learn-status');
  s.textContent = text;
  s.dataset.kind = kind || '';
}

async function showPosition(position) {
  const asked = ++ln.asked;
  const v = await api('POST', '/api/position/moves', { position });
  if (asked !== ln.asked || !ln.open) return null;
  ln.view = v;
  ln.board.set({ board: v.board, legal: ln.solved ? null : v.legal_moves, last: null });
  return v;
}

async function startExercise() {
  ln.played = [];
  ln.solved = false;
  drawLesson();
  status('', '');
  $('#learn-text').value = '';
  try {
    await showPosition(exercise().position);
  } catch (err) {
    status(plainError(err), 'error');
  }
}

/** The position after `text` from the one on the board (the server's `after` of that move). */
function after(text) {
  const m = ln.view && ln.view.legal_moves.find((x) => x.move === text);
  return m ? m.after : null;
}

async function tryMove(text) {
  if (ln.solved) return;
  const l = lesson();
  const asked = ++ln.asked;
  let v;
  try {
    v = await api('POST', `/api/learn/${encodeURIComponent(l.id)}/${ln.exercise + 1}`, { played: ln.played, move: text });
  } catch (err) {
    status(plainError(err), 'error');
    return;
  }
  if (asked !== ln.asked || !ln.open) return;
  if (v.verdict === 'refused') {
    const r = v.refusal;
    status(t('learn.refused', { move: text, why: t(`refusal.${r.reason}`), rule: r.rule }), 'refused');
    ln.board.select([]);
    return;
  }
  if (v.verdict === 'unreadable') {
    status(t('learn.unreadable', { move: text }), 'error');
    return;
  }
  if (v.verdict === 'not_the_goal') {
    status(t('learn.notTheGoal', { move: text }), 'wrong');
    ln.board.select([]);
    return;
  }
  // A move of a solving line: played on the board (by the server's text of it).
  const legal = ln.view.legal_moves.find((x) => x.move === text) || null;
  const moved = legal ? legal.move : text;
  ln.played.push(moved);
  const next = after(moved);
  if (v.verdict === 'solved') {
    ln.solved = true;
    markSolved(l.id, ln.exercise);
    status(`${t('learn.solved')} ${say(exercise().explain)}`, 'solved');
    if (next) await showPosition(next);
    drawList();
    drawLesson();
    $('#learn-next').focus();
    return;
  }
  // A reply: shown after the solver's move, then the solver goes on.
  if (!next) return;
  const mid = await showPosition(next);
  if (!mid) return;
  const replied = mid.legal_moves.find((x) => x.move === v.reply);
  ln.played.push(v.reply);
  status(t('learn.reply', { move: v.reply }), 'reply');
  if (replied) {
    const then = await showPosition(replied.after);
    if (then) ln.board.set({ last: { passed: replied.passed, captured: replied.captured } });
  }
}

function next() {
  const l = lesson();
  if (ln.exercise + 1 < l.exercises.length) {
    ln.navigate(`/learn?lesson=${encodeURIComponent(l.id)}&exercise=${ln.exercise + 2}`);
  } else if (ln.lesson + 1 < ln.course.lessons.length) {
    ln.navigate(`/learn?lesson=${encodeURIComponent(ln.course.lessons[ln.lesson + 1].id)}`);
  } else {
    status(t('learn.allDone'), 'solved');
  }
}
