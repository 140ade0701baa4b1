// One game on screen: the state the game page holds (the server's view, our seat, the ply on
// screen, a move being sent), and what follows from it alone (pure, tested). The selection and
// the premove are the board component's (board.mjs).

export const other = (c) => (c === 'white' ? 'black' : 'white');

export const st = {
  id: null,
  game: null,
  seat: null, // 'white' | 'black' | null (watching)
  token: null,
  viewPly: 0,
  board: null, // the board component on #board
  explorer: null, // the opening explorer under a finished game (analysis-explorer.mjs)
  busy: false, // a move is being sent
  hint: null, // {move, score}
  tipSquare: null,
  lastEvent: null,
  stateAt: 0, // when the current state arrived (performance.now()), for the clocks
  shownMs: null, // what the running clocks showed at the last tick: {white, black}
};

/** Whether the latest position is on screen. */
export function atLatest(s) {
  return !!s.game && s.viewPly === s.game.ply;
}

/** Whether this page may move now: the seat's turn, on the latest position, nothing pending.
 * The server says when a game waits for a seat (docs/api.md `waiting_for`): no move before. */
export function canMove(s) {
  const g = s.game;
  return !!(g && s.token && g.status === 'ongoing' && !g.waiting_for && g.turn === s.seat && atLatest(s) && !s.busy && !g.engine_thinking);
}

/** Whether a premove may be entered: the other side (which has joined) is to move. */
export function canPremove(s) {
  const g = s.game;
  return !!(g && s.token && g.status === 'ongoing' && g.turn !== s.seat && atLatest(s) && g[other(s.seat)].joined);
}
