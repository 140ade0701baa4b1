// The rules course's progress as the page keeps it ({lessonId: [index, ...]}, indices from 0)
// and as the API takes it (`/api/learn/progress`: exercise numbers from 1): pure functions,
// tested with `node --test` (tests/js/learn.test.mjs).

/** The exercises solved in `a` or in `b` (each {lessonId: [index, ...]}). */
export function union(a, b) {
  const out = {};
  for (const p of [a, b]) {
    for (const [id, done] of Object.entries(p)) {
      if (!Array.isArray(done)) continue;
      out[id] = [...new Set([...(out[id] || []), ...done])].sort((x, y) => x - y);
    }
  }
  return out;
}

/**
 * The browser's progress as the API takes it (exercise numbers from 1), of `course`'s lessons
 * and exercises only: the server refuses a list naming one it does not have.
 */
export function toAccount(p, course) {
  const solved = {};
  for (const l of course.lessons) {
    const done = (p[l.id] || []).filter((i) => Number.isInteger(i) && i >= 0 && i < l.exercises.length);
    if (done.length) solved[l.id] = done.map((i) => i + 1);
  }
  return solved;
}

/** The API's progress (numbers from 1) as progress() gives it (indices from 0). */
export function fromAccount(solved) {
  const p = {};
  for (const [id, numbers] of Object.entries(solved || {})) p[id] = numbers.map((n) => n - 1);
  return p;
}

/** Whether every exercise of `lesson` is solved, by `p` (progress()). */
export function lessonDone(p, lesson) {
  const done = new Set(p[lesson.id] || []);
  return lesson.exercises.every((_, i) => done.has(i));
}

