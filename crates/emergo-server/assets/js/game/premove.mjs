// Premoves on the game page: entered on the board while the other side is to move (the board
// component keeps it: board.mjs, board/select.mjs), or typed; played when the turn comes if
// exactly one legal move fits, else cancelled. Pure, tested.
import { matchPremove } from '../board/select.mjs';

/** What becomes of the pending premove `pre` now: null while it waits (or there is none), or
 * `{move}` to play, or `{cancelled: true}` when no single legal move fits. `mayMove`: the
 * seat's turn has come (game/state.mjs `canMove`). */
export function premoveNow(pre, legal, mayMove) {
  if (!pre || !mayMove) return null;
  const move = matchPremove(legal, pre);
  return move ? { move } : { cancelled: true };
}

/** The premove in the status line: `e4–e5`, `d3` (an entry), a typed move as typed, `e4…`
 * while only its first square is chosen; null when there is none. */
export function premoveWords(pre, start) {
  if (pre) return pre.text || `${pre.from ? `${pre.from}–` : ''}${pre.to}`;
  return start ? `${start}…` : null;
}
