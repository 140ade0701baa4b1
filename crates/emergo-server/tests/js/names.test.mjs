// Issue 24: a bot account's name is marked BOT wherever it is shown; a deleted account's name
// is "deleted player".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shownName, shownOpponent } from '../../assets/js/names.mjs';
import { setLang, t } from '../../assets/js/i18n.mjs';

test('a bot is marked BOT before its name, a person is not', () => {
  setLang('en');
  assert.equal(shownName('robo', true), 'BOT robo');
  assert.equal(shownName('alice'), 'alice');
  assert.equal(shownName('alice', false), 'alice');
});

test('a deleted account is a deleted player, bot or not', () => {
  setLang('en');
  assert.equal(shownName(null, true), t('player.deleted'));
  assert.equal(shownName(''), t('player.deleted'));
});

test('a game line marks its opponent', () => {
  setLang('en');
  assert.equal(shownOpponent({ opponent: 'robo', opponent_bot: true }), 'BOT robo');
  assert.equal(shownOpponent({ opponent: 'alice' }), 'alice');
  assert.equal(shownOpponent({ opponent: { deleted: true } }), t('player.deleted'));
});
