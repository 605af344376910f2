// Sketch's How to play pictures (common/howto.js draws the steps): phones, boards and the sand.
function board({ svg }, x, y, s, ...lines) {
  return svg('g', null, svg('rect', { x, y, width: s, height: s, rx: 6, fill: '#fff', stroke: '#cfc8ff', 'stroke-width': 2 }),
    ...lines.map(([d, colour]) => svg('path', { d, transform: `translate(${x} ${y}) scale(${s / 100})`, fill: 'none', stroke: colour, 'stroke-width': 5, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' })));
}
const HOUSE = [['M20 80 L20 45 L50 20 L80 45 L80 80 Z', '#2e86de'], ['M42 80 L42 58 L58 58 L58 80', '#8b5a2b']];
const SUN = [['M50 50 m-18 0 a18 18 0 1 0 36 0 a18 18 0 1 0 -36 0', '#f3a712'], ['M50 14 L50 24 M50 76 L50 86 M14 50 L24 50 M76 50 L86 50', '#f3a712']];
const CAT = [['M30 75 Q50 30 70 75 Z', '#000'], ['M36 48 L38 32 L46 42 M64 48 L62 32 L54 42', '#000']];

function sand({ svg }, x, y) {
  return svg('g', null, svg('path', { d: `M${x} ${y} h36 l-15 24 l15 24 h-36 l15 -24 z`, fill: 'none', stroke: '#cfc8ff', 'stroke-width': 3 }),
    svg('path', { d: `M${x + 6} ${y + 4} h24 l-12 16 z`, fill: '#ffd23f' }), svg('path', { d: `M${x + 8} ${y + 46} h20 l-10 -10 z`, fill: '#ffd23f' }));
}

export const art = [
  // your secret cards and a board
  ({ pic, phone, svg }) => pic(phone(70, 4, 100, 152,
    svg('rect', { x: 82, y: 20, width: 76, height: 50, rx: 5, fill: '#fff6d6' }),
    ...[0, 1, 2].map((i) => svg('rect', { x: 88, y: 28 + i * 13, width: 50 - i * 8, height: 7, rx: 3, fill: i === 1 ? '#e4572e' : '#b9a66a' })),
    ...[0, 1, 2].map((i) => svg('rect', { x: 84 + i * 25, y: 82, width: 21, height: 21, rx: 3, fill: i === 0 ? '#fff' : 'rgba(255,255,255,.25)' })))),
  // draw fast, no letters
  (kit) => kit.pic(board(kit, 72, 20, 112, ...HOUSE), sand(kit, 196, 52), kit.label(36, 88, 'A1', 30, '#fff'),
    kit.svg('circle', { cx: 36, cy: 78, r: 27, fill: 'none', stroke: '#e4572e', 'stroke-width': 6 }),
    kit.svg('path', { d: 'M17 59 L55 97', stroke: '#e4572e', 'stroke-width': 6, 'stroke-linecap': 'round' })),
  // guess the others'; the drawer says close or far
  (kit, app) => kit.pic(board(kit, 10, 40, 80, ...SUN), board(kit, 100, 40, 80, ...CAT), kit.bubble(120, 4, 112, 34, app.t('sketch.said_close'), 18)),
  // a right guess takes the board
  (kit) => kit.pic(board(kit, 20, 40, 80, ...SUN), kit.arrow(108, 80, 172, 80, '#29bf12', -0.25), kit.chip(200, 80, 20, '#29bf12'), kit.label(200, 140, '+1', 30)),
];
