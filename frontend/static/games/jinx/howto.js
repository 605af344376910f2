// Jinx's How to play pictures (common/howto.js draws the steps): nine of the deck's pictures.
const IDS = ['a003', 'a011', 'a019', 'a027', 'a035', 'a043', 'a051', 'a059', 'a067'];
const TARGET = 4;

function square({ card, svg }, app, x, y, size, mark) {
  const s = size / 3;
  return svg('g', null, IDS.map((id, i) => card(app, id, x + (i % 3) * s + 2, y + Math.floor(i / 3) * s + 2, s - 4, s - 4,
    { ring: mark && mark[i] ? mark[i] : null })));
}

export const art = [
  // the active player's phone marks the target in red
  ({ pic, phone, svg }) => pic(
    phone(80, 4, 80, 152, ...[0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => svg('rect', {
      x: 92 + (i % 3) * 19, y: 46 + Math.floor(i / 3) * 19, width: 16, height: 16, rx: 3,
      fill: i === TARGET ? '#e4572e' : '#6d66a8' })))),
  // a clue, spoken or typed
  (kit, app) => kit.pic(square(kit, app, 8, 26, 120), kit.bubble(132, 30, 100, 46, '“ … ”', 26), kit.chip(150, 112, 15, '#f3a712')),
  // the race: first finger holds the card; a second one is jinxed
  (kit, app) => kit.pic(square(kit, app, 88, 8, 144, { 2: '#2e86de', 4: '#29bf12' }),
    kit.tap(160, 80, '#29bf12'), kit.tap(208, 32, '#2e86de'), kit.label(44, 88, app.t('jinx.shout'), 18, '#ff5a5d', 80)),
  // the finder takes the card, the active player the wrong picks
  (kit, app) => kit.pic(
    kit.card(app, IDS[TARGET], 92, 40, 56, 56, { ring: '#29bf12' }), kit.card(app, IDS[2], 28, 12, 40, 40, { ring: '#2e86de', rot: -8 }),
    kit.chip(206, 120, 16, '#29bf12'), kit.chip(36, 128, 16, '#f3a712'),
    kit.arrow(150, 88, 192, 114, '#29bf12', 0.15), kit.arrow(46, 58, 38, 106, '#f3a712', 0.2), kit.label(206, 96, '+1', 22)),
];
