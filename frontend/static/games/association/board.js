// What the TV and the phone share: the strings, the stylesheet, a card face, a player chip.
import { ink } from '../ink.js';
import { sheet } from '../../common/sheet.js';
import { face as portrait } from '../../common/faces.js';

export { ink };

/** The game's stylesheet applied (common/sheet.js): the shell draws the game after it. */
export const ready = sheet(new URL('./association.css', import.meta.url).href);

/** Replace el's children, skipping null / false. */
export function put(el, ...kids) {
  el.replaceChildren(...kids.flat(Infinity).filter((k) => k != null && k !== false));
  return el;
}

function hue(id) {
  let x = 0;
  for (const ch of String(id)) x = (x * 31 + ch.charCodeAt(0)) % 360;
  return x;
}

/** The picture's URL (app.card: an uploaded deck's through the room's pass, else the view's
 * static template "games/association/cards/{id}.webp"). */
export function src(app, game, id) {
  return app.card(id, game && game.deck && game.deck.image);
}

/** The face of a card: its picture (a coloured tile with the id if the picture is missing). */
export function face(app, game, id) {
  const h = app.h;
  const box = h('div', { class: 'as-face', dataset: { card: String(id) } });
  const img = h('img', { src: src(app, game, id), alt: '', draggable: 'false', decoding: 'async' });
  img.addEventListener('error', () => {
    img.replaceWith(h('div', { class: 'as-tile', style: { '--h': String(hue(id)) } }, String(id)));
  });
  box.append(img);
  return box;
}

/** The back of a card (face down). */
export function back(app, extra) {
  return app.h('div', { class: ['as-back', extra] }, app.h('span', { class: 'as-back-mark', 'aria-hidden': 'true' }, '✦'));
}

export function player(app, id) {
  return app.players.get(id) || { id, name: '?', color: '#888', symbol: '?' };
}

/** A round avatar in the player's colour with their symbol. */
export function avatar(app, id, extra) {
  const p = player(app, id);
  const f = portrait(p);
  return app.h('span', { class: ['as-av', extra, f && 'faced'], style: { '--pc': p.color, '--pc-ink': ink(p.color) }, dataset: { seat: String(id) }, title: p.name },
    f || p.symbol || '•');
}

/** The (shell-level) room player list order, or the game's. */
export function seats(game) {
  return (game.players || []).map((p) => p.id);
}

/** The colours of a player's name tag: their colour and the ink that reads on it. */
export function tagStyle(app, id) {
  const p = player(app, id);
  return { '--pc': p.color, '--pc-ink': ink(p.color) };
}

/** The reveal's badge on the audience's pick: 👥 and its votes (from the turn's last.audience). */
export function crowdBadge(app, L, id) {
  const A = L && L.audience;
  if (!A || !A.pick || !A.pick.includes(id)) return null;
  const n = A.votes[id] || 0;
  return app.h('span', { class: 'as-crowd-badge', title: app.t('association.aud_badge'),
    'aria-label': `${app.t('association.aud_badge')}: ${app.t('association.aud_votes', { n })}` }, '👥 ', String(n));
}
