// Move numbers (no rule: only counting). Plies are never shown bare: a move is "14. d3" for
// White and "14… d4-e4" for Black, whoever started.

/** The move number and colour of ply `ply` (1 = the first move) of a game whose start has
 * `startTurn` to move. */
export function moveNumber(ply, startTurn) {
  const k = ply - 1 + (startTurn === 'black' ? 1 : 0);
  return { n: Math.floor(k / 2) + 1, color: k % 2 === 0 ? 'white' : 'black' };
}

/** `14. d3` or `14… d4-e4`. */
export function moveLabel(ply, startTurn, text) {
  const { n, color } = moveNumber(ply, startTurn);
  return `${n}${color === 'white' ? '.' : '…'} ${text}`;
}

/** Rows of the move list: `{n, white, black}` with ply numbers (null where there is none). */
export function moveRows(plies, startTurn) {
  const rows = [];
  for (let ply = 1; ply <= plies; ply++) {
    const { n, color } = moveNumber(ply, startTurn);
    if (!rows.length || rows[rows.length - 1].n !== n) rows.push({ n, white: null, black: null });
    rows[rows.length - 1][color] = ply;
  }
  return rows;
}

/** The number of full moves after `plies` plies from a start with White to move. */
export function fullMoves(plies) {
  return Math.ceil(plies / 2);
}
