// Pointer and keyboard on the board: clicks, drag and drop, a square focus moved by the arrow
// keys. It reports squares; what they mean is for the game module.
import { svgPoint, drawDragged } from './draw.mjs';

const DRAG_START = 8; // SVG units the pointer must travel before a press becomes a drag

/**
 * hooks: `layout()` (the board's layout, board/layout.mjs), `flipped()`, `liftable(sq)` (a column that may be dragged from sq, or null),
 * `lift(sq)`, `click(sq, pointerType)`, `drop(from, to)`, `hover(sq | null)`, `longPress(sq)`.
 * Returns a function that removes the listeners.
 */
export function initInput(b, hooks) {
  const listening = new AbortController();
  const on = (type, fn) => b.addEventListener(type, fn, { signal: listening.signal });
  let press = null; // {sq, x, y, dragging, id, col}
  let suppressClick = false;
  let longTimer = null;
  let hoverTimer = null;
  const squareAt = (x, y) => hooks.layout().squareAt(x, y, hooks.flipped());

  on('pointerdown', (e) => {
    if (e.button !== 0) return;
    const p = svgPoint(b, e.clientX, e.clientY);
    const sq = squareAt(p.x, p.y);
    if (!sq) return;
    const col = hooks.liftable(sq);
    press = { sq, x: p.x, y: p.y, dragging: false, id: e.pointerId, col };
    clearTimeout(longTimer);
    if (e.pointerType !== 'mouse') longTimer = setTimeout(() => hooks.longPress(sq), 550);
    if (col) {
      e.preventDefault();
      try {
        b.setPointerCapture(e.pointerId);
      } catch (err) {
        /* not capturable: the drag ends at the board's edge */
      }
    }
  });
  on('pointermove', (e) => {
    const p = svgPoint(b, e.clientX, e.clientY);
    if (e.pointerType === 'mouse') {
      const sq = squareAt(p.x, p.y);
      clearTimeout(hoverTimer);
      hoverTimer = setTimeout(() => hooks.hover(sq), 350);
    }
    if (!press || press.id !== e.pointerId || !press.col) return;
    if (!press.dragging && Math.hypot(p.x - press.x, p.y - press.y) > DRAG_START) {
      press.dragging = true;
      clearTimeout(longTimer);
      hooks.lift(press.sq);
    }
    if (press.dragging) drawDragged(b, hooks.layout(), press.col, p.x, p.y);
  });
  const end = (e, cancelled) => {
    clearTimeout(longTimer);
    if (!press || press.id !== e.pointerId) return;
    const was = press;
    press = null;
    if (!was.dragging) return;
    drawDragged(b, hooks.layout(), null);
    suppressClick = true;
    setTimeout(() => (suppressClick = false), 0);
    const p = svgPoint(b, e.clientX, e.clientY);
    const to = cancelled ? null : squareAt(p.x, p.y);
    hooks.drop(was.sq, to);
  };
  on('pointerup', (e) => end(e, false));
  on('pointercancel', (e) => end(e, true));
  on('pointerleave', (e) => {
    if (e.pointerType === 'mouse') {
      clearTimeout(hoverTimer);
      hooks.hover(null);
    }
  });
  on('click', (e) => {
    if (suppressClick) return;
    // (with the pointer captured for a drag, the click's target is the board itself)
    const hit = e.target.closest && e.target.closest('.hit');
    const p = svgPoint(b, e.clientX, e.clientY);
    const sq = hit ? hit.dataset.sq : squareAt(p.x, p.y);
    if (sq) hooks.click(sq, e.pointerType || 'mouse');
  });

  // keyboard: one square of the board is in the tab order; arrows move it, Enter or Space
  // clicks it
  on('keydown', (e) => {
    const hit = e.target.closest && e.target.closest('.hit');
    if (!hit) return;
    const dir = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' }[e.key];
    if (dir) {
      e.preventDefault();
      e.stopPropagation();
      const next = hooks.layout().screenNeighbour(hit.dataset.sq, dir, hooks.flipped());
      if (next) focusSquare(b, next);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      e.stopPropagation();
      hooks.click(hit.dataset.sq, 'keyboard');
    }
  });
  on('focusin', (e) => {
    const hit = e.target.closest && e.target.closest('.hit');
    if (hit) hooks.hover(hit.dataset.sq);
  });
  return () => {
    listening.abort();
    clearTimeout(longTimer);
    clearTimeout(hoverTimer);
  };
}

/** Puts the board's one tab stop on `sq` (and focuses it). */
export function focusSquare(b, sq, focus = true) {
  for (const r of b.querySelectorAll('.hit')) r.setAttribute('tabindex', r.dataset.sq === sq ? '0' : '-1');
  const r = b.querySelector(`.hit[data-sq='${sq}']`);
  if (r && focus) r.focus();
}

/** Makes sure one square is in the tab order (after the board is drawn again): `preferred`, or
 * the board's centre. */
export function keepTabStop(b, preferred, home) {
  if (!b.querySelector(".hit[tabindex='0']")) focusSquare(b, preferred || home, false);
}
