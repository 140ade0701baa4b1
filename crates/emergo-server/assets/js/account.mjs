// The header's account controls: sign up, log in, log out, the name linking to the player page;
// on one's own player page, change the password and delete the account. The session is an
// HttpOnly cookie; this module only knows who is logged in (GET /api/me).
import { $, toast } from './dom.mjs';
import { api, plainError } from './api.mjs';
import { t } from './i18n.mjs';

let current = null;
const listeners = [];
let formMode = 'login';
let ready = Promise.resolve();

/** Who is logged in: `{name, ratings}` or null. */
export function me() {
  return current;
}

/** Settles once the page knows who is logged in (the first `GET /api/me` answered). */
export function known() {
  return ready;
}

/** Calls `fn` now and whenever the account logged in changes. */
export function onMe(fn) {
  listeners.push(fn);
  fn(current);
}

function setMe(value) {
  current = value;
  const named = !!current;
  $('#me-link').hidden = !named;
  $('#logout').hidden = !named;
  $('#login-open').hidden = named;
  $('#signup-open').hidden = named;
  if (named) {
    $('#me-link').textContent = current.name;
    $('#me-link').setAttribute('href', `/player/${encodeURIComponent(current.name)}`);
  }
  for (const fn of listeners) fn(current);
}

/** Reads who is logged in again. */
export async function refreshMe() {
  try {
    setMe(await api('GET', '/api/me'));
  } catch (err) {
    setMe(null);
  }
}

function openForm(mode) {
  formMode = mode;
  const form = $('#account-form');
  form.hidden = false;
  // data-i18n: a change of language while the form is open relabels it
  for (const [id, key] of [['#account-form-title', mode === 'signup' ? 'account.signUp' : 'account.logIn'],
    ['#account-submit', mode === 'signup' ? 'account.submitSignUp' : 'account.submitLogIn']]) {
    $(id).dataset.i18n = key;
    $(id).textContent = t(key);
  }
  $('#account-rules').hidden = mode !== 'signup';
  $('#account-password').setAttribute('autocomplete', mode === 'signup' ? 'new-password' : 'current-password');
  $('#account-name').focus();
}

function closeForm() {
  $('#account-form').hidden = true;
  $('#account-form').reset();
}

export function initAccount(navigate) {
  $('#login-open').addEventListener('click', () => openForm('login'));
  $('#signup-open').addEventListener('click', () => openForm('signup'));
  $('#account-cancel').addEventListener('click', closeForm);
  $('#account-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = { name: $('#account-name').value.trim(), password: $('#account-password').value };
    const button = $('#account-submit');
    button.disabled = true;
    try {
      const who = await api('POST', formMode === 'signup' ? '/api/accounts' : '/api/session', body);
      closeForm();
      setMe(who);
    } catch (err) {
      toast(err.code === 'bad_request' && formMode === 'signup' ? t('account.rules') : plainError(err));
    } finally {
      button.disabled = false;
    }
  });
  initSettings(navigate);
  $('#logout').addEventListener('click', async () => {
    try {
      await api('DELETE', '/api/session', undefined, true);
    } catch (err) {
      toast(plainError(err));
    }
    setMe(null);
  });
  ready = refreshMe();
}

/** The forms of one's own player page: a new password (the other sessions end), deletion. */
function initSettings(navigate) {
  const submit = (id, send) => $(id).addEventListener('submit', async (e) => {
    e.preventDefault();
    const button = e.target.querySelector('button[type=submit]');
    button.disabled = true;
    try {
      await send();
      e.target.reset();
    } catch (err) {
      toast(plainError(err));
    } finally {
      button.disabled = false;
    }
  });
  submit('#password-form', async () => {
    const body = { password: $('#password-current').value, new_password: $('#password-new').value };
    await api('POST', '/api/me/password', body, true);
    toast(t('settings.changed'), 'info');
  });
  submit('#delete-form', async () => {
    await api('DELETE', '/api/me', { password: $('#delete-password').value }, true);
    $('#delete-box').open = false;
    setMe(null);
    toast(t('settings.deleted'), 'info');
    navigate('/');
  });
}

/** In a game between accounts, a seat token for the seat the logged-in account holds (the
 * session stands in for the token; the page keeps the token like any other). */
export async function claimSeat(id, store) {
  await ready;
  if (!current) return;
  try {
    // Only a game this account sits in: another's game is watched without asking (an expected
    // "no" is no error to log).
    const g = await api('GET', `/api/games/${id}`);
    const players = g.players || {};
    if (![players.white, players.black].some((p) => p && p.name === current.name)) return;
    const grant = await api('POST', `/api/games/${id}/seat`, {});
    store.set(`emergo.seat.${id}`, { seat: grant.seat, token: grant.token });
  } catch (err) {
    /* not this account's game: watch it */
  }
}
