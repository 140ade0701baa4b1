// What changed between two states of a game, said in words (translation keys) and sounds.
// Pure: it compares two game views (docs/api.md) as seen from `seat` (null for a spectator).

const other = (c) => (c === 'white' ? 'black' : 'white');

/** The winner's colour of a finished game, or null for a draw. */
export function winner(g) {
  return g.result === '1-0' ? 'white' : g.result === '0-1' ? 'black' : null;
}

/**
 * The result in words from the reader's side: `{key, params}` for the headline ("You won",
 * "White wins", ...) and `{key, params}` for the reason ("Black has no pieces left").
 */
export function resultWords(g, seat) {
  const w = winner(g);
  let head;
  if (g.reason === 'aborted') head = { key: 'result.aborted' };
  else if (!w) head = { key: 'result.draw' };
  else if (seat) head = { key: w === seat ? 'result.youWon' : 'result.youLost' };
  else head = { key: 'result.wins', params: { color: w } };
  const loser = w ? other(w) : null;
  const reasons = {
    'no pieces': { key: 'reason.noPieces', params: { color: loser } },
    blocked: { key: 'reason.blocked', params: { color: g.turn } },
    'threefold repetition': { key: 'reason.repetition' },
    resignation: { key: 'reason.resignation', params: { color: loser } },
    agreement: { key: 'reason.agreement' },
    // the clock's endings: the side to move ran out of time
    time: { key: 'reason.time', params: { color: g.turn } },
    aborted: { key: 'reason.aborted' },
    // a tournament's absent player: the side to move made no first move in time
    absent: { key: 'reason.absent', params: { color: g.turn } },
  };
  const why = reasons[g.reason] || { key: 'reason.other' };
  return { head, why };
}

/**
 * The events between `old` and `g` (both views of one game): a list of
 * `{key, params, sound}` where `sound` is 'move', 'capture', 'end' or null.
 */
export function events(old, g, seat) {
  const out = [];
  if (!old || old.id !== g.id) return out;
  // moves played or taken back
  if (g.ply > old.ply) {
    const last = g.history[g.history.length - 1];
    const mover = g.boards[g.ply - 1].turn;
    if (mover !== seat) out.push({ key: 'ev.moved', params: { color: mover, move: last.move }, sound: last.captured.length ? 'capture' : 'move' });
    else out.push({ key: null, sound: last.captured.length ? 'capture' : 'move' });
  } else if (g.ply < old.ply && old.takeback_offer && g.mode === 'human') {
    // a takeback between people, accepted: the asker is to move again
    out.push({ key: 'ev.takebackAccepted', params: { color: g.turn }, sound: 'move' });
  } else if (g.ply < old.ply) {
    out.push({ key: 'ev.takeback', params: { n: old.ply - g.ply }, sound: 'move' });
  }
  // takeback requests between people (issue 18)
  if (g.status === 'ongoing' && g.ply === old.ply && (old.takeback_offer || null) !== (g.takeback_offer || null)) {
    if (g.takeback_offer) {
      out.push({ key: g.takeback_offer === seat ? 'ev.takebackAsked' : 'ev.takebackOffered', params: { color: g.takeback_offer }, sound: g.takeback_offer === seat ? null : 'offer' });
    } else {
      const by = old.takeback_offer;
      let key = 'ev.takebackCancelled';
      if (g.takeback_declined === by) key = by === seat ? 'ev.yourTakebackDeclined' : seat ? 'ev.youDeclinedTakeback' : 'ev.takebackDeclined';
      out.push({ key, params: { color: other(by) }, sound: null });
    }
  }
  // seats
  for (const c of ['white', 'black']) {
    if (old[c] && g[c] && !old[c].joined && g[c].joined && c !== seat) out.push({ key: seat ? 'ev.opponentJoined' : 'ev.joined', params: { color: c }, sound: null });
  }
  // draw offers
  if (g.status === 'ongoing' && old.draw_offer !== g.draw_offer) {
    if (g.draw_offer) {
      out.push({ key: g.draw_offer === seat ? 'ev.drawOfferSent' : 'ev.drawOffered', params: { color: g.draw_offer }, sound: null });
    } else if (g.ply === old.ply) {
      const by = old.draw_offer;
      const key = by === seat ? 'ev.yourOfferDeclined' : seat ? 'ev.youDeclined' : 'ev.drawDeclined';
      out.push({ key, params: { color: other(by) }, sound: null });
    }
  }
  // a rematch between people, once the game is over
  if (old.rematch_offer !== g.rematch_offer) {
    if (g.rematch_offer) {
      out.push({ key: g.rematch_offer === seat ? 'ev.rematchOfferSent' : 'ev.rematchOffered', params: { color: g.rematch_offer }, sound: null });
    } else if (old.rematch_offer) {
      const by = old.rematch_offer;
      const key = by === seat ? 'ev.yourRematchDeclined' : seat ? 'ev.youDeclinedRematch' : 'ev.rematchDeclined';
      out.push({ key, params: { color: other(by) }, sound: null });
    }
  }
  if (!old.rematch_game && g.rematch_game) out.push({ key: 'ev.rematchAccepted', params: {}, sound: null });
  // the end
  if (old.status === 'ongoing' && g.status === 'finished') {
    const { head, why } = resultWords(g, seat);
    out.push({ key: 'ev.end', params: { head, why }, sound: 'end' });
  }
  return out;
}
