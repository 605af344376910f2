// Sketch on the TV: a big sand timer, every player's six boards grouped by player colour
// (face down while drawing, every drawing on show while guessing), boards flying from the
// drawer to the guesser on a correct guess, and the gallery at the end (gallery.js).
// The audience (issue 22): under each drawing still held, the names of audience members who
// got it this round (the tally's summary: names, never words).
import { boardCanvas, paint, paintIfChanged } from './board.js';
import { drawGallery } from './gallery.js';

const NS = 'http://www.w3.org/2000/svg';
let ready = false;
const S = { lastN: 0, key: null, sand: null, tiles: new Map(), groups: new Map(), resize: false };

function setup(app) {
  if (ready) return;
  ready = true;
  document.head.append(app.h('link', { rel: 'stylesheet', href: `${app.static}games/sketch/sketch.css` }));
}

/** The results screen (room phase "over"): the gallery of every drawing. */
export function results(box, view, app) {
  setup(app);
  drawGallery(box, view, app);
}

export function render(root, view, app) {
  setup(app);
  const g = view.game;
  if (!g) return;
  root.classList.add('sk-tv');
  const frameKey = `${g.phase}:${g.round}`;
  if (root._frame !== frameKey) {
    root._frame = frameKey;
    buildFrame(root, view, app);
    S.key = null;
  }
  updateHead(root, view, app);
  const old = rects();
  const key = JSON.stringify([g.phase, view.room.players.map((p) => [p.id, p.connected, p.standin]), g.boards.map((b) => [b.status, b.won_by])]);
  if (S.key !== key) {
    S.key = key;
    buildGroups(root._grid, view, app);
    layout(root._grid, view);
    S.audKeys = new Map();
  }
  S.app = app;
  if (app.onAudience) app.onAudience(drawAudience);
  drawAudience();
  for (const b of g.boards) {
    const tile = S.tiles.get(`${b.player}:${b.board}`);
    if (tile && tile._canvas && b.strokes) paintIfChanged(tile._canvas, b.strokes);
    for (const c of (S.groups.get(`won:${b.player}:${b.board}`) || [])) paintIfChanged(c, b.strokes || []);
  }
  if (g.last && g.last.n > S.lastN) {
    const fresh = S.lastN > 0;
    S.lastN = g.last.n;
    if (fresh) announce(root, view, app, g.last, old);
  }
  if (!S.resize) {
    S.resize = true;
    window.addEventListener('resize', () => { if (app.view && app.view.game) layout(root._grid, app.view); });
  }
}

// ------------------------------------------------------------------ the frame

function buildFrame(root, view, app) {
  const h = app.h;
  const g = view.game;
  const drawing = g.phase === 'drawing';
  S.sand = sandTimer();
  const title = h('h1', { class: ['sk-title', drawing ? 'sk-drawing' : 'sk-guessing', 'pop'] },
    app.t(drawing ? 'sketch.draw_now' : 'sketch.guess_now'));
  const round = h('div', { class: 'sk-round' });
  const hint = h('p', { class: 'sk-hint' }, app.t(drawing ? 'sketch.tv_draw_hint' : 'sketch.tv_guess_hint'));
  const grid = h('div', { class: 'sk-grid' });
  const banner = h('div', { class: 'sk-banner', hidden: true });
  if (drawing) {
    root.replaceChildren(h('div', { class: 'sk-tv-drawing' },
      h('aside', { class: 'sk-side' }, S.sand.el, title, round,
        h('p', { class: 'sk-rule' }, app.t('sketch.no_letters')), hint),
      grid), banner);
  } else {
    root.replaceChildren(h('div', { class: 'sk-tv-guessing' },
      h('header', { class: 'sk-top' }, S.sand.el, title, round, hint), grid), banner);
  }
  root._grid = grid;
  root._round = round;
  root._banner = banner;
}

function updateHead(root, view, app) {
  const g = view.game;
  root._round.textContent = app.t('sketch.round', { n: g.round, total: g.rounds });
  const total = (g.round_seconds || (view.room.options || {}).round_seconds || 60) * 1000;
  S.sand.update(view, total, app);
}

/** Who in the audience got each drawing on show: "Zoe, Max +3" on its tile. */
function drawAudience() {
  const app = S.app;
  const g = app && app.view && app.view.game;
  if (!g) return;
  const tally = (app.audience || {}).tally;
  const rows = g.phase === 'guessing' && tally && tally.summary && Array.isArray(tally.summary.boards) ? tally.summary.boards : [];
  const by = new Map(rows.map((r) => [`${r.player}:${r.board}`, r]));
  if (!S.audKeys) S.audKeys = new Map();
  for (const [k, tile] of S.tiles) {
    const r = by.get(k);
    const names = r ? (r.names || []) : [];
    const more = r ? r.n - names.length : 0;
    const text = !r ? '' : names.length
      ? (more > 0 ? `${names.join(', ')} +${more}` : names.join(', '))
      : app.t('sketch.aud_n', { n: r.n });
    if (S.audKeys.get(k) === text) continue;
    S.audKeys.set(k, text);
    let badge = tile.querySelector('.sk-audnames');
    if (!text) { if (badge) badge.remove(); continue; }
    if (!badge) { badge = app.h('div', { class: 'sk-audnames' }); tile.append(badge); }
    badge.textContent = `👥 ${text}`;
    badge.title = text;
    badge.classList.remove('bump'); void badge.offsetWidth; badge.classList.add('bump');
  }
}

// ------------------------------------------------------------------ the sand timer

function svg(tag, attrs) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

function sandTimer() {
  const s = svg('svg', { viewBox: '0 0 100 110', class: 'sk-sand', 'aria-hidden': 'true' });
  s.append(
    svg('path', { d: 'M18 10 L82 10 L52 55 L82 100 L18 100 L48 55 Z', class: 'sk-glass' }),
  );
  const top = svg('polygon', { class: 'sk-grain' });
  const bottom = svg('polygon', { class: 'sk-grain' });
  const fall = svg('line', { x1: 50, y1: 55, x2: 50, y2: 100, class: 'sk-fall' });
  s.append(top, bottom, fall,
    svg('rect', { x: 10, y: 2, width: 80, height: 9, rx: 3, class: 'sk-cap' }),
    svg('rect', { x: 10, y: 99, width: 80, height: 9, rx: 3, class: 'sk-cap' }));
  const num = document.createElement('div');
  num.className = 'sk-sandnum';
  const el = document.createElement('div');
  el.className = 'sk-sandbox';
  el.append(s, num);
  let deadline = null; let total = 60000; let timer = 0; let paused = false; let left = 0; let now = () => Date.now();
  const w = (y, apex) => (30 * Math.abs(y - apex)) / 45;
  function draw(ms) {
    const f = Math.max(0, Math.min(1, ms / total));
    const yt = 55 - 45 * Math.sqrt(f);
    top.setAttribute('points', `${50 - w(yt, 55)},${yt} ${50 + w(yt, 55)},${yt} 50,55`);
    const yb = 55 + 45 * Math.sqrt(f);
    bottom.setAttribute('points', `${50 - w(yb, 55)},${yb} ${50 + w(yb, 55)},${yb} 80,100 20,100`);
    fall.setAttribute('y2', String(yb));
    fall.style.opacity = f > 0 && f < 1 && !paused ? 1 : 0;
    const sec = Math.ceil(ms / 1000);
    num.textContent = sec >= 60 ? `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, '0')}` : String(sec);
    el.classList.toggle('low', sec <= 5);
  }
  function loop() {
    clearTimeout(timer);
    if (deadline == null || paused) return;
    left = Math.max(0, deadline - now());
    draw(left);
    if (left > 0) timer = setTimeout(loop, 100);
  }
  return {
    el,
    update(view, tot, app) {
      now = () => app.now();
      total = tot;
      el.hidden = !!view.room.paced;     // host-paced: no sand runs (the bar says so)
      if (el.hidden) { clearTimeout(timer); return; }
      paused = !!view.room.paused;
      if (paused) { clearTimeout(timer); draw(typeof view.room.remaining === 'number' ? view.room.remaining : left); return; }
      deadline = typeof view.deadline === 'number' ? view.deadline : null;
      if (deadline == null) { draw(0); return; }
      loop();
    },
  };
}

// ------------------------------------------------------------------ the boards

function chipOf(app, id, cls) {
  const p = app.players.get(id);
  return app.h('span', { class: ['chip', cls], style: { '--pc': p ? p.color : '#888' } }, p ? p.symbol : '');
}

function buildGroups(grid, view, app) {
  const h = app.h;
  const g = view.game;
  const showing = g.phase !== 'drawing';
  S.tiles.clear();
  S.groups.clear();
  const scores = new Map(g.players.map((p) => [p.id, p]));
  grid.replaceChildren(...g.players.map((gp) => {
    const p = app.players.get(gp.id);
    const mine = g.boards.filter((b) => b.player === gp.id);
    const held = mine.filter((b) => !b.won_by);   // won_by: only once somebody won it
    const won = g.boards.filter((b) => b.won_by && b.won_by.includes(gp.id));
    const tiles = held.map((b) => {
      const blank = b.status === 'blank';
      const c = showing && !blank ? boardCanvas(h, 'sk-tcanvas') : null;
      const tile = h('div', { class: ['sk-tile', blank ? 'blank' : 'drawn', !showing && 'down'] },
        c || h('span', { class: 'sk-tmark' }, blank ? '' : '✎'));
      tile._canvas = c;
      S.tiles.set(`${b.player}:${b.board}`, tile);
      return tile;
    });
    const trophies = won.map((b) => {
      const c = boardCanvas(h, 'sk-wcanvas');
      const key = `won:${b.player}:${b.board}`;
      S.groups.set(key, [...(S.groups.get(key) || []), c]);
      return h('div', { class: 'sk-trophy', style: { '--oc': (app.players.get(b.player) || {}).color || '#888' } }, c);
    });
    const info = scores.get(gp.id);
    const box = h('section', { class: ['sk-pgroup', p && !p.connected && !p.standin && 'away'], style: { '--pc': p ? p.color : '#888' }, dataset: { player: gp.id } },
      h('header', null, chipOf(app, gp.id), app.standin(h('span', { class: 'pname' }, app.name(gp.id)), p),
        h('b', { class: 'sk-score' }, String(info.score))),
      h('div', { class: 'sk-tiles' }, tiles),
      h('div', { class: 'sk-won' }, trophies.length ? trophies : h('span', { class: 'sk-wonnone' },
        showing ? '' : `${info.drawn}/6 ✎`)));
    return box;
  }));
}

/** Pick the group columns that give the biggest boards; sizes go in CSS variables. */
function layout(grid, view) {
  if (!grid || !grid.isConnected) return;
  const n = Math.max(1, view.game.players.length);
  const W = grid.clientWidth || 1200;
  const H = grid.clientHeight || 560;
  const gap = 10; const head = 40; const strip = 44; const pad = 14;
  let best = { tile: 0, gc: n, tc: 3 };
  for (let gc = 1; gc <= n; gc += 1) {
    const gr = Math.ceil(n / gc);
    const gw = (W - gap * (gc - 1)) / gc;
    const gh = (H - gap * (gr - 1)) / gr;
    for (const [tc, tr] of [[3, 2], [2, 3], [6, 1]]) {
      const tile = Math.floor(Math.min((gw - pad - 6 * (tc - 1)) / tc, (gh - head - strip - pad - 6 * (tr - 1)) / tr));
      if (tile > best.tile) best = { tile, gc, tc };
    }
  }
  grid.style.setProperty('--gcols', String(best.gc));
  grid.style.setProperty('--tcols', String(best.tc));
  grid.style.setProperty('--tile', `${Math.max(30, best.tile)}px`);
  grid.style.setProperty('--trophy', `${Math.max(24, Math.min(46, Math.floor(best.tile * 0.46)))}px`);
}

function rects() {
  const out = new Map();
  for (const [k, el] of S.tiles) if (el.isConnected) out.set(k, { rect: el.getBoundingClientRect(), canvas: el._canvas });
  return out;
}

// ------------------------------------------------------------------ a board changes hands

function announce(root, view, app, last, old) {
  if (last.type === 'round_started') { app.sound(last.kind === 'drawing' ? 'start' : 'turn'); return; }
  if (last.type !== 'board_won') return;
  app.sound('reveal');
  const by = last.by[last.by.length - 1];
  const banner = root._banner;
  banner.hidden = false;
  banner.replaceChildren(chipOf(app, by, 'big'), app.h('span', null, app.t('sketch.moved', { by: app.name(by), name: app.name(last.player) })));
  banner.classList.remove('reveal');
  void banner.offsetWidth;
  banner.classList.add('reveal');
  clearTimeout(banner._t);
  banner._t = setTimeout(() => { banner.hidden = true; }, 3200);
  const from = old.get(`${last.player}:${last.board}`);
  const target = root.querySelector(`.sk-pgroup[data-player="${CSS.escape(by)}"] .sk-won`);
  if (!from || !target) return;
  const board = view.game.boards.find((b) => b.player === last.player && b.board === last.board);
  const to = target.getBoundingClientRect();
  const fly = boardCanvas(app.h, 'sk-fly');
  const r = from.rect;
  Object.assign(fly.style, { left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px` });
  document.body.append(fly);
  paint(fly, board ? board.strokes : []);
  const dx = to.left + 10 - r.left; const dy = to.top - r.top;
  const k = Math.max(0.25, 40 / r.width);
  fly.animate([
    { transform: 'translate(0,0) scale(1) rotate(0)', offset: 0 },
    { transform: `translate(${dx / 2}px, ${dy / 2 - 80}px) scale(1.6) rotate(-8deg)`, offset: 0.45 },
    { transform: `translate(${dx}px, ${dy}px) scale(${k}) rotate(0)`, offset: 1 },
  ], { duration: 1300, easing: 'cubic-bezier(.5,0,.3,1)', fill: 'forwards' }).finished
    .then(() => fly.remove(), () => fly.remove());
}
