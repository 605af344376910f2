// What a screen reader hears on the phone, from the shell: a polite live region that says the
// phase (the room's, and the game's own name for it: "<game>.phase.<id>" strings), whose turn
// it is ("<game>.turn_of" / "<game>.your_turn" when the game words it), and what became of your
// own move (the game's app.say() lines, else "Done."; a refusal: the error's text, once).
import { h } from './dom.js';
import { t, has } from './i18n.js';
import { playerName } from './util.js';

const TURN_KEYS = ['turn', 'active', 'storyteller'];

/** Whose turn it is in a running game (the first id among turn/active/storyteller), or null. */
export function turnOf(view) {
  const g = view.game;
  if (view.room.phase !== 'playing' || !g || typeof g !== 'object') return null;
  const k = TURN_KEYS.find((key) => typeof g[key] === 'string');
  return k ? g[k] : null;
}

/** The lines to say when the view goes from `prev` to `view` (prev null: the first view). */
export function changes(prev, view, winnerLine) {
  const room = view.room;
  const out = [];
  const was = prev ? prev.room : {};
  const id = room.game || '';
  const game = t(`game.${id}`, null, id);
  const fresh = room.phase !== was.phase;
  if (fresh) {
    if (room.phase === 'lobby') out.push(t('a11y.lobby'));
    else if (room.phase === 'playing') out.push(t('a11y.playing', { game }));
    else if (room.phase === 'over') out.push(t('a11y.over', { result: winnerLine(view) }));
  }
  if (room.phase !== 'playing') return out;
  if (!!room.paused !== !!was.paused) out.push(t(room.paused ? 'room.paused' : 'a11y.resumed'));
  const gp = view.game && view.game.phase;
  const pgp = prev && prev.game && prev.game.phase;
  if (gp && (gp !== pgp || fresh) && has(`${id}.phase.${gp}`)) out.push(t(`${id}.phase.${gp}`));
  const turn = turnOf(view);
  if (turn && (turn !== (prev && turnOf(prev)) || fresh)) {
    const name = playerName(view, turn);
    out.push(turn === (view.you && view.you.id) ? t(`${id}.your_turn`, null, t('game.your_turn'))
      : t(`${id}.turn_of`, { name }, t('a11y.turn_of', { name })));
  }
  return out;
}

/** The live region: `say(text)` re-announces even a repeated text. */
export function createAnnouncer() {
  const el = h('div', { class: 'sr-only announce', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
  let timer = null;
  let queue = [];
  return {
    el,
    say(lines) {
      const more = (Array.isArray(lines) ? lines : [lines]).filter(Boolean);
      if (!more.length) return;
      queue = queue.concat(more);
      clearTimeout(timer);
      el.textContent = '';
      // set a moment later, so a repeated text is a change and is read again
      timer = setTimeout(() => { el.textContent = queue.join(' '); queue = []; }, 60);
    },
  };
}
