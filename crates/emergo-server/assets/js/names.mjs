// A player's name as every list and message shows it, in one place: "deleted player" once the
// account is gone, and a bot account's name marked BOT before it (issue 24), as lichess does.
import { t } from './i18n.mjs';

/** `name` shown: `null` or empty for a deleted account; `bot` marks a bot account. */
export function shownName(name, bot = false) {
  if (!name) return t('player.deleted');
  return bot ? `${t('player.bot')} ${name}` : name;
}

/** A game line's opponent (`"name"` or `{"deleted": true}`) shown, BOT marked. */
export function shownOpponent(line) {
  return shownName(typeof line.opponent === 'string' ? line.opponent : null, !!line.opponent_bot);
}
