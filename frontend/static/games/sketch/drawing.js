// Sketch on a phone, drawing rounds: six boards, a word picker and a smooth canvas whose
// strokes go out in small batches (acknowledged by the tick's stream frames).
import { PALETTE, WIDTHS, MAX_POINTS, SCALE, paint, paintIfChanged, boardCanvas, pointCount } from './board.js';
import { S, head } from './state.js';

const BATCH_MS = 40;
const MIN_STEP = 4;          // thousandths: closer points are dropped (thinning)
const MAX_BATCH = 200;

/** A tick's `stream` frame acknowledges our own strokes in `ack`; other frames are ignored. */
export function ackStrokes(frame) {
  if (frame && frame.t === 'stream' && frame.d) for (const id of frame.d.ack || []) S.pending.delete(id);
}

/** A refused stroke / undo / clear: drop the pen, reload the boards from the next view, no toast. */
export function refused(err) {
  if (!err || !S.pending.has(err.ref)) return false;
  S.pending.delete(err.ref);
  if (S.pen) S.pen = null;
  for (const b of S.local.keys()) S.dirty.add(b);
  return true;
}

function localBoard(i, vb) {
  let lb = S.local.get(i);
  if (!lb || lb.word !== vb.word || S.dirty.has(i)) {
    lb = { word: vb.word, strokes: vb.strokes.map((s) => ({ c: s.c, w: s.w, p: s.p.slice() })) };
    S.local.set(i, lb);
    S.dirty.delete(i);
  }
  return lb;
}

export function renderDrawing(root, view, app) {
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
