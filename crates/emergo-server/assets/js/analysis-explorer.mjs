// The opening explorer's panel on the analysis board and a finished game's page (issue 22; docs/api.md "Opening explorer"):
// for the position on the board, every move played from it with its games and the share bar of
// White wins / draws / Black wins, the position's own totals, the latest games (click to open),
// the filters (source, speed, rating band), and the engine's book moves with their scores in a
// column of their own. Clicking a move plays it on the board. The
// counts come from the server, keyed by position (transpositions merge, and the panel says so).
import { el } from './dom.mjs';
import { api, plainError } from './api.mjs';
import { t, num, applyDom } from './i18n.mjs';
import { shownName } from './names.mjs';
import { forWhite, scoreWords } from './analysis-live.mjs';

export const SOURCES = ['rated', 'casual', 'engine', 'imported'];
export const SPEEDS = ['blitz', 'rapid', 'classical', 'correspondence', 'untimed'];
export const BANDS = ['0', '1400', '1600', '1800', '2000', '2200', 'none'];

/** The request for `position` of board `variant` ('emergo', '7x7', 'hex'; the 9×9 board, the
 * server's default, goes unsaid) at `ply` (null: not known) under `filters` ({source, speed,
 * ratings}, '' for all). */
export function explorerPath(position, ply, filters = {}, variant = 'emergo') {
  const q = new URLSearchParams();
  if (variant && variant !== 'emergo') q.set('variant', variant);
  q.set('position', position);
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

/**
 * The table's rows: each move played with its games, its share of the position's games, its
 * results' shares and its book score (null when the book does not have it); then the book's
 * moves nobody played, best first. A book score is turned to White's side (`+` good for White),
 * as the engine's lines are.
 */
export function moveRows(answer) {
  const all = answer.white + answer.draws + answer.black;
  const turn = answer.position.startsWith('B') ? 'black' : 'white';
  const book = new Map((answer.book || []).map((b) => [b.move, forWhite(b.score, turn)]));
  const row = (m) => {
    const s = shares(m);
    return {
      move: m.move,
      games: s.total,
      played: all ? Math.round((s.total * 1000) / all) / 10 : 0,
      white: s.white,
      draws: s.draws,
      black: s.black,
      average: m.average_rating,
      book: book.has(m.move) ? book.get(m.move) : null,
    };
  };
  const rows = answer.moves.map(row);
  const played = new Set(answer.moves.map((m) => m.move));
  for (const b of answer.book || []) {
    if (!played.has(b.move)) rows.push(row({ move: b.move, white: 0, draws: 0, black: 0, average_rating: null }));
  }
  return rows;
}

/** A book score (from White's side) as the table shows it: `+0.51`; '–' for a move not in the book. */
export function bookText(white) {
  return white === null ? '–' : scoreWords(white, null).text;
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

/** The panel's parts, built in `box` with ids `${prefix}-title`, `-source`, `-speed`, `-ratings`, `-total`, `-moves`, `-note`, `-latest`, `-games`. */
function build(box, prefix) {
  const id = (part) => `${prefix}-${part}`;
  const filter = (part, label) => el('label', { class: 'field' },
    el('span', { 'data-i18n': label }), el('select', { id: id(part) }));
  const head = (key, title) => el('th', { scope: 'col', 'data-i18n': key, 'data-i18n-title': title });
  box.setAttribute('aria-labelledby', id('title'));
  box.replaceChildren(
    el('h3', { id: id('title'), 'data-i18n': 'ex.title' }),
    el('div', { class: 'ex-filters' },
      filter('source', 'ex.source'), filter('speed', 'ex.speed'), filter('ratings', 'ex.ratings')),
    el('p', { id: id('total'), class: 'ex-total' }),
    el('table', { id: id('moves'), class: 'ex-moves' },
      el('thead', {}, el('tr', {},
        head('ex.move'), head('ex.games'), head('ex.results'), head('ex.average'), head('ex.book', 'ex.bookTitle'))),
      el('tbody')),
    el('p', { id: id('note'), class: 'note', 'aria-live': 'polite' }),
    el('h4', { id: id('latest'), 'data-i18n': 'ex.latest', hidden: true }),
    el('ol', { id: id('games'), class: 'ex-games', 'aria-labelledby': id('latest') }));
  const part = (name) => box.querySelector(`#${id(name)}`);
  return {
    source: part('source'), speed: part('speed'), ratings: part('ratings'), total: part('total'),
    body: box.querySelector(`#${id('moves')} tbody`), note: part('note'), latest: part('latest'), games: part('games'),
  };
}

/**
 * The panel in `box` (an empty section; its parts' ids start with `prefix`): `show(position,
 * ply, variant)` asks the server about a position of that board and draws the answer;
 * `onMove(text)` plays a clicked move. Answers are
 * kept per request (the counts change only as games finish). The analysis board has one
 * (`#an-explorer`, prefix `ex`), a finished game's page another (`#game-explorer`, `gx`).
 */
export function createExplorer({ box, prefix, onMove }) {
  const parts = build(box, prefix);
  const filters = { source: '', speed: '', ratings: '' };
  const cache = new Map();
  let wanted = null; // the request of the position shown
  let answer = null;
  let lang = null; // the language the fixed words are in

  const fill = (select, key, values, label) => {
    const chosen = filters[key];
    select.replaceChildren(el('option', { value: '', text: t(`ex.${key}.all`) }),
      ...values.map((v) => el('option', { value: v, text: t(label(v)) })));
    select.value = chosen;
  };
  const fillWords = () => {
    lang = document.documentElement.lang;
    applyDom(box);
    fill(parts.source, 'source', SOURCES, (v) => `ex.source.${v}`);
    fill(parts.speed, 'speed', SPEEDS, (v) => `ex.speed.${v}`);
    fill(parts.ratings, 'ratings', BANDS, (v) => `ex.band.${v}`);
  };

  function render() {
    if (lang !== document.documentElement.lang) fillWords();
    const { body: table, games, note, total } = parts;
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
      el('span', { class: 'ex-total-words', text: t('ex.total', { n: s.total, count: num(s.total, 0) }) }),
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
        el('td', { class: 'ex-num', text: row.average === null ? '–' : num(row.average, 0) }),
        el('td', { class: 'ex-num ex-book', text: bookText(row.book) })));
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
    parts.latest.hidden = answer.games.length === 0;
  }

  async function show(position, ply, variant) {
    const path = explorerPath(position, ply, filters, variant);
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
          parts.note.textContent = plainError(err);
        }
        return;
      }
    }
    if (wanted !== path) return; // another position was asked for meanwhile
    answer = cache.get(path);
    render();
  }

  let last = null;
  for (const key of ['source', 'speed', 'ratings']) {
    parts[key].addEventListener('change', (e) => {
      filters[key] = e.currentTarget.value;
      if (last) show(...last);
    });
  }
  fillWords();
  return {
    show(position, ply, variant = 'emergo') {
      last = [position, ply, variant];
      return show(position, ply, variant);
    },
    /** The language changed. */
    relabel() {
      fillWords();
      render();
    },
    /** Hidden where there is nothing to explore (a game page before the game is over). */
    setHidden(hidden) {
      box.hidden = hidden;
    },
  };
}
