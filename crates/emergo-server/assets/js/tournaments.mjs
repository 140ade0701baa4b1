// Tournaments (issue 23): the list (upcoming, running, finished), read again every few seconds
// while shown, and a tournament's page (standings, games, a countdown, the podium, join and
// withdraw), live over the tournament's WebSocket (read again every few seconds while the
// socket is down).
import { $, el, needsRedraw } from './dom.mjs';
import { api, plainError } from './api.mjs';
import { t, lang } from './i18n.mjs';
import { me } from './account.mjs';
import { SEEK_TIMES, timeLabel } from './online.mjs';

const REFRESH_MS = 2000;

let shown = null; // the id of the tournament shown, or '' for the list
let timer = null;
let socket = null; // the shown tournament's WebSocket
let ticker = null; // the countdown's second hand
let latest = null; // the shown tournament's latest view
let gamesOf = null; // the player whose games the list shows, or null for the newest games

function closeSocket() {
  if (!socket) return;
  socket.onclose = null;
  socket.onmessage = null;
  if (socket.readyState === WebSocket.CONNECTING) socket.onopen = () => socket.close();
  else socket.close();
  socket = null;
}

/** Hides the tournament pages and stops reading them. */
export function leaveTournaments() {
  shown = null;
  latest = null;
  if (timer) clearTimeout(timer);
  timer = null;
  clearInterval(ticker);
  ticker = null;
  closeSocket();
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
  $('#tournament-new').hidden = !me();
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
    // polled: drawn again only when it changed, so a focused link keeps its focus
    if (!needsRedraw(ul, JSON.stringify([list[status], lang()]))) continue;
    ul.replaceChildren(...list[status].map(line));
    if (!list[status].length) ul.append(el('li', { class: 'empty', text: t('tournament.none') }));
  }
  again(showTournaments);
}

function resultText(r) {
  return r || t('tournament.playing');
}

/** `ms` as `m:ss`, or `h:mm:ss` from an hour on. */
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** The countdown of a tournament at `now` (ms): to its start, or to an arena's end; null. */
export function countdown(tour, now) {
  if (tour.status === 'created' && tour.starts_at) return { key: 'tournament.startsIn', params: { time: clockText(Date.parse(tour.starts_at) - now) } };
  if (tour.status === 'started' && tour.ends_at) return { key: 'tournament.endsIn', params: { time: clockText(Date.parse(tour.ends_at) - now) } };
  return null;
}

/** The podium of a finished tournament: its first three places. */
export function podium(tour) {
  if (tour.status !== 'finished') return [];
  return tour.standings.filter((s) => s.rank <= 3).slice(0, 3);
}

function drawClock() {
  const line = $('#tournament-clock');
  const c = latest && countdown(latest, Date.now());
  line.hidden = !c;
  line.textContent = c ? t(c.key, c.params) : '';
}

/** A tournament's page: read once, then followed over its socket. */
export async function showTournament(id) {
  const first = shown !== id;
  shown = id;
  $('#tournaments').hidden = true;
  $('#tournament').hidden = false;
  if (first) {
    latest = null;
    gamesOf = null;
    closeSocket();
    $('#tournament-name').textContent = '';
    $('#tournament-status').textContent = '';
    clearInterval(ticker);
    ticker = setInterval(drawClock, 1000);
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
  drawTournament(tour);
  follow(id);
}

/** Opens the tournament's socket (once); while it is down, the page reads again every 2 s. */
function follow(id) {
  if (socket || shown !== id) return;
  if (timer) clearTimeout(timer);
  const s = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/tournaments/${encodeURIComponent(id)}/socket`);
  socket = s;
  s.onmessage = (e) => {
    let data;
    try {
      data = JSON.parse(e.data);
    } catch (err) {
      return;
    }
    if (data.type === 'tournament' && shown === id && data.tournament.id === id) drawTournament(data.tournament);
  };
  s.onclose = () => {
    if (socket !== s) return;
    socket = null;
    if (shown === id) again(() => showTournament(id));
  };
}

function drawTournament(tour) {
  latest = tour;
  document.title = `${tour.name} · Emergo`;
  $('#tournament-name').textContent = tour.name;
  const round = tour.rounds ? t('tournament.roundOf', { round: tour.round, rounds: tour.rounds }) : '';
  $('#tournament-status').textContent = [
    formatName(tour.format),
    tour.time,
    t(`tournament.status.${tour.status}`),
    round,
  ].filter(Boolean).join(' · ');
  drawClock();
  const top = podium(tour);
  const stand = $('#tournament-podium');
  stand.hidden = !top.length;
  stand.replaceChildren(...top.map((s) => el('li', { 'data-rank': String(s.rank) },
    el('b', { text: s.name || t('player.deleted') }), ` · ${t('tournament.points', { n: s.score })}`)));
  const body = $('#standings tbody');
  // live: drawn again only when the standings changed, so a focused games button keeps its focus
  if (needsRedraw(body, JSON.stringify([tour.standings, lang()]))) body.replaceChildren(...tour.standings.map((s) => el('tr', { 'data-name': s.name || '' },
    el('td', { text: String(s.rank) }),
    el('td', {}, s.name ? el('a', { href: `/player/${s.name}`, 'data-link': '', text: s.name }) : t('player.deleted'),
      ...standingMarks(s).map((key) => el('span', { class: 'note', text: ` · ${t(key)}` }))),
    el('td', { class: 'score', text: String(s.score) }),
    el('td', { text: String(s.tiebreak) }),
    el('td', {}, s.name && s.games ? el('button', { type: 'button', class: 'link games-of', 'data-player': s.name, text: String(s.games) }) : String(s.games)),
  )));
  $('#standings-empty').hidden = tour.standings.length > 0;
  if (gamesOf) loadGamesOf(tour);
  else drawGames(tour, tour.games, tour.games_total);
  const buttons = tournamentButtons(tour, me());
  for (const [id, show] of Object.entries(buttons)) $(`#tournament-${id}`).hidden = !show;
}

/** The games list: `games` (the newest of `total`), or one player's while `gamesOf` names one. */
function drawGames(tour, games, total) {
  $('#tournament-games-title').textContent = gamesOf ? t('tournament.gamesOf', { name: gamesOf }) : t('tournament.games');
  $('#tournament-all-games').hidden = !gamesOf;
  const more = $('#tournament-games-more');
  more.hidden = !(total > games.length);
  more.textContent = more.hidden ? '' : t('tournament.gamesNewest', { n: games.length, total });
  const list = $('#tournament-games');
  if (!needsRedraw(list, JSON.stringify([games, tour.format, lang()]))) return;
  list.replaceChildren(...games.slice().reverse().map((g) => el('li', {},
    el('a', { href: `/game/${g.id}`, 'data-link': '', text: `${g.white || '?'} – ${g.black || '?'}` }),
    ` · ${[tour.format === 'arena' ? '' : t('tournament.round', { round: g.round }), resultText(g.result)].filter(Boolean).join(' · ')}`,
  )));
}

/** One player's games of the tournament (`GET …/games?player=`), drawn when still wanted. */
async function loadGamesOf(tour) {
  const name = gamesOf;
  try {
    const answer = await api('GET', `/api/tournaments/${encodeURIComponent(tour.id)}/games?player=${encodeURIComponent(name)}`);
    if (shown === tour.id && gamesOf === name) drawGames(tour, answer.games, answer.total);
  } catch (err) {
    $('#tournament-error').textContent = plainError(err);
  }
}

/**
 * Which of the tournament page's controls the signed-in player `who` (or null) sees: Join
 * (with the password of a private one) while it is open to them, Pause and Resume in an arena
 * under way, Withdraw until it ends. A withdrawal once it has started is for good.
 */
export function tournamentButtons(tour, who) {
  const line = who ? tour.standings.find((s) => s.name && s.name.toLowerCase() === who.name.toLowerCase()) : null;
  const withdrew = !!line && line.withdrawn;
  const playing = !!line && !line.withdrawn && !line.paused;
  const paused = !!line && !line.withdrawn && !!line.paused;
  const canJoin = !!who && !line && tour.open;
  const arenaOn = tour.format === 'arena' && tour.status === 'started';
  return {
    join: canJoin || (withdrew && tour.status === 'created' && tour.open),
    password: !!tour.private && canJoin,
    pause: playing && arenaOn,
    resume: paused && arenaOn,
    withdraw: (playing || paused) && tour.status !== 'finished',
  };
}

/** The words after a name in the standings: paused, withdrawn, on fire. */
export function standingMarks(s) {
  return [s.withdrawn ? 'tournament.withdrawn' : s.paused ? 'tournament.paused' : null, s.on_fire ? 'tournament.onFire' : null].filter(Boolean);
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

export function initTournaments(navigate) {
  initForm(navigate);
  $('#tournament-join').addEventListener('click', () => {
    const password = $('#tournament-password input').value;
    act('join', password ? { password } : {});
  });
  $('#tournament-withdraw').addEventListener('click', () => act('withdraw', {}));
  $('#tournament-pause').addEventListener('click', () => act('pause', {}));
  // a player's games: its count in the standings is a button
  $('#standings').addEventListener('click', (e) => {
    const b = e.target.closest('button.games-of');
    if (!b || !latest) return;
    gamesOf = b.dataset.player;
    loadGamesOf(latest);
  });
  $('#tournament-all-games').addEventListener('click', () => {
    gamesOf = null;
    if (latest) drawGames(latest, latest.games, latest.games_total);
  });
  $('#tournament-resume').addEventListener('click', () => act('join', {}));
}

/** Draws the page again in the language chosen. */
export function relabelTournaments() {
  if (shown === '') showTournaments();
  else if (shown) showTournament(shown);
}

/**
 * The body of `POST /api/tournaments` from the creation form's values: minutes for an arena,
 * rounds for a Swiss, a mini-match or single games for a Swiss or round robin, the board unless
 * it is the square 9×9 one, the start in `startMinutes` from `now` (ms), a password only when
 * one is given.
 */
export function tournamentBody(v, now) {
  const body = { name: v.name.trim(), format: v.format, time: v.time, rated: !!v.rated };
  if (v.format === 'arena') body.minutes = Number(v.minutes);
  else body.games_per_pairing = v.miniMatch ? 2 : 1;
  if (v.format === 'swiss') body.rounds = Number(v.rounds);
  body.starts_at = new Date(now + Number(v.startMinutes) * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (v.variant && v.variant !== 'emergo') body.variant = v.variant;
  if (v.password) body.password = v.password;
  return body;
}

function drawForm() {
  const format = $('#tn-format').value;
  $('#tn-minutes-field').hidden = format !== 'arena';
  $('#tn-rounds-field').hidden = format !== 'swiss';
  $('#tn-mini-field').hidden = format === 'arena';
}

function initForm(navigate) {
  const time = $('#tn-time');
  for (const tc of SEEK_TIMES) time.append(el('option', { value: tc, text: timeLabel(tc) }));
  time.value = '3+2';
  $('#tn-format').addEventListener('change', drawForm);
  drawForm();
  $('#tournament-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const button = $('#tn-send');
    button.disabled = true;
    try {
      const body = tournamentBody({
        name: $('#tn-name').value,
        format: $('#tn-format').value,
        time: time.value,
        variant: $('#tn-variant').value,
        minutes: $('#tn-minutes').value,
        rounds: $('#tn-rounds').value,
        miniMatch: $('#tn-mini').checked,
        rated: $('#tn-rated').checked,
        startMinutes: $('#tn-start').value,
        password: $('#tn-password').value,
      }, Date.now());
      const made = await api('POST', '/api/tournaments', body);
      $('#tournaments-error').textContent = '';
      navigate(`/tournament/${made.id}`);
    } catch (err) {
      $('#tournaments-error').textContent = plainError(err);
    } finally {
      button.disabled = false;
    }
  });
}
