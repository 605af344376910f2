// A player's face (issue 28, part 3; partyhub/rooms/portraits.py): the portrait drawn on the
// phone (`portrait`: strokes in thousandths) or one of 36 ready-made characters (`character`:
// c0..c35), drawn here as SVG in one style: a round head with a dark outline, cheeks, and
// six kinds of creature (cat, bear, bunny, frog, chick, monster) in six colours each.
const NS = 'http://www.w3.org/2000/svg';
export const CHARACTERS = 36;
const INK = '#2b2135';
const FUR = ['#f4a259', '#8cb369', '#7fb7d9', '#e07a8f', '#b49fdc', '#f2d16b'];

function s(tag, a, kids) {
  const e = document.createElementNS(NS, tag);
  for (const k in a) e.setAttribute(k, a[k]);
  for (const c of kids || []) e.appendChild(c);
  return e;
}

const line = { fill: 'none', stroke: INK, 'stroke-width': 3, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' };
const solid = (fill) => ({ fill, stroke: INK, 'stroke-width': 3, 'stroke-linejoin': 'round' });

/** The SVG of character `i` (0..35). */
export function character(i) {
  const kind = i % 6;
  const fur = FUR[Math.floor(i / 6) % 6];
  const pale = FUR[(Math.floor(i / 6) + 3) % 6];
  const g = [];
  const back = [
    () => [s('path', { d: 'M22 44 26 10 48 28zM78 44 74 10 52 28z', ...solid(fur) })],
    () => [s('circle', { cx: 26, cy: 30, r: 12, ...solid(fur) }), s('circle', { cx: 74, cy: 30, r: 12, ...solid(fur) })],
    () => [s('ellipse', { cx: 37, cy: 22, rx: 8, ry: 20, ...solid(fur) }), s('ellipse', { cx: 63, cy: 22, rx: 8, ry: 20, ...solid(fur) })],
    () => [s('circle', { cx: 33, cy: 34, r: 14, ...solid(fur) }), s('circle', { cx: 67, cy: 34, r: 14, ...solid(fur) })],
    () => [s('path', { d: 'M50 26q-4-14 6-18M50 26q2-12 12-12', ...line })],
    () => [s('path', { d: 'M36 30 28 12M64 30 72 12', ...line }), s('circle', { cx: 28, cy: 12, r: 5, ...solid(pale) }), s('circle', { cx: 72, cy: 12, r: 5, ...solid(pale) })],
  ][kind];
  g.push(...back(), s('circle', { cx: 50, cy: 60, r: 34, ...solid(fur) }));
  g.push(s('ellipse', { cx: 50, cy: 74, rx: 18, ry: 12, fill: pale, opacity: 0.55 }));
  for (const x of [30, 70]) g.push(s('circle', { cx: x, cy: 68, r: 5, fill: '#ff6b8b', opacity: 0.45 }));
  const ey = kind === 3 ? 34 : 56;
  const eyes = (i + Math.floor(i / 6)) % 3;
  for (const x of kind === 3 ? [33, 67] : [38, 62]) {
    if (eyes === 0) g.push(s('circle', { cx: x, cy: ey, r: 4.5, fill: INK }));
    else if (eyes === 1) g.push(s('path', { d: `M${x - 5} ${ey}q5 5 10 0`, ...line }));
    else g.push(s('circle', { cx: x, cy: ey, r: 7, ...solid('#fff') }), s('circle', { cx: x + 1, cy: ey + 1, r: 3.5, fill: INK }));
  }
  const mouth = (i * 2 + Math.floor(i / 6)) % 3;
  if (kind === 4) g.push(s('path', { d: 'M43 66 57 66 50 76z', ...solid('#f28c28') }));
  else if (mouth === 0) g.push(s('path', { d: 'M42 70q8 8 16 0', ...line }));
  else if (mouth === 1) g.push(s('ellipse', { cx: 50, cy: 72, rx: 4, ry: 5, ...solid('#7a2e3b') }));
  else g.push(s('path', { d: 'M41 69q9 11 18 0z', ...solid('#7a2e3b') }), s('path', { d: 'M47 70v3h6v-3', fill: '#fff' }));
  return s('svg', { viewBox: '0 0 100 100', class: 'face', 'aria-hidden': 'true' }, g);
}

/** The SVG of a drawn portrait ([{c, w, p: [x0, y0, ...]}], thousandths), on white. */
export function drawing(strokes) {
  const g = [s('rect', { width: 1000, height: 1000, fill: '#fff' })];
  for (const k of strokes || []) {
    const pts = [];
    for (let j = 0; j + 1 < k.p.length; j += 2) pts.push(k.p[j] + ',' + k.p[j + 1]);
    if (pts.length === 1) pts.push(pts[0]);
    g.push(s('polyline', { points: pts.join(' '), fill: 'none', stroke: k.c, 'stroke-width': k.w * 9, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' }));
  }
  return s('svg', { viewBox: '0 0 1000 1000', class: 'face', 'aria-hidden': 'true' }, g);
}

/** A player's face as SVG, or null for the plain symbol disc. */
export function face(p) {
  if (!p) return null;
  if (Array.isArray(p.portrait) && p.portrait.length) return drawing(p.portrait);
  const m = /^c(\d+)$/.exec(p.character || '');
  return m && +m[1] < CHARACTERS ? character(+m[1]) : null;
}
