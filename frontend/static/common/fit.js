// Type that fits: a text's widest word, measured in ems of the page's bold type, so that a
// stylesheet can make a word as large as lets it fit its column whole
// (font-size: min(<largest>, calc(97cqi / var(--ems))) in a container), whatever font the
// screen has: guessed from letter counts, one of sketch's words was cut on a TV with only DejaVu.

let ruler = null;

/** The width of the widest word of `text` in ems of the body's font at weight 900 (at least 1). */
export function widest(text) {
  ruler = ruler || document.createElement('canvas').getContext('2d');
  ruler.font = `900 100px ${getComputedStyle(document.body).fontFamily}`;
  return Math.max(1, ...String(text).split(/\s+/).map((w) => ruler.measureText(w).width / 100)).toFixed(3);
}
