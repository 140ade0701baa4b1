// Drawing the board: the cells where the board's layout puts them (board/layout.mjs, from the
// server's list of the board's cells: geometry for drawing only), the columns of a position the
// server sent, and marks. No rule is known here. Every function takes the layout `lay` of the
// board being drawn: the 9×9 or 7×7 checkerboard, or the hexagon.
import { svg, SVGNS } from '../dom.mjs';
import { t } from '../i18n.mjs';
import { VIEW } from './layout.mjs';

function otherColor(c) {
  return c === 'white' ? 'black' : 'white';
}

/** A column's men from the top as letters: `WWWBB` is 3 White over 2 Black. */
export function stackLetters(col) {
  const l = (c) => (c === 'white' ? 'W' : 'B');
  return l(col.owner).repeat(col.men) + l(otherColor(col.owner)).repeat(col.prisoners);
}

/** A square in words: "c4, White column: 3 White over 5 Black" or "c4, empty". */
export function squareWords(sq, col) {
  if (!col) return t('sq.empty', { sq });
  const owner = t(`color.${col.owner}`);
  if (!col.prisoners) return t('sq.column', { sq, owner, n: col.men });
  return t('sq.columnOver', { sq, owner, men: col.men, prisoners: col.prisoners, other: t(`color.${otherColor(col.owner)}`) });
}

/** The frame, cells, coordinates and the layers `drawPosition` fills, in the `<svg>` `b`:
 * every screen's board (game, review, analysis, editor) is drawn here, with the class its
 * colours hang on (and `data-variant`, `data-shape` naming the board). */
export function drawFrame(b, lay, flipped) {
  b.classList.add('board-svg');
  b.dataset.variant = lay.variant;
  b.dataset.shape = lay.shape;
  b.replaceChildren();
  const defs = svg('defs', {}, b);
  const frame = svg('linearGradient', { id: 'g-frame', x1: 0, y1: 0, x2: 1, y2: 1 }, defs);
  svg('stop', { offset: 0, class: 'frame-a' }, frame);
  svg('stop', { offset: 1, class: 'frame-b' }, frame);
  for (const [id, cls] of [['arrow-last', 'arrow-last'], ['arrow-hint', 'arrow-hint'], ['arrow-sel', 'arrow-sel'], ['arrow-better', 'arrow-better']]) {
    const m = svg('marker', { id, viewBox: '0 0 10 10', refX: 6, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: 'auto-start-reverse' }, defs);
    svg('path', { d: 'M0,0 L10,5 L0,10 z', class: cls }, m);
  }
  svg('rect', { x: 0, y: 0, width: VIEW, height: VIEW, rx: 22, fill: 'url(#g-frame)' }, b);
  if (lay.area) {
    const a = lay.area;
    svg('rect', { x: a.x - 3, y: a.y - 3, width: a.size + 6, height: a.size + 6, class: 'frame-edge' }, b);
  } else {
    // the hexagon: an edge round its cells
    const edge = svg('g', { class: 'hex-edge' }, b);
    for (const sq of lay.names) shape(edge, lay, sq, flipped, -7, { class: 'frame-edge' });
  }
  const squares = svg('g', { class: 'squares' }, b);
  if (lay.area) {
    for (const sq of lay.names) shape(squares, lay, sq, flipped, 0, { class: 'sq-dark', 'data-cell': sq });
    for (const l of lay.lightSquares()) svg('rect', { x: l.x, y: l.y, width: l.size, height: l.size, class: 'sq-light' }, squares);
  } else {
    for (const sq of lay.names) shape(squares, lay, sq, flipped, 0, { class: 'sq-dark hex-cell', 'data-cell': sq });
  }
  const coords = svg('g', { class: 'coords', 'aria-hidden': 'true' }, b);
  for (const l of lay.labels(flipped)) {
    const e = svg('text', { class: 'coord', x: l.x, y: l.y }, coords);
    e.textContent = l.text;
  }
  svg('g', { class: 'under' }, b); // last move, selection
  svg('g', { class: 'pieces' }, b);
  svg('g', { class: 'marks' }, b); // legal starts, targets
  svg('g', { class: 'over' }, b); // captured men, hint, arrows
  svg('g', { class: 'drag' }, b); // a man being dragged
  const hits = svg('g', { class: 'hits' }, b);
  for (const sq of lay.names) shape(hits, lay, sq, flipped, 0, { class: 'hit', 'data-sq': sq, role: 'button', tabindex: -1 });
}

/** A cell's outline (shrunk by `inset`, grown when negative) as a `rect` or a `polygon`. */
function shape(parent, lay, sq, flipped, inset, attrs) {
  const o = lay.outline(sq, flipped, inset);
  return o.rect ? svg('rect', { ...attrs, ...o.rect }, parent) : svg('polygon', { ...attrs, points: o.points }, parent);
}

export const MAN = {
  W: { face: '#f8f3e7', side: '#d8ccb3', edge: '#6f5d47' },
  B: { face: '#3a332e', side: '#1d1916', edge: '#0b0908' },
};

/** One column as a stack of discs, bottom man first; a badge gives men/prisoners. */
function drawColumn(parent, lay, sq, col, flipped, ghost) {
  const stack = stackLetters(col);
  const { cx, cy } = ghost || lay.centre(sq, flipped);
  const g = svg('g', { class: ghost ? 'column dragging' : 'column', 'data-col': ghost ? null : sq, 'data-stack': stack }, parent);
  const h = stack.length;
  const rx = 37;
  const ry = 17;
  const th = h === 1 ? 11 : Math.max(2.4, Math.min(10, 58 / h));
  const base = cy + (h === 1 ? 22 : 27);
  svg('ellipse', { cx, cy: base + 4, rx: rx + 3, ry: ry + 2, fill: 'rgba(30,15,5,.35)' }, g);
  for (let i = 0; i < h; i++) {
    const man = MAN[stack[h - 1 - i]]; // bottom first
    const y = base - i * th;
    svg('path', {
      d: `M${cx - rx},${y - th} L${cx - rx},${y} A${rx},${ry} 0 0 0 ${cx + rx},${y} L${cx + rx},${y - th} Z`,
      fill: man.side,
      stroke: man.edge,
      'stroke-width': h > 14 ? 0.6 : 1.1,
    }, g);
  }
  const top = MAN[stack[0]];
  const topY = base - h * th;
  svg('ellipse', { cx, cy: topY, rx, ry, fill: top.face, stroke: top.edge, 'stroke-width': 1.4 }, g);
  svg('ellipse', { cx, cy: topY, rx: rx - 9, ry: ry - 4.5, fill: 'none', stroke: top.edge, 'stroke-opacity': 0.35, 'stroke-width': 1.5 }, g);
  if (h > 1) drawBadge(g, cx, topY, col, stack[0], ghost ? 'ghost' : sq);
  return g;
}

function drawBadge(g, cx, y, col, ownerLetter, id) {
  const prisonerLetter = ownerLetter === 'W' ? 'B' : 'W';
  const a = String(col.men);
  const bText = col.prisoners ? String(col.prisoners) : '';
  const wa = 13 + 13 * a.length;
  const wb = bText ? 13 + 13 * bText.length : 0;
  const w = wa + wb;
  const x0 = cx - w / 2;
  const hgt = 29;
  const y0 = y - hgt / 2;
  const clip = `clip-${id}`;
  const cp = svg('clipPath', { id: clip }, g);
  svg('rect', { x: x0, y: y0, width: w, height: hgt, rx: 7 }, cp);
  const inner = svg('g', { 'clip-path': `url(#${clip})` }, g);
  svg('rect', { x: x0, y: y0, width: wa, height: hgt, fill: MAN[ownerLetter].face }, inner);
  const ta = svg('text', { class: 'badge-text', x: x0 + wa / 2, y: y + 1, fill: ownerLetter === 'W' ? '#2b2622' : '#f8f3e7' }, inner);
  ta.textContent = a;
  if (bText) {
    svg('rect', { x: x0 + wa, y: y0, width: wb, height: hgt, fill: MAN[prisonerLetter].face }, inner);
    const tb = svg('text', { class: 'badge-text', x: x0 + wa + wb / 2, y: y + 1, fill: prisonerLetter === 'W' ? '#2b2622' : '#f8f3e7' }, inner);
    tb.textContent = bText;
  }
  svg('rect', { x: x0, y: y0, width: w, height: hgt, rx: 7, fill: 'none', stroke: '#1d1916', 'stroke-width': 1.6 }, g);
}

/** A route as a line with an arrowhead at its end (so a multi-jump's direction shows). */
function arrow(parent, lay, sqs, flipped, cls, marker) {
  if (sqs.length < 2) return;
  const pts = sqs.map((s) => lay.centre(s, flipped));
  // stop short of the last centre so the arrowhead sits on the square
  const a = pts[pts.length - 2];
  const z = pts[pts.length - 1];
  const len = Math.hypot(z.cx - a.cx, z.cy - a.cy) || 1;
  const end = { cx: z.cx - ((z.cx - a.cx) / len) * 22, cy: z.cy - ((z.cy - a.cy) / len) * 22 };
  const points = [...pts.slice(0, -1), end].map((p) => `${p.cx},${p.cy}`).join(' ');
  svg('polyline', { points, class: cls, fill: 'none', 'stroke-linecap': 'round', 'stroke-linejoin': 'round', 'marker-end': `url(#${marker})` }, parent);
}

function shade(parent, lay, sq, flipped, cls) {
  shape(parent, lay, sq, flipped, 0, { class: cls, 'data-sq': sq });
}

/**
 * Draws a position and its marks. `view`: {board, flipped, last ({passed, captured} or null),
 * sel, hint (squares), premove (squares), targets ({entries, starts, next}), lifted (a square
 * whose column is being dragged), better (squares of a review's better move)}.
 */
export function drawPosition(b, lay, view) {
  const { board, flipped } = view;
  const layer = (name) => b.querySelector(`.${name}`);
  const [under, pieces, marks, over] = ['under', 'pieces', 'marks', 'over'].map(layer);
  for (const l of [under, pieces, marks, over]) l.replaceChildren();
  if (!board) return;
  const last = view.last;
  if (last) {
    for (const sq of last.passed) shade(under, lay, sq, flipped, 'last');
    arrow(over, lay, last.passed, flipped, 'last-path', 'arrow-last');
  }
  for (const sq of view.sel) shade(under, lay, sq, flipped, 'selected');
  for (const sq of view.premove || []) shade(under, lay, sq, flipped, 'premove');
  for (const sq of Object.keys(board.columns)) {
    const g = drawColumn(pieces, lay, sq, board.columns[sq], flipped);
    if (sq === view.lifted) g.classList.add('lifted');
  }
  if (last) {
    for (const sq of last.captured) {
      const { cx, cy } = lay.centre(sq, flipped);
      const g = svg('g', { class: 'captured', 'data-captured': sq }, over);
      svg('circle', { cx: cx + 30, cy: cy - 30, r: 14, fill: '#b3261e', stroke: '#fff', 'stroke-width': 3 }, g);
      svg('path', { d: `M${cx + 24},${cy - 36} l12,12 m0,-12 l-12,12`, stroke: '#fff', 'stroke-width': 3.5, 'stroke-linecap': 'round' }, g);
    }
  }
  if (view.sel.length >= 2) arrow(over, lay, view.sel, flipped, 'sel-path', 'arrow-sel');
  if (view.hint && view.hint.length) {
    for (const sq of view.hint) {
      shape(over, lay, sq, flipped, 4, { class: 'hint-mark', 'data-sq': sq, rx: 8 });
    }
    if (view.hint.length >= 2) arrow(over, lay, view.hint, flipped, 'hint-path', 'arrow-hint');
  }
  // a review's better move (squares of a move of the position before the last one)
  if (view.better && view.better.length) {
    if (view.better.length >= 2) arrow(over, lay, view.better, flipped, 'better-path', 'arrow-better');
    else {
      const { cx, cy } = lay.centre(view.better[0], flipped);
      svg('circle', { class: 'better-entry', cx, cy, r: 30 }, over);
    }
    over.lastChild.dataset.better = view.better.join('-');
  }
  const c = view.targets;
  for (const sq of c.starts) {
    if (view.sel[0] === sq) continue;
    shape(marks, lay, sq, flipped, 4, { class: 'start', 'data-mark': sq, rx: 10 });
  }
  for (const sq of [...c.entries, ...c.next]) {
    const { cx, cy } = lay.centre(sq, flipped);
    const occupied = board.columns[sq] !== undefined;
    svg('circle', { class: `target${occupied ? ' occupied' : ''}`, 'data-mark': sq, cx, cy, r: occupied ? 40 : 15 }, marks);
  }
  for (const r of b.querySelectorAll('.hit')) {
    const sq = r.dataset.sq;
    const active = c.starts.has(sq) || c.entries.has(sq) || c.next.has(sq) || view.sel.includes(sq);
    r.classList.toggle('active', active);
    r.setAttribute('aria-label', squareWords(sq, board.columns[sq]));
  }
}

/** Draws the column of `sq` following the pointer at SVG point (x, y) while it is dragged. */
export function drawDragged(b, lay, col, x, y) {
  const layer = b.querySelector('.drag');
  layer.replaceChildren();
  if (col) drawColumn(layer, lay, null, col, false, { cx: x, cy: y - 10 });
}

/** An SVG point from a pointer event's client coordinates. */
export function svgPoint(b, clientX, clientY) {
  const r = b.getBoundingClientRect();
  return { x: ((clientX - r.left) / r.width) * VIEW, y: ((clientY - r.top) / r.height) * VIEW };
}

/** A small SVG disc of a colour, for the player bars. */
export function discIcon(color) {
  const s = document.createElementNS(SVGNS, 'svg');
  s.setAttribute('viewBox', '0 0 24 24');
  s.setAttribute('class', 'disc-icon');
  s.setAttribute('aria-hidden', 'true');
  const m = MAN[color === 'white' ? 'W' : 'B'];
  svg('ellipse', { cx: 12, cy: 15, rx: 10, ry: 6, fill: m.side, stroke: m.edge }, s);
  svg('rect', { x: 2, y: 10, width: 20, height: 5, fill: m.side }, s);
  svg('ellipse', { cx: 12, cy: 10, rx: 10, ry: 6, fill: m.face, stroke: m.edge }, s);
  return s;
}

/** The men in hand as a row of overlapping discs seen from above. */
export function handIcons(color, count) {
  const s = document.createElementNS(SVGNS, 'svg');
  const n = Math.max(count, 0);
  s.setAttribute('viewBox', `0 0 ${Math.max(1, n) * 7 + 13} 22`);
  s.setAttribute('aria-hidden', 'true');
  const m = MAN[color === 'white' ? 'W' : 'B'];
  for (let i = 0; i < n; i++) {
    const cx = 10 + i * 7;
    svg('circle', { cx, cy: 11, r: 8.5, fill: m.face, stroke: m.edge, 'stroke-width': 1.3 }, s);
    svg('circle', { cx, cy: 11, r: 4.5, fill: 'none', stroke: m.edge, 'stroke-opacity': 0.35, 'stroke-width': 1 }, s);
  }
  return s;
}
