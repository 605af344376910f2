// The end-of-game gallery: every drawing with its word, its drawer and who guessed it.
// The shell calls the module's results(box, view, app) hook on the results screen (room
// phase "over"); drawGallery fills that box, once per finished game.
import { boardCanvas, paint } from './board.js';

export function drawGallery(box, view, app) {
  const g = view.game;
  if (!g || g.phase !== 'over' || !Array.isArray(g.boards)) { box.replaceChildren(); return; }
  const key = `${view.room.game_no}:${app.lang}`;
  const have = box.querySelector('.sk-gallery');
  if (have && have.dataset.key === key) return;
  box.replaceChildren(gallery(app, view, key));
}

export function gallery(app, view, key) {
  const h = app.h;
  const boards = view.game.boards.filter((b) => b.word != null);
  const cards = boards.map((b) => {
    const p = app.players.get(b.player);
    const c = boardCanvas(h, 'sk-galcanvas');
    requestAnimationFrame(() => paint(c, b.strokes || []));
    return h('figure', { class: ['sk-gcard', b.won_by.length ? 'won' : 'lost'], style: { '--pc': p ? p.color : '#888' } },
      c,
      h('figcaption', null,
        h('b', { class: 'sk-gword' }, b.word),
        h('span', { class: 'sk-gwho' },
          h('span', { class: 'chip', style: { '--pc': p ? p.color : '#888' } }, p ? p.symbol : ''),
          h('span', { class: 'sk-garrow' }, '→'),
          b.won_by.length ? b.won_by.map((id) => {
            const q = app.players.get(id);
            return h('span', { class: 'chip', title: app.name(id), style: { '--pc': q ? q.color : '#888' } }, q ? q.symbol : '');
          }) : h('span', { class: 'sk-gnone' }, app.t('sketch.not_guessed')))));
  });
  const track = h('div', { class: 'sk-gtrack' }, cards);
  if (app.page === 'tv' && cards.length > 6) {
    track.append(...cards.map((c) => c.cloneNode(true)));     // a seamless loop
    track.classList.add('rolling');
    track.style.setProperty('--dur', `${Math.max(20, cards.length * 3)}s`);
    requestAnimationFrame(() => {
      const copies = track.querySelectorAll('canvas');
      boards.forEach((b, i) => paint(copies[cards.length + i], b.strokes || []));
    });
  }
  return h('section', { class: ['sk-gallery', `sk-gallery-${app.page}`], dataset: { key } },
    h('h2', null, app.t('sketch.gallery')), h('div', { class: 'sk-gviewport' }, track));
}
