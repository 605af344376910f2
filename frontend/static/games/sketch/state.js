// Sketch on a phone: the one state object its modules share (phone.js, drawing.js,
// guessing.js, audience.js) and the header every screen starts with.

export const S = {
  app: null,
  view: null,
  round: null,
  board: null,            // selected board index (drawing)
  picking: false,         // word picker open
  color: '#000',
  width: 4,
  local: new Map(),       // board -> {word, strokes} (the drawer's own model in a drawing round)
  pen: null,              // {board, stroke, queue, sent}
  timer: 0,
  pending: new Map(),     // ref -> sent at (ms): stroke acknowledgements
  dirty: new Set(),       // boards to reload from the next view (a refused stroke)
  guessTiles: new Map(),  // "owner:board" -> tile parts
  gridKey: null,
  lastN: 0,
  zoom: null,
  heard: null,            // guess id -> what the live region last said of it (sayGuesses)
  // an audience phone (audience.js): the board on show, its guesses sent this round, the
  // last reply said, the round they belong to, its root, and its votes kept past the close
  aud: { sel: null, sent: new Map(), ref: null, round: null, root: null, said: { ballot: null, votes: {} } },
};

/** The header of every screen: drawing or guessing now, the round, and what comes next. */
export function head(app, g) {
  const kind = g.phase === 'drawing' ? app.t('sketch.draw_now') : app.t('sketch.guess_now');
  const next = g.round >= g.rounds ? app.t('sketch.last_round')
    : app.t(g.next === 'drawing' ? 'sketch.next_draw' : 'sketch.next_guess');
  return app.h('div', { class: 'sk-head' },
    app.h('span', { class: ['sk-kind', `sk-${g.phase}`] }, kind),
    app.h('span', { class: 'sk-round' }, app.t('sketch.round', { n: g.round, total: g.rounds })),
    app.h('span', { class: 'sk-next' }, next));
}
