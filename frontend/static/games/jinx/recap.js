// The results screen's recap (the shell's results hook): the cards each player won, best
// first. The data is the outcome's `cards` (room.results), public once the game is over.
// Above it, the audience's best predictor (results.audience.best, issue 22) when there is one.
import { setup, face, player } from './board.js';

export function results(box, view, app) {
  setup(app);
  const { h, t } = app;
  const won = (view.room.results || {}).cards || {};
  const aud = ((view.room.results || {}).audience || {}).best || [];
  const key = JSON.stringify([won, aud, app.lang]);
  if (box._recap === key) return;
  box._recap = key;
  const ids = Object.keys(won).sort((a, b) => won[b].length - won[a].length);
  const best = aud.length ? h('section', { class: 'jx-aud-best', 'aria-labelledby': 'jx-aud-best-title' },
    h('h2', { id: 'jx-aud-best-title' }, t('jinx.aud_best', { n: aud.length })),
    h('p', null, aud.slice(0, 8).map((b) => b.name).join(', '), aud.length > 8 ? ` +${aud.length - 8}` : '', ' · ',
      t('jinx.aud_right_n', { n: aud[0].right }))) : null;
  if (!ids.length) { box.replaceChildren(...(best ? [best] : [])); return; }
  box.replaceChildren(...(best ? [best] : []), h('section', { class: 'jx-recap', 'aria-labelledby': 'jx-recap-title' },
    h('h2', { id: 'jx-recap-title' }, t('jinx.recap_title')),
    h('ul', { class: 'jx-recap-list' }, ids.map((id) => {
      const p = player(app, id);
      return h('li', { class: 'jx-recap-row', style: { '--pc': p.color } },
        h('div', { class: 'jx-recap-who' }, h('span', { class: 'chip', 'aria-hidden': 'true', style: { '--pc': p.color } }, p.symbol || ''),
          h('span', { class: 'jx-recap-name' }, p.name), h('b', null, t('score.jinx', { n: won[id].length }))),
        won[id].length
          ? h('div', { class: 'jx-recap-faces', tabindex: '0', role: 'group', 'aria-label': `${p.name}: ${t('score.jinx', { n: won[id].length })}` },
            won[id].map((f) => face(app, f)))
          : null);
    }))));
}
