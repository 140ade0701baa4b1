// Game review: asked of the server (POST /api/games/{id}/review, then GET until done), drawn
// as an evaluation graph under the board, a class on every move of the list, the better move as
// an arrow on the board and an accuracy per player. The server classifies; this draws.
import { $, el, svg, toast } from './dom.mjs';
import { api, plainError } from './api.mjs';
import { t, num } from './i18n.mjs';
import { moveLabel } from './notation.mjs';

const rv = { id: null, status: null, progress: 0, place: 0, data: null, timer: null };

const MARKED = ['inaccuracy', 'mistake', 'blunder'];
const SYMBOL = { inaccuracy: '?!', mistake: '?', blunder: '??' };
/** The graph's height covers ±5 men; beyond, the line runs along the edge. */
export const GRAPH_MEN = 5;
export const GRAPH_W = 600;
export const GRAPH_H = 120;

/** The graph's points: one per position (the start, then after each move), x spread over the
 * width, y from White's score (up is good for White). */
export function graphPoints(review, width = GRAPH_W, height = GRAPH_H) {
  const scores = [review.start_score, ...review.plies.map((p) => p.score)];
  const n = Math.max(1, scores.length - 1);
  const cap = GRAPH_MEN * 100;
  return scores.map((s, i) => {
    const v = Math.max(-cap, Math.min(cap, s));
    return { x: (i / n) * width, y: height / 2 - (v / cap) * (height / 2), ply: i };
  });
}

/** The ply nearest to x on the graph. */
export function plyAt(x, plies, width = GRAPH_W) {
  return Math.max(0, Math.min(plies, Math.round((x / width) * Math.max(1, plies))));
}

/** Counts of the marked classes of one side's moves (`boards[k].turn` made move k). */
export function counts(review, color, boards) {
  const out = { inaccuracy: 0, mistake: 0, blunder: 0 };
  review.plies.forEach((p, k) => {
    if (boards[k] && boards[k].turn === color && out[p.class] !== undefined) out[p.class] += 1;
  });
  return out;
}

/** Forgets the review of the game left. */
export function resetReview() {
  clearTimeout(rv.timer);
  Object.assign(rv, { id: null, status: null, progress: 0, place: 0, data: null, timer: null });
}

function reviewable(g) {
  return g.status === 'finished' || g.mode === 'imported';
}

/** Looks once for a stored review of `g` (the second look is instant). */
export function lookForReview(g, redraw) {
  if (rv.id === g.id) return;
  resetReview();
  rv.id = g.id;
  if (reviewable(g)) poll(g.id, redraw, false);
}

async function poll(id, redraw, loud) {
  try {
    const r = await api('GET', `/api/games/${id}/review`);
    if (rv.id !== id) return;
    take(r, id, redraw);
  } catch (err) {
    if (rv.id !== id) return;
    rv.status = null;
    if (loud || err.code !== 'not_found') toast(plainError(err));
    redraw();
  }
}

function take(r, id, redraw) {
  rv.status = r.status === 'none' ? null : r.status; // 'none': no review yet (200, no error)
  rv.progress = r.progress || 0;
  rv.place = r.place || 0;
  rv.data = r.status === 'done' ? r : null;
  clearTimeout(rv.timer);
  if (r.status === 'running' || r.status === 'queued') rv.timer = setTimeout(() => poll(id, redraw, true), 700);
  redraw();
}

/** Starts (or joins) the review of `g`. */
export async function startReview(g, redraw) {
  rv.id = g.id;
  try {
    take(await api('POST', `/api/games/${g.id}/review`), g.id, redraw);
  } catch (err) {
    toast(plainError(err));
  }
}

/** The better move's squares to draw on the board at `viewPly`: after a move the review marks
 * (an inaccuracy or worse), the move the engine preferred in its place. */
export function betterPath(viewPly) {
  const p = rv.data && viewPly > 0 ? rv.data.plies[viewPly - 1] : null;
  return p && MARKED.includes(p.class) && p.best_path.length ? p.best_path : null;
}

function men(cp) {
  const v = cp / 100;
  const lang = document.documentElement.lang;
  return `${v > 0 ? '+' : v < 0 ? '−' : '±'}${Math.abs(v).toLocaleString(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 })}`;
}

/** Draws the review's parts for game `g` seen at `viewPly`; `goTo(ply)` on a graph click. */
export function renderReview(g, viewPly, goTo) {
  const button = $('#review');
  button.hidden = !reviewable(g) || rv.status === 'done';
  button.disabled = rv.status === 'running' || rv.status === 'queued';
  const box = $('#review-box');
  const panel = $('#review-panel');
  box.hidden = !rv.data;
  panel.hidden = !rv.status;
  panel.replaceChildren();
  if (rv.status === 'queued') {
    // Waiting for a free slot: one review per client runs at a time (docs/api.md).
    panel.append(el('div', { class: 'review-queued', text: t('review.queued', { place: rv.place }) }));
    return;
  }
  if (rv.status === 'running') {
    const pct = Math.round(rv.progress * 100);
    panel.append(
      el('div', { text: t('review.running', { pct }) }),
      el('progress', { max: '100', value: String(pct), 'aria-label': t('review.running', { pct }) }),
    );
    return;
  }
  if (!rv.data) return;
  const r = rv.data;
  const startTurn = g.boards[0].turn;
  drawGraph($('#review-graph'), r, viewPly, goTo, g.ply);
  const acc = (v) => (v === null || v === undefined ? '–' : v.toLocaleString(document.documentElement.lang, { maximumFractionDigits: 1 }));
  panel.append(el('div', { class: 'review-acc', 'data-accuracy': `${r.accuracy.white}/${r.accuracy.black}`, text: t('review.accuracy', { white: acc(r.accuracy.white), black: acc(r.accuracy.black) }) }));
  for (const color of ['white', 'black']) {
    const c = counts(r, color, g.boards);
    panel.append(el('div', { class: 'review-counts', text: t('review.counts', { color: t(`color.${color}`), i: c.inaccuracy, m: c.mistake, b: c.blunder }) }));
  }
  const p = viewPly > 0 ? r.plies[viewPly - 1] : null;
  if (p) {
    const line = el('div', { class: `review-move cls-${p.class}`, id: 'review-move', 'data-class': p.class },
      t('review.move', { move: moveLabel(viewPly, startTurn, p.move), class: t(`review.class.${p.class}`), score: men(p.score) }));
    if (MARKED.includes(p.class) && p.best) line.append(' ', el('span', { class: 'review-better', text: t('review.better', { move: p.best, loss: num(p.loss / 100, 1), n: p.loss / 100 }) }));
    panel.append(line);
  }
  panel.append(el('div', { class: 'note', text: t('review.depth', { depth: r.depth }) }));
  decorateMoves(r, startTurn);
}

function decorateMoves(r, startTurn) {
  for (const b of document.querySelectorAll('#moves .mv[data-ply]')) {
    const k = Number(b.dataset.ply) - 1;
    const p = r.plies[k];
    if (!p) continue;
    b.dataset.class = p.class;
    b.setAttribute('aria-label', `${moveLabel(k + 1, startTurn, p.move)}, ${t(`review.class.${p.class}`)}`);
    if (SYMBOL[p.class]) b.append(el('span', { class: `cls cls-${p.class}`, 'aria-hidden': 'true', text: SYMBOL[p.class] }));
  }
}

function drawGraph(s, r, viewPly, goTo, plies) {
  s.replaceChildren();
  s.setAttribute('viewBox', `0 0 ${GRAPH_W} ${GRAPH_H}`);
  const pts = graphPoints(r);
  svg('rect', { x: 0, y: 0, width: GRAPH_W, height: GRAPH_H, class: 'graph-black' }, s);
  const line = pts.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
  svg('polygon', { points: `0,${GRAPH_H} ${line} ${GRAPH_W},${GRAPH_H}`, class: 'graph-white' }, s);
  svg('line', { x1: 0, y1: GRAPH_H / 2, x2: GRAPH_W, y2: GRAPH_H / 2, class: 'graph-mid' }, s);
  svg('polyline', { points: line, class: 'graph-line', fill: 'none' }, s);
  r.plies.forEach((p, k) => {
    if (!MARKED.includes(p.class)) return;
    const q = pts[k + 1];
    // kept inside the graph, so that a dot at a won or lost score shows whole
    const cy = Math.min(GRAPH_H - 5, Math.max(5, q.y));
    svg('circle', { cx: q.x, cy, r: 4.5, class: `graph-dot cls-${p.class}`, 'data-ply': String(k + 1) }, s);
  });
  const cur = pts[Math.min(viewPly, pts.length - 1)];
  if (cur) svg('line', { x1: cur.x, y1: 0, x2: cur.x, y2: GRAPH_H, class: 'graph-now' }, s);
  s.onclick = (e) => {
    const b = s.getBoundingClientRect();
    goTo(plyAt(((e.clientX - b.left) / b.width) * GRAPH_W, plies));
  };
}
