// The end-of-game gallery: every drawing with its word, its drawer and who guessed it.
// The shell calls the module's results(box, view, app) hook on the results screen (room
// phase "over"); drawGallery fills that box, once per finished game.
import { boardCanvas, paint } from './board.js';
import { scoreTally } from './tally.js';
import { pageThrough } from '../../common/pages.js';
import { widest } from '../../common/fit.js';

export function drawGallery(box, view, app) {
  const g = view.game;
  if (!g || g.phase !== 'over' || !Array.isArray(g.boards)) { box.replaceChildren(); return; }
  const key = `${view.room.game_no}:${app.lang}`;
  const have = box.querySelector('.sk-gallery');
  if (have && have.dataset.key === key) return;
  const best = audienceBest(app, view);
  const tally = scoreTally(view, app);
  // the TV cannot scroll: its tally is the gallery's first page (gallery), a phone's is above it
  if (app.page === 'tv') box.replaceChildren(...[best].filter(Boolean), gallery(app, view, key, tally));
  else box.replaceChildren(...[best, tally].filter(Boolean), gallery(app, view, key));
}

/** The audience's best guesser(s) (results.audience.best, issue 22), or null. */
function audienceBest(app, view) {
  const best = (((view.room.results || {}).audience || {}).best) || [];
  if (!best.length) return null;
  const h = app.h;
  return h('section', { class: 'sk-audbest', 'aria-labelledby': 'sk-audbest-title' },
    h('h2', { id: 'sk-audbest-title' }, app.t('sketch.aud_best', { n: best.length })),
    h('p', null, names(best), ' · ', app.t('sketch.aud_right_n', { n: best[0].right })));
}

/** At most 8 names, then +N (a big tie). */
function names(best) {
  const shown = best.slice(0, 8).map((b) => b.name).join(', ');
  return best.length > 8 ? `${shown} +${best.length - 8}` : shown;
}

/** The drawings, with `lead` (the TV's tally, or null) as the first item of the TV's pages. */
export function gallery(app, view, key, lead = null) {
  const h = app.h;
  const boards = view.game.boards.filter((b) => b.word != null);
  const who = (id) => {
    const q = app.players.get(id);
    return [h('span', { class: 'chip', 'aria-hidden': 'true', style: { '--pc': q ? q.color : '#888' } }, q ? q.symbol : ''),
      h('span', { class: 'sk-gname' }, app.name(id))];
  };
  const cards = boards.map((b) => {
    const p = app.players.get(b.player);
    const c = boardCanvas(h, 'sk-galcanvas');
    c.setAttribute('role', 'img');
    c.setAttribute('aria-label', b.word);
    requestAnimationFrame(() => paint(c, b.strokes || []));
    return h('figure', { class: ['sk-gcard', b.won_by ? 'won' : 'lost'], style: { '--pc': p ? p.color : '#888' } },
      c,
      h('figcaption', null,
        h('b', { class: ['sk-gword', longest(b.word) > 9 && 'long'], lang: view.room.language,
          style: { '--chars': String(longest(b.word)), '--ems': String(widest(b.word)) } }, b.word),
        h('span', { class: 'sk-gwho sk-gdrew' }, who(b.player)),
        h('span', { class: 'sk-gwho sk-gby' },
          h('span', { class: 'sk-garrow', 'aria-label': app.t('sketch.guessed_by') }, '→'),
          b.won_by ? b.won_by.map((id) => h('span', { class: 'sk-gguesser' }, who(id)))
            : h('span', { class: 'sk-gnone' }, app.t('sketch.not_guessed')))));
  });
  const track = h('div', { class: 'sk-gtrack' }, [lead, ...cards].filter(Boolean));
  const title = h('h2', { id: `sk-gallery-title-${app.page}` }, app.t('sketch.gallery'));
  // a phone's gallery scrolls sideways: it takes the keyboard focus so it can be scrolled;
  // the TV's cannot scroll: it shows the whole drawings that fit and pages through the rest
  const viewport = h('div', { class: 'sk-gviewport', role: 'region', 'aria-labelledby': title.id },
    track);
  if (app.page !== 'tv') {
    viewport.tabIndex = 0;
    return h('section', { class: ['sk-gallery', `sk-gallery-${app.page}`], dataset: { key } }, title, viewport);
  }
  const count = h('span', { class: 'tv-pages-count', 'aria-hidden': 'true', hidden: true });
  const section = h('section', { class: ['sk-gallery', 'sk-gallery-tv', 'tv-pages'], dataset: { key } },
    h('div', { class: 'tv-pages-head' }, title, count), viewport);
  pageThrough(track, { counter: count });
  return section;
}

/** The length of a word's longest part: long ones get a smaller type so they are never cut. */
export function longest(text) {
  return Math.max(0, ...String(text).split(/\s+/).map((w) => w.length));
}
