// Which buttons the holder of a seat sees under a game, a pure function of the server's view
// (docs/api.md: takebacks, hints, draws, resignation, Abort, rematches, berserk); tested with node.

const other = (c) => (c === 'white' ? 'black' : 'white');

/** Whether this game's rematch is offered to the other seat holder (between people). */
export function rematchByOffer(g) {
  return g.mode === 'human' && g.white.joined && g.black.joined;
}

/**
 * The game's buttons for the page holding `seat` with `token` (both null for a spectator): by
 * element id, `{show}`, and where the button has them `disabled` and `label` (an i18n key).
 */
export function seatActions(g, seat, token) {
  const ongoing = g.status === 'ongoing';
  const mine = !!token;
  const seated = !!token && !!seat;
  const engine = g.mode === 'engine';
  const human = g.mode === 'human';
  const played = g.mode !== 'imported';
  const bothJoined = g.white.joined && g.black.joined;
  const drawOffered = g.draw_offer === seat;
  const drawAsked = g.draw_offer === other(seat);
  // takebacks and Abort between people (issue 18)
  const people = human && seated && ongoing && bothJoined;
  const takebackAsked = g.takeback_offer === other(seat);
  const abort = seated && ongoing && !!g.can_abort;
  const offer = g.rematch_offer;
  const made = !!g.rematch_game;
  const byOffer = rematchByOffer(g);
  const rematchAsked = byOffer && !made && offer === other(seat);
  // a tournament's game (issue 23): berserk while the server's `can_berserk` says so
  const tour = g.tournament || null;
  return {
    // Take back (against the engine): also while it thinks and after a game ended on the board
    // (docs/api.md); not after a resignation.
    takeback: { show: engine && mine && (ongoing || g.reason !== 'resignation'), disabled: g.ply === 0 },
    hint: { show: engine && mine && ongoing, disabled: !!g.engine_thinking || g.turn !== seat },
    'draw-offer': { show: human && mine && ongoing && bothJoined && !drawAsked, disabled: drawOffered, label: drawOffered ? 'act.drawOffered' : 'act.offerDraw' },
    'draw-accept': { show: human && mine && ongoing && drawAsked },
    'draw-decline': { show: human && mine && ongoing && drawAsked },
    // Abort while each side has not moved yet (the server's `can_abort`), instead of Resign.
    resign: { show: mine && ongoing && played && !(g.can_abort && seated) },
    abort: { show: abort },
    berserk: { show: seated && ongoing && !!tour && !!tour.can_berserk && !!tour.can_berserk[seat] },
    'to-tournament': { show: !!tour },
    'takeback-ask': {
      show: people && !!g.takebacks && !takebackAsked && g.ply > 0,
      disabled: g.takeback_offer === seat || g.takeback_declined === seat || !g.boards.slice(0, g.ply).some((b) => b.turn === seat),
      label: g.takeback_offer === seat ? 'act.takebackAsked' : 'act.askTakeback',
    },
    'takeback-accept': { show: people && takebackAsked },
    'takeback-decline': { show: people && takebackAsked },
    rematch: {
      show: mine && !ongoing && played && !made && !(byOffer && offer === other(seat)),
      disabled: byOffer && offer === seat,
      label: byOffer && offer === seat ? 'act.rematchOffered' : 'act.rematch',
    },
    'rematch-accept': { show: mine && !ongoing && rematchAsked },
    'rematch-decline': { show: mine && !ongoing && rematchAsked },
    'rematch-go': { show: !ongoing && made },
    'same-again': { show: mine && !ongoing && played },
    // The analysis board from the ply on screen; not for a player of a game still going on.
    analyse: { show: !(mine && ongoing) },
    'move-form': { show: mine && ongoing },
    // the invitation links, while a friend has not come yet
    'invite-box': { show: human && mine && ongoing && !bothJoined },
  };
}
