// The move list: one row per move number, White's and Black's moves as buttons.
import { $, el } from './dom.mjs';
import { t } from './i18n.mjs';
import { moveLabel, moveRows } from './notation.mjs';
import { resultWords } from './events.mjs';

/** Draws the list of `g`'s moves with `viewPly` current; `goTo(ply)` on a click. */
export function renderMoves(g, viewPly, atLatest, goTo) {
  const list = $('#moves');
  // One tab stop for the whole list (the current move); the arrow keys move inside it.
  const focused = list.contains(document.activeElement);
  list.replaceChildren();
  const startTurn = g.boards[0].turn;
  if (!g.moves.length) list.append(el('li', { class: 'none', text: t('moves.none') }));
  let current = null;
  const cell = (ply) => {
    if (ply === null) return el('span', { class: 'mv empty', 'aria-hidden': 'true' });
    const mv = g.history[ply - 1];
    const b = el('button', {
      type: 'button',
      class: `mv${mv.captured.length ? ' capture' : ''}${ply === viewPly ? ' current' : ''}`,
      'data-ply': String(ply),
      'aria-label': moveLabel(ply, startTurn, mv.move),
      'aria-current': ply === viewPly ? 'step' : null,
      tabindex: ply === Math.max(viewPly, 1) ? '0' : '-1',
      text: mv.move,
      onclick: () => goTo(ply),
    });
    if (ply === viewPly) current = b;
    return b;
  };
  for (const row of moveRows(g.moves.length, startTurn)) {
    list.append(el('li', { class: 'row' }, el('span', { class: 'num', text: `${row.n}.` }), cell(row.white), cell(row.black)));
  }
  if (g.status === 'finished') {
    const { why } = resultWords(g, null);
    list.append(el('li', { class: 'end', text: `${scoreText(g.result)} · ${t(why.key, colorWords(why.params))}` }));
  }
  if (focused) (current || list.querySelector(".mv[tabindex='0']") || list).focus({ preventScroll: true });
  if (current) current.scrollIntoView({ block: 'nearest' });
  else if (atLatest) list.scrollTop = list.scrollHeight;
  $('#nav-first').disabled = $('#nav-prev').disabled = viewPly === 0;
  $('#nav-last').disabled = $('#nav-next').disabled = viewPly === g.ply;
}

export function scoreText(result) {
  return { '1-0': '1–0', '0-1': '0–1', '1/2-1/2': '½–½' }[result] || result || '';
}

/** Translation parameters with colours in words. */
export function colorWords(params = {}) {
  const out = { ...params };
  if (out.color) out.color = t(`color.${out.color}`);
  return out;
}
