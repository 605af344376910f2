// Drawing boards: paint stored strokes ({c, w, p: [x0, y0, x1, y1, ...]} in thousandths of
// the board) on a canvas with quadratic smoothing. Boards are square; a width is in pixels of
// a 500-px board and scales with the canvas.
import { sheet } from '../../common/sheet.js';

/** The game's stylesheet applied (common/sheet.js): the shell draws the game after it. */
export const ready = sheet(new URL('./sketch.css', import.meta.url).href);

export const SCALE = 1000;
export const BASE = 500;
export const PALETTE = ['#000', '#e4572e', '#f3a712', '#29bf12', '#2e86de', '#8e44ad', '#8b5a2b', '#fff'];
export const WIDTHS = [2, 4, 8];
export const MAX_POINTS = 3000;

/** A cheap key that changes whenever a stroke list changes (to skip needless repaints). */
export function strokesKey(strokes) {
  if (!strokes || !strokes.length) return '0';
  let n = 0;
  for (const s of strokes) n += s.p.length;
  const last = strokes[strokes.length - 1].p;
  return `${strokes.length}:${n}:${last[last.length - 2]}:${last[last.length - 1]}`;
}

export function pointCount(strokes) {
  let n = 0;
  for (const s of strokes || []) n += s.p.length / 2;
  return n;
}

/** Size the canvas backing store to its CSS box (times the pixel ratio). Returns the CSS size. */
export function fit(canvas) {
  const css = canvas.clientWidth || canvas.width || 100;
  const dpr = Math.min(window.devicePixelRatio || 1, 2);
  const px = Math.max(1, Math.round(css * dpr));
  if (canvas.width !== px || canvas.height !== px) { canvas.width = px; canvas.height = px; }
  return css;
}

function path(ctx, p, k) {
  const n = p.length / 2;
  ctx.beginPath();
  if (n === 1) {
    ctx.moveTo(p[0] * k, p[1] * k);
    ctx.lineTo(p[0] * k + 0.01, p[1] * k);
    return;
  }
  ctx.moveTo(p[0] * k, p[1] * k);
  for (let i = 1; i < n - 1; i += 1) {
    const x = p[2 * i] * k; const y = p[2 * i + 1] * k;
    const mx = (x + p[2 * i + 2] * k) / 2; const my = (y + p[2 * i + 3] * k) / 2;
    ctx.quadraticCurveTo(x, y, mx, my);
  }
  ctx.lineTo(p[2 * n - 2] * k, p[2 * n - 1] * k);
}

/** Paint a whole board: white paper, then every stroke in order. */
export function paint(canvas, strokes) {
  fit(canvas);
  const ctx = canvas.getContext('2d');
  const size = canvas.width;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, size, size);
  const k = size / SCALE;
  const dpr = Math.min(window.devicePixelRatio || 1, 2);
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  for (const s of strokes || []) {
    if (!s.p || s.p.length < 2) continue;
    ctx.strokeStyle = s.c;
    // small boards (TV tiles) keep lines readable: never thinner than half the width in pixels
    ctx.lineWidth = Math.max((s.w * size) / BASE, s.w * 0.5 * dpr, 1);
    path(ctx, s.p, k);
    ctx.stroke();
  }
}

/** Paint only when the strokes changed since the last paint of this canvas (or its size did). */
export function paintIfChanged(canvas, strokes) {
  const key = `${strokesKey(strokes)}@${canvas.clientWidth}`;
  if (canvas._key === key) return;
  canvas._key = key;
  paint(canvas, strokes);
}

/** A board canvas element. */
export function boardCanvas(h, cls) {
  return h('canvas', { class: ['board-canvas', cls], width: 100, height: 100 });
}
