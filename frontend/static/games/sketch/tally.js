// How each final score came about (issue 27: the results explain the penalties): +1 for each
// drawing of another player guessed, −1 for each own board still held at the end (blank or
// not guessed), from the outcome's `won` and `boards_left` (room.results).
import { chip } from '../../common/dom.js';

export function scoreTally(view, app) {
  const res = view.room.results || {};
  const won = res.won || {};
  const left = res.boards_left || {};
  const scores = res.scores || {};
  const players = view.room.players.filter((p) => p.id in left)
    .sort((a, b) => (scores[b.id] || 0) - (scores[a.id] || 0));
  if (!players.length) return null;
  const h = app.h;
  const id = `sk-tally-title-${app.page}`;
  return h('section', { class: 'sk-tally', 'aria-labelledby': id },
    h('h2', { id }, app.t('sketch.tally_title')),
    h('p', { class: 'sk-tally-rule' }, app.t('sketch.tally_rule')),
    h('ul', null, players.map((p) => h('li', { title: p.name },
      chip(p), h('span', { class: 'sk-tally-name' }, p.name),
      h('span', { class: 'sk-tally-sum' }, app.t('sketch.tally_sum',
        { won: won[p.id] || 0, left: left[p.id], score: signed(scores[p.id] || 0) }))))));
}

/** A score as it is printed: a true minus sign for a negative one ("−4"). */
function signed(n) {
  return n < 0 ? `\u2212${-n}` : String(n);
}
