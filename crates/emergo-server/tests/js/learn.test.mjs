// The rules course's progress (learn/progress.mjs): the browser's and the account's together,
// and the API's numbering (from 1) against the page's (from 0).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { union, toAccount, fromAccount, lessonDone } from '../../assets/js/learn/progress.mjs';

const course = {
  lessons: [
    { id: 'board', exercises: [{}, {}] },
    { id: 'entering', exercises: [{}, {}, {}] },
  ],
};

test('the browser and the account progress join, each exercise once and in order', () => {
  assert.deepEqual(union({ board: [1], entering: [2, 0] }, { entering: [0, 1], jump: [0] }), {
    board: [1],
    entering: [0, 1, 2],
    jump: [0],
  });
  assert.deepEqual(union({ board: 'junk' }, {}), {});
});

test('the account is sent only the course lessons and exercises, numbered from 1', () => {
  assert.deepEqual(toAccount({ board: [0, 1, 7, -1, 0.5], gone: [0], entering: [] }, course), { board: [1, 2] });
  assert.deepEqual(fromAccount({ entering: [1, 3] }), { entering: [0, 2] });
  assert.deepEqual(fromAccount(toAccount({ entering: [2] }, course)), { entering: [2] });
});

test('a lesson is done when every exercise of it is solved', () => {
  assert.equal(lessonDone({ board: [0, 1] }, course.lessons[0]), true);
  assert.equal(lessonDone({ board: [1] }, course.lessons[0]), false);
  assert.equal(lessonDone({}, course.lessons[1]), false);
});
