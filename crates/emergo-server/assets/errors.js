// Loaded before the modules: a script error is noted on the page (the browser tests check
// that there is none).
'use strict';
window.addEventListener('error', (e) => {
  document.documentElement.dataset.scriptError = String(e.message || e.error || 'error');
});
window.addEventListener('unhandledrejection', (e) => {
  document.documentElement.dataset.scriptError = String((e.reason && e.reason.message) || e.reason || 'rejection');
});
