// The chat of a game between people (issue 18; docs/api.md "Chat"): the players' room (the
// two seat holders only) and the spectators' room (signed-in watchers write; the players read
// and write it once the game is over). Messages come over the game's WebSocket (live.mjs) and
// are drawn as text only (never as HTML: a link is not clickable). A switch turns the chat off
// (kept in the prefs): it is hidden, and makes no sound.
import { $, el, toast } from './dom.mjs';
import { api, plainError } from './api.mjs';
import { t } from './i18n.mjs';
import { prefs, setPref } from './prefs.mjs';
import { play as playSound } from './sound.mjs';
import { me } from './account.mjs';

/** The most characters a message has (the server's cap). */
export const MAX_CHARS = 140;

const chat = {
  id: null,
  game: null,
  seat: null,
  token: null,
  room: null, // the room on screen
  rooms: { players: new Map(), spectators: new Map() }, // id -> message
  reported: new Set(),
};

/** Starts afresh for game `id` (a new page). */
export function resetChat(id) {
  if (chat.id === id) return;
  Object.assign(chat, { id, game: null, seat: null, token: null, room: null, reported: new Set() });
  chat.rooms = { players: new Map(), spectators: new Map() };
}

/** The rooms this reader may read now, the first the one to show by default. */
function readable() {
  const g = chat.game;
  if (!g || g.mode !== 'human') return [];
  if (!chat.seat) return ['spectators'];
  return g.status === 'finished' ? ['players', 'spectators'] : ['players'];
}

/** Whether this reader may write in `room` now (the server decides again). */
function writable(room) {
  if (room === 'players') return !!chat.seat && !!chat.token;
  if (chat.seat) return chat.game.status === 'finished';
  return !!me();
}

/** Takes a chat message of the WebSocket: `{room, messages}`. */
export function takeChat(msg) {
  const room = msg.room === 'players' ? 'players' : 'spectators';
  const list = chat.rooms[room];
  let fresh = 0;
  for (const m of msg.messages) {
    if (!m || typeof m.id !== 'number' || list.has(m.id)) continue;
    list.set(m.id, m);
    if (!mine(m)) fresh += 1;
  }
  // the history a socket gets when it opens (or proves its seat) is not news
  const news = !msg.history && fresh > 0;
  // a room keeps its last messages
  while (list.size > 200) list.delete(list.keys().next().value);
  if (news && prefs().chat !== 'off' && readable().includes(room)) playSound('chat');
  renderChat();
}

/** Whether a message is this reader's own. */
function mine(m) {
  if (m.room === 'players') return !!chat.seat && m.seat === chat.seat;
  const account = me();
  if (account && m.author) return m.author === account.name;
  return !!chat.seat && !m.author && m.seat === chat.seat;
}

function authorName(m) {
  if (mine(m)) return t('chat.you');
  if (m.author) return m.author;
  return m.seat ? t(`color.${m.seat}`) : '?';
}

function messageItem(m) {
  const name = authorName(m);
  const kids = [el('b', { class: 'who', text: `${name}:` }), el('span', { class: 'text', text: m.text })];
  if (!mine(m) && (chat.seat ? !!chat.token : !!me())) {
    const done = chat.reported.has(m.id);
    kids.push(el('button', {
      type: 'button',
      class: 'report',
      'data-report': String(m.id),
      disabled: done,
      'aria-label': t('chat.reportLabel', { name }),
      text: t(done ? 'chat.reportedShort' : 'chat.report'),
      onclick: () => report(m),
    }));
  }
  return el('li', { class: 'msg', 'data-id': String(m.id), 'data-seat': m.seat || '' }, ...kids);
}

async function report(m) {
  try {
    await api('POST', `/api/games/${chat.id}/chat/${m.id}/report`, chat.token ? { token: chat.token } : {});
    chat.reported.add(m.id);
    toast(t('chat.reported'), 'info');
    renderChat();
  } catch (err) {
    toast(plainError(err));
  }
}

/** Draws the chat for `game` as seen from `seat` (with `token`), or hides it. */
export function renderChat(game = chat.game, seat = chat.seat, token = chat.token) {
  chat.game = game;
  chat.seat = seat;
  chat.token = token;
  const box = $('#chat');
  const rooms = readable();
  box.hidden = rooms.length === 0;
  if (box.hidden) return;
  if (!rooms.includes(chat.room)) chat.room = rooms[0];
  const on = prefs().chat !== 'off';
  $('#chat-on').checked = on;
  $('#chat-body').hidden = !on;
  $('#chat-rooms').hidden = !on;
  for (const room of ['players', 'spectators']) {
    const button = $(`#chat-room-${room}`);
    button.hidden = !rooms.includes(room) || rooms.length < 2;
    button.setAttribute('aria-pressed', String(room === chat.room));
  }
  box.dataset.room = chat.room;
  box.dataset.on = String(on);
  if (!on) return;
  const list = $('#chat-list');
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  const messages = [...chat.rooms[chat.room].values()];
  list.replaceChildren(...(messages.length ? messages.map(messageItem) : [el('li', { class: 'none note', text: t('chat.empty') })]));
  if (atEnd) list.scrollTop = list.scrollHeight;
  const can = writable(chat.room);
  $('#chat-form').hidden = !can;
  let note = '';
  if (chat.room === 'players') note = t('chat.private');
  else if (!can && chat.seat) note = t('chat.playersLater');
  else if (!can) note = t('chat.signIn');
  $('#chat-note').textContent = note;
}

async function send(e) {
  e.preventDefault();
  const input = $('#chat-input');
  const text = input.value.trim();
  if (!text || !chat.id) return;
  if ([...text].length > MAX_CHARS) {
    toast(t('chat.tooLong', { n: MAX_CHARS }));
    return;
  }
  const body = { room: chat.room, text };
  if (chat.token) body.token = chat.token;
  $('#chat-send').disabled = true;
  try {
    const { message } = await api('POST', `/api/games/${chat.id}/chat`, body);
    input.value = '';
    takeChat({ room: message.room, messages: [message] });
  } catch (err) {
    if (err.code === 'rate_limited') {
      const wait = Number(err.body.retry_after_ms) || 0;
      toast(t('chat.slowDown', { s: Math.max(1, Math.ceil(wait / 1000)) }));
    } else {
      toast(plainError(err));
    }
  } finally {
    $('#chat-send').disabled = false;
  }
}

export function initChat() {
  $('#chat-form').addEventListener('submit', send);
  $('#chat-on').addEventListener('change', (e) => {
    setPref('chat', e.currentTarget.checked ? 'on' : 'off');
    renderChat();
  });
  for (const room of ['players', 'spectators']) {
    $(`#chat-room-${room}`).addEventListener('click', () => {
      chat.room = room;
      renderChat();
    });
  }
}
