// Tournaments (issue 23): the list (upcoming, running, finished) and a tournament's page
// (standings, games, join and withdraw), read again every few seconds while shown.
import { $, el } from './dom.mjs';
import { api, plainError } from './api.mjs';
import { t } from './i18n.mjs';
import { me } from './account.mjs';

const REFRESH_MS = 2000;

let shown = null; // the id of the tournament shown, or '' for the list
let timer = null;

/** Hides the tournament pages and stops reading them. */
export function leaveTournaments() {
  shown = null;
  if (timer) clearTimeout(timer);
  timer = null;
  $('#tournaments').hidden = true;
  $('#tournament').hidden = true;
}

function again(fn) {
  if (timer) clearTimeout(timer);
  timer = setTimeout(fn, REFRESH_MS);
}

function formatName(f) {
  return t(`tournament.format.${f}`);
}

function line(tour) {
  const a = el('a', { href: `/tournament/${tour.id}`, 'data-link': '', text: tour.name });
  const words = [formatName(tour.format), tour.time, t('tournament.playersN', { n: tour.players })];
  return el('li', { 'data-id': tour.id }, a, ` · ${words.join(' · ')}`);
}

/** The list of tournaments. */
export async function showTournaments() {
  shown = '';
  $('#tournament').hidden = true;
  $('#tournaments').hidden = false;
  document.title = `${t('tournament.title')} · Emergo`;
  let list;
  try {
    list = await api('GET', '/api/tournaments');
  } catch (err) {
    $('#tournaments-error').textContent = plainError(err);
    return;
  }
  if (shown !== '') return;
  for (const status of ['upcoming', 'running', 'finished']) {
    const ul = $(`#tournaments-${status}`);
    ul.replaceChildren(...list[status].map(line));
    if (!list[status].length) ul.append(el('li', { class: 'empty', text: t('tournament.none') }));
  }
  again(showTournaments);
}

function resultText(r) {
  return r || t('tournament.playing');
}

/** A tournament's page. */
export async function showTournament(id) {
  const first = shown !== id;
  shown = id;
  $('#tournaments').hidden = true;
  $('#tournament').hidden = false;
  if (first) {
    $('#tournament-name').textContent = '';
    $('#tournament-status').textContent = '';
  }
  let tour;
  try {
    tour = await api('GET', `/api/tournaments/${encodeURIComponent(id)}`);
  } catch (err) {
    if (shown !== id) return;
    $('#tournament-status').textContent = plainError(err);
    return;
  }
  if (shown !== id) return;
  document.title = `${tour.name} · Emergo`;
  $('#tournament-name').textContent = tour.name;
  const round = tour.rounds ? t('tournament.roundOf', { round: tour.round, rounds: tour.rounds }) : '';
  $('#tournament-status').textContent = [
    formatName(tour.format),
    tour.time,
    t(`tournament.status.${tour.status}`),
    round,
  ].filter(Boolean).join(' · ');
  const body = $('#standings tbody');
  body.replaceChildren(...tour.standings.map((s) => el('tr', { 'data-name': s.name || '' },
    el('td', { text: String(s.rank) }),
    el('td', {}, s.name ? el('a', { href: `/player/${s.name}`, 'data-link': '', text: s.name }) : t('player.deleted')),
    el('td', { class: 'score', text: String(s.score) }),
    el('td', { text: String(s.tiebreak) }),
  )));
  $('#standings-empty').hidden = tour.standings.length > 0;
  const games = $('#tournament-games');
  games.replaceChildren(...tour.games.slice().reverse().map((g) => el('li', {},
    el('a', { href: `/game/${g.id}`, 'data-link': '', text: `${g.white || '?'} – ${g.black || '?'}` }),
    ` · ${[tour.format === 'arena' ? '' : t('tournament.round', { round: g.round }), resultText(g.result)].filter(Boolean).join(' · ')}`,
  )));
  const who = me();
  const mine = !!who && tour.standings.some((s) => s.name && s.name.toLowerCase() === who.name.toLowerCase() && !s.withdrawn);
  $('#tournament-join').hidden = !who || mine || tour.status !== 'created';
  $('#tournament-withdraw').hidden = !mine || tour.status === 'finished';
  $('#tournament-password').hidden = !(tour.private && !mine && tour.status === 'created' && who);
  if (tour.status !== 'finished') again(() => showTournament(id));
}

async function act(path, body) {
  const id = shown;
  if (!id) return;
  try {
    await api('POST', `/api/tournaments/${encodeURIComponent(id)}/${path}`, body);
    $('#tournament-error').textContent = '';
  } catch (err) {
    $('#tournament-error').textContent = plainError(err);
  }
  showTournament(id);
}

export function initTournaments() {
  $('#tournament-join').addEventListener('click', () => {
    const password = $('#tournament-password input').value;
    act('join', password ? { password } : {});
  });
  $('#tournament-withdraw').addEventListener('click', () => act('withdraw', {}));
}

/** Draws the page again in the language chosen. */
export function relabelTournaments() {
  if (shown === '') showTournaments();
  else if (shown) showTournament(shown);
}
