// The analysis board's engine: a WebSocket to /api/analysis/ws that is open only while the page
// is shown (closed when it is hidden or left, which stops the server's search), and the
// evaluation in words and as a bar's share. No rule here.
import { num } from './i18n.mjs';

let socket = null;
let wanted = null; // {position, variant, multipv}
let onEvent = () => {};
let enabled = true;
let retry = 0; // the timer that sends a rate-limited request again

function url() {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/analysis/ws`;
}

function open() {
  if (socket || !wanted || !enabled || document.hidden) return;
  const ws = new WebSocket(url());
  socket = ws;
  ws.onopen = () => {
    if (socket === ws && wanted) ws.send(JSON.stringify(wanted));
  };
  ws.onmessage = (e) => {
    if (socket !== ws) return;
    let ev;
    try {
      ev = JSON.parse(e.data);
    } catch (err) {
      return; /* not JSON: ignored */
    }
    // A request over the server's rate was ignored: the latest one is asked again when the
    // server takes one more (docs/api.md, "Analysis").
    if (ev.type === 'error' && ev.code === 'rate_limited') {
      clearTimeout(retry);
      retry = setTimeout(() => {
        if (socket === ws && wanted && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(wanted));
      }, Math.min(Math.max(ev.retry_ms || 100, 20), 5000));
      return;
    }
    onEvent(ev);
  };
  ws.onclose = () => {
    if (socket === ws) socket = null;
  };
}

/** Closes the socket: the server stops the analysis at once. */
export function closeAnalysis() {
  const ws = socket;
  socket = null;
  if (ws) ws.close();
}

/** Analyses `position` of the board `variant` with `multipv` lines, events to `handler`
 * (`lines`, `done`, `stopped`, `error` as docs/api.md says). */
export function analyse(position, variant, multipv, handler) {
  onEvent = handler;
  wanted = { position, variant, multipv };
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(wanted));
  else open();
}

/** Turns the engine on or off. */
export function setEngine(on) {
  enabled = on;
  if (on) open();
  else closeAnalysis();
}

/** Forgets the position (the page is left). */
export function forget() {
  wanted = null;
  closeAnalysis();
}

let watching = false;
/** Closes the socket while the page is hidden and opens it again when it is shown. */
export function watchVisibility() {
  if (watching) return;
  watching = true;
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) closeAnalysis();
    else open();
  });
  window.addEventListener('pagehide', closeAnalysis);
  window.addEventListener('pageshow', () => open());
}

/** A score for the side to move turned to White's side. */
export function forWhite(score, turn) {
  return turn === 'black' ? -score : score;
}

/** White's share of the bar (0..1) for a line `{score, mate}` from White's side: a won game
 * fills it; otherwise a logistic curve (a man ahead about 60%), as the terminal's bar. */
export function whiteShare(white, mateWhite) {
  if (mateWhite !== null && mateWhite !== undefined) return mateWhite > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-white / 250));
}

/** A score from White's side as text in the page's language (`+0.35`, `+0,35`, `−1.20`), or
 * `{winner, n}` for a forced win. */
export function scoreWords(white, mateWhite) {
  if (mateWhite !== null && mateWhite !== undefined) return { winner: mateWhite > 0 ? 'white' : 'black', n: Math.abs(mateWhite) };
  const s = num(Math.abs(white) / 100, 2);
  return { text: `${white >= 0 ? '+' : '−'}${s}` };
}
