// Sketch on the TV: a big sand timer, every player's six boards grouped by player colour
// (face down while drawing, every drawing on show while guessing), boards flying from the
// drawer to the guesser on a correct guess, and the gallery at the end (gallery.js).
// The audience (issues 22, 31): on each drawing, how many in the audience are guessing it
// (the tally's summary); once the round is over, who of them got it (names, never words).
// While they draw (issue 27): each board's ink as a bar, the board being drawn on wiggles,
// a ✓ for a player who has finished, and the last 10 seconds are heard. The server sends only
// these levels (the view's `progress`, refreshed by `progress` stream items), never a line.
import { boardCanvas, paint, paintIfChanged } from './board.js';
import { chip } from '../../common/dom.js';
import { drawGallery } from './gallery.js';

export { ready } from './board.js';

const NS = 'http://www.w3.org/2000/svg';
const S = { lastN: 0, key: null, sand: null, tiles: new Map(), groups: new Map(), resize: false, progress: null };
const INK_LEVELS = 4;
const INKING_MS = 2500;     // a board whose ink grew shows its pencil moving this long

/** A `stream` frame: the drawing round's progress (ink levels, who has finished). */
export function stream(frame, app) {
  const items = frame && frame.t === 'stream' && frame.d ? frame.d.items || [] : [];
  for (const item of items) {
    if (item.t !== 'progress' || !item.d) continue;
    const g = app.view && app.view.game;
    if (!g || g.phase !== 'drawing' || item.d.round !== g.round) continue;
    S.progress = item.d;
    drawProgress(app);
  }
}

/** The results screen (room phase "over"): the gallery of every drawing. */
export function results(box, view, app) {
  drawGallery(box, view, app);
}

export function render(root, view, app) {
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
  S.app = app;
  S.root = root;
  const old = rects();
  const key = JSON.stringify([g.phase, view.room.players.map((p) => [p.id, p.connected, p.standin]), g.boards.map((b) => [b.status, b.won_by])]);
  if (S.key !== key) {
    S.key = key;
    buildGroups(root._grid, view, app);
    layout(root._grid, view);
    S.audKeys = new Map();
    S.inked = new Map();
  }
  if (g.phase === 'drawing' && g.progress) S.progress = g.progress;
  drawProgress(app);
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
  if (S.observed !== root._grid) {   // the grid's own size (a window, the ring, the side), not the window's
    S.observed = root._grid;
    if (S.ro) S.ro.disconnect();
    S.ro = new ResizeObserver(() => { if (S.app && S.app.view && S.app.view.game) layout(S.observed, S.app.view); });
    S.ro.observe(root._grid);
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
  const aud = h('section', { class: 'sk-tvaud', hidden: true });   // the last round's audience
  if (drawing) {
    root.replaceChildren(h('div', { class: 'sk-tv-drawing' },
      h('aside', { class: 'sk-side' }, S.sand.el, title, round,
        h('p', { class: 'sk-rule' }, app.t('sketch.no_letters')), hint, aud),
      grid), banner);
  } else {
    root.replaceChildren(h('div', { class: 'sk-tv-guessing' },
      h('header', { class: 'sk-top' }, S.sand.el, title, round, hint), grid), banner);
  }
  root._grid = grid;
  root._aud = drawing ? aud : null;
  root._round = round;
  root._banner = banner;
}

function updateHead(root, view, app) {
  const g = view.game;
  root._round.textContent = app.t('sketch.round', { n: g.round, total: g.rounds });
  const total = (g.round_seconds || (view.room.options || {}).round_seconds || 60) * 1000;
  S.sand.update(view, total, app);
}

/** "Zoe, Max +3": the names of a result row and how many more. */
function namesOf(r) {
  const names = r.names || [];
  const more = r.n - names.length;
  return more > 0 ? `${names.join(', ')} +${more}` : names.join(', ');
}

/** The audience (issue 31): while they guess, how many are guessing each drawing on its tile
 * (the tally's summary: it never tells right from wrong); in the next drawing round, beside
 * the sand timer, who got which drawing of the round (the view's `audience`: named guessers,
 * drawings out of play only). */
function drawAudience() {
  const app = S.app;
  const g = app && app.view && app.view.game;
  if (!g) return;
  const root = S.root;
  const last = g.phase === 'drawing' && g.audience && g.audience.ballot === `r${g.round - 1}` ? g.audience : null;
  if (root && root._aud) {
    const key = JSON.stringify([last, app.lang]);
    if (root._aud._key !== key) {
      root._aud._key = key;
      root._aud.hidden = !(last && last.boards.length);
      root._aud.replaceChildren(...(last && last.boards.length ? [
        app.h('h2', null, app.t('sketch.aud_results', { n: g.round - 1 })),
        app.h('ul', null, last.boards.map((r) => app.h('li', null, chipOf(app, r.player),
          app.h('span', null, `${app.name(r.player)} · ${app.t('sketch.board', { n: r.board + 1 })}`),
          app.h('b', null, `👥 ${namesOf(r)}`))))] : []));
    }
  }
  const tally = (app.audience || {}).tally;
  const rows = g.phase === 'guessing' && tally && tally.summary && Array.isArray(tally.summary.boards) ? tally.summary.boards : [];
  const by = new Map(rows.map((r) => [`${r.player}:${r.board}`, r]));
  if (!S.audKeys) S.audKeys = new Map();
  for (const [k, tile] of S.tiles) {
    const r = by.get(k);
    const text = r ? app.t('sketch.aud_guessing', { n: r.n }) : '';
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

/** The drawing round's progress on the face-down boards: an ink bar of INK_LEVELS steps per
 * board, the pencil moving on a board whose ink just grew, ✓ on a player who has finished. */
function drawProgress(app) {
  const g = app.view && app.view.game;
  const p = S.progress;
  if (!g || g.phase !== 'drawing' || !p || p.round !== g.round) return;
  if (!S.inked) S.inked = new Map();
  const now = Date.now();
  for (const pl of p.players || []) {
    (pl.ink || []).forEach((level, i) => {
      const tile = S.tiles.get(`${pl.id}:${i}`);
      if (!tile) return;
      let bar = tile.querySelector('.sk-ink');
      if (!bar) {
        bar = app.h('div', { class: 'sk-ink', 'aria-hidden': 'true' },
          Array.from({ length: INK_LEVELS }, () => app.h('i')));
        tile.append(bar);
      }
      const was = S.inked.get(`${pl.id}:${i}`);
      if (was !== undefined && level > was) tile._inkingUntil = now + INKING_MS;
      S.inked.set(`${pl.id}:${i}`, level);
      tile.dataset.ink = String(level);
      [...bar.children].forEach((seg, k) => seg.classList.toggle('on', k < level));
      tile.classList.toggle('inking', (tile._inkingUntil || 0) > now);
      clearTimeout(tile._inkT);
      if ((tile._inkingUntil || 0) > now) tile._inkT = setTimeout(() => tile.classList.remove('inking'), tile._inkingUntil - now);
    });
    const box = S.root && S.root.querySelector(`.sk-pgroup[data-player="${CSS.escape(pl.id)}"]`);
    if (!box) continue;
    box.classList.toggle('done', !!pl.done);
    let mark = box.querySelector('.sk-done');
    if (pl.done && !mark) {       // in the strip under the boards: the name keeps its room
      mark = app.h('span', { class: 'sk-done pop' }, `✓ ${app.t('sketch.tv_done')}`);
      box.querySelector('.sk-won').append(mark);
    } else if (!pl.done && mark) mark.remove();
  }
}

// ------------------------------------------------------------------ the sand timer

function svg(tag, attrs) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

const HURRY_SECONDS = 10;

/** The drawing round's last 10 seconds: "hurry" at 10, a tick each second down to 6 (the
 * shell's ring timer ticks the last 5 itself). */
function hurry(app) {
  return (sec) => {
    if (sec === HURRY_SECONDS) { S.hurried = (S.hurried || 0) + 1; app.sound('hurry'); } else if (sec > 5) app.sound('tick');
  };
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
  let cue = null; let heard = null;   // cue(sec): the drawing round's last seconds are heard
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
    el.classList.toggle('low', sec <= (cue ? HURRY_SECONDS : 5));
    if (cue && !paused && ms > 0 && sec <= HURRY_SECONDS && sec !== heard) { heard = sec; cue(sec); }
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
      cue = view.game && view.game.phase === 'drawing' ? hurry(app) : null;
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
  return chip(app.players.get(id), cls);
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
  const gap = 10; const head = 40; const strip = 44;
  const box = grid.querySelector('.sk-pgroup');    // a player's box: its border and padding, each way
  const cs = box && getComputedStyle(box);
  const padX = box ? box.offsetWidth - box.clientWidth + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) : 22;
  const padY = box ? box.offsetHeight - box.clientHeight + parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom) : 17;
  let best = { tile: 0, gc: n, tc: 3 };
  for (let gc = 1; gc <= n; gc += 1) {
    const gr = Math.ceil(n / gc);
    const gw = (W - gap * (gc - 1)) / gc;
    const gh = (H - gap * (gr - 1)) / gr;
    for (const [tc, tr] of [[3, 2], [2, 3], [6, 1]]) {
      const tile = Math.floor(Math.min((gw - padX - 6 * (tc - 1)) / tc, (gh - head - strip - padY - 6 * (tr - 1)) / tr));
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
