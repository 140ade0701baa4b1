// A paged game view (docs/api.md, `from`): the newest plies only, joined to the view the page
// holds. Pure, tested by node --test.

const LISTS = ['moves', 'history', 'positions', 'boards'];

/**
 * The whole view from `old` (a whole view of the same game) and `paged` (a view from ply
 * `paged.from`): `paged` itself when it is whole, null when `old` does not hold the same game
 * up to that ply (then the page asks for the whole view).
 */
export function mergeView(old, paged) {
  if (!paged.from) return paged;
  if (!old || old.id !== paged.id || old.from || old.ply < paged.from) return null;
  if (old.positions[paged.from] !== paged.positions[0]) return null;
  const whole = { ...paged, from: 0 };
  for (const key of LISTS) whole[key] = old[key].slice(0, paged.from).concat(paged[key]);
  return whole;
}
