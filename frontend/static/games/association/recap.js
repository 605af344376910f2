// The results screen's recap (the shell's results hook): every turn's clue beside the
// storyteller's card, who found it and who fell for whose card. The data is the outcome's
// `recap` (room.results), public once the game is over. Above it the audience's award
// (issue 22): the players whose cards drew the most audience votes (results.audience).
import { face, avatar, player } from './board.js';
import { pageThrough } from '../../common/pages.js';

export function results(box, view, app) {
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
  // the TV shows the players of a line as avatars (their names are read out for a screen
  // reader): a story with a full table's names stays a few lines high (issue 27)
  const tv = app.page === 'tv';
  const who = (key, args, ids) => (tv
    ? [t(key, { ...args, names: '' }).trim(), ' ', h('span', { class: 'as-recap-avs' }, ids.map((id) => avatar(app, id, 'small'))),
      h('span', { class: 'as-sr' }, names(ids))]
    : t(key, { ...args, names: names(ids) }));
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
          ? who('association.recap_found', {}, r.found) : t('association.recap_nobody')),
        [...byOwner].map(([by, voters]) => h('div', { class: 'as-recap-line fooled' },
          who('association.recap_fooled', { name: player(app, by).name }, voters))),
        r.audience && (r.audience.voters || r.audience.anonymous) ? h('div', { class: 'as-recap-line crowd' }, '👥 ',
          [r.audience.voters ? t('association.aud_found', { found: r.audience.found, n: r.audience.voters }) : '',
            r.audience.anonymous ? t('audience.anonymous', { n: r.audience.anonymous }) : ''].filter(Boolean).join(' · ')) : null));
  });
  const count = tv ? h('span', { class: 'tv-pages-count', 'aria-hidden': 'true', hidden: true }) : null;
  // a phone's list scrolls (a tab stop, so a keyboard can scroll it); the TV's pages through
  const list = h('ol', { class: 'as-recap-list', tabindex: tv ? null : '0', 'aria-labelledby': 'as-recap-title' }, items);
  box.replaceChildren(h('section', { class: ['as-recap', tv && 'tv-pages'], 'aria-labelledby': 'as-recap-title' },
    h('div', { class: 'as-recap-head tv-pages-head' }, h('h2', { id: 'as-recap-title' }, t('association.recap_title')), award, count),
    list));
  if (tv) pageThrough(list, { counter: count });
}
