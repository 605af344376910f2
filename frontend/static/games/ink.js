// Text on a player's colour (shared by the game modules, not part of the shell): black or white,
// whichever contrasts more (WCAG 2.x relative luminance). One of the two always reaches 4.58:1,
// so a name tag on any player colour meets WCAG 1.4.3 (4.5:1) whatever the palette holds.

function channel(c) {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

/** "#rgb" / "#rrggbb" -> [r, g, b] (0..255); anything else -> null. */
export function rgb(hex) {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(String(hex || '').trim());
  if (!m) return null;
  const x = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return [0, 2, 4].map((i) => parseInt(x.slice(i, i + 2), 16));
}

export function luminance(hex) {
  const c = rgb(hex);
  if (!c) return 0;
  const [r, g, b] = c.map(channel);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a, b) {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

/** The text colour for a background: '#000' or '#fff'. */
export function ink(bg) {
  return contrast(bg, '#000000') >= contrast(bg, '#ffffff') ? '#000' : '#fff';
}
