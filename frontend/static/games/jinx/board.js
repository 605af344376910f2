// What the TV and the phone share: the strings, the stylesheet, and a card face.
// A face id of the association deck ("a017") is drawn from its picture; a synthetic id
// ("f017", used when no card art is installed) or a picture that fails to load becomes a
// coloured tile that shows the id, so the game stays playable.
import { ink } from '../ink.js';
import { sheet } from '../../common/sheet.js';

/** The game's stylesheet applied (common/sheet.js): the shell draws the game after it. */
export const ready = sheet(new URL('./jinx.css', import.meta.url).href);

/** Replace el's children, skipping null / false (replaceChildren would print "null"). */
export function put(el, ...kids) {
  el.replaceChildren(...kids.flat(Infinity).filter((k) => k != null && k !== false));
  return el;
}

export const SYNTHETIC = /^f\d+$/;

function hue(id) {
  let x = 0;
  for (const ch of String(id)) x = (x * 31 + ch.charCodeAt(0)) % 360;
  return x;
}

/** A tile standing in for a card picture: a colour from the id, and the id itself. */
export function tile(app, id) {
  return app.h('div', { class: 'jx-tile', style: { '--h': String(hue(id)) } },
    app.h('span', { class: 'jx-tile-id' }, String(id)));
}

/** The face of a card as an element (a picture, or a tile when there is none). */
export function face(app, id) {
  const box = app.h('div', { class: 'jx-face', dataset: { face: String(id) } });
  if (id == null) return box;
  if (SYNTHETIC.test(id)) {
    box.append(tile(app, id));
    return box;
  }
  const img = app.h('img', {
    src: app.card(id),   // the room's address of the picture (common/cards.js)
    alt: '', draggable: 'false', decoding: 'async',
  });
  img.addEventListener('error', () => { img.replaceWith(tile(app, id)); });
  box.append(img);
  return box;
}

/** The grid and fingers to draw: the live square, or during a reveal the finished turn. */
export function table(game) {
  const showLast = (game.phase === 'reveal' || game.phase === 'over') && game.last;
  if (showLast) {
    const L = game.last;
    const fingers = Array(9).fill(null);
    for (const p of L.picks) fingers[p.slot] = { player: p.player, right: p.right };
    return { grid: L.grid, fingers, target: L.target, last: L, reveal: true };
  }
  return { grid: game.grid, fingers: game.fingers || Array(9).fill(null), target: null, last: null, reveal: false };
}

export function player(app, id) {
  return app.players.get(id) || { id, name: '?', color: '#888', symbol: '?' };
}

/** A player's finger on a card: their chip, their colour. */
export function finger(app, f, extra) {
  const p = player(app, f.player);
  return app.h('div', { class: ['jx-finger', f.right ? 'right' : 'wrong', extra], style: { '--pc': p.color, '--pc-ink': ink(p.color) } },
    app.h('span', { class: 'jx-finger-chip', 'aria-hidden': 'true' }, p.symbol || '•'),
    app.h('span', { class: 'jx-finger-name' }, p.name));
}

export function isSynthetic(game) {
  return (game.grid || []).concat(game.last ? game.last.grid : []).some((id) => id && SYNTHETIC.test(id));
}
