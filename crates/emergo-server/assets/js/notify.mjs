// The header's notifications (issue 18): a bell with the unread count; a list that opens on a
// click (or Enter/Space) and closes on Escape, each entry a link; mark as read; and the
// browser's notifications, asked for only on a click on their button, never shown for the game
// the visible tab is on. Live through the page's one lobby socket (lobby-socket.mjs).
import { $, el, needsRedraw } from './dom.mjs';
import { api } from './api.mjs';
import { t, lang } from './i18n.mjs';
import { shownName } from './names.mjs';
import { onMe, known } from './account.mjs';
import { onLobbyMessage, setAccount } from './lobby-socket.mjs';
import { timeLabel } from './online.mjs';

let navigate = () => {};
let notes = []; // newest first, as GET /api/notifications
let signedIn = false;
let asked = 0; // the last list asked for, so an older answer never wins

/** Where an entry leads: its game, or the lobby (a challenge is answered there). */
export function noteLink(note) {
  return note.game ? `/game/${note.game}` : '/';
}

/** An entry's words. */
export function noteText(note) {
  const name = shownName(note.from, note.from_bot);
  const time = note.time ? timeLabel(note.time) : '';
  if (note.kind === 'turn') return t('notes.turn', { name });
  if (note.kind === 'challenge') return t('notes.challenge', { name, time });
  if (note.kind === 'started') return t('notes.started', { name, time });
  if (note.kind === 'ended') return t(`notes.ended.${note.outcome === 'win' || note.outcome === 'loss' ? note.outcome : 'draw'}`, { name });
  return note.kind;
}

/**
 * Whether a new tournament game takes the page to it (issue 23, as lichess's arenas do): a
 * pairing's `started` note (a seek's names its seek: the lobby opens that game itself), while
 * the player waits on a tournament's page or looks at a game of theirs that is over.
 */
export function followsPairing(note, path, gameOver) {
  if (note.kind !== 'started' || note.seek || !note.game) return false;
  return path.startsWith('/tournament/') || (path.startsWith('/game/') && gameOver);
}

function onGame(id) {
  return !!id && location.pathname.replace(/\/$/, '') === `/game/${id}`;
}

function unread() {
  return notes.filter((n) => !n.read).length;
}

function draw() {
  const n = unread();
  const count = $('#notes-count');
  count.hidden = n === 0;
  count.textContent = n > 99 ? '99+' : String(n);
  const bell = $('#notes-open');
  bell.setAttribute('aria-label', n ? t('notes.bellUnread', { n }) : t('notes.bell'));
  bell.title = bell.getAttribute('aria-label');
  $('#notes-read-all').disabled = n === 0;
  // drawn again only when what it shows changed: a notification a person has focused stays
  // the same element when the list is read again (a reconnection, another tab's reading)
  const list = $('#notes-list');
  const rows = notes.map((note) => ({ id: note.id, read: !!note.read, href: noteLink(note), text: noteText(note), at: note.at }));
  if (needsRedraw(list, JSON.stringify([rows, lang()]))) {
    list.replaceChildren();
    if (!rows.length) list.append(el('li', { class: 'empty', text: t('notes.none') }));
    for (const row of rows) {
      const when = new Date(row.at);
      const link = el('a', { href: row.href, 'data-link': true, 'data-note': row.id, onclick: () => readIds([row.id]) },
        el('span', { class: 'note-text', text: row.text }),
        el('time', { datetime: row.at, text: Number.isNaN(when.getTime()) ? '' : when.toLocaleString(lang(), { dateStyle: 'short', timeStyle: 'short' }) }));
      list.append(el('li', { class: row.read ? 'read' : 'unread' }, link));
    }
  }
  drawBrowserSwitch();
}

function drawBrowserSwitch() {
  const button = $('#notes-browser');
  const line = $('#notes-browser-state');
  const has = typeof Notification !== 'undefined';
  const state = has ? Notification.permission : 'unsupported';
  button.hidden = state !== 'default';
  line.hidden = state === 'default';
  line.textContent = state === 'granted' ? t('notes.browserOn') : state === 'denied' ? t('notes.browserBlocked') : t('notes.browserNone');
}

async function load() {
  if (!signedIn) return;
  const mine = ++asked;
  try {
    const answer = await api('GET', '/api/notifications');
    if (mine !== asked || !signedIn) return;
    notes = answer.notifications;
    draw();
    seenGame(location.pathname.match(/^\/game\/([A-Za-z0-9_-]+)/)?.[1]);
  } catch (err) {
    /* the list stays as it was; the next message reads it again */
  }
}

async function readIds(ids) {
  if (!ids.length) return;
  for (const n of notes) if (ids.includes(n.id)) n.read = true;
  draw();
  try {
    await api('POST', '/api/notifications/read', { ids });
  } catch (err) {
    load();
  }
}

/** The page shows game `id`: its notifications are read. */
export function seenGame(id) {
  if (!id || document.visibilityState !== 'visible') return;
  readIds(notes.filter((n) => !n.read && n.game === id).map((n) => n.id));
}

/** How long a pairing that came before its player's game was shown over is followed then (ms). */
const PAIRING_FOLLOWED_FOR = 30000;
/** A tournament pairing that came while the game page did not yet show its game over. */
let pendingPairing = null;

function gameOverShown() {
  const result = document.querySelector('#result');
  return !!result && !result.hidden;
}

/** The game page shows its game over: a pairing that came just before is followed now. */
function followPendingPairing() {
  const pending = pendingPairing;
  if (!pending || !gameOverShown()) return;
  pendingPairing = null;
  if (Date.now() - pending.at < PAIRING_FOLLOWED_FOR && followsPairing(pending.note, location.pathname, true) && !onGame(pending.note.game)) {
    navigate(`/game/${pending.note.game}`);
  }
}

function arrived(note) {
  notes = [note, ...notes.filter((n) => n.id !== note.id && !(note.kind === 'turn' && n.kind === 'turn' && n.game === note.game))];
  if (followsPairing(note, location.pathname, gameOverShown())) {
    navigate(`/game/${note.game}`);
  } else if (followsPairing(note, location.pathname, true)) {
    // The server may pair the next game before the game page has drawn this one's end.
    pendingPairing = { note, at: Date.now() };
  }
  const looking = document.visibilityState === 'visible' && onGame(note.game);
  if (looking) {
    note.read = true;
    readIds([note.id]);
  } else {
    draw();
    showInBrowser(note);
  }
}

function showInBrowser(note) {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  try {
    const shown = new Notification(t('notes.browserTitle'), { body: noteText(note), tag: `emergo-note-${note.id}`, lang: lang() });
    shown.onclick = () => {
      window.focus();
      readIds([note.id]);
      navigate(noteLink(note));
      shown.close();
    };
  } catch (err) {
    /* a browser that shows notifications only from a service worker: the header says it */
  }
}

function setOpen(open) {
  const panel = $('#notes-panel');
  panel.hidden = !open;
  $('#notes-open').setAttribute('aria-expanded', String(open));
  if (open) draw();
}

/** Words again after a change of language. */
export function relabelNotes() {
  if (signedIn) draw();
}

export function initNotes(nav) {
  navigate = nav;
  const result = document.querySelector('#result');
  if (result && typeof MutationObserver !== 'undefined') {
    new MutationObserver(followPendingPairing).observe(result, { attributes: true, attributeFilter: ['hidden'] });
  }
  $('#notes-open').addEventListener('click', () => setOpen($('#notes-panel').hidden));
  $('#notes-panel').addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      setOpen(false);
      $('#notes-open').focus();
    }
  });
  $('#notes-open').addEventListener('keydown', (e) => {
    if (e.key === 'Escape') setOpen(false);
  });
  $('#notes-read-all').addEventListener('click', async () => {
    for (const n of notes) n.read = true;
    draw();
    try {
      await api('POST', '/api/notifications/read', { all: true });
    } catch (err) {
      load();
    }
  });
  $('#notes-browser').addEventListener('click', async () => {
    if (typeof Notification === 'undefined') return;
    try {
      await Notification.requestPermission();
    } catch (err) {
      /* an old browser's callback form: nothing more to do */
    }
    drawBrowserSwitch();
  });
  $('#notes-list').addEventListener('click', (e) => {
    if (e.target.closest('a')) setOpen(false);
  });
  onLobbyMessage((data) => {
    if (!signedIn) return;
    if (data.type === 'open' || data.type === 'notifications') load();
    if (data.type === 'notification' && data.notification) arrived(data.notification);
  });
  document.addEventListener('visibilitychange', () => seenGame(location.pathname.match(/^\/game\/([A-Za-z0-9_-]+)/)?.[1]));
  known().then(() => onMe((who) => {
    signedIn = !!who;
    $('#notes').hidden = !signedIn;
    if (!signedIn) {
      notes = [];
      setOpen(false);
    }
    draw();
    setAccount(who ? who.name : null);
  }));
}
