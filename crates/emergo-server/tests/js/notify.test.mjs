// The header's notifications (issue 18): each entry's words and where it leads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { noteText, noteLink } from '../../assets/js/notify.mjs';
import { setLang, t } from '../../assets/js/i18n.mjs';

const base = { id: 1, from: 'alice', game: 'g1', seek: null, time: 'corr:3', outcome: null, reason: null, at: '', read: false };

test('each kind in words, in English and French', () => {
  setLang('en');
  assert.equal(noteText({ ...base, kind: 'turn' }), 'alice moved: your turn');
  assert.equal(noteText({ ...base, kind: 'challenge', game: null }), 'alice challenges you (3 days)');
  assert.equal(noteText({ ...base, kind: 'started', time: '3+2' }), 'Your game against alice has started (3+2)');
  assert.equal(noteText({ ...base, kind: 'ended', outcome: 'win' }), 'Your game against alice is over: you won');
  assert.equal(noteText({ ...base, kind: 'ended', outcome: 'loss' }), 'Your game against alice is over: you lost');
  assert.equal(noteText({ ...base, kind: 'ended', outcome: 'draw' }), 'Your game against alice is over: a draw');
  assert.equal(noteText({ ...base, kind: 'turn', from: null }), `${t('player.deleted')} moved: your turn`);
  assert.equal(noteText({ ...base, kind: 'started', from: 'robo', from_bot: true, time: '3+2' }), 'Your game against BOT robo has started (3+2)');
  setLang('fr');
  assert.equal(noteText({ ...base, kind: 'turn' }), 'alice a joué : à vous');
  assert.equal(noteText({ ...base, kind: 'challenge', time: 'corr:1' }), 'alice vous défie (1 jour)');
  assert.equal(noteText({ ...base, kind: 'started', time: '0.5+0' }), 'Votre partie contre alice a commencé (0,5+0)');
  setLang('en');
});

test('an entry leads to its game, a challenge to the lobby', () => {
  assert.equal(noteLink({ ...base, kind: 'turn' }), '/game/g1');
  assert.equal(noteLink({ ...base, kind: 'challenge', game: null }), '/');
});
