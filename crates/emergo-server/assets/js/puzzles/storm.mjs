// Puzzle storm's clock and score (issue 21), pure: no DOM, no timers, times in milliseconds
// given by the caller. A run lasts STORM_MS; each right move of the solver adds one to the
// combo, and reaching a combo step (5, 12, 20, 30, then every 10) gives back time; a wrong move
// costs MISTAKE_MS and ends the combo (and the puzzle: the run goes on with the next). The score
// is the number of puzzles solved. As lichess's storm, by the numbers written here.

export const STORM_MS = 180_000;
export const MISTAKE_MS = 10_000;
/** The combos that give time back, and how much (ms); past the last, every 10 gives the last. */
export const COMBO_STEPS = [
  [5, 3_000],
  [12, 5_000],
  [20, 7_000],
  [30, 10_000],
];
const STEP_AFTER = 10;

/** The time a combo of `combo` gives back as it is reached (0 for one that is no step). */
export function comboBonus(combo) {
  for (const [at, ms] of COMBO_STEPS) if (combo === at) return ms;
  const [lastAt, lastMs] = COMBO_STEPS[COMBO_STEPS.length - 1];
  return combo > lastAt && (combo - lastAt) % STEP_AFTER === 0 ? lastMs : 0;
}

/** A run started at `now`. */
export function startStorm(now) {
  return { startedAt: now, endsAt: now + STORM_MS, solved: 0, moves: 0, errors: 0, combo: 0, bestCombo: 0, over: false };
}

/** Milliseconds left at `now` (never below 0). */
export function remaining(storm, now) {
  return Math.max(0, storm.endsAt - now);
}

/** Whether the run is over at `now`: its time is up, or it was ended. */
export function isOver(storm, now) {
  return storm.over || remaining(storm, now) === 0;
}

function after(storm, now, change) {
  if (isOver(storm, now)) return { ...storm, over: true };
  return change({ ...storm });
}

/** A right move of the solver at `now`. */
export function rightMove(storm, now) {
  return after(storm, now, (s) => {
    s.moves++;
    s.combo++;
    s.bestCombo = Math.max(s.bestCombo, s.combo);
    s.endsAt += comboBonus(s.combo);
    return s;
  });
}

/** A puzzle solved at `now` (its last move may have been a forced one, played for the solver). */
export function puzzleSolved(storm, now) {
  return after(storm, now, (s) => {
    s.solved++;
    return s;
  });
}

/** A wrong move at `now`: the time it costs, the combo ended. */
export function wrongMove(storm, now) {
  return after(storm, now, (s) => {
    s.moves++;
    s.errors++;
    s.combo = 0;
    s.endsAt -= MISTAKE_MS;
    if (s.endsAt <= now) s.over = true;
    return s;
  });
}

/** Ends the run (no puzzle left, or the player stopped). */
export function endStorm(storm) {
  return { ...storm, over: true };
}

/** The run as `POST /api/puzzles/storm` takes it, at `now`. */
export function report(storm, now) {
  const end = Math.min(now, storm.endsAt);
  return {
    score: storm.solved,
    moves: storm.moves,
    errors: storm.errors,
    best_combo: storm.bestCombo,
    seconds: Math.max(0, Math.round((end - storm.startedAt) / 1000)),
  };
}

/** `m:ss` of milliseconds left (rounded up, so that 0:00 is the end). */
export function clockText(ms) {
  const s = Math.ceil(Math.max(0, ms) / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
