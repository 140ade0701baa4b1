// Issue 18, what lichess players expect: ratings (with a "?" while provisional, and the change
// at the end of a rated game) in the game's player bars, the count of a game's spectators, the
// Challenge dialog and the statistics of a player page, and the watch page of the games being
// played now.
import { $, el, toast, needsRedraw } from './dom.mjs';
import { api, plainError } from './api.mjs';
import { t, lang } from './i18n.mjs';
import { shownName, shownOpponent } from './names.mjs';
import { me } from './account.mjs';
import { timeLabel, SEEK_TIMES } from './online.mjs';
import { variantNames } from './variants.mjs';

/** The rating categories, in the order pages list them. */
export const CATEGORIES = ['blitz', 'rapid', 'classical', 'correspondence'];

/** The key of a rating pool (a board and a category) in the player page's answer: the
 * category on the 9×9 board (`blitz`), else `board:category` (`hex:blitz`). */
export function poolKey(variant, category) {
  return variant === 'emergo' ? category : `${variant}:${category}`;
}

/** A pool's name for a person: the category on the 9×9 board, else the board and the category. */
export function poolLabel(key) {
  const [variant, category] = key.includes(':') ? key.split(':') : ['emergo', key];
  return variant === 'emergo' ? t(`category.${category}`) : `${t(`variant.${variant}`)} · ${t(`category.${category}`)}`;
}

/* ------------------------------------------------------------------ the game page */

/** The rating of `color`'s player in game `g`, as its bar shows it: `1500?` and, once a rated
 * game is settled, its change (`+12`, `−12`); null without an account's rating. */
export function ratingNode(g, color) {
  const p = g.players && g.players[color];
  const r = p && p.rating;
  if (!r) return null;
  const box = el('span', { class: 'rating', 'data-rating': String(r.rating) },
    el('span', { class: 'rating-value', text: `${r.rating}${r.provisional ? '?' : ''}` }));
  box.title = r.provisional ? t('rating.provisionalTitle', { rd: r.rd }) : t('rating.title', { rd: r.rd });
  if (r.provisional) box.dataset.provisional = 'true';
  if (typeof r.change === 'number') {
    const sign = r.change > 0 ? '+' : r.change < 0 ? '−' : '±';
    const kind = r.change > 0 ? 'up' : r.change < 0 ? 'down' : 'same';
    box.append(el('span', { class: `rating-change ${kind}`, 'data-change': String(r.change), text: `${sign}${Math.abs(r.change)}` }));
    box.title += ` ${t('rating.changeTitle', { change: `${sign}${Math.abs(r.change)}` })}`;
  }
  return box;
}

let watchers = 0;

/** The spectators' count of the game shown (from its WebSocket). */
export function setWatchers(n) {
  watchers = Math.max(0, Number(n) || 0);
  drawWatchers();
}

export function resetWatchers() {
  watchers = 0;
  drawWatchers();
}

export function drawWatchers() {
  const box = $('#watchers');
  if (!box) return;
  box.hidden = watchers === 0;
  box.dataset.count = String(watchers);
  box.textContent = t('watchers.count', { n: watchers });
}

/* ------------------------------------------------------------------ the player page */


/** The statistics of a player page: per board and category the results, the best rating and
 * the performance of the latest rated games; the games being played now. */
export function drawStats(data) {
  const box = $('#player-stats');
  box.replaceChildren();
  const cats = variantNames().flatMap((v) => CATEGORIES.map((c) => poolKey(v, c))).filter((k) => (data.stats || {})[k]);
  if (cats.length) {
    const head = el('tr', {}, el('th', { scope: 'col', text: t('stats.category') }),
      ...['stats.games', 'stats.wins', 'stats.draws', 'stats.losses', 'stats.best', 'stats.performance'].map((k) => el('th', { scope: 'col', text: t(k) })));
    const body = el('tbody');
    for (const c of cats) {
      const s = data.stats[c];
      const best = (data.best || {})[c];
      const perf = (data.performance || {})[c];
      const bestText = best ? `${best.rating}${best.provisional ? '?' : ''} · ${new Date(best.at).toLocaleDateString(document.documentElement.lang)}` : '–';
      const perfCell = el('td', { text: perf ? String(perf.rating) : '–' });
      if (perf) perfCell.title = t('stats.performanceTitle', { n: perf.games, wins: perf.wins, draws: perf.draws, losses: perf.losses });
      body.append(el('tr', { 'data-category': c },
        el('th', { scope: 'row', text: poolLabel(c) }),
        el('td', { text: String(s.games) }), el('td', { text: String(s.wins) }),
        el('td', { text: String(s.draws) }), el('td', { text: String(s.losses) }),
        el('td', { text: bestText }), perfCell));
    }
    box.append(el('table', { class: 'stats-table' }, el('caption', { text: t('stats.title') }), el('thead', {}, head), body),
      el('p', { class: 'note', text: t('stats.performanceNote', { n: 20 }) }));
  }
  const playing = $('#player-playing');
  playing.replaceChildren();
  for (const g of data.playing || []) {
    const opponent = shownOpponent(g);
    playing.append(el('li', {}, el('a', { href: `/game/${g.id}`, 'data-link': true, class: 'playing-link' },
      t('stats.playingNow', { name: opponent, time: g.time_control ? timeLabel(g.time_control) : '' }))));
  }
  playing.hidden = !(data.playing || []).length;
}

/** The Challenge button of a player page: signed in, and not on one's own page. */
export function drawChallenge(name) {
  const who = me();
  const button = $('#challenge-open');
  button.hidden = !who || !name || who.name.toLowerCase() === name.toLowerCase();
  button.dataset.name = name || '';
}

function challengeError(err) {
  if (err && err.code === 'not_allowed' && /open challenges/.test(err.message || '')) return t('challenge.capped', { n: 10 });
  if (err && err.code === 'rate_limited') return t('challenge.tooFast');
  if (err && err.code === 'unauthorized') return t('challenge.logIn');
  if (err && err.code === 'not_found') return t('challenge.noPlayer');
  return plainError(err);
}

let navigate = () => {};

export function initPeople(nav) {
  navigate = nav;
  const dialog = $('#challenge-dialog');
  const select = $('#challenge-time');
  for (const time of SEEK_TIMES) select.append(el('option', { value: time, text: timeLabel(time) }));
  select.value = '5+3';
  $('#challenge-open').addEventListener('click', () => {
    $('#challenge-error').textContent = '';
    $('#challenge-error').hidden = true;
    $('#challenge-to').textContent = t('challenge.to', { name: $('#challenge-open').dataset.name });
    relabelChallenge();
    dialog.showModal();
  });
  $('#challenge-cancel').addEventListener('click', () => dialog.close());
  $('#challenge-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const name = $('#challenge-open').dataset.name;
    const body = {
      time: select.value,
      color: $('#challenge-form').elements.color.value,
      rated: $('#challenge-rated').checked,
      opponent: name,
    };
    const send = $('#challenge-send');
    send.disabled = true;
    try {
      await api('POST', '/api/seeks', body);
      dialog.close();
      toast(t('challenge.sent', { name }), 'info');
      navigate('/');
    } catch (err) {
      const box = $('#challenge-error');
      box.textContent = challengeError(err);
      box.hidden = false;
    } finally {
      send.disabled = false;
    }
  });
}

/** The time options' words again (after a change of language). */
export function relabelChallenge() {
  for (const o of $('#challenge-time').options) o.textContent = timeLabel(o.value);
}

/* ------------------------------------------------------------------ the watch page */

const WATCH_EVERY_MS = 10000;
let watchTimer = null;
let watching = false;

export function showWatch() {
  watching = true;
  $('#watch').hidden = false;
  document.title = `${t('watch.title')} · Emergo`;
  loadWatch();
}

export function leaveWatch() {
  watching = false;
  clearTimeout(watchTimer);
  $('#watch').hidden = true;
}

function side(p) {
  const name = shownName(p.deleted ? null : p.name, p.bot);
  return `${name} (${p.rating}${p.provisional ? '?' : ''})`;
}

async function loadWatch() {
  clearTimeout(watchTimer);
  if (!watching) return;
  const list = $('#watch-list');
  try {
    const data = await api('GET', '/api/watch');
    if (!watching) return;
    // polled: drawn again only when it changed, so a focused link keeps its focus
    if (needsRedraw(list, JSON.stringify([data.games, lang()]))) {
      list.replaceChildren();
      if (!data.games.length) list.append(el('li', { class: 'empty', text: t('watch.none') }));
      for (const g of data.games) {
        const parts = [g.time_control ? timeLabel(g.time_control) : '', t(g.rated ? 'online.rated' : 'online.casual'), t('watch.moves', { n: g.ply })];
        if (g.variant && g.variant !== 'emergo') parts.unshift(t(`variant.${g.variant}`));
        if (g.watchers) parts.push(t('watchers.count', { n: g.watchers }));
        list.append(el('li', { 'data-game': g.id }, el('a', { href: `/game/${g.id}`, 'data-link': true },
          el('span', { class: 'who', text: `${side(g.white)} – ${side(g.black)}` }),
          el('span', { class: 'meta', text: parts.filter(Boolean).join(' · ') }))));
      }
    }
  } catch (err) {
    if (!watching) return;
    if (needsRedraw(list, `error ${plainError(err)}`)) list.replaceChildren(el('li', { class: 'empty', text: plainError(err) }));
  }
  // Every 10 s while the page is shown (one request at a time).
  if (watching) watchTimer = setTimeout(loadWatch, WATCH_EVERY_MS);
}

/** Words again after a change of language. */
export function relabelWatch() {
  if (watching) loadWatch();
}
