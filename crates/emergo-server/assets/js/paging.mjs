// Paged game views and deltas (docs/api.md, `from`): the newest plies only, joined to the view
// the page holds. Pure, tested by node --test.

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

/**
 * What the page does with a state `g` (a whole view, or a delta: a view paged from the first
 * ply its change touched) while it holds `old`:
 * - `{ game }`: the whole view to show;
 * - `{ ask: ply }`: a delta was missed (or `g` is of another history): read the view again
 *   from that ply (`GET ...?from=<ply>`; 0: the whole view);
 * - `{}`: nothing (`g` is older than what is held: a late answer).
 * `reread` says that `g` is the answer to such an `ask` from a ply; if it does not join
 * either, the whole view is asked for.
 */
export function takeState(old, g, reread = false) {
  const same = old && old.id === g.id;
  if (same && g.version < old.version) return {};
  const whole = mergeView(old, g);
  if (whole) return { game: whole };
  if (!same || old.from || reread) return { ask: 0 };
  return { ask: Math.min(old.ply, g.from) };
}
