// The results screen's recap (the shell's results hook): every turn's clue beside the
// storyteller's card, who found it and who fell for whose card. The data is the outcome's
// `recap` (room.results), public once the game is over. Above it the audience's award
// (issue 22): the players whose cards drew the most audience votes (results.audience).
import { setup, face, avatar, player } from './board.js';

export function results(box, view, app) {
  setup(app);
  const { h, t } = app;
  const res = view.room.results || {};
  const turns = res.recap || [];
  const fav = (res.audience && res.audience.favourite) || [];
  const key = JSON.stringify([turns.length, res.turns, fav, app.lang]);
  if (box._recap === key) return;
  box._recap = key;
  // the award rides in the recap's heading row (no height of its own on a full TV)
  const award = fav.length ? h('section', { class: 'as-award', 'aria-labelledby': 'as-award-title' },
    h('h3', { id: 'as-award-title' }, '👥 ', t('association.aud_favourite')),
    h('div', { class: 'as-award-who' }, fav.map((id) => h('span', { class: 'as-award-p' },
      avatar(app, id, 'small'), h('span', null, player(app, id).name)))),
    h('div', { class: 'as-award-n' }, t('association.aud_votes', { n: res.audience.votes[fav[0]] || 0 }))) : null;
  if (!turns.length) { box.replaceChildren(...[award].filter(Boolean)); return; }
  const game = view.game || {};
  const names = (ids) => ids.map((id) => player(app, id).name).join(', ');
  const items = turns.map((r) => {
    const tp = player(app, r.storyteller);
    const byOwner = new Map();
    for (const f of r.fooled) {
      if (!byOwner.has(f.by)) byOwner.set(f.by, []);
      byOwner.get(f.by).push(f.voter);
    }
    return h('li', { class: ['as-recap-turn', `case-${r.case}`] },
      h('div', { class: 'as-recap-card' }, h('div', { class: 'as-card' }, face(app, game, r.story_card))),
      h('div', { class: 'as-recap-txt' },
        h('div', { class: 'as-recap-who' }, avatar(app, r.storyteller, 'small'), h('span', null, tp.name)),
        h('div', { class: 'as-recap-clue' }, r.clue ? `“${r.clue}”` : `🗣 ${t('association.spoken')}`),
        h('div', { class: 'as-recap-line found' }, r.found.length
          ? t('association.recap_found', { names: names(r.found) }) : t('association.recap_nobody')),
        [...byOwner].map(([by, voters]) => h('div', { class: 'as-recap-line fooled' },
          t('association.recap_fooled', { name: player(app, by).name, names: names(voters) }))),
        r.audience && r.audience.voters ? h('div', { class: 'as-recap-line crowd' }, '👥 ',
          t('association.aud_found', { found: r.audience.found, n: r.audience.voters })) : null));
  });
  box.replaceChildren(h('section', { class: 'as-recap', 'aria-labelledby': 'as-recap-title' },
    h('div', { class: 'as-recap-head' }, h('h2', { id: 'as-recap-title' }, t('association.recap_title')), award),
    // a scrollable list is a tab stop, so a keyboard can scroll it
    h('ol', { class: 'as-recap-list', tabindex: '0', 'aria-labelledby': 'as-recap-title' }, items)));
}
