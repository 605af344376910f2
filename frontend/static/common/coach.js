// What every page knows of How to play (issue 27) before it is opened: each lobby tile's one
// line and its "? How to play" button, and a phone's first-turn line. The How to play itself
// (howto.js: the dialog, its pictures and styles) is loaded when a tile's button is pressed,
// so a phone that never opens it never downloads it.
import { h, mount } from './dom.js';
import { t, has, addPack, gamePack, getLang } from './i18n.js';

const packs = new Map();     // game id -> the promise of its strings
let dialog = null;           // howto.js, once loaded

/** Load the strings of the lobby's games (their tiles' lines); `then` once they are in. */
export function loadGames(games, staticRoot, then) {
  const wanted = games.filter((g) => !packs.has(g.id));
  if (!wanted.length) return;
  for (const g of wanted) packs.set(g.id, addPack(gamePack(staticRoot, g.id)));
  Promise.all(wanted.map((g) => packs.get(g.id))).then(then, then);
}

/** The tile's one line: what the game is ('' when the game has none). */
export function about(id) {
  return has(`${id}.about`) ? t(`${id}.about`) : '';
}

export function hasHowto(id) {
  return has(`${id}.how.what`);
}

/** The "? How to play" under a tile that opens the game's How to play (null for a game without one). */
export function howtoButton(g, name, app) {
  if (!hasHowto(g.id)) return null;
  const label = t('howto.title', { game: name });
  return h('button', {
    class: 'howto-btn', type: 'button', title: label, 'aria-label': label, 'data-howto': g.id,
    onclick: (e) => {
      e.stopPropagation();
      import('./howto.js').then((m) => { dialog = m; return m.openHowto(g.id, name, app, packs.get(g.id)); });
    },
  }, h('span', { class: 'howto-q', 'aria-hidden': 'true' }, '?'), t('howto.button'));
}

/** Close the How to play, if one is open (a game starts). */
export function closeHowto() {
  if (dialog) dialog.closeHowto();
}

// ------------------------------------------------------------------ the phone's first turn

const COACHED = 'partyhub.coached';

function coached() {
  try { return JSON.parse(localStorage.getItem(COACHED) || '[]'); } catch (e) { return []; }
}

/** The line of a game's first turn on a phone: what to do now (the game's
 * `<game>.coach.<action type>` for the first of the phone's actions that has one). It shows
 * once per phone and game: remembered in localStorage when it first shows, it stays on screen
 * until the phone acts, moves on to a step without that action, or taps it away. */
export function renderCoach(root, view, app) {
  const game = view.room.game;
  let bar = root.parentNode && root.parentNode.querySelector('.coach');
  const state = root._coach || (root._coach = { game: null, key: null, gone: false });
  if (state.game !== game) Object.assign(state, { game, key: null, gone: false });
  const types = app.gameActions(view).map((a) => a.type);
  if (!state.key && !state.gone && !coached().includes(game)) {
    const type = types.find((x) => has(`${game}.coach.${x}`));
    if (type) {
      state.key = { type, text: `${game}.coach.${type}` };
      try { localStorage.setItem(COACHED, JSON.stringify([...coached(), game])); } catch (e) { /* private mode */ }
    }
  }
  const showing = state.key && !state.gone && types.includes(state.key.type);
  if (state.key && !showing) state.gone = true;
  if (!showing) { if (bar) bar.remove(); return; }
  if (!bar) {
    bar = h('div', { class: 'coach', role: 'status' });
    root.before(bar);
  }
  const text = t(state.key.text);
  if (bar._text === `${getLang()}:${text}`) return;
  bar._text = `${getLang()}:${text}`;
  mount(bar, h('span', { class: 'coach-icon', 'aria-hidden': 'true' }, '💡'), h('span', { class: 'coach-text' }, text),
    h('button', { class: 'coach-x', type: 'button', 'aria-label': t('howto.got_it'), title: t('howto.got_it'),
      onclick: () => { state.gone = true; bar.remove(); } }, '✕'));
}

/** The phone sent `d`: once it has done what the line said, the line has done its job. */
export function coachActed(root, d) {
  const state = root && root._coach;
  if (!state || !state.key || !d || d.type !== state.key.type) return;
  state.gone = true;
  const bar = root.parentNode && root.parentNode.querySelector('.coach');
  if (bar) bar.remove();
}
