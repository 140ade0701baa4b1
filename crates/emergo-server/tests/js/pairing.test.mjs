// The quick pairing grid: which seek a button takes, which own seek shows as waiting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QUICK, quickMatch, ownQuickSeek } from '../../assets/js/pairing.mjs';

const seek = (id, owner, time, more = {}) => ({ id, owner, time, rated: true, opponent: null, game: null, ...more });

test('a grid button takes the oldest open rated seek of its time control by someone else', () => {
  const seeks = [
    seek('mine', 'alice', '3+2'),
    seek('casual', 'carol', '3+2', { rated: false }),
    seek('challenge', 'dave', '3+2', { opponent: 'erin' }),
    seek('other-time', 'bob', '5+3'),
    seek('oldest', 'bob', '3+2'),
    seek('newer', 'carol', '3+2'),
  ];
  assert.equal(quickMatch(seeks, '3+2', 'alice').id, 'oldest');
  assert.equal(quickMatch(seeks, '10+5', 'alice'), null);
  assert.equal(quickMatch([seek('mine', 'alice', '3+2')], '3+2', 'alice'), null, 'never one\'s own seek');
});

test('one\'s own open rated seek of a grid time control shows as waiting', () => {
  assert.equal(ownQuickSeek([seek('b', 'bob', '3+2'), seek('a', 'alice', 'corr:3')], 'alice').id, 'a');
  assert.equal(ownQuickSeek([seek('a', 'alice', '2+1')], 'alice'), null, '2+1 is not on the grid');
  assert.equal(ownQuickSeek([seek('a', 'alice', '3+2', { game: 'g1' })], 'alice'), null, 'a taken seek');
  assert.equal(QUICK.length, 8);
});

test('issue 20: the grid pairs on the 9×9 board only: a seek of another board is neither taken nor shown as waiting', () => {
  const seeks = [seek('hex', 'bob', '3+2', { variant: 'hex' }), seek('square', 'carol', '3+2', { variant: 'emergo' })];
  assert.equal(quickMatch(seeks, '3+2', 'alice').id, 'square');
  assert.equal(quickMatch([seek('small', 'bob', '3+2', { variant: '7x7' })], '3+2', 'alice'), null);
  assert.equal(ownQuickSeek([seek('a', 'alice', '3+2', { variant: 'hex' })], 'alice'), null);
});
