// The keepsakes gallery's faces (issue 28, part 3): the page marks each player's face as JSON
// ({color, symbol, portrait|character}: partyhub/keepsakes/gallery.py); their chips are drawn
// here as everywhere else (dom.js chip, faces.js). The share link's page has none.
import { chip } from './dom.js';

for (const el of document.querySelectorAll('.keep-face[data-face]')) {
  try {
    el.replaceWith(chip(JSON.parse(el.dataset.face), 'keep-chip'));
  } catch (e) {
    el.remove();
  }
}
