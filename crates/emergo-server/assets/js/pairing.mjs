// The quick pairing grid's choices, as pure functions over `GET /api/seeks` (tested by
// node --test): which seek a button takes, and which of one's own seeks shows as waiting.

/** The quick pairing grid (issue 11). */
export const QUICK = ['0.5+0', '1+0', '3+2', '5+3', '10+5', '15+10', 'corr:1', 'corr:3'];

/** Whether a seek is of the square 9×9 board, the only board the grid pairs on. */
const square = (s) => (s.variant || 'emergo') === 'emergo';

/** The oldest open rated seek of `time` on the 9×9 board by someone else (the list is oldest
 * first), or null: a grid button takes it rather than making a seek of its own. */
export function quickMatch(seeks, time, myName) {
  return seeks.find((s) => s.time === time && s.rated && square(s) && !s.opponent && !s.game && s.owner !== myName) || null;
}

/** One's own open rated seek of one of the grid's time controls, or null: its button shows
 * pressed (after a reload too), and pressing it again withdraws the seek. */
export function ownQuickSeek(seeks, myName) {
  return seeks.find((s) => s.owner === myName && s.rated && square(s) && !s.opponent && !s.game && QUICK.includes(s.time)) || null;
}
