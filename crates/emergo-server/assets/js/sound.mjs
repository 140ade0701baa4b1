// Short sounds made with Web Audio (no files): a move, a capture, the end of a game, low time,
// a takeback asked for, a chat message.
import { prefs } from './prefs.mjs';

let ctx = null;
const TONES = {
  move: [[520, 0.07]],
  capture: [[440, 0.06], [330, 0.09]],
  end: [[392, 0.12], [523, 0.12], [659, 0.2]],
  low: [[880, 0.05], [880, 0.05]],
  // issue 18: a takeback asked for; a chat message of someone else
  offer: [[660, 0.08], [784, 0.1]],
  chat: [[988, 0.04]],
};

export function play(kind) {
  const tones = TONES[kind];
  if (!tones || prefs().muted) return;
  document.documentElement.dataset.lastSound = kind;
  try {
    ctx = ctx || new (window.AudioContext || window.webkitAudioContext)();
    let at = ctx.currentTime;
    for (const [freq, len] of tones) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.12, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + len);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + len);
      at += len;
    }
  } catch (e) {
    /* no audio here: the words say it all */
  }
}
