// Small DOM helpers shared by the page's modules.

export const SVGNS = 'http://www.w3.org/2000/svg';

export const $ = (sel, root = document) => root.querySelector(sel);

/** An HTML element with attributes (`text`, `class`, `on<event>`) and children. */
export function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined && kid !== false) e.append(kid);
  return e;
}

/** An SVG element, appended to `parent` when given. */
export function svg(tag, attrs = {}, parent = null) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

const drawnKeys = new WeakMap();
/**
 * Whether `parent` must be drawn again to show `key` (what it shows, as a string), noting the
 * key when so. A list refreshed by every lobby event then keeps its elements while they show the
 * same thing, so a button a person is pressing or has focused is not swapped under them.
 */
export function needsRedraw(parent, key) {
  if (drawnKeys.get(parent) === key) return false;
  drawnKeys.set(parent, key);
  return true;
}

/** localStorage as JSON, forgiving when storage is full or disabled. */
export const store = {
  get(key) {
    try {
      return JSON.parse(localStorage.getItem(key));
    } catch (e) {
      return null;
    }
  },
  set(key, value) {
    try {
      localStorage.setItem(key, JSON.stringify(value));
    } catch (e) {
      /* storage full or disabled: the value lasts as long as the page */
    }
  },
};

/** The seat this browser holds in game `id`, if any. */
export function seatOf(id) {
  const s = store.get(`emergo.seat.${id}`);
  return s && s.token && (s.seat === 'white' || s.seat === 'black') ? s : null;
}

let toastTimer = null;
/** A message over the page: `error` (stays longer) or `info`. */
export function toast(text, kind = 'error') {
  const box = $('#toast');
  $('#toast-text').textContent = text;
  box.className = `toast ${kind === 'info' ? 'info' : ''}`;
  box.dataset.kind = kind;
  box.hidden = false;
  placeToast(box);
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), kind === 'info' ? 4500 : 9000);
}

/** Puts the message over the header and nothing else: between the brand and the switches
 * (both left free to click), or where that is too narrow (a phone) over the header's lower row. */
function placeToast(box) {
  const head = $('.topbar');
  const brand = $('.topbar .brand');
  const switches = $('.topbar .switches');
  if (!head || !brand || !switches) return;
  const h = head.getBoundingClientRect();
  const b = brand.getBoundingClientRect();
  const s = switches.getBoundingClientRect();
  const width = document.documentElement.clientWidth;
  // the account's links and buttons stay free too: the message ends left of the first shown
  const links = [...document.querySelectorAll('.topbar .account > *')].filter((e) => e.getClientRects().length);
  const firstLink = links.length ? Math.min(...links.map((e) => e.getBoundingClientRect().left)) : s.left;
  let place = { left: b.right + 8, right: width - Math.min(firstLink, s.left) + 8, top: h.top, height: h.height };
  if (width - place.left - place.right < 280) {
    const top = Math.max(b.bottom, s.bottom) + 2;
    const room = firstLink - 8;
    place = { left: 0, right: room >= 200 ? width - room : 0, top, height: Math.max(h.bottom - top, 40) };
  }
  box.style.left = `${Math.max(0, place.left)}px`;
  box.style.right = `${Math.max(0, place.right)}px`;
  box.style.top = `${Math.max(0, place.top)}px`;
  box.style.minHeight = `${place.height}px`;
}

/** Takes the message down (a new page: what it said was about the one left). */
export function clearToast() {
  clearTimeout(toastTimer);
  $('#toast').hidden = true;
}
