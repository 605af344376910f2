// Sketch on a phone: drawing rounds (boards, words, a smooth canvas) and guessing rounds
// (the others' boards with a guess field each; the drawer answers close/far).
import { PALETTE, WIDTHS, MAX_POINTS, SCALE, paint, paintIfChanged, boardCanvas, pointCount } from './board.js';
import { drawGallery } from './gallery.js';

const BATCH_MS = 40;
const MIN_STEP = 4;          // thousandths: closer points are dropped (thinning)
const MAX_BATCH = 200;

let ready = false;
const S = {
  app: null,
  view: null,
  round: null,
  board: null,            // selected board index (drawing)
  picking: false,         // word picker open
  color: '#000',
  width: 4,
  local: new Map(),       // board -> {word, strokes} (the drawer's own model in a drawing round)
  pen: null,              // {board, stroke, queue, sent}
  timer: 0,
  pending: new Map(),     // ref -> sent at (ms): stroke acknowledgements
  dirty: new Set(),       // boards to reload from the next view (a refused stroke)
  guessTiles: new Map(),  // "owner:board" -> tile parts
  gridKey: null,
  lastN: 0,
  zoom: null,
};

function setup(app) {
  if (ready) return;
  ready = true;
  document.head.append(app.h('link', { rel: 'stylesheet', href: `${app.static}games/sketch/sketch.css` }));
}

/** A tick's `stream` frame acknowledges our own strokes in `ack`; other frames are ignored. */
export function stream(frame) {
  if (frame && frame.t === 'stream' && frame.d) for (const id of frame.d.ack || []) S.pending.delete(id);
}

/** A refused stroke / undo / clear: drop the pen, reload the boards from the next view, no toast. */
function refused(err) {
  if (!err || !S.pending.has(err.ref)) return false;
  S.pending.delete(err.ref);
  if (S.pen) S.pen = null;
  for (const b of S.local.keys()) S.dirty.add(b);
  return true;
}

/** The results screen (room phase "over"): the gallery of every drawing. */
export function results(box, view, app) {
  setup(app);
  drawGallery(box, view, app);
}

export function render(root, view, app) {
  setup(app);
  app.onError(refused);
  S.app = app;
  S.view = view;
  const g = view.game;
  if (!g) return;
  const me = g.you;
  const key = `${g.phase}:${g.round}:${me ? 'p' : 'a'}`;
  if (root._key !== key) {
    root._key = key;
    root.className = 'game-root sk-phone';
    root.replaceChildren();
    S.gridKey = null;
    closeZoom();
    S.guessTiles.clear();
    S.pen = null;
    if (g.round !== S.round) { S.round = g.round; S.local.clear(); S.picking = false; }
    root._parts = null;
    root._aud = null;
    root._akey = null;
  }
  if (g.last && g.last.n > S.lastN) {
    const fresh = S.lastN > 0;
    S.lastN = g.last.n;
    if (fresh && g.last.type === 'board_won' && me && g.last.by.includes(app.you.id)) {
      const won = me.won.find((w) => w.player === g.last.player && w.board === g.last.board);
      if (won) app.toast(app.t('sketch.you_got', { word: won.word }), 'ok');
      app.vibrate([60, 40, 160]);
    }
  }
  if (!me) return renderAudience(root, view, app);
  sayGuesses(app, me);
  if (g.phase === 'drawing') return renderDrawing(root, view, app);
  return renderGuessing(root, view, app);
}

/** The live region: what the drawers made of your guesses (not it, close, far), and the
 * guesses others make on your drawings. A right guess is the "you got it" toast's. */
function sayGuesses(app, me) {
  const first = !S.heard;
  if (first) S.heard = new Map();
  const lines = [];
  for (const x of me.guesses.concat(me.asked)) {
    const own = me.asked.indexOf(x) < 0;
    const now = x.correct ? 'ok' : own ? x.feedback || 'wrong' : 'asked';
    if (S.heard.get(x.id) === now) continue;
    S.heard.set(x.id, now);
    if (!first && now !== 'ok') {
      lines.push(app.t(`sketch.heard_${now}`, { text: x.text, name: app.name(x.player) }));
    }
  }
  app.say(lines);
}

// ------------------------------------------------------------------ header

function head(app, g) {
  const kind = g.phase === 'drawing' ? app.t('sketch.draw_now') : app.t('sketch.guess_now');
  const next = g.round >= g.rounds ? app.t('sketch.last_round')
    : app.t(g.next === 'drawing' ? 'sketch.next_draw' : 'sketch.next_guess');
  return app.h('div', { class: 'sk-head' },
    app.h('span', { class: ['sk-kind', `sk-${g.phase}`] }, kind),
    app.h('span', { class: 'sk-round' }, app.t('sketch.round', { n: g.round, total: g.rounds })),
    app.h('span', { class: 'sk-next' }, next));
}

// ------------------------------------------------------------------ drawing rounds

function localBoard(i, vb) {
  let lb = S.local.get(i);
  if (!lb || lb.word !== vb.word || S.dirty.has(i)) {
    lb = { word: vb.word, strokes: vb.strokes.map((s) => ({ c: s.c, w: s.w, p: s.p.slice() })) };
    S.local.set(i, lb);
    S.dirty.delete(i);
  }
  return lb;
}

function renderDrawing(root, view, app) {
  const g = view.game;
  const me = g.you;
  const drawActs = app.gameActions(view).filter((a) => a.type === 'draw');
  const open = me.boards.filter((b) => b.won_by.length === 0).map((b) => b.board);
  if (S.board == null || !open.includes(S.board)) {
    S.board = open.find((i) => me.boards[i].word) ?? open[0] ?? null;
  }
  for (const vb of me.boards) if (!S.pen || S.pen.board !== vb.board) localBoard(vb.board, vb);
  if (!root._parts) {
    const strip = app.h('div', { class: 'sk-strip' });
    const main = app.h('div', { class: 'sk-main' });
    root.append(head(app, g), strip, main);
    root._parts = { strip, main };
  }
  const { strip, main } = root._parts;
  // the six boards
  const stripKey = JSON.stringify([S.board, me.boards.map((b) => [b.word, b.won_by])]);
  if (strip._key !== stripKey) {
    strip._key = stripKey;
    strip.replaceChildren(...me.boards.map((b) => {
      const won = b.won_by.length > 0;
      const c = boardCanvas(app.h, 'thumb');
      const btn = app.h('button', {
        class: ['sk-thumb', b.board === S.board && 'sel', won && 'won', !b.word && 'empty'],
        disabled: won,
        'aria-label': app.t('sketch.board', { n: b.board + 1 }),
        onclick: () => { S.board = b.board; S.picking = false; renderDrawing(root, S.view, app); },
      }, c, app.h('span', { class: 'sk-num' }, String(b.board + 1)), won ? app.h('span', { class: 'sk-lock' }, '✓') : null);
      btn._canvas = c;
      return btn;
    }));
  }
  requestAnimationFrame(() => {
    for (const btn of strip.children) {
      const i = [...strip.children].indexOf(btn);
      const lb = S.local.get(i);
      paintIfChanged(btn._canvas, lb ? lb.strokes : me.boards[i].strokes);
    }
  });
  // the selected board: a word picker or the canvas
  if (S.board == null) {
    main._key = 'none';
    main.replaceChildren(app.h('p', { class: 'sk-wait' }, app.t('sketch.no_free')));
    return;
  }
  const vb = me.boards[S.board];
  const words = drawActs.filter((a) => a.board === S.board).map((a) => a.word);
  const picking = S.picking || !vb.word;
  const mainKey = JSON.stringify([S.board, picking, vb.word, picking ? words : null]);
  if (main._key === mainKey) return;
  main._key = mainKey;
  if (picking) {
    main.replaceChildren(app.h('div', { class: 'sk-picker pop' },
      app.h('h2', null, app.t('sketch.pick_word', { n: S.board + 1 })),
      vb.word ? app.h('p', { class: 'hint' }, app.t('sketch.change_warn')) : null,
      app.h('div', { class: 'sk-words' }, words.map((w) => app.h('button', {
        class: 'btn big sk-word',
        onclick: () => { S.picking = false; S.dirty.add(S.board); app.act({ type: 'draw', board: S.board, word: w }); },
      }, w))),
      vb.word ? app.h('button', { class: 'btn ghost', onclick: () => { S.picking = false; main._key = null; renderDrawing(root, S.view, app); } }, app.t('sketch.cancel')) : null,
      app.h('p', { class: 'sk-rule' }, app.t('sketch.no_letters'))));
    return;
  }
  main.replaceChildren(canvasPanel(root, view, app, S.board, vb.word));
}

function canvasPanel(root, view, app, index, word) {
  const h = app.h;
  const canvas = boardCanvas(h, 'sk-canvas');
  const full = h('p', { class: 'sk-full', hidden: true }, app.t('sketch.full'));
  const redraw = () => {
    const lb = S.local.get(index);
    paint(canvas, lb ? lb.strokes : []);
    full.hidden = !lb || pointCount(lb.strokes) < MAX_POINTS;
  };
  attachPen(canvas, index, redraw);
  const swatches = PALETTE.map((c) => h('button', {
    class: ['sk-swatch', c === S.color && 'sel', c === '#fff' && 'eraser'],
    style: { '--sw': c },
    'aria-label': c === '#fff' ? app.t('sketch.eraser') : app.t('sketch.colour', { c }),
    onclick: (e) => { S.color = c; for (const b of e.currentTarget.parentNode.children) b.classList.toggle('sel', b === e.currentTarget); },
  }, c === '#fff' ? '⌫' : null));
  const widths = WIDTHS.map((w) => h('button', {
    class: ['sk-tool', 'sk-width', w === S.width && 'sel'],
    'aria-label': app.t('sketch.width', { n: w }),
    onclick: (e) => { S.width = w; for (const b of e.currentTarget.parentNode.querySelectorAll('.sk-width')) b.classList.toggle('sel', b === e.currentTarget); },
  }, h('span', { class: 'sk-dot', style: { width: `${w * 2 + 2}px`, height: `${w * 2 + 2}px` } })));
  const op = (type) => () => {
    const lb = S.local.get(index);
    if (!lb) return;
    flush();
    S.pen = null;
    lb.strokes = type === 'clear' ? [] : lb.strokes.slice(0, -1);
    send({ type, board: index });
    redraw();
  };
  const panel = h('div', { class: 'sk-draw' },
    h('div', { class: 'sk-wordbar' },
      h('span', { class: 'sk-word-now' }, app.t('sketch.draw_word', { word })),
      h('button', { class: 'btn small ghost', onclick: () => { S.picking = true; renderDrawing(root, S.view, app); } }, app.t('sketch.change_word'))),
    h('div', { class: 'sk-paper' }, canvas, h('span', { class: 'sk-rule-pill' }, app.t('sketch.no_letters')), full),
    h('div', { class: 'sk-palette' }, swatches),
    h('div', { class: 'sk-tools' }, widths,
      h('button', { class: 'sk-tool', 'aria-label': app.t('sketch.undo'), onclick: op('undo') }, '↶'),
      h('button', { class: 'sk-tool danger', 'aria-label': app.t('sketch.clear'), onclick: op('clear') }, '✕')));
  requestAnimationFrame(redraw);
  window.addEventListener('resize', redraw);
  return panel;
}

function send(d) {
  if (!S.view || (S.view.deadline && S.app.now() >= S.view.deadline)) return null;
  const id = S.app.act(d, true);     // a stroke: not a move the live region reports
  if (id) S.pending.set(id, Date.now());
  if (S.pending.size > 500) S.pending.clear();
  return id;
}

function flush() {
  const pen = S.pen;
  clearTimeout(S.timer);
  S.timer = 0;
  if (!pen || !pen.queue.length) return;
  while (pen.queue.length) {
    const part = pen.queue.splice(0, MAX_BATCH);
    send({ type: 'stroke', board: pen.board, color: pen.stroke.c, width: pen.stroke.w,
      points: part.map(([x, y]) => [x / SCALE, y / SCALE]), join: pen.sent });
    pen.sent = true;
  }
}

function attachPen(canvas, index, redraw) {
  let raf = 0;
  const later = () => { if (!raf) raf = requestAnimationFrame(() => { raf = 0; redraw(); }); };
  const at = (e) => {
    const r = canvas.getBoundingClientRect();
    const x = Math.round(Math.min(1, Math.max(0, (e.clientX - r.left) / r.width)) * SCALE);
    const y = Math.round(Math.min(1, Math.max(0, (e.clientY - r.top) / r.height)) * SCALE);
    return [x, y];
  };
  const add = (pt) => {
    const pen = S.pen;
    const p = pen.stroke.p;
    const n = p.length;
    if (n && Math.hypot(pt[0] - p[n - 2], pt[1] - p[n - 1]) < MIN_STEP) return;
    const lb = S.local.get(index);
    if (pointCount(lb.strokes) >= MAX_POINTS) return;
    p.push(pt[0], pt[1]);
    pen.queue.push(pt);
    if (!S.timer) S.timer = setTimeout(flush, BATCH_MS);
  };
  canvas.addEventListener('pointerdown', (e) => {
    const lb = S.local.get(index);
    if (!lb || pointCount(lb.strokes) >= MAX_POINTS) { redraw(); return; }
    if (S.view.deadline && S.app.now() >= S.view.deadline) return;
    e.preventDefault();
    canvas.setPointerCapture(e.pointerId);
    flush();
    const stroke = { c: S.color, w: S.width, p: [] };
    lb.strokes = lb.strokes.concat([stroke]);
    S.pen = { board: index, stroke, queue: [], sent: false, id: e.pointerId };
    add(at(e));
    later();
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!S.pen || S.pen.id !== e.pointerId || S.pen.board !== index) return;
    e.preventDefault();
    const list = typeof e.getCoalescedEvents === 'function' ? e.getCoalescedEvents() : [];
    for (const ce of (list.length ? list : [e])) add(at(ce));
    later();
  });
  const up = (e) => {
    if (!S.pen || S.pen.id !== e.pointerId) return;
    flush();
    S.pen = null;
    later();
  };
  canvas.addEventListener('pointerup', up);
  canvas.addEventListener('pointercancel', up);
}

// ------------------------------------------------------------------ guessing rounds

function renderGuessing(root, view, app) {
  const g = view.game;
  const me = g.you;
  const h = app.h;
  if (!root._parts) {
    const asked = h('div', { class: 'sk-asked' });
    const grid = h('div', { class: 'sk-gboards' });
    root.append(head(app, g), asked, h('p', { class: 'sk-tip hint' }, app.t('sketch.tap_zoom')), grid);
    root._parts = { asked, grid };
  }
  renderAsked(root._parts.asked, view, app);
  const guessable = new Set(app.gameActions(view).filter((a) => a.type === 'guess').map((a) => `${a.player}:${a.board}`));
  const shown = g.boards.filter((b) => b.player !== app.you.id && b.strokes);
  const gridKey = shown.map((b) => `${b.player}:${b.board}`).join(',');
  const grid = root._parts.grid;
  if (S.gridKey !== gridKey) {
    S.gridKey = gridKey;
    S.guessTiles.clear();
    const groups = [];
    let cur = null;
    for (const b of shown) {
      if (!cur || cur.player !== b.player) { cur = { player: b.player, boards: [] }; groups.push(cur); }
      cur.boards.push(b);
    }
    grid.replaceChildren(...(groups.length ? groups.map((grp) => {
      const p = app.players.get(grp.player);
      return h('section', { class: 'sk-group', style: { '--pc': p ? p.color : '#888' } },
        h('h3', null, h('span', { class: 'chip', style: { '--pc': p ? p.color : '#888' } }, p ? p.symbol : ''), app.name(grp.player)),
        h('div', { class: 'sk-gtiles' }, grp.boards.map((b) => guessTile(app, b))));
    }) : [h('p', { class: 'sk-wait' }, app.t('sketch.nothing'))]));
  }
  for (const b of shown) updateTile(app, b, me, guessable.has(`${b.player}:${b.board}`));
  if (S.zoom) updateZoom(app);
}

function guessTile(app, b) {
  const h = app.h;
  const key = `${b.player}:${b.board}`;
  const canvas = boardCanvas(h, 'sk-gcanvas');
  const input = h('input', { type: 'text', maxlength: 80, autocomplete: 'off', autocapitalize: 'off',
    enterkeyhint: 'send', placeholder: app.t('sketch.placeholder'), 'aria-label': app.t('sketch.placeholder') });
  const submit = (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    app.act({ type: 'guess', player: b.player, board: b.board, text });
    input.value = '';
  };
  const form = h('form', { class: 'sk-gform', onsubmit: submit }, input,
    h('button', { class: 'btn primary sk-send', type: 'submit', 'aria-label': app.t('sketch.send') }, '➤'));
  const status = h('div', { class: 'sk-gstatus' });
  const mine = h('ul', { class: 'sk-mine' });
  const tile = h('div', { class: 'sk-gtile' },
    h('button', { class: 'sk-zoomable', 'aria-label': app.t('sketch.board', { n: b.board + 1 }), onclick: () => openZoom(app, b) }, canvas),
    status, form, mine);
  S.guessTiles.set(key, { tile, canvas, input, form, status, mine, board: b });
  return tile;
}

function myGuesses(me, b) {
  return me.guesses.filter((x) => x.owner === b.player && x.board === b.board);
}

function guessLine(app, x) {
  const v = x.correct ? app.t('sketch.got_it') : x.feedback === 'close' ? app.t('sketch.said_close')
    : x.feedback === 'far' ? app.t('sketch.said_far') : app.t('sketch.waiting');
  return app.h('li', { class: ['sk-g', x.correct ? 'ok' : x.feedback || 'open'] },
    app.h('span', { class: 'sk-gtext' }, x.text), app.h('span', { class: 'sk-gfb' }, v));
}

function updateTile(app, b, me, open) {
  const parts = S.guessTiles.get(`${b.player}:${b.board}`);
  if (!parts) return;
  parts.board = b;
  requestAnimationFrame(() => paintIfChanged(parts.canvas, b.strokes));
  const won = me.won.find((w) => w.player === b.player && w.board === b.board);
  const by = b.won_by || [];   // left out while nobody has won the board
  const key = JSON.stringify([by, open, !!won]);
  if (parts._key !== key) {
    parts._key = key;
    parts.tile.classList.toggle('won', by.length > 0);
    parts.tile.classList.toggle('mine', !!won);
    parts.form.hidden = !open;
    parts.status.replaceChildren(...(by.length ? [
      won ? app.h('b', { class: 'sk-gotword reveal' }, won.word) : app.h('span', null, app.t('sketch.taken')),
      app.h('span', { class: 'sk-by' }, by.map((id) => {
        const p = app.players.get(id);
        return app.h('span', { class: 'chip', style: { '--pc': p ? p.color : '#888' } }, p ? p.symbol : '');
      }))] : []));
  }
  const list = myGuesses(me, b).slice(-3);
  const mk = JSON.stringify(list);
  if (parts.mine._key !== mk) {
    parts.mine._key = mk;
    parts.mine.replaceChildren(...list.map((x) => guessLine(app, x)));
  }
}

function renderAsked(box, view, app) {
  const g = view.game;
  const fb = app.gameActions(view).filter((a) => a.type === 'feedback');
  const open = new Set(fb.map((a) => a.guess));
  const rows = g.you.asked.slice(-8).reverse();   // this round's, on your boards
  rows.sort((a, b) => (open.has(b.id) ? 1 : 0) - (open.has(a.id) ? 1 : 0));
  const key = JSON.stringify([rows, [...open]]);
  if (box._key === key) return;
  box._key = key;
  if (!rows.length) { box.replaceChildren(); box.hidden = true; return; }
  box.hidden = false;
  const h = app.h;
  box.replaceChildren(h('h3', null, app.t('sketch.on_yours')), h('ul', null, rows.map((x) => {
    const p = app.players.get(x.player);
    const word = g.you.boards[x.board] ? g.you.boards[x.board].word : '';
    return h('li', { class: ['sk-ask', open.has(x.id) && 'open', x.correct && 'ok', 'pop'] },
      h('span', { class: 'chip', style: { '--pc': p ? p.color : '#888' } }, p ? p.symbol : ''),
      h('span', { class: 'sk-asktext' }, h('b', null, x.text), h('small', null, `${app.t('sketch.board', { n: x.board + 1 })} · ${word}`)),
      open.has(x.id) ? h('span', { class: 'sk-fb' },
        h('button', { class: 'btn sk-close', onclick: () => app.act({ type: 'feedback', guess: x.id, value: 'close' }) }, app.t('sketch.close')),
        h('button', { class: 'btn sk-far', onclick: () => app.act({ type: 'feedback', guess: x.id, value: 'far' }) }, app.t('sketch.far')))
        : h('span', { class: 'sk-gfb' }, x.correct ? '✓' : x.feedback ? app.t(`sketch.said_${x.feedback}`) : ''));
  })));
}

// ------------------------------------------------------------------ zoom

function openZoom(app, b) {
  closeZoom();
  const h = app.h;
  const opener = document.activeElement;
  const canvas = boardCanvas(h, 'sk-zcanvas');
  const parts = S.guessTiles.get(`${b.player}:${b.board}`);
  const p = app.players.get(b.player);
  const title = h('b', { id: 'sk-zoom-title' }, `${app.name(b.player)} · ${app.t('sketch.board', { n: b.board + 1 })}`);
  const close = h('button', { class: 'btn ghost sk-zclose', 'aria-label': app.t('sketch.cancel'), onclick: closeZoom }, '✕');
  const box = h('div', { class: 'sk-zoom pop', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'sk-zoom-title', tabindex: '-1' },
    h('div', { class: 'sk-zhead', style: { '--pc': p ? p.color : '#888' } },
      h('span', { class: 'chip', 'aria-hidden': 'true', style: { '--pc': p ? p.color : '#888' } }, p ? p.symbol : ''), title, close),
    canvas);
  const slot = h('div', { class: 'sk-zslot' });
  box.append(slot);
  if (parts) slot.append(parts.status, parts.form, parts.mine);
  const shade = h('div', { class: 'sk-shade', onclick: (e) => { if (e.target === shade) closeZoom(); } }, box);
  shade.addEventListener('keydown', (e) => trapKeys(e, box));
  document.body.append(shade);
  S.zoom = { shade, canvas, key: `${b.player}:${b.board}`, parts, opener };
  close.focus();
  requestAnimationFrame(() => paint(canvas, b.strokes));
}

/** Keeps the keyboard in the open dialog: Escape closes it, Tab cycles inside it. */
function trapKeys(e, box) {
  if (e.key === 'Escape') { e.preventDefault(); closeZoom(); return; }
  if (e.key !== 'Tab') return;
  const items = [...box.querySelectorAll('button, input, [tabindex="0"]')].filter((el) => !el.closest('[hidden]') && !el.disabled);
  if (!items.length) return;
  const first = items[0]; const last = items[items.length - 1];
  if (e.shiftKey && (document.activeElement === first || !box.contains(document.activeElement))) { e.preventDefault(); last.focus(); }
  else if (!e.shiftKey && (document.activeElement === last || !box.contains(document.activeElement))) { e.preventDefault(); first.focus(); }
}

function updateZoom() {
  const z = S.zoom;
  if (!z || !z.parts) return;
  requestAnimationFrame(() => paintIfChanged(z.canvas, z.parts.board.strokes));
}

function closeZoom() {
  const z = S.zoom;
  if (!z) return;
  S.zoom = null;
  if (z.parts) z.parts.tile.append(z.parts.status, z.parts.form, z.parts.mine);
  z.shade.remove();
  if (z.opener && z.opener.isConnected && typeof z.opener.focus === 'function') z.opener.focus();
}

// ------------------------------------------------------------------ audience
// An audience phone (issue 22): in a guessing round one drawing large, ◀ ▶ and a strip of
// thumbnails to pick another, a guess field with a big button under the thumb. The reply to
// each guess (`mine.reply`: right with the word, or not it) shows under the drawing; boards
// this phone got right are marked. Only glory: no board, no point. Drawing rounds: watch.

const A = { sel: null, sent: new Map(), replies: new Map(), got: new Map(), ref: null, round: null, root: null };

/** The board number of the rules (seat index * 6 + board) of a view board. */
function boardNo(g, b) {
  const seat = g.players.findIndex((p) => p.id === b.player);
  return seat * (g.boards_per_player || 6) + b.board;
}

function audienceRedraw() {
  const app = S.app;
  const root = A.root;
  if (!app || !root || !root.isConnected || !app.view || !app.view.game) return;
  const mine = (app.audience || {}).mine;
  if (mine && mine.reply && Number.isInteger(mine.reply.board) && mine.ref != null && mine.ref !== A.ref) {
    A.ref = mine.ref;
    const n = mine.reply.board;
    A.replies.set(n, { right: !!mine.reply.right, text: A.sent.get(n) || '', word: mine.reply.word || null });
    if (mine.reply.right) {
      const b = (app.view.game.boards || []).find((x) => boardNo(app.view.game, x) === n);
      if (b) A.got.set(`${b.player}:${b.board}`, mine.reply.word || A.sent.get(n) || '✓');
      app.vibrate([60, 40, 160]);
      app.say(app.t('sketch.aud_right', { word: mine.reply.word || A.sent.get(n) || '' }));
    } else {
      app.vibrate(80);
      app.say(app.t('sketch.aud_wrong', { text: A.sent.get(n) || '' }));
    }
  }
  renderAudience(root, app.view, app);
}

function renderAudience(root, view, app) {
  const g = view.game;
  const h = app.h;
  A.root = root;
  if (app.onAudience) app.onAudience(audienceRedraw);
  if (A.round !== g.round) { A.round = g.round; A.replies.clear(); A.sent.clear(); }
  const acts = app.gameActions(view).filter((a) => a.type === 'audience_guess');
  if (g.phase !== 'guessing' || !acts.length) return renderWatching(root, view, app);
  const open = new Set(acts.map((a) => a.board));
  const shown = g.boards.filter((b) => b.strokes && open.has(boardNo(g, b)));
  if (!shown.length) return renderWatching(root, view, app);
  const votes = ((app.audience || {}).mine || {}).votes || {};
  const gotNow = (b) => votes[String(boardNo(g, b))] === true || A.got.has(`${b.player}:${b.board}`);
  if (!shown.some((b) => boardNo(g, b) === A.sel)) {
    const next = shown.find((b) => !gotNow(b)) || shown[0];
    A.sel = boardNo(g, next);
  }
  if (!root._aud) {
    root._akey = null;
    const canvas = boardCanvas(h, 'sk-abig');
    const who = h('div', { class: 'sk-awho' });
    const prev = h('button', { class: 'btn big sk-anav', type: 'button', 'aria-label': app.t('sketch.aud_prev'), onclick: () => step(-1) }, '◀');
    const next = h('button', { class: 'btn big sk-anav', type: 'button', 'aria-label': app.t('sketch.aud_next'), onclick: () => step(1) }, '▶');
    const reply = h('p', { class: 'sk-areply', 'aria-live': 'off' });
    const input = h('input', { type: 'text', maxlength: 60, autocomplete: 'off', autocapitalize: 'off', enterkeyhint: 'send',
      class: 'sk-ainput', placeholder: app.t('sketch.placeholder'), 'aria-label': app.t('sketch.placeholder') });
    const send = h('button', { class: 'btn primary big sk-asend', type: 'submit' }, app.t('sketch.send'));
    const form = h('form', { class: 'sk-aform', onsubmit: (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text || A.sel == null) return;
      A.sent.set(A.sel, text);
      app.act({ type: 'audience_guess', board: A.sel, text });
      input.value = '';
    } }, input, send);
    const strip = h('div', { class: 'sk-astrip', role: 'group', 'aria-label': app.t('sketch.aud_boards') });
    root.replaceChildren(head(app, g), h('p', { class: 'sk-ahint' }, app.t('sketch.aud_hint')),
      h('div', { class: 'sk-astage' }, prev, h('div', { class: 'sk-abox' }, canvas, who), next), reply, form, strip);
    root._aud = { canvas, who, reply, form, input, send, strip, thumbs: new Map() };
  }
  const P = root._aud;
  function step(d) {
    const v = S.app.view;
    const gg = v.game;
    const list = gg.boards.filter((b) => b.strokes && new Set(S.app.gameActions(v).filter((a) => a.type === 'audience_guess').map((a) => a.board)).has(boardNo(gg, b)));
    const k = list.findIndex((b) => boardNo(gg, b) === A.sel);
    const b = list[(k + d + list.length) % list.length];
    if (b) { A.sel = boardNo(gg, b); renderAudience(root, v, S.app); }
  }
  // the strip of thumbnails (rebuilt when the boards on show change)
  const stripKey = shown.map((b) => boardNo(g, b)).join(',');
  if (P.strip._key !== stripKey) {
    P.strip._key = stripKey;
    P.thumbs.clear();
    P.strip.replaceChildren(...shown.map((b) => {
      const n = boardNo(g, b);
      const p = app.players.get(b.player);
      const c = boardCanvas(h, 'sk-athumb');
      const btn = h('button', { class: 'sk-athumbbtn', type: 'button', style: { '--pc': p ? p.color : '#888' },
        onclick: () => { A.sel = n; renderAudience(root, S.app.view, S.app); P.input.focus({ preventScroll: true }); } },
      h('span', { class: 'sr-only' }, `${app.name(b.player)} · ${app.t('sketch.board', { n: b.board + 1 })}`), c,
      h('span', { class: 'sk-atick', 'aria-hidden': 'true' }, '✓'));
      P.thumbs.set(n, { btn, c, b });
      return btn;
    }));
  }
  for (const b of shown) {
    const t = P.thumbs.get(boardNo(g, b));
    if (!t) continue;
    requestAnimationFrame(() => paintIfChanged(t.c, b.strokes));
    t.btn.classList.toggle('sel', boardNo(g, b) === A.sel);
    t.btn.classList.toggle('got', gotNow(b));
    t.btn.setAttribute('aria-pressed', String(boardNo(g, b) === A.sel));
  }
  const b = shown.find((x) => boardNo(g, x) === A.sel);
  const p = app.players.get(b.player);
  requestAnimationFrame(() => paintIfChanged(P.canvas, b.strokes));
  const got = gotNow(b);
  const word = A.got.get(`${b.player}:${b.board}`);
  const r = A.replies.get(A.sel);
  const key = JSON.stringify([A.sel, got, word, r, app.lang]);
  if (root._akey !== key) {
    root._akey = key;
    P.who.replaceChildren(h('span', { class: 'chip', 'aria-hidden': 'true', style: { '--pc': p ? p.color : '#888' } }, p ? p.symbol : ''),
      h('b', null, app.name(b.player)), h('span', null, ` · ${app.t('sketch.board', { n: b.board + 1 })}`));
    P.who.parentNode.style.setProperty('--pc', p ? p.color : '#888');   // the drawer's colour frames it
    P.form.hidden = got;
    P.reply.className = ['sk-areply', got ? 'ok' : r && !r.right ? 'no' : ''].join(' ');
    P.reply.replaceChildren(...(got ? [h('span', null, app.t('sketch.aud_got')), word && word !== '✓' ? h('b', { class: 'reveal', lang: view.room.language }, ` ${word}`) : '']
      : r && !r.right ? [h('span', null, app.t('sketch.aud_wrong', { text: r.text }))] : [h('span', null, app.t('sketch.aud_type'))]));
    if (r && !r.right) { P.reply.classList.remove('shake'); void P.reply.offsetWidth; P.reply.classList.add('shake'); }
  }
}

function renderWatching(root, view, app) {
  const g = view.game;
  const h = app.h;
  root._aud = null;
  const key = JSON.stringify(g.boards.map((b) => [b.status, (b.won_by || []).length]));
  if (root._akey === key) return;
  root._akey = key;
  const shown = g.boards.filter((b) => b.strokes);
  root.replaceChildren(head(app, g), h('p', { class: 'sk-wait' }, app.t('sketch.watch')),
    h('div', { class: 'sk-agrid' }, shown.map((b) => {
      const p = app.players.get(b.player);
      const c = boardCanvas(h, 'sk-acanvas');
      requestAnimationFrame(() => paint(c, b.strokes));
      return h('div', { class: ['sk-atile', (b.won_by || []).length && 'won', A.got.has(`${b.player}:${b.board}`) && 'got'], style: { '--pc': p ? p.color : '#888' } }, c);
    })));
}
