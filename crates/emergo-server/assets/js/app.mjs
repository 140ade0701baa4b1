// Emergo in the browser: the entry module. Routing, the header's switches (language, theme,
// board colours, sound) and start-up. Plain ES modules, no build step, no outside resources.
import { $, toast, clearToast, store, seatOf } from './dom.mjs';
import { t, pickLang, setLang, lang, applyDom, LANGS } from './i18n.mjs';
import { prefs, setPref, applyLook } from './prefs.mjs';
import { initLobby, showLobby, leaveLobby, loadGameList } from './lobby.mjs';
import { initGame, openGame, closeGame, render, st } from './game.mjs';
import { redrawConn } from './live.mjs';
import { initEditor, showEditor, closeEditor } from './editor.mjs';
import { initAnalysis, openAnalysis, closeAnalysis, relabelAnalysis } from './analysis.mjs';
import { initLearn, showLearn, closeLearn, relabelLearn } from './learn.mjs';
import { initPuzzles, showPuzzles, closePuzzles, relabelPuzzles, showDaily } from './puzzles.mjs';
import { initAccount, claimSeat } from './account.mjs';
import { initOnline, showOnline, leaveOnline, relabelOnline } from './online.mjs';
import { initPages, leavePages, showPlayer, showLeaderboard, relabelPages } from './players.mjs';
import { initTournaments, leaveTournaments, showTournaments, showTournament, relabelTournaments } from './tournaments.mjs';
import { initNotes, relabelNotes, seenGame } from './notify.mjs';
import { initPeople, showWatch, leaveWatch, relabelWatch, relabelChallenge, drawWatchers } from './people.mjs';
import { loadVariants } from './variants.mjs';

// Each route() call counts; one that waited (for a seat) gives way to a newer one.
let routing = 0;

async function route() {
  const turn = ++routing;
  clearToast();
  leavePages();
  leaveTournaments();
  leaveWatch();
  const m = location.pathname.match(/^\/game\/([A-Za-z0-9_-]+)\/?$/);
  const player = location.pathname.match(/^\/player\/([A-Za-z0-9_-]{1,20})\/?$/);
  const tournament = location.pathname.match(/^\/tournament\/([A-Za-z0-9_-]{1,64})\/?$/);
  const tournaments = location.pathname.replace(/\/$/, '') === '/tournaments';
  if (location.pathname === '/editor') {
    closeLearn();
    closePuzzles();
    closeAnalysis();
    leaveLobby();
    leaveOnline();
    closeGame();
    showEditor();
    return;
  }
  closeEditor();
  if (location.pathname.replace(/\/$/, '') === '/puzzles') {
    closeLearn();
    closeAnalysis();
    closeGame();
    leaveLobby();
    leaveOnline();
    showPuzzles(new URLSearchParams(location.search));
    return;
  }
  closePuzzles();
  if (location.pathname.replace(/\/$/, '') === '/learn') {
    closeAnalysis();
    closeGame();
    leaveLobby();
    leaveOnline();
    showLearn(new URLSearchParams(location.search));
    return;
  }
  closeLearn();
  if (location.pathname.replace(/\/$/, '') === '/analysis') {
    closeGame();
    leaveLobby();
    leaveOnline();
    openAnalysis(new URLSearchParams(location.search));
    return;
  }
  closeAnalysis();
  if (m) {
    leaveLobby();
    leaveOnline();
    // A game between accounts: the session's seat, as a token the game page keeps.
    if (!seatOf(m[1])) await claimSeat(m[1], store);
    if (turn !== routing) return;
    seenGame(m[1]);
    openGame(m[1], () => {
      history.replaceState(null, '', '/');
      route();
    });
  } else if (tournament || tournaments) {
    leaveLobby();
    leaveOnline();
    closeGame();
    $('#lobby').hidden = true;
    $('#game').hidden = true;
    $('#conn').hidden = true;
    if (tournament) showTournament(tournament[1]);
    else showTournaments();
  } else if (player || ['/leaderboard', '/watch'].includes(location.pathname.replace(/\/$/, ''))) {
    leaveLobby();
    leaveOnline();
    closeGame();
    $('#lobby').hidden = true;
    $('#game').hidden = true;
    $('#conn').hidden = true;
    if (player) showPlayer(player[1]);
    else if (location.pathname.replace(/\/$/, '') === '/watch') showWatch();
    else showLeaderboard();
  } else {
    closeGame();
    showLobby();
    showOnline();
    showDaily();
  }
}

export function navigate(path) {
  history.pushState(null, '', path);
  route();
}

function applyLang() {
  applyDom();
  const select = $('#lang');
  if (select.options.length !== Object.keys(LANGS).length) {
    select.replaceChildren(
      ...Object.entries(LANGS).map(([code, table]) => {
        const o = document.createElement('option');
        o.value = code;
        o.textContent = code.toUpperCase();
        o.lang = code;
        o.setAttribute('aria-label', `${code.toUpperCase()} · ${table['lang.name']}`);
        return o;
      }),
    );
  }
  select.value = lang();
  select.dataset.lang = lang();
  const p = prefs();
  $('#sound').setAttribute('aria-pressed', String(!p.muted));
  $('#sound').dataset.muted = String(p.muted);
  $('#sound').setAttribute('aria-label', t(p.muted ? 'head.soundOff' : 'head.soundOn'));
  $('#sound').title = $('#sound').getAttribute('aria-label');
  $('#theme').setAttribute('aria-label', t(`head.theme.${p.theme}`));
  $('#theme').title = $('#theme').getAttribute('aria-label');
  $('#theme').dataset.theme = p.theme;
  $('#board-colors').setAttribute('aria-label', t(`head.board.${p.board}`));
  $('#board-colors').title = $('#board-colors').getAttribute('aria-label');
  redrawConn();
}

function init() {
  const p = prefs();
  setLang(pickLang(p.lang, navigator.languages || [navigator.language]));
  applyLook();
  applyLang();
  document.documentElement.classList.toggle('touch', window.matchMedia && window.matchMedia('(pointer: coarse)').matches);
  $('#toast-close').addEventListener('click', () => ($('#toast').hidden = true));
  $('#lang').addEventListener('change', (e) => {
    const next = e.target.value;
    setPref('lang', next);
    setLang(next);
    applyLang();
    if (st.game) render();
    else loadGameList();
    relabelOnline();
    relabelPages();
    relabelTournaments();
    relabelNotes();
    relabelWatch();
    relabelAnalysis();
    relabelChallenge();
    relabelLearn();
    relabelPuzzles();
    drawWatchers();
  });
  $('#theme').addEventListener('click', () => {
    const order = ['auto', 'light', 'dark'];
    setPref('theme', order[(order.indexOf(prefs().theme) + 1) % order.length]);
    applyLook();
    applyLang();
  });
  $('#board-colors').addEventListener('click', () => {
    setPref('board', prefs().board === 'wood' ? 'green' : 'wood');
    applyLook();
    applyLang();
  });
  $('#sound').addEventListener('click', () => {
    setPref('muted', !prefs().muted);
    applyLang();
  });
  if (window.matchMedia) window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', applyLook);
  document.addEventListener('click', (e) => {
    const a = e.target.closest('a[data-link]');
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(a.getAttribute('href'));
  });
  window.addEventListener('popstate', route);
  initLobby(navigate);
  initAccount(navigate);
  initOnline(navigate);
  initNotes(navigate);
  initPages();
  initTournaments(navigate);
  initPeople(navigate);
  initGame();
  initEditor(navigate);
  initAnalysis();
  initLearn(navigate);
  initPuzzles(navigate);
}

/** Start-up: the switches and screens, then the boards the server plays (every board is drawn
 * from them), then the first screen. */
async function start() {
  init();
  for (let tries = 0; ; tries++) {
    try {
      await loadVariants();
      break;
    } catch (err) {
      if (tries >= 4) throw err;
      await new Promise((done) => setTimeout(done, 500 * (tries + 1)));
    }
  }
  route();
  document.documentElement.dataset.ready = 'true';
}

start().catch((err) => {
  document.documentElement.dataset.scriptError = String(err && err.message);
  toast(t('err.unknown'));
});
