// What a screen reader hears on the phone, from the shell: a polite live region that says the
// phase (the room's, and the game's own name for it: "<game>.phase.<id>" strings), whose turn
// it is ("<game>.turn_of" / "<game>.your_turn" when the game words it), and what became of your
// own move (the game's app.say() lines, else "Done."; a refusal: the error's text, once).
import { h } from './dom.js';
import { t, has } from './i18n.js';
import { playerName } from './util.js';

/** "4 points", or the game's own unit when its strings have `score.<game>` (jinx: "4 cards"). */
export function unit(room, n) {
  return t(`score.${room && room.game}`, { n }, '') || t('score.points', { n });
}

/** "Ann wins!", "Ann, Bob, and Cy win!" (uk "Перемогли Анна, Богдан і Cy!": the language's
 * own list, a plural verb); a bigger tie is "It's a tie!". */
export function winnerTitle(room, res) {
  const names = (res.winners || []).map((id) => (room.players.find((p) => p.id === id) || {}).name).filter(Boolean);
  if (names.length > 3) return t('results.tie');
  if (!names.length) return t('results.title');
  const name = new Intl.ListFormat(t('lang'), { type: 'conjunction' }).format(names);
  return t('results.winner', { name, n: names.length });
}

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

/** What became of the people at the table between two views, for the TV (its toasts are read)
 * and every phone's live region: the VIP's crown passed (room.vip_passed), a stand-in took
 * over a seat or handed it back (a player's `standin`). `crown`: the line of the crown alone. */
export function peopleNews(prev, view) {
  const out = { crown: null, seats: [] };
  if (!prev) return out;
  const room = view.room;
  const pass = room.vip_passed;
  if (pass && pass.at !== (prev.room.vip_passed || {}).at) {
    const me = view.you && view.you.id;
    out.crown = pass.to && pass.to === me ? t('vip.you')
      : pass.to ? t(`vip.passed_${pass.why}`, { name: pass.name, to: playerName(view, pass.to) })
        : t('vip.passed_none', { name: pass.name });
  }
  if (room.phase !== 'playing' || prev.room.phase !== 'playing') return out;
  const before = new Map((prev.room.players || []).map((p) => [p.id, p]));
  for (const p of room.players) {
    const q = before.get(p.id);
    if (!q || p.id === (view.you && view.you.id) || !!p.standin === !!q.standin) continue;
    out.seats.push(t(p.standin ? 'a11y.standin_on' : 'a11y.standin_off', { name: p.name }));
  }
  return out;
}

/** "While you were away, a bot played 2 turns for you: +3 points." (the seat's own view's
 * `you.standin`), or null. */
export function standinNote(view) {
  const n = view.you && view.you.standin;
  if (!n) return null;
  const points = unit(view.room, n.points);
  return t('standin.note', { turns: t('standin.turns', { n: n.turns }), points: n.points > 0 ? `+${points}` : points });
}

/** The note of what a stand-in did (`text`: standinNote's), with `more` after it (an OK). */
export function standinBox(text, ...more) {
  return h('div', { class: 'standin-note', role: 'note' }, h('span', { class: 'standin-bot', 'aria-hidden': 'true' }, '🤖'),
    h('p', null, text), ...more);
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
