// The results screen's recap (the shell's results hook): the cards each player won, best
// first. The data is the outcome's `cards` (room.results), public once the game is over.
// Above it, the audience's best predictor (results.audience.best, issue 22) when there is one.
import { face, player } from './board.js';
import { pageThrough } from '../../common/pages.js';

export function results(box, view, app) {
  const { h, t } = app;
  const won = (view.room.results || {}).cards || {};
  const aud = ((view.room.results || {}).audience || {}).best || [];
  const anon = ((view.room.results || {}).audience || {}).anonymous || 0;    // a count apart (issue 31)
  const key = JSON.stringify([won, aud, anon, app.lang]);
  if (box._recap === key) return;
  box._recap = key;
  const ids = Object.keys(won).sort((a, b) => won[b].length - won[a].length);
  const best = aud.length ? h('section', { class: 'jx-aud-best', 'aria-labelledby': 'jx-aud-best-title' },
    h('h2', { id: 'jx-aud-best-title' }, t('jinx.aud_best', { n: aud.length })),
    h('p', null, aud.slice(0, 8).map((b) => b.name).join(', '), aud.length > 8 ? ` +${aud.length - 8}` : '', ' · ',
      t('jinx.aud_right_n', { n: aud[0].right })),
    anon ? h('p', { class: 'aud-anon' }, t('audience.anonymous', { n: anon })) : null) : null;
  if (!ids.length) { box.replaceChildren(...(best ? [best] : [])); return; }
  const tv = app.page === 'tv';
  const count = tv ? h('span', { class: 'tv-pages-count', 'aria-hidden': 'true', hidden: true }) : null;
  const list = h('ul', { class: 'jx-recap-list' });
  box.replaceChildren(...(best ? [best] : []), h('section', { class: ['jx-recap', tv && 'tv-pages'], 'aria-labelledby': 'jx-recap-title' },
    h('div', { class: 'tv-pages-head' }, h('h2', { id: 'jx-recap-title' }, t('jinx.recap_title')), count),
    list));
  list.append(...ids.map((id) => {
    const p = player(app, id);
    return h('li', { class: 'jx-recap-row', style: { '--pc': p.color } },
      h('div', { class: 'jx-recap-who' }, h('span', { class: 'chip', 'aria-hidden': 'true', style: { '--pc': p.color } }, p.symbol || ''),
        h('span', { class: 'jx-recap-name' }, p.name), h('b', null, t('score.jinx', { n: won[id].length }))),
      won[id].length
        ? h('div', { class: 'jx-recap-faces', tabindex: tv ? null : '0', role: 'group', 'aria-label': `${p.name}: ${t('score.jinx', { n: won[id].length })}` },
          won[id].map((f) => face(app, f)))
        : null);
  }));
  if (tv) pageThrough(list, { counter: count });     // the TV cannot scroll: it pages through
}
