// Results: a podium (ties share a step), the rest, Play again / Back to lobby,
// the room's scoreboard of the games played, and a slot for the game's own results hook.
// Loaded when a game ends (app.js, lazy.js); what the shell says of a result without it is in announce.js.
import { h, mount, chip } from './dom.js';
import { t } from './i18n.js';
import { pageThrough } from './pages.js';
import { unit, winnerTitle, standinNote, standinBox } from './announce.js';

/** The results' styles, linked as this module loads (while a game runs: app.js prefetches it):
 * results.css where its rules stood in the page's cascade (before phone.css: base.html), and on
 * the phone results-phone.css after everything; resolves once they apply, or failed (the screen still draws). */
const sheet = (name, place) => new Promise((done) => {
  place(h('link', { rel: 'stylesheet', href: new URL(name, import.meta.url).href, onload: done, onerror: done }));
});
const next = document.getElementById('phone-css');
export const ready = Promise.all([sheet('./results.css', (l) => (next ? next.before(l) : document.head.append(l))),
  document.body.classList.contains('page-phone') ? sheet('./results-phone.css', (l) => document.head.append(l)) : null]);

/** Players grouped by score, best first: [{score, win, players}, ...]; the winners apart on
 * top, so the podium agrees with the headline when a game breaks a tie (sketch). */
export function ranks(players, scores, winners = []) {
  const by = new Map();
  for (const p of players) {
    const s = scores && p.id in scores ? scores[p.id] : p.score || 0;
    const win = winners.includes(p.id);
    const k = `${win} ${s}`;
    if (!by.has(k)) by.set(k, { score: s, win, players: [] });
    by.get(k).players.push(p);
  }
  return [...by.values()].sort((a, b) => b.win - a.win || b.score - a.score);
}

/** `slot`: the game module's box (its results hook draws there), kept across re-renders. */
export function renderResults(box, view, app, slot) {
  const room = view.room;
  const res = room.results || { scores: {}, winners: [] };
  const groups = ranks(room.players, res.scores, res.winners);
  const winners = new Set(res.winners || []);
  const steps = groups.slice(0, 3);
  const order = [1, 0, 2].filter((i) => steps[i]);   // 2nd, 1st, 3rd
  const gameName = t(`game.${room.game}`, null, (room.games || []).find((g) => g.id === room.game)?.name || room.game || '');
  const acts = view.actions || [];
  const again = acts.find((a) => a.type === 'again');
  const end = acts.find((a) => a.type === 'end');
  const me = view.you.id;
  const won = me && winners.has(me);
  // winners above players with as many points: "<game>.tiebreak" says why
  const why = groups[1] && groups[0].win && groups[1].score >= groups[0].score && t(`${room.game}.tiebreak`, null, '');

  const podium = h('div', { class: 'podium' }, order.map((i) => h('div', { class: ['step', `step-${i + 1}`] },
    stepPlayers(steps[i].players, winners, me),
    h('div', { class: 'block' }, h('span', { class: 'place' }, String(i + 1)),
      h('span', { class: 'pts' }, unit(room, steps[i].score))))));

  const rest = groups.slice(3);
  let place = 4;
  const restList = rest.length ? h('ol', { class: 'rest' }, rest.map((g) => {
    const li = h('li', { value: place }, h('span', { class: 'place' }, `${place}.`),
      g.players.map((p) => h('span', { class: 'rest-p', title: p.name }, chip(p), h('span', { class: 'rname' }, p.name))),
      h('span', { class: 'pts' }, unit(room, g.score)));
    place += 1;
    return li;
  })) : null;

  // a seat or the TV (not the audience) opens the room's keepsakes
  const keep = view.you.role !== 'audience'
    ? h('button', { class: 'btn big keep-open', onclick: () => app.keepsakes() }, t('results.keepsakes')) : null;
  const buttons = (again || end) ? h('div', { class: 'result-actions' },
    again ? h('button', { class: 'btn primary big', onclick: () => app.act(again) }, t('results.again')) : null,
    end ? h('button', { class: 'btn big', onclick: () => app.act(end) }, t('results.lobby')) : null, keep)
    : h('div', { class: 'result-actions' }, h('p', { class: 'hint' }, t('results.wait')), keep);

  mount(box, h('div', { class: ['results', `results-${app.page}`] },
    h('header', { class: 'results-head' },
      headline(won ? t('results.you_won') : winnerTitle(room, res)),
      h('p', { class: 'sub' }, gameName, why ? h('span', { class: 'why' }, ` · ${why}`) : null),
      note(view)),
    h('div', { class: 'results-body' }, h('div', { class: 'results-main' }, podium, restList),
      scoreboard(room, app)),
    buttons, slot || null));
  // the TV cannot scroll: a room's wins longer than the scoreboard's box page through
  const wins = box.querySelector('.scoreboard .wins');
  if (wins && app.page === 'tv') pageThrough(wins);
  if (won && !box._buzzed) { box._buzzed = true; app.vibrate([120, 80, 120, 80, 300]); }
}

/** A seat's phone back on the results after the game ended while it was away: what its
 * stand-in did (you.standin; the live region says it too, app.js). */
function note(view) {
  const text = standinNote(view);
  return text ? standinBox(text) : null;
}

/** The h1: a long one (a 32-letter name, three winners) 'long' or 'longer', for smaller type. */
function headline(text) {
  return h('h1', { class: text.length > 56 ? 'longer' : text.length > 18 ? 'long' : null }, text);
}

const STEP_MAX = 3;   // players shown on one podium step; a big tie shows "+N more"

function stepPlayers(players, winners, me) {
  // the viewer and the winners first, so a phone always finds itself on its step
  const sorted = [...players].sort((a, b) => (b.id === me) - (a.id === me) || winners.has(b.id) - winners.has(a.id));
  const shown = sorted.length > STEP_MAX ? sorted.slice(0, STEP_MAX - 1) : sorted;
  const hidden = sorted.slice(shown.length);
  return h('div', { class: ['step-players', players.length > 1 && 'shared'] },
    shown.map((p) => h('div', {
      class: ['pod-player', winners.has(p.id) && 'winner', p.id === me && 'me'],
      style: { '--pc': p.color },
      title: p.name,
    }, winners.has(p.id) ? h('span', { class: 'crown', 'aria-hidden': 'true' }, '♛') : null,
    chip(p, 'big'), h('span', { class: 'pname' }, p.name))),
    hidden.length ? h('span', { class: 'pod-more', title: hidden.map((p) => p.name).join(', ') },
      t('results.more', { n: hidden.length })) : null);
}

function scoreboard(room, app) {
  const board = room.scoreboard || {};
  if (!board.played) return null;
  const wins = new Map(room.players.map((p) => [p.id, (board.wins || {})[p.id] || 0]));
  const table = [...room.players].sort((a, b) => wins.get(b.id) - wins.get(a.id));
  const name = (id) => (room.players.find((p) => p.id === id) || {}).name || '—';
  return h('aside', { class: ['scoreboard', room.players.length > 8 && 'many'] },
    h('h2', null, t('results.scoreboard', { n: board.played })),
    h('ol', { class: 'games-played' }, (board.recent || []).map((g) => h('li', null,
      h('span', { class: 'sb-game' }, t(`game.${g.game}`, null, g.game)),
      h('span', { class: 'sb-win' }, (g.winners || []).map(name).join(', ') || '—')))),
    h('div', { class: 'wins' }, table.map((p) => h('div', { class: 'win-row', style: { '--pc': p.color }, title: p.name },
      chip(p), h('span', { class: 'pname' }, p.name),
      h('span', { class: 'wcount' }, t('results.wins', { n: wins.get(p.id) }))))));
}
