// The start screen: new games, import, the list of games (its tab remembered).
import { $, el, store, seatOf, toast } from './dom.mjs';
import { api, plainError } from './api.mjs';
import { t } from './i18n.mjs';
import { shownName } from './names.mjs';
import { prefs, setPref } from './prefs.mjs';
import { fullMoves } from './notation.mjs';
import { scoreText } from './movelist.mjs';
import { fillVariants } from './variants.mjs';

let listTimer = null;
let navigate = () => {};

export function initLobby(nav) {
  navigate = nav;
  $('#new-engine').addEventListener('submit', (e) => {
    e.preventDefault();
    createFromForm(e.currentTarget, 'engine');
  });
  $('#new-human').addEventListener('submit', (e) => {
    e.preventDefault();
    createFromForm(e.currentTarget, 'human');
  });
  $('#import').addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = $('#import-text').value;
    if (!text.trim()) {
      toast(t('import.empty'));
      return;
    }
    try {
      const g = await api('POST', '/api/games/import', text);
      $('#import-text').value = '';
      navigate(`/game/${g.id}`);
    } catch (err) {
      toast(err.code === 'bad_request' ? importError(err) : plainError(err));
    }
  });
  for (const b of document.querySelectorAll('.tabs button')) {
    b.addEventListener('click', () => {
      setPref('listStatus', b.dataset.status);
      loadGameList();
    });
  }
}

/** A refused record in words for a person: where, and which word, never the list of legal
 * moves the server adds for programs. */
function importError(err) {
  const message = err.message || '';
  const line = /line (\d+)/.exec(message);
  const token = /'([^']{1,40})'/.exec(message);
  const refusal = err.body && err.body.refusal;
  if (line && token && refusal) {
    const why = t(`refusal.${refusal}`);
    return `${t('import.bad')} ${t('import.badRule', { token: token[1], line: line[1], why, rule: err.body.rule })}`;
  }
  if (line && token) return `${t('import.bad')} ${t('import.badToken', { token: token[1], line: line[1] })}`;
  if (line) return `${t('import.bad')} ${t('import.badLine', { line: line[1] })}`;
  return t('import.bad');
}

export function showLobby() {
  clearInterval(listTimer);
  listTimer = setInterval(() => {
    if ($('#game').hidden && document.visibilityState === 'visible') loadGameList();
  }, 15000);
  document.title = t('title');
  // the boards a new game or seek may be on (the server's list, read at start-up)
  for (const select of document.querySelectorAll('select.new-variant')) fillVariants(select);
  $('#game').hidden = true;
  $('#lobby').hidden = false;
  $('#conn').hidden = true;
  loadGameList();
}

export function leaveLobby() {
  clearInterval(listTimer);
}

function createFromForm(form, mode) {
  const data = new FormData(form);
  const body = { mode, color: data.get('color') || 'white' };
  if (mode === 'engine') body.level = Number(data.get('level')) || 1;
  const position = String(data.get('position') || '').trim();
  if (position) body.position = position;
  const time = String(data.get('time') || '');
  if (mode === 'human' && time) body.time = time;
  const variant = String(data.get('variant') || 'emergo');
  if (variant !== 'emergo') body.variant = variant;
  return createGame(body, form.querySelector('button[type=submit]'));
}

/** Opens a page of the application (`/game/<id>`, `/`). */
export function visit(path) {
  navigate(path);
}

/** Creates a game (`body` as in docs/api.md) and opens it. */
export async function createGame(body, button) {
  if (button) button.disabled = true;
  try {
    const grant = await api('POST', '/api/games', body);
    store.set(`emergo.seat.${grant.game.id}`, { seat: grant.seat, token: grant.token });
    store.set(`emergo.settings.${grant.game.id}`, body);
    if (grant.invite) store.set(`emergo.invite.${grant.game.id}`, grant.invite);
    navigate(`/game/${grant.game.id}`);
  } catch (err) {
    toast(plainError(err));
  } finally {
    if (button) button.disabled = false;
  }
}

function sideLabel(summary, color) {
  const side = summary[color] || {};
  if (summary.mode === 'imported') return t(`color.${color}`);
  if (side.kind === 'engine') return summary.level ? t('who.engineLevel', { level: summary.level }) : t('who.engine');
  const mine = seatOf(summary.id);
  const account = summary.players && summary.players[color];
  if (account) return shownName(account.deleted ? null : account.name, account.bot);
  if (mine && mine.seat === color) return t('who.you');
  return side.joined === false ? t('who.openSeat') : t('who.person');
}

function timeAgo(iso) {
  const then = Date.parse(iso);
  if (!then) return '';
  const s = Math.max(0, (Date.now() - then) / 1000);
  if (s < 60) return t('ago.now');
  if (s < 3600) return t('ago.min', { n: Math.floor(s / 60) });
  if (s < 86400) return t('ago.hour', { n: Math.floor(s / 3600) });
  return new Date(then).toLocaleDateString(document.documentElement.lang);
}

export async function loadGameList() {
  const status = prefs().listStatus === 'finished' ? 'finished' : 'ongoing';
  const list = $('#game-list');
  for (const b of document.querySelectorAll('.tabs button')) {
    b.setAttribute('aria-selected', String(b.dataset.status === status));
  }
  try {
    const { games } = await api('GET', `/api/games?status=${status}&limit=50`);
    list.replaceChildren();
    if (!games.length) list.append(el('li', { class: 'empty', text: t(status === 'ongoing' ? 'lobby.noneOngoing' : 'lobby.noneFinished') }));
    for (const g of games) {
      const who = el('span', { class: 'who' },
        el('span', { class: 'dot white' }), sideLabel(g, 'white'), ` ${t('lobby.vs')} `,
        el('span', { class: 'dot black' }), sideLabel(g, 'black'));
      const parts = [t(`mode.${g.mode}`), t('lobby.moves', { n: fullMoves(g.ply) })];
      if (g.variant && g.variant !== 'emergo') parts.unshift(t(`variant.${g.variant}`));
      if (g.reason) parts.push(t(`reasonShort.${g.reason.replace(/ /g, '_')}`));
      parts.push(timeAgo(g.updated_at));
      const meta = el('span', { class: 'meta', text: parts.join(' · ') });
      const mine = seatOf(g.id);
      const action = g.status === 'finished' || g.mode === 'imported' ? 'replay' : mine ? 'resume' : 'watch';
      const res = el('span', { class: 'res' },
        g.status === 'finished' ? el('b', { text: scoreText(g.result) }) : null,
        el('span', { class: 'go', text: `${t(`lobby.${action}`)} ›` }));
      list.append(el('li', {}, el('a', { href: `/game/${g.id}`, 'data-link': true, 'data-game': g.id }, who, res, meta)));
    }
  } catch (err) {
    list.replaceChildren(el('li', { class: 'empty', text: plainError(err) }));
  }
}
