// The clocks of a timed game (docs/api.md, "Time controls"). The server owns them: every state
// carries each side's time left when it was made; between states the page counts down the
// running side's clock locally, from the moment the state arrived. Pure functions, tested by
// node --test.

/** At or under this, a real-time clock shows tenths, turns to its low-time colour, and sounds. */
export const LOW_MS = 10000;

/** What each clock shows `elapsed` ms after the state `g` arrived: `{white, black, running}`,
 * or null for a game without a real-time clock. */
export function clockFigures(g, elapsed) {
  const c = g && g.clock;
  if (!c) return null;
  const ongoing = g.status === 'ongoing';
  const running = ongoing ? c.running : null;
  const spent = Math.max(0, elapsed || 0);
  const left = (color) => (running === color ? Math.max(0, c[`${color}_ms`] - spent) : c[`${color}_ms`]);
  return { white: left('white'), black: left('black'), running };
}

/** A clock's figure: `h:mm:ss` from an hour, `m:ss` down to LOW_MS, then `s.t` (tenths). */
export function formatClock(ms) {
  const t = Math.max(0, ms);
  if (t < LOW_MS) {
    const tenths = Math.floor(t / 100);
    return `${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const secs = Math.floor(t / 1000);
  const h = Math.floor(secs / 3600);
  const m = Math.floor((secs % 3600) / 60);
  const s = String(secs % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Whether `ms` is low time. */
export function isLow(ms) {
  return ms <= LOW_MS;
}

/** Whether a running clock has just crossed into low time (to sound once). */
export function crossedLow(before, after) {
  return before > LOW_MS && after <= LOW_MS;
}

/** The time left to a correspondence deadline at `now` (ms since 1970), in whole units:
 * `{days, hours, minutes}`; null without a deadline. */
export function untilDeadline(deadline, now) {
  const at = Date.parse(deadline || '');
  if (!at) return null;
  const mins = Math.max(0, Math.floor((at - now) / 60000));
  return { days: Math.floor(mins / 1440), hours: Math.floor((mins % 1440) / 60), minutes: mins % 60 };
}
