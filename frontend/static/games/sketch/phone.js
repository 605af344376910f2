// Sketch on a phone: the game module the shell loads. It keeps the round's state (state.js)
// and hands each view to its screen: drawing rounds (drawing.js), guessing rounds
// (guessing.js) or an audience phone (audience.js).
import { drawGallery } from './gallery.js';
import { S } from './state.js';
import { ackStrokes, refused, renderDrawing } from './drawing.js';
import { closeZoom, renderGuessing } from './guessing.js';
import { renderAudience } from './audience.js';

export { ready } from './board.js';

/** A tick's `stream` frame acknowledges our own strokes in `ack`; other frames are ignored. */
export function stream(frame) {
  ackStrokes(frame);
}

/** The results screen (room phase "over"): the gallery of every drawing. */
export function results(box, view, app) {
  drawGallery(box, view, app);
}

export function render(root, view, app) {
  app.onError(refused);
  S.app = app;
  S.view = view;
  const g = view.game;
  if (!g) return;
  const me = g.you;
  const key = `${g.phase}:${g.round}:${me ? 'p' : 'a'}`;
  if (root._key !== key) {
    root._key = key;
    root.className = 'game-root sk-phone';
    root.replaceChildren();
    S.gridKey = null;
    closeZoom();
    S.guessTiles.clear();
    S.pen = null;
    if (g.round !== S.round) { S.round = g.round; S.local.clear(); S.picking = false; }
    root._parts = null;
    root._aud = null;
    root._akey = null;
  }
  if (g.last && g.last.n > S.lastN) {
    const fresh = S.lastN > 0;
    S.lastN = g.last.n;
    if (fresh && g.last.type === 'board_won' && me && g.last.by.includes(app.you.id)) {
      const won = me.won.find((w) => w.player === g.last.player && w.board === g.last.board);
      if (won) app.toast(app.t('sketch.you_got', { word: won.word }), 'ok');
      app.vibrate([60, 40, 160]);
    }
  }
  if (!me) return renderAudience(root, view, app);
  sayGuesses(app, me);
  if (g.phase === 'drawing') return renderDrawing(root, view, app);
  return renderGuessing(root, view, app);
}

/** The live region: what the drawers made of your guesses (not it, close, far), and the
 * guesses others make on your drawings. A right guess is the "you got it" toast's. */
function sayGuesses(app, me) {
  const first = !S.heard;
  if (first) S.heard = new Map();
  const lines = [];
  for (const x of me.guesses.concat(me.asked)) {
    const own = me.asked.indexOf(x) < 0;
    const now = x.correct ? 'ok' : own ? x.feedback || 'wrong' : 'asked';
    if (S.heard.get(x.id) === now) continue;
    S.heard.set(x.id, now);
    if (!first && now !== 'ok') {
      lines.push(app.t(`sketch.heard_${now}`, { text: x.text, name: app.name(x.player) }));
    }
  }
  app.say(lines);
}
