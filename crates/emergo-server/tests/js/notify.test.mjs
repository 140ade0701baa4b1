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

test('a tournament pairing takes the page to its game from the tournament or a finished game', async () => {
  const { followsPairing } = await import('../../assets/js/notify.mjs');
  const paired = { ...base, kind: 'started', game: 'g2', seek: null };
  assert.equal(followsPairing(paired, '/tournament/t1', false), true);
  assert.equal(followsPairing(paired, '/game/g1', true), true);
  // Not while a game is played, nor from the lobby or another page.
  assert.equal(followsPairing(paired, '/game/g1', false), false);
  assert.equal(followsPairing(paired, '/', false), false);
  assert.equal(followsPairing(paired, '/player/anna', false), false);
  // A seek's game is the lobby's to open; other kinds never move the page.
  assert.equal(followsPairing({ ...paired, seek: 's1' }, '/tournament/t1', false), false);
  assert.equal(followsPairing({ ...paired, kind: 'turn' }, '/tournament/t1', false), false);
});
