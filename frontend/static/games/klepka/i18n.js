// klepka's card faces and names (the cards stay Ukrainian whatever the interface speaks). Its
// strings are data files, i18n/<lang>.js (err.klepka.<code>: the rules' refusals); the option
// labels (opt.*, choice.table.*) are in common/i18n/<lang>.js, where the lobby picker finds them.
import { sheet } from '../../common/sheet.js';

// The Ukrainian alphabet, for the polysemy letter picker (the cards speak Ukrainian).
export const ALPHABET = 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя'.split('');

export const PRIZE_ICON = { polysemy: '✱', chaos: '🌀', exchange: '⇄' };
// The names on the prize cards themselves are Ukrainian, like the letters.
export const PRIZE_UK = { polysemy: 'багатозначність', chaos: 'хаос', exchange: 'обмін' };

/** The game's stylesheet applied (common/sheet.js): the shell draws the game after it. */
export const ready = sheet(new URL('./klepka.css', import.meta.url).href);

/** A card face: a letter tile (colour, letter, points) or a prize card. */
export function face(h, card, extra) {
  if (!card) return h('span', { class: ['kface', 'blank', extra] });
  if (card.kind === 'letter') {
    // the space between letter and points: the tile's text reads "А 1", as its name does
    // (WCAG 2.5.3, axe's label-content-name-mismatch); the face is a grid, the space takes no room
    return h('span', { class: ['kface', 'letter', `col-${card.colour}`, extra], lang: 'uk' },
      h('span', { class: 'kl' }, card.letter.toUpperCase()), ' ',
      h('span', { class: 'kp' }, String(card.points)));
  }
  return h('span', { class: ['kface', 'prize', `prize-${card.kind}`, extra], lang: 'uk' },
    h('span', { class: 'ki' }, PRIZE_ICON[card.kind] || '?'),
    h('span', { class: 'kn' }, PRIZE_UK[card.kind] || card.kind));
}

/** A prize card's short name (in the interface's language) and what it does, in one line
 * (issue 27): under the card in a phone's hand, and on the TV for the prizes in play. */
export function prizeAbout(app, kind, id) {
  const { h, t } = app;
  return h('p', { class: 'k-about', id },
    h('span', { class: 'k-about-ico', 'aria-hidden': 'true' }, PRIZE_ICON[kind] || '?'), ' ',
    h('b', null, t(`klepka.kind.${kind}`)), h('span', { class: 'k-about-what' }, ': ', t(`klepka.about.${kind}`)));
}
