// The board component: draws one position on an `<svg>` and reports the moves a person makes
// on it (click, drag and drop, keyboard), as chessground does for lichess. Every screen with a
// board uses it (the game, the analysis board, the editor). It knows no rule: the moves it
// offers are the legal moves the server sent, matched square by square (board/select.mjs).
//
//   const board = createBoard(svgElement, config);
//
// config (createBoard's second argument, and board.set(config), which changes only the keys
// it is given and redraws):
//   variant      the board: 'emergo' (default, the square 9×9), '7x7' or 'hex', drawn from the
//                server's list of its cells (variants.mjs, GET /api/variants)
//   orientation  'white' (default) or 'black': the colour at the bottom
//   board        the position to draw, as the server's views give it ({turn, hand, columns}),
//                or null (an empty frame)
//   legal        the moves the person may make now ([{move, passed, captured}], the view's
//                `legal` / `legal_moves`), or null when nobody may move here
//   premovable   the colour whose premoves may be entered now (the other side is to move), or null
//   last         the last move to highlight ({passed, captured}) or null
//   hint, better squares of a move drawn as an arrow (a hint or the best line; a review's
//                better move), or null
//   edit         true: every square is a button and a click is only reported (the editor)
//   onMove(move)                the person chose a legal move (its text)
//   onSelect(sq, pointerType)   a square was clicked (or chosen with Enter), after the board
//                               handled it; pointerType 'mouse', 'touch', 'pen' or 'keyboard'
//   onChange()                  the selection or the premove changed through input
//   onHover(sq | null), onLongPress(sq)   the pointer rests on / a finger holds a square
//
// methods:
//   set(config)       as above
//   flip()            turns the board round
//   state()           {variant, orientation, selected (squares of the move begun), lifted, premove
//                     ({from, to} or {text}, or null), premoveStart (a square or null)}
//   select(squares)   shows the squares of a move begun (or being sent); [] clears
//   setPremove(pre)   a premove made elsewhere (a typed one: {text}); cancelPremove() drops it
//   redrawAll()       draws the frame again (and the position)
//   clear()           empties the `<svg>` (one board's ids in the document at a time); the next
//                     set() or redrawAll() draws it again
//   destroy()         removes the listeners and empties the `<svg>`
// Methods never call the callbacks; the callbacks report only what a person did.
import { drawFrame, drawPosition } from './board/draw.mjs';
import { initInput, keepTabStop } from './board/input.mjs';
import { boardLayout } from './board/layout.mjs';
import { variantInfo } from './variants.mjs';
import { clickTargets, afterClick, afterDrop, afterPremoveClick, premoveSquares } from './board/select.mjs';

export { discIcon, handIcons, squareWords, stackLetters } from './board/draw.mjs';

const NO_TARGETS = { entries: new Set(), starts: new Set(), next: new Set() };
const DRAWN = ['variant', 'orientation', 'board', 'legal', 'premovable', 'last', 'hint', 'better', 'edit'];
const CALLBACKS = ['onMove', 'onSelect', 'onChange', 'onHover', 'onLongPress'];

export function createBoard(element, config = {}) {
  const cfg = { variant: 'emergo', orientation: 'white', board: null, legal: null, premovable: null, last: null, hint: null, better: null, edit: false };
  const on = { onMove() {}, onSelect() {}, onChange() {}, onHover() {}, onLongPress() {} };
  let selected = []; // the squares of a move begun
  let lifted = null; // the square whose column is being dragged
  let premove = null; // {from, to} or {text}
  let premoveStart = null; // a square chosen for a premove
  let framed = null; // the orientation and board the frame is drawn for
  let lay = null; // the layout of cfg.variant

  const flipped = () => cfg.orientation === 'black';
  function layout() {
    if (!lay || lay.variant !== (cfg.variant || 'emergo')) lay = boardLayout(variantInfo(cfg.variant));
    return lay;
  }

  function take(config) {
    for (const k of DRAWN) if (k in config) cfg[k] = config[k];
    for (const k of CALLBACKS) if (typeof config[k] === 'function') on[k] = config[k];
  }

  function redraw() {
    const l = layout();
    const frame = `${cfg.orientation} ${l.variant}`;
    if (framed !== frame || !element.querySelector('.hits')) {
      drawFrame(element, l, flipped());
      framed = frame;
      selected = selected.filter((sq) => l.names.includes(sq));
    }
    drawPosition(element, l, {
      board: cfg.board,
      flipped: flipped(),
      last: cfg.last,
      sel: selected,
      hint: cfg.hint,
      premove: premove ? premoveSquares(premove) : premoveStart ? [premoveStart] : [],
      targets: cfg.legal ? clickTargets(cfg.legal, selected) : NO_TARGETS,
      lifted,
      better: cfg.better,
    });
    if (cfg.edit) for (const r of element.querySelectorAll('.hit')) r.classList.add('active');
    keepTabStop(element, selected[0], l.home);
  }

  /** After input: the board drawn again and its owner told. */
  function changed() {
    redraw();
    on.onChange();
  }

  function choose(result) {
    if (result.submit) {
      selected = [];
      on.onMove(result.submit);
    } else {
      selected = result.sel;
    }
  }

  /** What may be dragged from `sq`: its column, if a move (or a premove) may start there. */
  function liftable(sq) {
    const col = cfg.board && !cfg.edit ? cfg.board.columns[sq] : null;
    if (!col) return null;
    if (cfg.legal) return cfg.legal.some((m) => m.passed.length > 1 && m.passed[0] === sq) ? col : null;
    if (cfg.premovable && col.owner === cfg.premovable) return col;
    return null;
  }

  const stopInput = initInput(element, {
    layout,
    flipped,
    liftable,
    lift: (sq) => {
      lifted = sq;
      if (cfg.legal) selected = [sq];
      changed();
    },
    click: (sq, pointerType) => {
      if (!cfg.edit && cfg.board) {
        if (cfg.legal) {
          choose(afterClick(cfg.legal, selected, sq));
        } else if (cfg.premovable) {
          const r = afterPremoveClick(cfg.board, cfg.premovable, premoveStart, sq);
          premoveStart = r.start;
          premove = r.pre;
        }
      }
      on.onSelect(sq, pointerType);
      changed();
    },
    drop: (from, to) => {
      lifted = null;
      if (to && cfg.legal) {
        choose(afterDrop(cfg.legal, from, to));
      } else if (to && cfg.premovable) {
        premoveStart = null;
        premove = { from, to };
      }
      changed();
    },
    hover: (sq) => on.onHover(sq),
    longPress: (sq) => on.onLongPress(sq),
  });

  take(config);

  return {
    set(config) {
      take(config);
      redraw();
    },
    flip() {
      cfg.orientation = flipped() ? 'white' : 'black';
      redraw();
    },
    state() {
      return { variant: cfg.variant, orientation: cfg.orientation, selected: [...selected], lifted, premove, premoveStart };
    },
    select(squares) {
      selected = [...squares];
      redraw();
    },
    setPremove(pre) {
      premoveStart = null;
      premove = pre;
      redraw();
    },
    cancelPremove() {
      premoveStart = null;
      premove = null;
      redraw();
    },
    redrawAll() {
      framed = null;
      redraw();
    },
    clear() {
      element.replaceChildren();
      framed = null;
    },
    destroy() {
      stopInput();
      element.replaceChildren();
      framed = null;
    },
  };
}
