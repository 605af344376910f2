// How to play (issue 27), opened from a game's lobby tile (coach.js): what the game is, a turn
// in 3 to 5 illustrated steps, and how to score; its styles are howto.css. The words are the
// game's own (games/<id>/i18n: <id>.about, <id>.how.what, <id>.how.s<n>, <id>.how.s<n>_more,
// <id>.how.score, <id>.coach.<action type>); the pictures are the
// game's (games/<id>/howto.js: `export const art = [(kit, app) => Element, ...]`, one a step,
// drawn with the `kit` below: SVG built as elements, never parsed from text).
// A game without them (the test game) has neither the line nor the button.
import { h } from './dom.js';
import { t, has, addPack, gamePack, getLang } from './i18n.js';
import { modal } from './dialog.js';

const NS = 'http://www.w3.org/2000/svg';
let styled = false;

/** svg('rect', {x: 1, ...}, ...children): an SVG element (text children as text nodes). */
export function svg(tag, attrs, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v != null) el.setAttribute(k, String(v));
  for (const c of children.flat()) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** The pieces the games' pictures are drawn with (one look for every game's How to play):
 * a picture is `pic(...)` in a 240x160 box. */
export const kit = {
  svg,
  pic: (...children) => svg('svg', { viewBox: '0 0 240 160', class: 'howto-svg' }, ...children),
  /** a picture card of the deck (the game's own art), rotated by `rot` degrees about its centre */
  card: (app, id, x, y, w, hh, { rot = 0, ring = null } = {}) => svg('g', { transform: `rotate(${rot} ${x + w / 2} ${y + hh / 2})` },
    svg('rect', { x: x - 2, y: y - 2, width: w + 4, height: hh + 4, rx: 7, fill: ring || '#f4efe4', stroke: ring ? ring : 'none', 'stroke-width': ring ? 4 : 0 }),
    svg('image', { href: app.card(id), x, y, width: w, height: hh, preserveAspectRatio: 'xMidYMid slice' })),
  /** a card face down */
  back: (x, y, w, hh, { rot = 0, fill = '#5b3fd1' } = {}) => svg('g', { transform: `rotate(${rot} ${x + w / 2} ${y + hh / 2})` },
    svg('rect', { x, y, width: w, height: hh, rx: 6, fill, stroke: '#f4efe4', 'stroke-width': 3 }),
    svg('circle', { cx: x + w / 2, cy: y + hh / 2, r: Math.min(w, hh) / 5, fill: 'none', stroke: 'rgba(255,255,255,.55)', 'stroke-width': 3 })),
  /** a phone with `children` drawn on its screen */
  phone: (x, y, w, hh, ...children) => svg('g', null,
    svg('rect', { x, y, width: w, height: hh, rx: 10, fill: '#15122b', stroke: '#cfc8ff', 'stroke-width': 3 }),
    svg('rect', { x: x + 5, y: y + 10, width: w - 10, height: hh - 20, rx: 4, fill: '#2a2550' }),
    ...children),
  /** a speech bubble with its tail at the bottom left, and `text` in it */
  bubble: (x, y, w, hh, text, size = 22) => svg('g', null,
    svg('path', { d: `M${x + 14} ${y + hh - 1} l-8 16 l22 -16 z`, fill: '#fff' }),
    svg('rect', { x, y, width: w, height: hh, rx: hh / 2.4, fill: '#fff' }),
    svg('text', { x: x + w / 2, y: y + hh / 2 + size * 0.36, 'text-anchor': 'middle', 'font-size': size, 'font-weight': 900, fill: '#1d1840' }, text)),
  /** a player's token: a coloured disc */
  chip: (cx, cy, r, fill) => svg('circle', { cx, cy, r, fill, stroke: '#fff', 'stroke-width': 3 }),
  /** a tap: rings around a point */
  tap: (cx, cy, colour = '#ffd23f') => svg('g', { fill: 'none', stroke: colour, 'stroke-width': 4 },
    svg('circle', { cx, cy, r: 7, fill: colour }), svg('circle', { cx, cy, r: 15, opacity: 0.8 }), svg('circle', { cx, cy, r: 23, opacity: 0.45 })),
  /** an arrow from (x1, y1) to (x2, y2), bent by `bend` */
  arrow: (x1, y1, x2, y2, colour = '#ffd23f', bend = 0) => {
    const mx = (x1 + x2) / 2 - (y2 - y1) * bend; const my = (y1 + y2) / 2 + (x2 - x1) * bend;
    const a = Math.atan2(y2 - my, x2 - mx); const l = 11;
    return svg('g', { stroke: colour, 'stroke-width': 5, fill: 'none', 'stroke-linecap': 'round', 'stroke-linejoin': 'round' },
      svg('path', { d: `M${x1} ${y1} Q${mx} ${my} ${x2} ${y2}` }),
      svg('path', { d: `M${x2 - l * Math.cos(a - 0.5)} ${y2 - l * Math.sin(a - 0.5)} L${x2} ${y2} L${x2 - l * Math.cos(a + 0.5)} ${y2 - l * Math.sin(a + 0.5)}` }));
  },
  /** a label: bold text with a dark outline, readable on anything; `fit`: squeezed into that width */
  label: (x, y, text, size = 22, fill = '#ffd23f', fit = null) => svg('text', { x, y, 'text-anchor': 'middle', 'font-size': size, 'font-weight': 900, fill,
    stroke: '#15122b', 'stroke-width': 4, 'paint-order': 'stroke', textLength: fit, lengthAdjust: fit ? 'spacingAndGlyphs' : null }, text),
};

let shown = null;     // {el, dialog, id}: the How to play on screen

/** Open the How to play of game `id` over the lobby (Escape, the close button or a tap on
 * the backdrop closes it; the next game's start closes it too: closeHowto). */
export async function openHowto(id, name, app, pack) {
  closeHowto();
  if (!styled) {
    styled = true;
    document.head.append(h('link', { rel: 'stylesheet', href: `${app.static}common/howto.css` }));
  }
  const [mod] = await Promise.all([
    import(`${app.static}games/${id}/howto.js`).catch(() => ({ art: [] })),
    pack || addPack(gamePack(app.static, id)),
  ]);
  const steps = [];
  for (let n = 1; has(`${id}.how.s${n}`); n += 1) steps.push(n);
  const close = h('button', { class: 'btn primary howto-close', type: 'button', onclick: () => closeHowto() }, t('howto.close'));
  const box = h('div', { class: 'howto-box', dataset: { game: id, lang: getLang() } },
    h('header', { class: 'howto-head' },
      h('h2', null, t('howto.title', { game: name })), close),
    h('p', { class: 'howto-what' }, t(`${id}.how.what`)),
    h('ol', { class: ['howto-steps', `n${steps.length}`] }, steps.map((n) => {
      const draw = (mod.art || [])[n - 1];
      let pic = null;
      try { pic = draw ? draw(kit, app) : null; } catch (e) { console.error(e); }
      return h('li', { class: 'howto-step' },
        h('div', { class: 'howto-art', 'aria-hidden': 'true' }, pic, h('span', { class: 'howto-n' }, String(n))),
        h('h3', null, t(`${id}.how.s${n}`)),
        has(`${id}.how.s${n}_more`) ? h('p', null, t(`${id}.how.s${n}_more`)) : null);
    })),
    h('section', { class: 'howto-score' },
      h('h3', null, h('span', { 'aria-hidden': 'true' }, '🏆 '), t('howto.score')),
      h('p', null, t(`${id}.how.score`))));
  const el = h('div', { class: 'howto', onclick: (e) => { if (e.target === el) closeHowto(); } }, box);
  const dialog = modal(box);
  box.addEventListener('keydown', (e) => { if (e.key === 'Escape') { e.stopPropagation(); closeHowto(); } });
  document.body.append(el);
  shown = { el, dialog, id };
  dialog.open();
}

export function closeHowto() {
  if (!shown) return;
  const { el, dialog } = shown;
  shown = null;
  el.remove();
  dialog.close();
}

