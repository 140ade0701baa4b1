// The JSON API of docs/api.md.
import { t } from './i18n.mjs';

export class ApiError extends Error {
  constructor(status, code, message, body = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body; // the answer's other fields (docs/api.md): `cap`, `line`, `refusal`…
  }
}

export async function api(method, path, body, asText) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    if (typeof body === 'string') {
      init.headers['content-type'] = 'text/plain; charset=utf-8';
      init.body = body;
    } else {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, 'network', '');
  }
  if (!res.ok) {
    let code = 'error';
    let message = '';
    let body = {};
    try {
      body = await res.json();
      code = body.error || code;
      message = body.message || '';
    } catch (e) {
      message = res.statusText;
    }
    const err = new ApiError(res.status, code, message, body);
    if (body.reason) err.reason = body.reason;
    throw err;
  }
  return asText ? res.text() : res.json();
}

const KNOWN = ['network', 'not_your_turn', 'stale_ply', 'bad_token', 'not_found', 'game_over', 'seat_taken', 'not_allowed', 'illegal_move', 'bad_request',
  'unauthorized', 'bad_credentials', 'name_taken', 'seek_taken', 'rate_limited'];

/** An error in words for a person, in the page's language; the server's detail is not shown
 * (it is English and meant for programs), except the place of a record's error. */
export function plainError(err) {
  if (!(err instanceof ApiError)) return t('err.unknown');
  if (err.code === 'weak_password') return t(`err.weak_password.${err.reason}`);
  const base = KNOWN.includes(err.code) ? t(`err.${err.code}`) : t('err.status', { status: err.status });
  const where = /line (\d+)/.exec(err.message || '');
  if (err.code === 'bad_request' && where) return `${base} ${t('err.atLine', { line: where[1] })}`;
  return base;
}
