// What a click, a drag or a premove means, given the legal moves the server sent
// (`{move, passed, captured}`): no rule here, only matching squares against that list.

function startsWith(m, sel) {
  return m.passed.length >= sel.length && sel.every((s, i) => m.passed[i] === s);
}

/** The squares the next click may use: entries, starts of moves, the next squares of the
 * moves begun with `sel`. */
export function clickTargets(legal, sel) {
  const out = { entries: new Set(), starts: new Set(), next: new Set() };
  for (const m of legal) {
    if (m.passed.length === 1) {
      if (!sel.length) out.entries.add(m.passed[0]);
    } else {
      out.starts.add(m.passed[0]);
      if (sel.length && startsWith(m, sel) && m.passed.length > sel.length) out.next.add(m.passed[sel.length]);
    }
  }
  return out;
}

/** A click on `sq` with `sel` chosen so far: `{submit: move}`, `{sel: [...]}` or `{sel: []}`. */
export function afterClick(legal, sel, sq) {
  const c = clickTargets(legal, sel);
  if (!sel.length) {
    if (c.entries.has(sq)) return { submit: legal.find((m) => m.passed.length === 1 && m.passed[0] === sq).move };
    if (c.starts.has(sq)) return { sel: [sq] };
    return { sel: [] };
  }
  if (c.next.has(sq)) {
    const next = [...sel, sq];
    const left = legal.filter((m) => startsWith(m, next));
    if (left.length === 1) return { submit: left[0].move };
    return { sel: next };
  }
  if (c.starts.has(sq) && !(sel.length === 1 && sel[0] === sq)) return { sel: [sq] };
  return { sel: [] };
}

/**
 * A man dragged from `from` and dropped on `to`: the move when exactly one legal move starts
 * there and ends there; otherwise the longest route the candidates share, to be completed by
 * clicks; `{sel: []}` when nothing fits.
 */
export function afterDrop(legal, from, to) {
  if (from === to) return { sel: [from] };
  const ending = legal.filter((m) => m.passed.length > 1 && m.passed[0] === from && m.passed[m.passed.length - 1] === to);
  if (ending.length === 1) return { submit: ending[0].move };
  if (ending.length > 1) {
    const shared = [from];
    for (let i = 1; ending.every((m) => m.passed.length > i && m.passed[i] === ending[0].passed[i]); i++) shared.push(ending[0].passed[i]);
    return { sel: shared };
  }
  // dropped on a square on the way: as if clicked
  const asClick = afterClick(legal, [from], to);
  if (asClick.submit || asClick.sel.length > 1) return asClick;
  return { sel: [] };
}

/**
 * The legal move a premove stands for, or null: `pre` is `{from, to}` (from null for an entry)
 * or `{text}` (typed). A premove that fits several moves (two capture routes) is not played.
 */
export function matchPremove(legal, pre) {
  if (!pre) return null;
  if (pre.text) {
    const m = legal.find((x) => x.move === pre.text.toLowerCase());
    return m ? m.move : null;
  }
  const fits = legal.filter((m) =>
    pre.from === null
      ? m.passed.length === 1 && m.passed[0] === pre.to
      : m.passed.length > 1 && m.passed[0] === pre.from && m.passed[m.passed.length - 1] === pre.to);
  return fits.length === 1 ? fits[0].move : null;
}

/**
 * A click on `sq` while a premove may be entered for `color` on `board` (the position the
 * other side is to move in), with `start` the square chosen first (or null): the square chosen
 * now (`start`) and the premove made (`pre`: `{from, to}`, from null for an entry, or null).
 * Your column starts one; a second square ends it; an empty square is an entry while you have
 * men in hand; the first square again, or anything else, clears it.
 */
export function afterPremoveClick(board, color, start, sq) {
  const col = board.columns[sq];
  if (start) return start === sq ? { start: null, pre: null } : { start: null, pre: { from: start, to: sq } };
  if (col && col.owner === color) return { start: sq, pre: null };
  if (!col && board.hand[color] > 0) return { start: null, pre: { from: null, to: sq } };
  return { start: null, pre: null };
}

/** The squares a premove marks on the board (none for a typed one). */
export function premoveSquares(pre) {
  return pre.text ? [] : [pre.from, pre.to].filter(Boolean);
}
