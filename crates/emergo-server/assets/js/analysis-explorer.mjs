// The opening explorer's panel on the analysis board (issue 22; docs/api.md "Opening explorer"):
// for the position on the board, every move played from it with its games and the share bar of
// White wins / draws / Black wins, the position's own totals, the latest games (click to open),
// and the filters (source, speed, rating band). Clicking a move plays it on the board. The
// counts come from the server, keyed by position (transpositions merge, and the panel says so).
import { $, el } from './dom.mjs';
import { api, plainError } from './api.mjs';
import { t, num } from './i18n.mjs';
import { shownName } from './names.mjs';

export const SOURCES = ['rated', 'casual', 'engine', 'imported'];
export const SPEEDS = ['blitz', 'rapid', 'classical', 'correspondence', 'untimed'];
export const BANDS = ['0', '1400', '1600', '1800', '2000', '2200', 'none'];

/** The request for `position` at `ply` (null: not known) under `filters` ({source, speed, ratings}, '' for all). */
export function explorerPath(position, ply, filters = {}) {
  const q = new URLSearchParams({ position });
  if (Number.isInteger(ply) && ply >= 0) q.set('ply', String(ply));
  for (const key of ['source', 'speed', 'ratings']) if (filters[key]) q.set(key, filters[key]);
  return `/api/explorer?${q}`;
}

/** Percentages (one decimal) of White wins, draws and Black wins of a count; all 0 without games. */
export function shares({ white, draws, black }) {
  const total = white + draws + black;
  const pct = (n) => (total ? Math.round((n * 1000) / total) / 10 : 0);
  return { total, white: pct(white), draws: pct(draws), black: pct(black) };
}

/** The table's rows: each move with its games, its share of the position's games and its results' shares. */
export function moveRows(answer) {
  const all = answer.white + answer.draws + answer.black;
  return answer.moves.map((m) => {
    const s = shares(m);
    return {
      move: m.move,
      games: s.total,
      played: all ? Math.round((s.total * 1000) / all) / 10 : 0,
      white: s.white,
      draws: s.draws,
      black: s.black,
      average: m.average_rating,
    };
  });
}

/** What the note under the filters says: the position is past the index, in no game, or counted by position. */
export function noteKey(answer) {
  const games = answer.white + answer.draws + answer.black;
  if (!games) return answer.past_indexed_plies ? 'ex.past' : 'ex.none';
  return 'ex.transpositions';
}

/** A side of a listed game, in words. */
function playerWords(p) {
  if (p.engine) return t('ex.engine', { level: p.level ?? '?' });
  return p.name ? shownName(p.name, p.bot) : t('ex.anonymous');
}

/** The share bar: three parts as wide as White's wins, the draws and Black's wins. */
function shareBar(s) {
  const part = (kind, pct) => {
    const e = el('span', { class: `ex-${kind}`, text: pct >= 12 ? `${num(pct, 0)}%` : '' });
    e.style.width = `${pct}%`; // (the CSSOM: the policy refuses style attributes)
    return e;
  };
  return el('span', {
    class: 'ex-bar',
    role: 'img',
    'aria-label': t('ex.share', { white: num(s.white, 1), draws: num(s.draws, 1), black: num(s.black, 1) }),
  }, part('white', s.white), part('draws', s.draws), part('black', s.black));
}

/**
 * The panel in `#an-explorer`: `show(position, ply)` asks the server and draws the answer;
 * `onMove(text)` plays a clicked move. Answers are kept per request (the counts change only as
 * games finish).
 */
export function createExplorer({ onMove }) {
  const box = $('#an-explorer');
  const filters = { source: '', speed: '', ratings: '' };
  const cache = new Map();
  let wanted = null; // the request of the position shown
  let answer = null;

  const fill = (select, key, values, label) => {
    const chosen = filters[key];
    select.replaceChildren(el('option', { value: '', text: t(`ex.${key}.all`) }),
      ...values.map((v) => el('option', { value: v, text: t(label(v)) })));
    select.value = chosen;
  };
  const fillFilters = () => {
    fill($('#ex-source'), 'source', SOURCES, (v) => `ex.source.${v}`);
    fill($('#ex-speed'), 'speed', SPEEDS, (v) => `ex.speed.${v}`);
    fill($('#ex-ratings'), 'ratings', BANDS, (v) => `ex.band.${v}`);
  };

  function render() {
    const table = $('#ex-moves tbody');
    const games = $('#ex-games');
    const note = $('#ex-note');
    const total = $('#ex-total');
    table.replaceChildren();
    games.replaceChildren();
    if (!answer) {
      note.textContent = '';
      total.replaceChildren();
      box.dataset.games = '';
      return;
    }
    const s = shares(answer);
    box.dataset.games = String(s.total);
    note.textContent = t(noteKey(answer), { plies: answer.indexed_plies });
    total.replaceChildren(
      el('span', { class: 'ex-total-words', text: t('ex.total', { n: num(s.total, 0) }) }),
      s.total ? shareBar(s) : '');
    for (const row of moveRows(answer)) {
      table.append(el('tr', { class: 'ex-move', 'data-move': row.move },
        el('td', {}, el('button', {
          type: 'button',
          class: 'ex-play',
          text: row.move,
          'aria-label': t('ex.play', { move: row.move }),
          onclick: () => onMove(row.move),
        })),
        el('td', { class: 'ex-num', text: `${num(row.games, 0)} (${num(row.played, 1)}%)` }),
        el('td', { class: 'ex-share' }, shareBar(row)),
        el('td', { class: 'ex-num', text: row.average === null ? '–' : num(row.average, 0) })));
    }
    for (const g of answer.games) {
      games.append(el('li', {},
        el('a', {
          href: `/game/${encodeURIComponent(g.id)}`,
          'data-link': '',
          class: 'ex-game',
          text: t('ex.game', { white: playerWords(g.white), black: playerWords(g.black), result: g.result || '*' }),
        })));
    }
    $('#ex-latest').hidden = answer.games.length === 0;
  }

  async function show(position, ply) {
    const path = explorerPath(position, ply, filters);
    wanted = path;
    if (!cache.has(path)) {
      try {
        const got = await api('GET', path);
        if (cache.size > 200) cache.clear();
        cache.set(path, got);
      } catch (err) {
        if (wanted === path) {
          answer = null;
          render();
          $('#ex-note').textContent = plainError(err);
        }
        return;
      }
    }
    if (wanted !== path) return; // another position was asked for meanwhile
    answer = cache.get(path);
    render();
  }

  let last = null;
  for (const [id, key] of [['#ex-source', 'source'], ['#ex-speed', 'speed'], ['#ex-ratings', 'ratings']]) {
    $(id).addEventListener('change', (e) => {
      filters[key] = e.currentTarget.value;
      if (last) show(...last);
    });
  }
  fillFilters();
  return {
    show(position, ply) {
      last = [position, ply];
      return show(position, ply);
    },
    /** The language changed. */
    relabel() {
      fillFilters();
      render();
    },
    /** Shown on boards the explorer indexes (the 9×9 one). */
    setHidden(hidden) {
      box.hidden = hidden;
    },
  };
}
