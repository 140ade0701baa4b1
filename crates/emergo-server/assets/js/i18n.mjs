// Every visible word of the page comes from one translation file per language
// (../i18n/en.mjs, ../i18n/fr.mjs, ../i18n/nl.mjs); `t` looks a key up and fills in `{name}` parameters.
import en from '../i18n/en.mjs';
import fr from '../i18n/fr.mjs';
import nl from '../i18n/nl.mjs';

export const LANGS = { en, fr, nl };
let current = 'en';

/** The language to use: the stored choice, else the first of the browser's languages we have. */
export function pickLang(stored, browserLangs) {
  if (stored && LANGS[stored]) return stored;
  for (const l of browserLangs || []) {
    const base = String(l).toLowerCase().split('-')[0];
    if (LANGS[base]) return base;
  }
  return 'en';
}

export function setLang(lang) {
  current = LANGS[lang] ? lang : 'en';
}

export function lang() {
  return current;
}

/**
 * The text of `key` in the current language with `{name}` replaced by `params.name`. With a
 * numeric `params.n`, `key.one` or `key.other` is used when the file has them.
 */
export function t(key, params = {}) {
  const table = LANGS[current];
  let k = key;
  if (typeof params.n === 'number' && table[`${key}.one`] !== undefined) {
    k = `${key}.${plural(current, params.n)}`;
  }
  const text = table[k] !== undefined ? table[k] : LANGS.en[k];
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (params[name] !== undefined ? String(params[name]) : m));
}

/** `one` or `other`: French counts every number under 2 as one (0, 1, 1,5), English and Dutch only 1. */
export function plural(language, n) {
  if (language === 'fr') return Math.abs(n) < 2 ? 'one' : 'other';
  return n === 1 ? 'one' : 'other';
}

/** A number written as the language writes it (`0.25`, `0,25`), with `digits` decimals. */
export function num(x, digits = null, language = current) {
  const options = digits === null ? { maximumFractionDigits: 2 } : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return Number(x).toLocaleString(language, options);
}

/** Fills the page's fixed words: `data-i18n` (text) and `data-i18n-<attribute>` (attributes). */
export function applyDom(root = document) {
  document.documentElement.lang = current;
  for (const e of root.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const attr of ['placeholder', 'title', 'aria-label', 'alt']) {
    const data = `i18n${attr.replace(/(^|-)([a-z])/g, (m, d, c) => c.toUpperCase())}`;
    for (const e of root.querySelectorAll(`[data-i18n-${attr}]`)) e.setAttribute(attr, t(e.dataset[data]));
  }
}
