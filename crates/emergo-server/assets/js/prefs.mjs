// The reader's choices, kept in the browser: language, theme, board colours, sound, chat.
import { store } from './dom.mjs';

const KEY = 'emergo.prefs';
const DEFAULTS = { lang: null, theme: 'auto', board: 'wood', muted: false, listStatus: 'ongoing', chat: 'on' };

export function prefs() {
  return { ...DEFAULTS, ...(store.get(KEY) || {}) };
}

export function setPref(name, value) {
  store.set(KEY, { ...prefs(), [name]: value });
}

/** The theme in force: the stored one, or the system's when `auto`. */
export function effectiveTheme(p = prefs()) {
  if (p.theme === 'light' || p.theme === 'dark') return p.theme;
  return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Puts the theme and the board colours on <html> for the style sheet. */
export function applyLook() {
  const p = prefs();
  document.documentElement.dataset.theme = effectiveTheme(p);
  document.documentElement.dataset.board = p.board;
}
