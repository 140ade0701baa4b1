// The boards the server plays (GET /api/variants, docs/api.md): each board's cells with their
// names and places in a drawing, its men a side, start position and centre. Read once at
// start-up (before the first screen is drawn); the board component draws from it. Nothing here
// is a rule: the server lists the cells, the rules stay the server's.
import { api } from './api.mjs';
import { el } from './dom.mjs';
import { t } from './i18n.mjs';

const known = new Map(); // short name ('emergo', '7x7', 'hex') -> the board as listed

/** Takes the server's list (`variants` of GET /api/variants). */
export function setVariants(list) {
  known.clear();
  for (const v of list) known.set(v.variant, v);
}

/** Reads the list from the server once. */
export async function loadVariants() {
  if (known.size) return;
  const answer = await api('GET', '/api/variants');
  setVariants(answer.variants);
}

/** The short names of the boards, the square 9×9 first. */
export function variantNames() {
  return [...known.keys()];
}

/** Whether `name` is a board the server listed. */
export function isVariant(name) {
  return known.has(name);
}

/** The board named `name` ('emergo' when absent or unknown). */
export function variantInfo(name) {
  const v = known.get(name || 'emergo') || known.get('emergo');
  if (!v) throw new Error('variants.mjs: no boards; loadVariants() first');
  return v;
}

/** The boards as the options of a `<select>`, in the page's language (and again when it
 * changes: each option has its `data-i18n` key). */
export function fillVariants(select) {
  const names = variantNames();
  if (select.options.length !== names.length) {
    select.replaceChildren(...names.map((v) => el('option', { value: v, 'data-i18n': `variant.${v}` })));
  }
  for (const o of select.options) o.textContent = t(`variant.${o.value}`);
}
