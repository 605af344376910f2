// klepka's results hook (TV and phone): the game's best words by points, with who made them.
// The words are Ukrainian like the cards; the heading follows the room language.
import './i18n.js';
import { pageThrough } from '../../common/pages.js';

export function results(box, view, app) {
  const { h, t } = app;
  const res = view.room.results || {};
  const best = res.best_words || [];
  const players = new Map((view.room.players || []).map((p) => [p.id, p]));
  const head = h('h2', { class: 'kr-head' }, t('klepka.best_words'));
  if (!best.length) {
    box.replaceChildren(h('section', { class: 'k-recap', 'aria-label': t('klepka.best_words') },
      head, h('p', { class: 'hint' }, t('klepka.no_best'))));
    return;
  }
  // the TV cannot scroll: its list pages through the words that do not fit (issue 27)
  const tv = app.page === 'tv';
  const count = tv ? h('span', { class: 'tv-pages-count', 'aria-hidden': 'true', hidden: true }) : null;
  const list = h('ol', { class: 'kr-list' }, best.map((w) => {
    const p = players.get(w.seat);
    return h('li', { class: 'kr-word', style: { '--pc': p ? p.color : '#888' } },
      h('span', { class: 'kr-text', lang: 'uk' }, w.word.toUpperCase()),
      h('b', { class: 'kr-pts' }, `+${w.points}`),
      w.double ? h('span', { class: 'kx2' }, '×2') : null,
      h('span', { class: 'kr-who' },
        h('span', { class: 'chip', style: { '--pc': p ? p.color : '#888' } }, p ? p.symbol || '' : ''),
        h('span', { class: 'kr-name' }, p ? p.name : w.seat)));
  }));
  box.replaceChildren(h('section', { class: ['k-recap', tv && 'tv-pages'], 'aria-label': t('klepka.best_words') },
    tv ? h('div', { class: 'tv-pages-head' }, head, count) : head, list));
  if (tv) pageThrough(list, { counter: count });
}
