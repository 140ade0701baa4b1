// The live connection of one game: a WebSocket that reconnects by itself.
import { $ } from './dom.mjs';
import { t } from './i18n.mjs';

const conn = { id: null, ws: null, timer: null, retry: 0, onState: null, held: () => 0, state: 'connecting', extra: {} };

function setConn(kind) {
  conn.state = kind;
  const c = $('#conn');
  c.className = `conn ${kind}`;
  c.textContent = t(`conn.${kind}`);
  c.dataset.state = kind;
}

/** Shows the connection's state again (after a language change). */
export function redrawConn() {
  if (conn.id) setConn(conn.state);
}

export function closeLive() {
  clearTimeout(conn.timer);
  const ws = conn.ws;
  conn.ws = null;
  conn.id = null;
  if (ws) ws.close();
}

/** Follows game `id`; `onState(game)` gets every state the server pushes. `held()` is the
 * ply up to which the page holds the game: the first state after a (re)connection is paged
 * from there (docs/api.md, `from`), so a long game is not sent whole again. `extra`:
 * `hello()`, what the socket says first once open (or null: a seat holder's token, so that it
 * is counted as a player and reads the players' chat, docs/api.md "Chat"), and a handler per
 * message type (issue 18: `watchers`, `chat`). */
export function openLive(id, onState, held = () => 0, extra = {}) {
  closeLive();
  conn.id = id;
  conn.onState = onState;
  conn.held = held;
  // `extra.hello()`: a message sent on each opening (or null); `extra[type](msg)`: the
  // messages of other types (issue 18: `watchers`, `chat`)
  conn.extra = extra;
  conn.retry = 0;
  connect(id);
}

function connect(id) {
  clearTimeout(conn.timer);
  if (conn.id !== id) return;
  setConn(conn.retry ? 'down' : 'connecting');
  const from = conn.held();
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/games/${encodeURIComponent(id)}/ws${from > 0 ? `?from=${from}` : ''}`;
  let ws;
  try {
    ws = new WebSocket(url);
  } catch (e) {
    reconnect(id);
    return;
  }
  conn.ws = ws;
  ws.onopen = () => {
    if (conn.ws !== ws) return;
    conn.retry = 0;
    setConn('live');
    const hello = conn.extra.hello && conn.extra.hello();
    if (hello) ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (e) => {
    if (conn.ws !== ws) return;
    let msg;
    try {
      msg = JSON.parse(e.data);
    } catch (err) {
      return;
    }
    if (msg && msg.type === 'state' && msg.game && msg.game.id === conn.id) conn.onState(msg.game);
    else if (msg && msg.type !== 'state' && typeof conn.extra[msg.type] === 'function' && msg.type !== 'hello') conn.extra[msg.type](msg);
  };
  ws.onclose = () => {
    if (conn.ws !== ws) return;
    conn.ws = null;
    reconnect(id);
  };
  ws.onerror = () => ws.close();
}

function reconnect(id) {
  setConn('down');
  const delay = Math.min(10000, 400 * 2 ** conn.retry) * (0.75 + Math.random() * 0.5);
  conn.retry = Math.min(conn.retry + 1, 8);
  conn.timer = setTimeout(() => connect(id), delay);
}

function wake() {
  if (conn.id && !conn.ws) {
    conn.retry = 0;
    connect(conn.id);
  }
}
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') wake();
});
window.addEventListener('online', wake);
