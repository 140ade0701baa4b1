// The page's one lobby WebSocket (docs/api.md, "The lobby's WebSocket"): open while an account
// is logged in (its notifications, on every screen) or while the lobby shows (its seeks). The
// lobby's part is switched on and off with a message on the same socket, never a second one.
let socket = null;
let retry = null;
let lobby = false; // the lobby shows
let account; // undefined until known, then a name or null
let openedLobby = false; // what the socket was opened with
const handlers = new Set();

/** Calls `fn(message)` for every message, and `fn({type: 'open'})` whenever a socket opens. */
export function onLobbyMessage(fn) {
  handlers.add(fn);
}

function tell(data) {
  for (const fn of handlers) fn(data);
}

/** Closes a socket without a warning in the console: one still connecting closes once open. */
function drop(s) {
  s.onclose = null;
  s.onmessage = null;
  if (s.readyState === WebSocket.CONNECTING) s.onopen = () => s.close();
  else s.close();
}

function needed() {
  return account !== undefined && (lobby || !!account);
}

function sync() {
  clearTimeout(retry);
  if (!needed()) {
    if (socket) drop(socket);
    socket = null;
    return;
  }
  if (socket) {
    if (socket.readyState === WebSocket.OPEN && openedLobby !== lobby) {
      socket.send(JSON.stringify({ lobby }));
      openedLobby = lobby;
    }
    return;
  }
  openedLobby = lobby;
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/lobby/ws?lobby=${lobby}`;
  const s = new WebSocket(url);
  socket = s;
  s.onopen = () => {
    if (openedLobby !== lobby) {
      s.send(JSON.stringify({ lobby }));
      openedLobby = lobby;
    }
    tell({ type: 'open' });
  };
  s.onmessage = (msg) => {
    let data = null;
    try {
      data = JSON.parse(msg.data);
    } catch (e) {
      return;
    }
    tell(data);
  };
  s.onclose = () => {
    if (socket === s) socket = null;
    if (needed()) retry = setTimeout(sync, 2000);
  };
}

/** The lobby shows (or not). */
export function setLobby(on) {
  lobby = on;
  sync();
}

/** Who is logged in (a name, or null): a change opens a new socket, for the new session. */
export function setAccount(name) {
  const changed = account !== undefined && account !== name;
  account = name;
  if (changed && socket) {
    drop(socket);
    socket = null;
  }
  sync();
}
