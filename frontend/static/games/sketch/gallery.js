// The end-of-game gallery: every drawing with its word, its drawer and who guessed it.
// The shell owns the results screen (room phase "over") and calls no game module there, so
// the gallery is added to that screen when it appears (a MutationObserver on the page) while
// the finished game is sketch.
import { boardCanvas, paint } from './board.js';

let installed = false;

export function installGallery(app) {
  if (installed) return;
  installed = true;
  const main = document.querySelector('main.screen') || document.body;
  let busy = false;
  const obs = new MutationObserver(() => {
    if (busy) return;
    const view = app.view;
    const results = main.querySelector('.results');
    if (!results || !view || view.room.game !== 'sketch' || !view.game || view.game.phase !== 'over') return;
    const key = `${view.room.game_no}`;
    const have = results.querySelector('.sk-gallery');
    if (have && have.dataset.key === key) return;
    busy = true;
    try { results.append(gallery(app, view, key)); } finally { busy = false; }
  });
  obs.observe(main, { childList: true, subtree: true });
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
