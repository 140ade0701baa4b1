// The editor's set-up as plain data: {turn, hand: {white, black}, columns: {sq: {owner, men,
// prisoners}}}, changed a man at a time and written as position text (N2). Whether it is a
// position is the server's to say: nothing here counts or refuses.

const LETTER = { white: 'W', black: 'B' };
const other = (c) => (c === 'white' ? 'black' : 'white');

/** One man of `color` onto `sq`: an empty square gets a column of it; on a column it joins the
 * owner's men when it is the owner's colour, else the prisoners under them. */
export function addMan(columns, sq, color) {
  const col = columns[sq];
  if (!col) columns[sq] = { owner: color, men: 1, prisoners: 0 };
  else if (col.owner === color) columns[sq] = { ...col, men: col.men + 1 };
  else columns[sq] = { ...col, prisoners: col.prisoners + 1 };
}

/** One man off `sq`: the lowest prisoner first, then the owner's men; the last one empties it. */
export function removeMan(columns, sq) {
  const col = columns[sq];
  if (!col) return;
  if (col.prisoners > 0) columns[sq] = { ...col, prisoners: col.prisoners - 1 };
  else if (col.men > 1) columns[sq] = { ...col, men: col.men - 1 };
  else delete columns[sq];
}

/** Position text (N2): side, men in hand, then `square=stack` from the top, squares in byte
 * order of their names. */
export function setupText(setup) {
  const head = `${LETTER[setup.turn]}:${setup.hand.white}:${setup.hand.black}`;
  const squares = Object.keys(setup.columns).sort();
  if (!squares.length) return head;
  const stacks = squares.map((sq) => {
    const col = setup.columns[sq];
    return `${sq}=${LETTER[col.owner].repeat(col.men)}${LETTER[other(col.owner)].repeat(col.prisoners)}`;
  });
  return `${head}:${stacks.join(',')}`;
}
