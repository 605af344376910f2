// Association on the TV: the scoreboard. A pill per player (avatar, name, points); at the
// reveal the points hold until the voter chips have landed (K.hold, set by tv.js), then the
// gains pop in.
import { player, avatar } from './board.js';

/** Draw the pills into K.scores; K is the TV's screen parts (tv.js: build). */
export function drawScores(K, app, g, popGains) {
  if (!g) return;
  const { h } = app;
  const L = g.last;
  const holding = g.phase === 'reveal' && L && K.holdTurn === L.turn && Date.now() < K.hold;
  const order = g.players.map((p) => p.id);
  const lead = Math.max(...g.players.map((p) => p.score));
  const kids = [];
  for (const p of g.players) {
    let pill = K.pills.get(p.id);
    if (!pill) {
      const num = h('b', { class: 'as-pill-n' });
      const gain = h('span', { class: 'as-gain' });
      const name = h('span', { class: 'as-pill-name' });
      const standin = h('span', { class: 'as-pill-standin' });
      const el = h('div', { class: 'as-pill', dataset: { seat: p.id } }, avatar(app, p.id), name, standin, num, gain);
      pill = { el, num, gain, name, standin };
      K.pills.set(p.id, pill);
    }
    const pl = player(app, p.id);
    const got = L && g.phase === 'reveal' ? (L.gains[p.id] || 0) : 0;
    pill.name.textContent = pl.name;
    pill.el.style.setProperty('--pc', pl.color);
    pill.num.textContent = String(holding ? p.score - got : p.score);
    pill.el.classList.toggle('teller', p.id === g.storyteller);
    pill.el.classList.toggle('away', !pl.connected && !pl.standin);
    pill.standin.replaceChildren(...[app.standin(null, pl)].filter(Boolean));
    pill.el.classList.toggle('lead', !holding && lead > 0 && p.score === lead);
    if (popGains && got > 0) {
      pill.gain.textContent = `+${got}`;
      pill.gain.classList.remove('show'); void pill.gain.offsetWidth; pill.gain.classList.add('show');
      pill.el.classList.remove('bump'); void pill.el.offsetWidth; pill.el.classList.add('bump');
    } else if (g.phase !== 'reveal') {
      pill.gain.classList.remove('show');
      pill.el.classList.remove('bump');
    }
    kids.push(pill.el);
  }
  if (order.join() !== K.order) { K.order = order.join(); K.scores.replaceChildren(...kids); }
  K.scores.classList.toggle('many', kids.length > 8);
}
