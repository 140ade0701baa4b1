// Where a board's cells go in the board's SVG (1000 × 1000 units), from the board as the server
// lists it (GET /api/variants: each cell's name and its column `x` and row `y` in a drawing).
// Geometry for drawing only: no rule is known here (which cells are neighbours for the game is
// the server's to say through the legal moves).
//
// Square boards (`shape: 'square'`): the checkerboard of width × width squares, `x` its file and
// `y` its rank; the 9×9 board is drawn as it always was (squares of 100 units, a margin of 50).
// The hexagon (`shape: 'hex'`): pointy-topped cells side by side in rows, `x` counted in half
// cells, row 1 at the bottom (RULES-hex.md R1, "Drawing").
//
// Turning the board round (flipped) is a half turn about the SVG's centre, where the board is
// centred.

export const VIEW = 1000; // the SVG's width and height
const SQUARE_MARGIN = 50; // room for the coordinates around a checkerboard
const HEX_UNIT = 60; // half a hex cell's width
const ROOT3 = Math.sqrt(3);

/** The layout of `geometry` ({variant, shape, width, height, cells: [{name, x, y}], centre}). */
export function boardLayout(geometry) {
  const hex = geometry.shape === 'hex';
  const place = new Map();
  let size; // a cell's width (a square's side; the hexagon's width between flat sides)
  if (hex) {
    size = 2 * HEX_UNIT;
    const xs = geometry.cells.map((c) => c.x);
    const ys = geometry.cells.map((c) => c.y);
    const midX = (Math.min(...xs) + Math.max(...xs)) / 2;
    const midY = (Math.min(...ys) + Math.max(...ys)) / 2;
    for (const c of geometry.cells) {
      place.set(c.name, { x: fine(VIEW / 2 + (c.x - midX) * HEX_UNIT), y: fine(VIEW / 2 - (c.y - midY) * HEX_UNIT * ROOT3) });
    }
  } else {
    size = (VIEW - 2 * SQUARE_MARGIN) / geometry.width;
    for (const c of geometry.cells) {
      place.set(c.name, { x: fine(SQUARE_MARGIN + (c.x - 0.5) * size), y: fine(SQUARE_MARGIN + (geometry.height - c.y + 0.5) * size) });
    }
  }
  const names = geometry.cells.map((c) => c.name);
  const at = (p, flipped) => (flipped ? { cx: VIEW - p.x, cy: VIEW - p.y } : { cx: p.x, cy: p.y });

  /** The SVG centre of a cell. */
  function centre(sq, flipped) {
    const p = place.get(sq);
    return p ? at(p, flipped) : { cx: -VIEW, cy: -VIEW };
  }

  /** Whether an offset (dx, dy) from a cell's centre falls inside the cell. */
  function inside(dx, dy) {
    const h = size / 2;
    const ax = Math.abs(dx);
    const ay = Math.abs(dy);
    if (!hex) return dx >= -h && dx < h && dy >= -h && dy < h; // as a grid's cells: [left, right)
    return ax <= h && ax / 2 + (ay * ROOT3) / 2 <= h;
  }

  /** The cell under an SVG point, or null. */
  function squareAt(px, py, flipped) {
    for (const sq of names) {
      const { cx, cy } = centre(sq, flipped);
      if (inside(px - cx, py - cy)) return sq;
    }
    return null;
  }

  /** The cell beside `sq` on screen for an arrow key ('left', 'right', 'up', 'down'), or null:
   * the nearest cell that way (left and right: in the same row; up and down: within 60° of
   * straight up or down, the one to the right first going up and to the left going down). */
  function screenNeighbour(sq, key, flipped) {
    const from = centre(sq, flipped);
    let best = null;
    let bestScore = Infinity;
    for (const other of names) {
      if (other === sq) continue;
      const { cx, cy } = centre(other, flipped);
      const dx = cx - from.cx;
      const dy = cy - from.cy;
      let ok;
      if (key === 'left' || key === 'right') ok = Math.abs(dy) < size * 0.25 && (key === 'left' ? dx < 0 : dx > 0);
      else ok = (key === 'up' ? dy < 0 : dy > 0) && Math.abs(dx) <= Math.abs(dy) * ROOT3 + 1;
      if (!ok) continue;
      const side = key === 'up' ? (dx > 0 ? 0 : 1) : key === 'down' ? (dx < 0 ? 0 : 1) : 0;
      const score = Math.round(Math.hypot(dx, dy)) * 2 + side;
      if (score < bestScore) {
        bestScore = score;
        best = other;
      }
    }
    return best;
  }

  /** A cell's outline shrunk by `inset` units: {rect: {x, y, width, height}} on a square board,
   * {points: 'x,y …'} on the hexagon. */
  function outline(sq, flipped, inset = 0) {
    const { cx, cy } = centre(sq, flipped);
    if (!hex) {
      const s = size - 2 * inset;
      return { rect: { x: cx - s / 2, y: cy - s / 2, width: s, height: s } };
    }
    const r = (size / 2 - inset) / (ROOT3 / 2); // from the inradius to the corners
    const pts = [];
    for (let k = 0; k < 6; k++) {
      const a = (Math.PI / 3) * k + Math.PI / 6;
      pts.push(`${round(cx + r * Math.cos(a))},${round(cy + r * Math.sin(a))}`);
    }
    return { points: pts.join(' ') };
  }

  /** The coordinates drawn around the board: [{text, x, y}]. Each letter line is labelled at
   * its lower end, each number line at its lower end too (on the hexagon, where a row is level,
   * at its right end), just outside the board. */
  function labels(flipped) {
    const f = flipped ? -1 : 1;
    const out = [];
    const lines = (key) => {
      const groups = new Map();
      for (const c of geometry.cells) {
        const k = key(c.name);
        if (!groups.has(k)) groups.set(k, []);
        groups.get(k).push(c.name);
      }
      return groups;
    };
    const letterOf = (n) => n[0];
    const numberOf = (n) => n.slice(1);
    for (const [kind, groups] of [['letter', lines(letterOf)], ['number', lines(numberOf)]]) {
      for (const [text, cells] of groups) {
        // the end lowest on the board (unflipped), the right one of a level line
        const ends = [...cells].sort((a, b) => place.get(b).y - place.get(a).y || place.get(b).x - place.get(a).x);
        const end = ends[0];
        const p = place.get(end);
        let dx;
        let dy;
        if (hex) {
          // one step further along the line, beyond its end, three quarters of the way
          const next = ends.length > 1 ? place.get(ends[1]) : { x: p.x - 1, y: p.y };
          const len = Math.hypot(p.x - next.x, p.y - next.y) || 1;
          dx = ((p.x - next.x) / len) * size * 0.75;
          dy = ((p.y - next.y) / len) * size * 0.75;
        } else {
          const side = kind === 'letter' ? -1 : 1;
          const bottom = geometry.cells.find((c) => c.name === end).y === 1;
          [dx, dy] = bottom ? [side * 27, size / 2 + 25] : [side * (size / 2 + 25), 30];
        }
        const { cx, cy } = at(p, flipped);
        out.push({ text, x: round(cx + f * dx), y: round(cy + f * dy) });
      }
    }
    return out;
  }

  /** The light squares of a checkerboard ([{x, y, size}], none on the hexagon). */
  function lightSquares() {
    if (hex) return [];
    const out = [];
    for (let row = 0; row < geometry.height; row++) {
      for (let col = 0; col < geometry.width; col++) {
        if ((col + row) % 2 === 1) out.push({ x: SQUARE_MARGIN + col * size, y: SQUARE_MARGIN + row * size, size });
      }
    }
    return out;
  }

  return {
    variant: geometry.variant,
    shape: hex ? 'hex' : 'square',
    names,
    size,
    home: geometry.centre || names[Math.floor(names.length / 2)],
    centre,
    squareAt,
    screenNeighbour,
    outline,
    labels,
    lightSquares,
    /** The checkerboard's area (square boards): {x, y, size}. */
    area: hex ? null : { x: SQUARE_MARGIN, y: SQUARE_MARGIN, size: VIEW - 2 * SQUARE_MARGIN },
  };
}

/** To a thousandth of a unit (so that 900 / 7 squares meet exactly in the middle). */
function fine(v) {
  return Math.round(v * 1000) / 1000;
}

function round(v) {
  return Math.round(v * 10) / 10;
}
