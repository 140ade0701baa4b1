// English, French and Dutch: the same keys in every file, and no visible text outside them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';
import en from '../../assets/i18n/en.mjs';
import fr from '../../assets/i18n/fr.mjs';
import nl from '../../assets/i18n/nl.mjs';
import { t, setLang, pickLang, plural, LANGS } from '../../assets/js/i18n.mjs';

const assets = join(dirname(fileURLToPath(import.meta.url)), '../../assets');

test('every language has exactly the same keys, none empty', () => {
  for (const table of [fr, nl]) assert.deepEqual(Object.keys(table).sort(), Object.keys(en).sort());
  for (const [k, v] of [...Object.entries(en), ...Object.entries(fr), ...Object.entries(nl)]) assert.ok(v.trim(), k);
});

test('every language uses the same parameters in each text', () => {
  const params = (s) => [...new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();
  for (const k of Object.keys(en)) {
    assert.deepEqual(params(fr[k]), params(en[k]), k);
    assert.deepEqual(params(nl[k]), params(en[k]), k);
  }
});

test('the Dutch file is Dutch, not a copy of the English one', () => {
  const same = Object.keys(en).filter((k) => nl[k] === en[k] && /[a-z]{4,} [a-z]{4,}/.test(en[k]));
  assert.deepEqual(same, []);
  assert.deepEqual(Object.keys(LANGS), ['en', 'fr', 'nl']);
  for (const [code, table] of Object.entries(LANGS)) assert.ok(table['lang.name'], code);
});

test('t fills parameters and picks plural forms', () => {
  setLang('en');
  assert.equal(t('lobby.moves', { n: 1 }), '1 move');
  assert.equal(t('lobby.moves', { n: 3 }), '3 moves');
  setLang('fr');
  assert.equal(t('lobby.moves', { n: 0 }), '0 coup');
  assert.equal(t('status.toMove', { color: t('color.black') }), 'Trait aux Noirs');
  assert.equal(plural('en', 0), 'other');
  setLang('nl');
  assert.equal(t('lobby.moves', { n: 1 }), '1 zet');
  assert.equal(t('lobby.moves', { n: 0 }), '0 zetten');
  assert.equal(t('status.toMove', { color: t('color.black') }), 'Zwart aan zet');
  setLang('en');
});

test('the language follows the stored choice, then the browser', () => {
  assert.equal(pickLang(null, ['fr-CA', 'en']), 'fr');
  assert.equal(pickLang(null, ['de', 'en-GB']), 'en');
  assert.equal(pickLang(null, ['nl-BE', 'fr']), 'nl');
  assert.equal(pickLang('en', ['fr']), 'en');
  assert.equal(pickLang(null, []), 'en');
});

/** The page's modules, in js/ and its folders (board/, game/). */
function modules() {
  return readdirSync(join(assets, 'js'), { recursive: true }).filter((f) => f.endsWith('.mjs'));
}

test('every key the page uses exists', () => {
  const html = readFileSync(join(assets, 'index.html'), 'utf8');
  const used = [...html.matchAll(/data-i18n(?:-[a-z-]+)?="([^"]+)"/g)].map((m) => m[1]);
  for (const f of modules()) {
    const src = readFileSync(join(assets, 'js', f), 'utf8');
    used.push(...[...src.matchAll(/\bt\('([a-zA-Z_.]+)'/g)].map((m) => m[1]));
  }
  for (const k of used) assert.ok(en[k] !== undefined || en[`${k}.one`] !== undefined, `missing key ${k}`);
});

test('index.html has no visible words of its own: every text comes from data-i18n', () => {
  const html = readFileSync(join(assets, 'index.html'), 'utf8')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style|title)[\s\S]*?<\/\1>/g, '');
  const texts = [...html.matchAll(/>([^<]+)</g)].map((m) => m[1].trim()).filter((s) => /[A-Za-zÀ-ÿ]/.test(s));
  assert.deepEqual(texts.filter((s) => s !== 'Emergo'), []);
  for (const attr of ['placeholder', 'title', 'aria-label']) {
    assert.equal(new RegExp(`\\s${attr}="`).test(html), false, `a fixed ${attr} attribute`);
  }
});

test('the modules write no sentence of their own (visible words go through t)', () => {
  for (const f of modules()) {
    const src = readFileSync(join(assets, 'js', f), 'utf8').replace(/^\s*(\/\/|\*|\/\*).*$/gm, '');
    const strings = [...src.matchAll(/'([^'\n]*)'|`([^`\n]*)`/g)].map((m) => m[1] ?? m[2]);
    const words = strings.filter((s) => /\b[A-Za-z]{2,} [A-Za-z]{2,} [A-Za-z]{2,}\b/.test(s.replace(/\$\{[^}]*\}/g, '')));
    assert.deepEqual(words, [], f);
  }
});

test('numbers are written as the language writes them (issue 18 item 11)', async () => {
  const { num } = await import('../../assets/js/i18n.mjs');
  const { scoreWords } = await import('../../assets/js/analysis-live.mjs');
  setLang('fr');
  assert.equal(num(0.25), '0,25');
  assert.equal(scoreWords(625, null).text, '+6,25');
  assert.equal(scoreWords(-120, null).text, '−1,20');
  // French counts every number under 2 as one: "1,5 pion", "2,5 pions"
  assert.equal(t('review.better', { move: 'd3', loss: num(1.5, 1), n: 1.5 }), 'Mieux : d3 (le coup joué a perdu 1,5 pion).');
  assert.equal(t('review.better', { move: 'd3', loss: num(2.5, 1), n: 2.5 }), 'Mieux : d3 (le coup joué a perdu 2,5 pions).');
  setLang('en');
  assert.equal(num(0.25), '0.25');
  assert.equal(scoreWords(625, null).text, '+6.25');
});
