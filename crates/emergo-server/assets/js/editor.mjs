// The board editor at /editor: build any set-up by clicking (a stack grows by one man a click:
// the first man makes the owner, men of the other colour go under as prisoners), the men in hand
// and the side to move; the server says whether it is a position and, if not, why (the core's
// own error). Position text (N2) in and out; from a valid position: an engine game, a game with
// a friend, an analysis. Any of the three boards (`/editor?variant=hex`: the selector chooses
// one, the address keeps it). The page counts nothing and knows no rule.
import { $ } from './dom.mjs';
import { api, plainError } from './api.mjs';
import { t } from './i18n.mjs';
import { createBoard } from './board.mjs';
import { createGame } from './lobby.mjs';
import { addMan, removeMan, setupText } from './setup.mjs';
import { fillVariants, isVariant, variantInfo } from './variants.mjs';

const ed = {
  setup: { turn: 'white', hand: { white: 12, black: 12 }, columns: {} },
  checked: null, // the server's answer for the current set-up: {position, status, …} or null
  asked: 0, // the number of the last question, so an old answer never wins
  navigate: () => {},
  board: null, // the board component on #editor-board: every square a button
  variant: 'emergo', // the board being set up
};

/** The set-up a board starts from: its men all in hand, White to move. */
function startSetup(variant) {
  const men = variantInfo(variant).men;
  return { turn: 'white', hand: { white: men, black: men }, columns: {} };
}

export function initEditor(navigate) {
  ed.navigate = navigate;
  ed.board = createBoard($('#editor-board'), { edit: true, onSelect: (sq) => onSquare(sq) });
  for (const r of document.querySelectorAll('input[name=editor-turn]')) {
    r.addEventListener('change', () => {
      ed.setup.turn = r.value;
      changed();
    });
  }
  for (const color of ['white', 'black']) {
    $(`#editor-hand-${color}`).addEventListener('input', (e) => {
      const n = Number(e.target.value);
      ed.setup.hand[color] = Number.isInteger(n) && n >= 0 ? n : 0;
      changed();
    });
  }
  $('#editor-text-form').addEventListener('submit', (e) => {
    e.preventDefault();
    loadText($('#editor-text').value);
  });
  $('#editor-start').addEventListener('click', () => loadText(variantInfo(ed.variant).start));
  $('#editor-variant').addEventListener('change', (e) => {
    const name = e.currentTarget.value;
    if (!isVariant(name) || name === ed.variant) return;
    history.replaceState(null, '', `/editor?variant=${encodeURIComponent(name)}`);
    setVariant(name);
    ed.setup = startSetup(name);
    changed();
  });
  $('#editor-empty').addEventListener('click', () => {
    ed.setup.columns = {};
    changed();
  });
  $('#editor-engine').addEventListener('click', (e) => play('engine', e.currentTarget));
  $('#editor-human').addEventListener('click', (e) => play('human', e.currentTarget));
  $('#editor-analyse').addEventListener('click', () => {
    if (!ed.checked) return;
    const board = ed.variant === 'emergo' ? '' : `&variant=${encodeURIComponent(ed.variant)}`;
    ed.navigate(`/analysis?position=${encodeURIComponent(ed.checked.position)}${board}`);
  });
}

/** Opens the editor, from `?position=` when the address has one. */
export function showEditor() {
  $('#lobby').hidden = true;
  $('#game').hidden = true;
  $('#editor').hidden = false;
  document.title = `${t('editor.title')} · ${t('title')}`;
  const params = new URLSearchParams(location.search);
  const asked = params.get('variant') || 'emergo';
  const variant = isVariant(asked) ? asked : 'emergo';
  if (variant !== ed.variant) ed.setup = startSetup(variant);
  setVariant(variant);
  const from = params.get('position');
  if (from) loadText(from);
  else changed();
}

/** The board being set up: the selector, the board drawn, the most men a hand may hold. */
function setVariant(name) {
  ed.variant = name;
  const select = $('#editor-variant');
  fillVariants(select);
  select.value = name;
  $('#editor').dataset.variant = name;
  for (const color of ['white', 'black']) $(`#editor-hand-${color}`).max = String(variantInfo(name).men);
  ed.board.set({ variant: name });
}

export function closeEditor() {
  $('#editor').hidden = true;
  // Its columns' clip paths have ids the game board's would repeat.
  ed.board.clear();
}

function onSquare(sq) {
  const tool = document.querySelector('input[name=editor-tool]:checked').value;
  const cols = ed.setup.columns;
  if (tool === 'clear') delete cols[sq];
  else if (tool === 'remove') removeMan(cols, sq);
  else addMan(cols, sq, tool);
  changed();
}

/** Draws the set-up, writes its text, and asks the server about it. */
function changed() {
  draw();
  const text = setupText(ed.setup);
  $('#editor-text').value = text;
  check(text);
}

function draw() {
  ed.board.set({ board: ed.setup });
  $('input[name=editor-turn][value=white]').checked = ed.setup.turn === 'white';
  $('input[name=editor-turn][value=black]').checked = ed.setup.turn === 'black';
  for (const color of ['white', 'black']) {
    const input = $(`#editor-hand-${color}`);
    if (Number(input.value) !== ed.setup.hand[color]) input.value = String(ed.setup.hand[color]);
  }
}

async function check(text) {
  const asked = ++ed.asked;
  let answer = null;
  let refusal = null;
  try {
    answer = await api('GET', `/api/position?position=${encodeURIComponent(text)}&variant=${encodeURIComponent(ed.variant)}`);
  } catch (err) {
    refusal = err;
  }
  if (asked !== ed.asked) return;
  ed.checked = answer && answer.status === 'ongoing' ? answer : null;
  showCheck(answer, refusal);
}

function showCheck(answer, refusal) {
  const box = $('#editor-check');
  box.replaceChildren();
  const main = document.createElement('div');
  main.className = 'main';
  const detail = document.createElement('div');
  detail.className = 'detail';
  if (answer && answer.status === 'ongoing') {
    box.dataset.valid = 'true';
    main.textContent = t('editor.valid');
    detail.textContent = t('editor.moves', { n: answer.legal_moves.length, color: t(`color.${answer.board.turn}`) });
  } else if (answer) {
    box.dataset.valid = 'decided';
    main.textContent = t('editor.decided');
    detail.textContent = answer.reason ? t(`reasonShort.${answer.reason.replace(/ /g, '_')}`) : '';
  } else {
    box.dataset.valid = 'false';
    main.textContent = t('editor.invalid');
    // What the core found wrong, said here in the page's language from the answer's fields.
    detail.textContent = problemWords(refusal);
  }
  box.append(main, detail);
  for (const id of ['#editor-engine', '#editor-human', '#editor-analyse']) $(id).disabled = !ed.checked;
}

/** A refused set-up in words for a person who clicked (docs/api.md: `problem` and its fields). */
function problemWords(err) {
  const body = (err && err.body) || {};
  if (!body.problem) return plainError(err);
  const params = { ...body };
  if (body.color) params.color = t(`color.${body.color}`);
  return t(`posErr.${body.problem}`, params);
}

/** Reads position text into the editor; refused text leaves the board as it is. */
async function loadText(text) {
  try {
    const answer = await api('GET', `/api/position?position=${encodeURIComponent(text.trim())}&variant=${encodeURIComponent(ed.variant)}`);
    ed.setup = {
      turn: answer.board.turn,
      hand: { ...answer.board.hand },
      columns: { ...answer.board.columns },
    };
    changed();
  } catch (err) {
    ed.checked = null;
    showCheck(null, err);
  }
}

function play(mode, button) {
  if (!ed.checked) return;
  const color = document.querySelector('input[name=editor-color]:checked').value;
  const body = { mode, color, position: ed.checked.position };
  if (ed.variant !== 'emergo') body.variant = ed.variant;
  if (mode === 'engine') body.level = Number($('#editor-level').value) || 3;
  createGame(body, button);
}
