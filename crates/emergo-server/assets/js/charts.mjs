// The lobby's and the player page's charts as numbers: where each seek's dot and each point of a
// rating history go in an SVG box. Pure functions (tested by node --test); drawing is elsewhere.

/** The estimated duration in minutes of a real-time control `B+I` (B + I×60/60 per the
 * categories' rule: B×60 + 60×I seconds), or null for correspondence and bad text. */
export function estimateMinutes(time) {
  const m = /^(\d+(?:\.\d+)?)\+(\d+)$/.exec(String(time));
  if (!m) return null;
  return Number(m[1]) + Number(m[2]);
}

/** A linear map from [d0, d1] onto [r0, r1] (a flat domain maps to the middle). */
export function linear([d0, d1], [r0, r1]) {
  if (d1 === d0) return () => (r0 + r1) / 2;
  return (v) => r0 + ((v - d0) / (d1 - d0)) * (r1 - r0);
}

/** Round rating ticks (every 100 or 200 points) covering [lo, hi]. */
export function ratingTicks(lo, hi) {
  const step = hi - lo > 800 ? 200 : 100;
  const ticks = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) ticks.push(v);
  return ticks;
}

/** The dots of the seeks graph: x the time control (logarithmic, 0.25 to 60 minutes;
 * correspondence at the right edge), y the owner's rating (1000 to 2200, clamped). */
export function seekDots(seeks, box) {
  const { left, right, top, bottom } = box;
  const lx = linear([Math.log(0.25), Math.log(60)], [left, right - 30]);
  const y = linear([1000, 2200], [bottom, top]);
  return seeks.map((seek) => {
    const minutes = estimateMinutes(seek.time);
    const x = minutes === null ? right - 10 : lx(Math.log(Math.min(60, Math.max(0.25, minutes))));
    const rating = Math.min(2200, Math.max(1000, Number(seek.rating) || 1500));
    return { x: Math.round(x), y: Math.round(y(rating)), seek };
  });
}

/** The rating history line: SVG path data through the points (oldest first) and the rating
 * ticks of the y axis. */
export function historyPath(points, box) {
  const { left, right, top, bottom } = box;
  if (!points.length) return { d: '', ticks: [], dots: [] };
  const ratings = points.map((p) => p.rating);
  const lo = Math.floor((Math.min(...ratings) - 50) / 100) * 100;
  const hi = Math.ceil((Math.max(...ratings) + 50) / 100) * 100;
  const x = linear([0, points.length - 1], [left, right]); // one point: in the middle
  const y = linear([lo, hi], [bottom, top]);
  const dots = points.map((p, i) => ({ x: Math.round(x(i) * 10) / 10, y: Math.round(y(p.rating) * 10) / 10, point: p }));
  const d = dots.map((p, i) => `${i ? 'L' : 'M'}${p.x} ${p.y}`).join(' ');
  const ticks = ratingTicks(lo, hi).map((v) => ({ value: v, y: Math.round(y(v) * 10) / 10 }));
  return { d, ticks, dots };
}
