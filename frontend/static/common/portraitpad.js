// The phone's portrait pad (issue 28, part 3), loaded when a player first opens it (lazy.js):
// draw a small self-portrait with a finger, or pick one of the ready-made characters
// (faces.js). Saving sends the room action `portrait` (docs/protocol.md): strokes as points in
// 0..1 from sketch's palette and widths, thinned and bounded as the server checks them.
import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { modal } from './dialog.js';
import { CHARACTERS, character } from './faces.js';

const PALETTE = ['#000', '#e4572e', '#f3a712', '#29bf12', '#2e86de', '#8e44ad', '#8b5a2b', '#fff'];
const WIDTHS = [2, 4, 8];
const STROKE_POINTS = 200;         // as the server's (portraits.MAX_STROKE_POINTS)
const MAX_POINTS = 1200;           // portraits.MAX_POINTS
const STEP = 0.01;                 // a new point only this far from the last (thinning)

let box = null;
let styled = null;                 // resolves once portraitpad.css applies (or failed to load)

/** Open the pad for `me` (the player's entry in room.players). */
export function openPad(app, me) {
  if (!box) {
    styled = new Promise((done) => document.head.append(h('link', {
      rel: 'stylesheet', href: `${app.static}common/portraitpad.css`, onload: done, onerror: done })));
    box = h('div', { class: 'overlay pad-overlay', hidden: true });
    box.dialog = modal(box);
    document.body.append(box);
  }
  const strokes = (me.portrait || []).map((k) => ({ c: k.c, w: k.w, p: k.p.map((v) => v / 1000) }));
  let color = PALETTE[0];
  let width = WIDTHS[1];
  const canvas = h('canvas', { class: 'pad-canvas', width: 600, height: 600, 'aria-label': t('face.hint') });
  const ctx = canvas.getContext('2d');
  const full = h('p', { class: 'hint pad-full', role: 'status' });
  const used = () => strokes.reduce((n, k) => n + k.p.length / 2, 0);
  const paint = () => {
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, 600, 600);
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    for (const k of strokes) {
      ctx.strokeStyle = k.c;
      ctx.lineWidth = k.w * 5.4;         // faces.js: w * 9 in thousandths, here of 600 px
      ctx.beginPath();
      ctx.moveTo(k.p[0] * 600, k.p[1] * 600);
      for (let j = 0; j < k.p.length; j += 2) ctx.lineTo(k.p[j] * 600, k.p[j + 1] * 600);
      if (k.p.length === 2) ctx.lineTo(k.p[0] * 600 + 0.1, k.p[1] * 600);
      ctx.stroke();
    }
    full.textContent = used() >= MAX_POINTS ? t('face.full') : '';
  };
  const at = (e) => {
    const r = canvas.getBoundingClientRect();
    const f = (v) => Math.round(Math.min(Math.max(v, 0), 1) * 1000) / 1000;
    return [f((e.clientX - r.left) / r.width), f((e.clientY - r.top) / r.height)];
  };
  let live = null;
  const add = (xy, fresh) => {
    if (used() >= MAX_POINTS - 1) return;       // a continued stroke adds two points
    if (fresh || !live || live.p.length >= STROKE_POINTS * 2) {
      const from = live && !fresh ? live.p.slice(-2) : [];
      live = { c: color, w: width, p: from };
      strokes.push(live);
      if (from.length) { live.p.push(...xy); return; }
    } else {
      const [x, y] = live.p.slice(-2);
      if (Math.hypot(xy[0] - x, xy[1] - y) < STEP) return;
    }
    live.p.push(...xy);
  };
  canvas.addEventListener('pointerdown', (e) => { canvas.setPointerCapture(e.pointerId); add(at(e), true); paint(); });
  canvas.addEventListener('pointermove', (e) => { if (live && e.buttons) { add(at(e)); paint(); } });
  const stop = () => { live = null; };
  canvas.addEventListener('pointerup', stop);
  canvas.addEventListener('pointercancel', stop);
  const close = () => { box.hidden = true; box.dialog.close(); };
  const send = (d) => { app.act({ type: 'portrait', ...d }); close(); };
  const pick = (list, now, label, set, look) => h('div', { class: 'pad-row', role: 'group' }, list.map((v, i) => h('button', {
    class: ['pad-tool', v === now && 'on'], type: 'button', 'aria-label': t(label, { n: i + 1 }), 'aria-pressed': String(v === now),
    onclick: (e) => { set(v); for (const b of e.currentTarget.parentNode.children) { const on = b === e.currentTarget; b.classList.toggle('on', on); b.setAttribute('aria-pressed', String(on)); } },
  }, look(v))));
  mount(box, h('div', { class: 'pad-box' },
    h('h2', null, t('face.title')),
    h('p', { class: 'hint' }, t('face.hint')),
    canvas, full,
    pick(PALETTE, color, 'face.color', (v) => { color = v; }, (v) => h('span', { class: 'pad-dot', style: { background: v } })),
    h('div', { class: 'pad-row' },
      pick(WIDTHS, width, 'face.width', (v) => { width = v; }, (v) => h('span', { class: 'pad-line', style: { height: `${v * 1.5}px` } })),
      h('button', { class: 'btn small', type: 'button', onclick: () => { strokes.pop(); paint(); } }, t('face.undo')),
      h('button', { class: 'btn small', type: 'button', onclick: () => { strokes.length = 0; paint(); } }, t('face.clear'))),
    h('button', {
      class: 'btn primary pad-save', type: 'button',
      onclick: () => send(strokes.length ? { strokes: strokes.map((k) => ({ color: k.c, width: k.w, points: pairs(k.p) })) } : {}),
    }, t('face.save')),
    h('h3', null, t('face.pick')),
    h('div', { class: 'pad-chars' }, Array.from({ length: CHARACTERS }, (_, i) => h('button', {
      class: ['pad-char', me.character === `c${i}` && 'on'], type: 'button', 'aria-label': t('face.character', { n: i + 1 }),
      onclick: () => send({ character: `c${i}` }),
    }, character(i)))),
    h('div', { class: 'pad-row' },
      h('button', { class: 'btn small', type: 'button', onclick: () => send({}) }, t('face.none')),
      h('button', { class: 'btn small', type: 'button', onclick: close }, t('face.close')))));
  // shown once its styles apply: before, the canvas stood at its 600 px, twice its size, for as
  // long as the stylesheet took to come (a loaded CI's phone drew its face off the pad)
  styled.then(() => { box.hidden = false; paint(); box.dialog.open(); });
}

function pairs(p) {
  const out = [];
  for (let j = 0; j + 1 < p.length; j += 2) out.push([p[j], p[j + 1]]);
  return out;
}
