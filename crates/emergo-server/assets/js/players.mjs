// The player page (ratings, the rating history as an SVG chart, the games) and the leaderboard.
import { $, el, svg } from './dom.mjs';
import { api, plainError } from './api.mjs';
import { t } from './i18n.mjs';
import { shownOpponent } from './names.mjs';
import { historyPath } from './charts.mjs';
import { scoreText } from './movelist.mjs';
import { me, onMe } from './account.mjs';
import { timeLabel } from './online.mjs';
import { drawStats, drawChallenge, poolKey, poolLabel, CATEGORIES } from './people.mjs';
import { fillVariants, variantNames } from './variants.mjs';


let boardCategory = 'blitz';
let boardVariant = 'emergo';

let shown = null; // the name of the player page shown

/** The account's own forms show on its own page only. */
function drawSettings() {
  const who = me();
  const own = !!who && !!shown && who.name.toLowerCase() === shown.toLowerCase();
  $('#account-settings').hidden = !own;
  drawChallenge(shown);
}

/** Hides the player page and the leaderboard. */
export function leavePages() {
  shown = null;
  $('#player').hidden = true;
  $('#leaderboard').hidden = true;
}

/** A rating as lichess says it: `1662 ± 290`, with "provisional" (and a `?`) until its
 * deviation is under the leaderboard's bar. */
function ratingWords(r) {
  const provisional = r.rd >= 110;
  const rating = `${Math.round(r.rating)}${provisional ? '?' : ''} ± ${Math.round(r.rd)}`;
  return [rating, ...(provisional ? [t('player.provisional')] : []), t('player.gamesN', { n: r.games })].join(' · ');
}

function resultWord(g) {
  if (g.status !== 'finished') return t('playerResult.ongoing');
  if (g.reason === 'aborted') return t('playerResult.aborted');
  if (g.result === '1/2-1/2') return t('playerResult.draw');
  const won = (g.result === '1-0') === (g.color === 'white');
  return t(won ? 'playerResult.win' : 'playerResult.loss');
}

export async function showPlayer(name) {
  const page = $('#player');
  page.hidden = false;
  $('#player-name').textContent = name;
  $('#player-since').textContent = '';
  shown = name;
  drawSettings();
  document.title = `${name} · Emergo`;
  const ratings = $('#player-ratings');
  const games = $('#player-games');
  ratings.replaceChildren();
  games.replaceChildren();
  $('#player-stats').replaceChildren();
  $('#player-playing').hidden = true;
  $('#rating-chart').replaceChildren();
  let data;
  try {
    data = await api('GET', `/api/players/${encodeURIComponent(name)}`);
  } catch (err) {
    if (shown !== name) return;
    $('#challenge-open').hidden = true;
    $('#player-since').textContent = err.code === 'not_found' ? t('player.missing', { name }) : plainError(err);
    $('#player-body').hidden = true;
    return;
  }
  if (shown !== name) return;
  $('#player-body').hidden = false;
  $('#player-name').textContent = data.name;
  if (data.bot) {
    $('#player-name').append(' ', el('span', { class: 'bot-badge', title: t('player.botTitle'), text: t('player.bot') }));
  }
  drawStats(data);
  $('#player-since').textContent = t('player.since', { date: new Date(data.created_at).toLocaleDateString(document.documentElement.lang) });
  const pools = variantNames().flatMap((v) => CATEGORIES.map((c) => poolKey(v, c)));
  const played = pools.filter((k) => data.ratings[k]);
  if (!played.length) ratings.append(el('li', { class: 'empty', text: t('player.noRating') }));
  for (const c of played) {
    ratings.append(el('li', { 'data-category': c }, el('b', { text: poolLabel(c) }), ` ${ratingWords(data.ratings[c])}`));
  }
  const chartCategory = played.find((c) => (data.history[c] || []).length) || null;
  drawHistory(chartCategory ? data.history[chartCategory] : [], chartCategory);
  if (!data.games.length) games.append(el('li', { class: 'empty', text: t('player.noGames') }));
  for (const g of data.games) {
    const opponent = shownOpponent(g);
    const parts = [t(`color.${g.color}`), resultWord(g)];
    if (g.time_control) parts.push(timeLabel(g.time_control));
    if (g.rated) parts.push(t(`category.${g.rated}`));
    games.append(el('li', {}, el('a', { href: `/game/${g.id}`, 'data-link': true },
      el('span', { class: 'who', text: t('player.vs', { name: opponent }) }),
      el('span', { class: 'res' }, g.status === 'finished' ? el('b', { text: scoreText(g.result) }) : null),
      el('span', { class: 'meta', text: parts.join(' · ') }))));
  }
}

function drawHistory(points, category) {
  const chart = $('#rating-chart');
  chart.replaceChildren();
  $('#chart-caption').textContent = category ? poolLabel(category) : t('player.noRating');
  chart.style.display = points.length ? '' : 'none';
  if (!points.length) return;
  const box = { left: 50, right: 590, top: 12, bottom: 200 };
  const { d, ticks, dots } = historyPath(points, box);
  for (const tick of ticks) {
    svg('line', { x1: box.left, y1: tick.y, x2: box.right, y2: tick.y, class: 'grid' }, chart);
    const label = svg('text', { x: box.left - 6, y: tick.y + 4, 'text-anchor': 'end', class: 'axis-label' }, chart);
    label.textContent = String(tick.value);
  }
  const day = (dot) => new Date(dot.point.at).toLocaleDateString(document.documentElement.lang);
  const first = dots[0];
  const last = dots[dots.length - 1];
  const dates = dots.length > 1 ? [[first, 'start'], [last, 'end']] : [[first, 'middle']];
  for (const [dot, anchor] of dates) {
    svg('text', { x: dot.x, y: box.bottom + 16, 'text-anchor': anchor, class: 'axis-label' }, chart).textContent = day(dot);
  }
  svg('path', { d, class: 'rating-line' }, chart);
  for (const dot of dots) {
    const c = svg('circle', { cx: dot.x, cy: dot.y, r: 4, class: 'rating-dot' }, chart);
    svg('title', {}, c).textContent = `${Math.round(dot.point.rating)} · ${dot.point.at.slice(0, 10)}`;
  }
}

/** Words again after a change of language. */
export function relabelPages() {
  if (shown) showPlayer(shown);
  else if (!$('#leaderboard').hidden) loadLeaders();
}

export function initPages() {
  onMe(drawSettings);
  for (const b of document.querySelectorAll('#board-tabs button')) {
    b.addEventListener('click', () => {
      boardCategory = b.dataset.category;
      loadLeaders();
    });
  }
  $('#board-variant').addEventListener('change', (e) => {
    boardVariant = e.currentTarget.value || 'emergo';
    loadLeaders();
  });
}

export function showLeaderboard() {
  $('#leaderboard').hidden = false;
  document.title = `${t('online.leaderboard')} · Emergo`;
  fillVariants($('#board-variant'));
  $('#board-variant').value = boardVariant;
  loadLeaders();
}

async function loadLeaders() {
  for (const b of document.querySelectorAll('#board-tabs button')) {
    b.setAttribute('aria-selected', String(b.dataset.category === boardCategory));
  }
  const body = $('#leaders tbody');
  body.replaceChildren();
  try {
    const data = await api('GET', `/api/leaderboard?category=${boardCategory}&variant=${boardVariant}`);
    $('#leaders-empty').hidden = data.players.length > 0;
    for (const p of data.players) {
      body.append(el('tr', {},
        el('td', { text: String(p.rank) }),
        el('td', {}, el('a', { href: `/player/${encodeURIComponent(p.name)}`, 'data-link': true, text: p.name })),
        el('td', { text: String(Math.round(p.rating)) }),
        el('td', { text: String(p.games) })));
    }
  } catch (err) {
    $('#leaders-empty').hidden = false;
    $('#leaders-empty').textContent = plainError(err);
  }
}
