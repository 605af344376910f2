// Association's How to play pictures (common/howto.js draws the steps): the deck's own cards.
const C = ['#e4572e', '#2e86de', '#29bf12', '#f3a712'];

export const art = [
  // the storyteller picks a card and gives a clue
  ({ pic, card, bubble, chip }, app) => pic(
    card(app, 'a012', 28, 52, 56, 84, { rot: -14 }),
    card(app, 'a021', 144, 52, 56, 84, { rot: 14 }),
    card(app, 'a007', 84, 30, 64, 96, { ring: '#ffd23f' }),
    chip(40, 30, 14, C[0]),
    bubble(150, 6, 82, 40, '“ … ”', 24)),
  // everyone else adds a decoy, face down
  ({ pic, back, chip, arrow }) => pic(
    back(96, 50, 48, 70, { rot: -6 }), back(100, 48, 48, 70, { rot: 4 }),
    chip(30, 30, 14, C[1]), chip(30, 130, 14, C[2]), chip(210, 80, 14, C[3]),
    arrow(48, 38, 90, 62, '#fff', 0.1), arrow(48, 122, 92, 104, '#fff', -0.1), arrow(192, 80, 156, 82, '#fff', 0)),
  // the cards on the TV; vote for the storyteller's
  ({ pic, card, chip }, app) => pic(
    ...['a021', 'a007', 'a012', 'a033'].map((id, i) => card(app, id, 10 + i * 58, 50, 48, 72)),
    chip(92, 36, 11, C[1]), chip(116, 36, 11, C[2]),
    chip(150, 36, 11, C[3])),
  // the reveal: the storyteller's card and the points
  ({ pic, card, label }, app) => pic(
    card(app, 'a021', 14, 58, 44, 66, { rot: -6 }),
    card(app, 'a007', 84, 30, 66, 100, { ring: '#ffd23f' }),
    card(app, 'a012', 180, 58, 44, 66, { rot: 6 }),
    label(117, 150, '+3', 30), label(36, 50, '+1', 22, '#fff'), label(202, 50, '+1', 22, '#fff')),
];
