// The lobby's online part: quick pairing, open seeks (a list and a graph of rating against
// time control), challenges, and the correspondence games where it is your turn. Live through
// the lobby WebSocket: the list follows every change, and a taken seek opens its game.
import { $, el, svg, store, toast, needsRedraw } from './dom.mjs';
import { api, plainError } from './api.mjs';
import { t, num, lang } from './i18n.mjs';
import { shownName, shownOpponent } from './names.mjs';
import { me, onMe } from './account.mjs';
import { seekDots } from './charts.mjs';
import { QUICK, quickMatch, ownQuickSeek } from './pairing.mjs';
import { onLobbyMessage, setLobby } from './lobby-socket.mjs';

/** The seek form's time controls. */
export const SEEK_TIMES = ['0.25+0', '0.5+0', '1+0', '2+1', '3+0', '3+2', '5+0', '5+3', '10+0', '10+5', '15+10', '30+0', '30+20',
  'corr:1', 'corr:2', 'corr:3', 'corr:5', 'corr:7', 'corr:14'];

let navigate = () => {};
let active = false;
let waiting = null; // {id, time}: this page's open quick-pairing seek
let seeks = [];

export function initOnline(nav) {
  navigate = nav;
  const grid = $('#quick');
  for (const time of QUICK) {
    grid.append(el('button', { type: 'button', class: 'quick', 'data-time': time, text: timeLabel(time), onclick: () => quick(time) }));
  }
  const select = $('#seek-time');
  for (const time of SEEK_TIMES) select.append(el('option', { value: time, text: timeLabel(time) }));
  select.value = '5+3';
  $('#seek-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = { time: select.value, rated: $('#seek-rated').checked, color: $('#seek-color').value };
    const opponent = $('#seek-opponent').value.trim();
    if (opponent) body.opponent = opponent;
    else if ($('#seek-bots').checked) body.allow_bots = true;
    const variant = $('#seek-variant').value || 'emergo';
    if (variant !== 'emergo') body.variant = variant;
    const button = $('#seek-send');
    button.disabled = true;
    try {
      await api('POST', '/api/seeks', body);
      $('#seek-opponent').value = '';
      refresh();
    } catch (err) {
      toast(plainError(err));
    } finally {
      button.disabled = false;
    }
  });
  onMe((who) => {
    $('#online-login').hidden = !!who;
    $('#online-body').hidden = !who;
    if (active) refresh();
  });
  // the page's one lobby socket (lobby-socket.mjs), whose lobby part is on while this shows
  onLobbyMessage((data) => {
    if (!active) return;
    if (data.type === 'seeks') refresh();
    // a correspondence move made it our turn (docs/api.md, the lobby's WebSocket)
    if (data.type === 'turn' && me()) loadMyTurn(me().name);
    if (data.type === 'taken' && data.game) {
      waiting = null;
      navigate(`/game/${data.game}`);
    }
  });
}

/** `3+2` as shown: `corr:3` becomes "3 days" (per move). */
export function timeLabel(time) {
  const corr = /^corr:(\d+)$/.exec(time);
  if (corr) return t('online.days', { n: Number(corr[1]) });
  const real = /^(\d+(?:\.\d+)?)\+(\d+)$/.exec(time || '');
  return real ? `${num(Number(real[1]))}+${real[2]}` : time;
}

/** Words again after a change of language. */
export function relabelOnline() {
  for (const b of document.querySelectorAll('#quick button, #seek-time option')) {
    b.textContent = timeLabel(b.dataset.time || b.value);
  }
  drawWaiting();
  refresh();
}

export function showOnline() {
  active = true;
  setLobby(true);
  refresh();
}

export function leaveOnline() {
  active = false;
  setLobby(false);
}

async function quick(time) {
  const who = me();
  if (!who) {
    toast(t('err.unauthorized'));
    return;
  }
  try {
    if (waiting) {
      const same = waiting.time === time;
      await api('DELETE', `/api/seeks/${waiting.id}`, undefined, true).catch(() => {});
      waiting = null;
      drawWaiting();
      if (same) return;
    }
    const match = quickMatch(seeks, time, who.name);
    if (match) {
      await accept(match.id);
      return;
    }
    const seek = await api('POST', '/api/seeks', { time, rated: true, color: 'random' });
    waiting = { id: seek.id, time };
    drawWaiting();
  } catch (err) {
    toast(plainError(err));
  }
}

async function accept(id) {
  try {
    const grant = await api('POST', `/api/seeks/${id}/accept`, {});
    store.set(`emergo.seat.${grant.game.id}`, { seat: grant.seat, token: grant.token });
    navigate(`/game/${grant.game.id}`);
  } catch (err) {
    toast(plainError(err));
    refresh();
  }
}

function drawWaiting() {
  for (const b of document.querySelectorAll('#quick button')) {
    const on = !!waiting && b.dataset.time === waiting.time;
    b.setAttribute('aria-pressed', String(on));
    b.classList.toggle('waiting', on);
  }
  $('#quick-wait').textContent = waiting ? t('online.waiting', { time: timeLabel(waiting.time) }) : '';
}

function seekWords(s) {
  const kind = t(s.rated ? 'online.rated' : 'online.casual');
  const board = t(`variant.${s.variant || 'emergo'}`);
  return `${shownName(s.owner, s.owner_bot)} (${s.rating}${s.provisional ? '?' : ''}) · ${board} · ${timeLabel(s.time)} · ${kind}`;
}

let refreshAsked = 0; // the last question, so an older answer never wins

export async function refresh() {
  if (!active) return;
  const asked = ++refreshAsked;
  try {
    const list = await api('GET', '/api/seeks');
    if (asked !== refreshAsked) return;
    seeks = list.seeks.concat(list.challenges || []);
  } catch (err) {
    return;
  }
  const who = me();
  const open = seeks.filter((s) => !s.opponent);
  if (who) {
    // the grid shows one's own open rated seek of its time controls (after a reload too)
    const mine = ownQuickSeek(seeks, who.name);
    waiting = mine ? { id: mine.id, time: mine.time } : null;
    drawWaiting();
  }
  // each list is drawn again only when what it shows changed (see needsRedraw)
  const list = $('#seek-list');
  const rows = open.map((s) => ({ id: s.id, words: seekWords(s), mine: !!who && s.owner === who.name }));
  if (needsRedraw(list, JSON.stringify([rows, !!who, lang()]))) {
    list.replaceChildren();
    if (!rows.length) list.append(el('li', { class: 'empty', text: t('online.noSeeks') }));
    for (const r of rows) {
      const button = r.mine
        ? el('button', { type: 'button', text: t('online.cancel'), onclick: () => withdraw(r.id) })
        : el('button', { type: 'button', class: 'primary', text: t('online.accept'), disabled: !who, onclick: () => accept(r.id) });
      list.append(el('li', { class: 'seek', 'data-seek': r.id }, el('span', { class: 'who', text: r.words }), button));
    }
  }
  drawGraph(open);
  const challenges = $('#challenges');
  const pending = seeks.filter((s) => s.opponent).map((s) => {
    const toMe = !!who && s.opponent === who.name;
    const words = toMe ? t('online.challengeFrom', { name: shownName(s.owner, s.owner_bot), time: timeLabel(s.time) }) : t('online.challengeTo', { name: shownName(s.opponent, s.opponent_bot), time: timeLabel(s.time) });
    return { id: s.id, toMe, words };
  });
  if (needsRedraw(challenges, JSON.stringify([pending, lang()]))) {
    challenges.replaceChildren();
    if (!pending.length) challenges.append(el('li', { class: 'empty', text: t('online.noChallenges') }));
    for (const c of pending) {
      const buttons = c.toMe
        ? [el('button', { type: 'button', class: 'primary', text: t('online.accept'), onclick: () => accept(c.id) }),
          el('button', { type: 'button', text: t('online.decline'), onclick: () => withdraw(c.id) })]
        : [el('button', { type: 'button', text: t('online.cancel'), onclick: () => withdraw(c.id) })];
      challenges.append(el('li', { class: 'seek' }, el('span', { class: 'who', text: c.words }), ...buttons));
    }
  }
  if (who) loadMyTurn(who.name);
}

async function withdraw(id) {
  try {
    await api('DELETE', `/api/seeks/${id}`, undefined, true);
    if (waiting && waiting.id === id) {
      waiting = null;
      drawWaiting();
    }
    refresh();
  } catch (err) {
    toast(plainError(err));
  }
}

let turnAsked = 0; // the last question, so an older answer never wins

async function loadMyTurn(name) {
  const list = $('#my-turn');
  const asked = ++turnAsked;
  try {
    const page = await api('GET', `/api/players/${encodeURIComponent(name)}`);
    if (asked !== turnAsked) return;
    const games = page.games
      .filter((g) => g.your_turn && g.status === 'ongoing' && /^corr:/.test(g.time_control || ''))
      .map((g) => ({ id: g.id, words: `${t('player.vs', { name: shownOpponent(g) })} · ${timeLabel(g.time_control)}` }));
    if (!needsRedraw(list, JSON.stringify([games, lang()]))) return;
    list.replaceChildren();
    if (!games.length) list.append(el('li', { class: 'empty', text: t('online.noTurn') }));
    for (const g of games) list.append(el('li', {}, el('a', { href: `/game/${g.id}`, 'data-link': true }, g.words)));
  } catch (err) {
    if (needsRedraw(list, `error ${plainError(err)}`)) list.replaceChildren(el('li', { class: 'empty', text: plainError(err) }));
  }
}

/** Rating (up) against time control (right: slower; correspondence at the edge). */
function drawGraph(open) {
  const graph = $('#seek-graph');
  const who = me();
  const shown = open.map((s) => [s.id, seekWords(s), s.rated, s.time]);
  if (!needsRedraw(graph, JSON.stringify([shown, who && who.name, lang()]))) return;
  graph.replaceChildren();
  const box = { left: 40, right: 590, top: 10, bottom: 180 };
  svg('line', { x1: box.left, y1: box.bottom, x2: box.right, y2: box.bottom, class: 'axis' }, graph);
  svg('line', { x1: box.left, y1: box.top, x2: box.left, y2: box.bottom, class: 'axis' }, graph);
  const label = (x, y, text, anchor) => {
    const e = svg('text', { x, y, 'text-anchor': anchor, class: 'axis-label' }, graph);
    e.textContent = text;
  };
  label(box.left - 4, box.top + 10, '2200', 'end');
  label(box.left - 4, box.bottom, '1000', 'end');
  label(box.left, box.bottom + 16, num(0.25), 'start');
  // 60 minutes under its place (right - 30), then a line, then correspondence's own column
  label(box.right - 30, box.bottom + 16, '60', 'end');
  svg('line', { x1: box.right - 22, y1: box.top, x2: box.right - 22, y2: box.bottom + 20, class: 'grid', 'stroke-dasharray': '3 3' }, graph);
  label(box.right + 8, box.bottom + 16, t('online.corrShort'), 'end');
  label((box.left + box.right) / 2, box.bottom + 30, t('online.graphTime'), 'middle');
  for (const dot of seekDots(open, box)) {
    // issue 18: a dot accepts its seek as the list's button does (click, Enter or Space)
    const acceptable = !!who && dot.seek.owner !== who.name;
    const c = svg('circle', { cx: dot.x, cy: dot.y, r: 8, class: `seek-dot${dot.seek.rated ? ' rated' : ''}${acceptable ? ' acceptable' : ''}`, 'data-seek': dot.seek.id }, graph);
    const title = svg('title', {}, c);
    title.textContent = acceptable ? `${seekWords(dot.seek)} · ${t('online.accept')}` : seekWords(dot.seek);
    if (!acceptable) continue;
    c.setAttribute('tabindex', '0');
    c.setAttribute('role', 'button');
    c.setAttribute('aria-label', t('online.acceptSeek', { seek: seekWords(dot.seek) }));
    c.addEventListener('click', () => accept(dot.seek.id));
    c.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      accept(dot.seek.id);
    });
  }
}
