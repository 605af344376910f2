// Klepka's How to play pictures (common/howto.js draws the steps): its letter cards.
import { PRIZE_ICON } from './i18n.js';

const COL = { red: '#e0393e', yellow: '#f2b705', green: '#1fa463', blue: '#2f6fe0' };

function letter({ svg }, x, y, ch, colour, points, w = 40) {
  const hh = w * 1.3;
  return svg('g', null,
    svg('rect', { x, y, width: w, height: hh, rx: 6, fill: COL[colour], stroke: '#fff', 'stroke-width': 2.5 }),
    svg('text', { x: x + w / 2, y: y + hh * 0.62, 'text-anchor': 'middle', 'font-size': w * 0.62, 'font-weight': 900, fill: colour === 'yellow' ? '#2a1d00' : '#fff' }, ch),
    points ? svg('text', { x: x + w - 5, y: y + hh - 5, 'text-anchor': 'end', 'font-size': w * 0.26, 'font-weight': 800, fill: colour === 'yellow' ? '#2a1d00' : '#fff' }, String(points)) : null);
}

function face({ svg }, x, y, w = 36) {
  return svg('g', null, svg('rect', { x, y, width: w, height: w * 1.3, rx: 6, fill: '#1f5e4a', stroke: '#9fe0c4', 'stroke-width': 2.5 }),
    svg('text', { x: x + w / 2, y: y + w * 0.8, 'text-anchor': 'middle', 'font-size': w * 0.4, 'font-weight': 900, fill: '#9fe0c4' }, 'К'));
}

export const art = [
  // words from your letters
  (kit) => kit.pic(letter(kit, 46, 40, 'К', 'red', 3, 46), letter(kit, 97, 40, 'І', 'blue', 1, 46), letter(kit, 148, 40, 'Т', 'green', 2, 46),
    kit.label(120, 150, '3 + 1 + 2 = 6', 24)),
  // flip two cards
  (kit) => kit.pic(...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => (i === 2 || i === 6
    ? letter(kit, 14 + (i % 5) * 44, 14 + Math.floor(i / 5) * 70, i === 2 ? 'О' : 'А', i === 2 ? 'yellow' : 'blue', 1, 36)
    : face(kit, 14 + (i % 5) * 44, 14 + Math.floor(i / 5) * 70))), kit.tap(128, 66), kit.tap(40, 136)),
  // a pair is yours; a mismatch goes back
  (kit) => kit.pic(letter(kit, 20, 30, 'О', 'yellow', 1), letter(kit, 66, 30, 'О', 'red', 1), kit.label(63, 118, '✓', 40, '#29bf12'),
    letter(kit, 138, 30, 'Ж', 'green', 7), letter(kit, 184, 30, 'Л', 'blue', 3), kit.label(181, 118, '↺', 40, '#fff')),
  // the prize cards
  ({ pic, svg }) => pic(...['polysemy', 'exchange', 'chaos'].map((kind, i) => svg('g', null,
    svg('rect', { x: 16 + i * 74, y: 30, width: 62, height: 84, rx: 8, fill: ['#f5d36b', '#6fe3b0', '#ff8fc0'][i], stroke: '#fff', 'stroke-width': 3 }),
    svg('text', { x: 47 + i * 74, y: 86, 'text-anchor': 'middle', 'font-size': 38, 'font-weight': 900, fill: '#2a1d00' }, PRIZE_ICON[kind])))),
];
