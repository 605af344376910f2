// klepka on the TV: the table of face-down cards (3D flips, chaos shuffle), the open
// collections and scores, the words as they are made (flying in with their points).
import { face, prizeAbout, PRIZE_UK } from './i18n.js';

export { ready } from './i18n.js';
import { chip } from '../../common/dom.js';
export { results } from './recap.js';

let K = null;   // the screen's persistent parts (kept across renders for the animations)

export function render(root, view, app) {
  const g = view.game;
  if (!g) return;
  const { h, t } = app;
  if (!K || K.root !== root || !root.contains(K.box) || K.size !== `${g.rows}x${g.cols}`) build(root, g, app);

  // ---- the table --------------------------------------------------------------------
  const chaos = g.chaos_no !== K.chaosNo && K.chaosNo != null;
  g.table.forEach((cell, i) => {
    const c = K.cells[i];
    const state = cell == null ? 'gone' : cell.down ? 'down' : 'up';
    const key = cell && !cell.down ? JSON.stringify(cell.card) : '';
    if (state === 'up' && c.key !== key) {
      c.front.replaceChildren(face(h, cell.card));
      c.key = key;
    }
    if (state !== c.state) {
      c.el.classList.toggle('up', state === 'up');
      c.el.classList.toggle('gone', state === 'gone');
      if (state === 'up') app.sound('tick');
      c.state = state;
    }
    const pending = g.flips && g.flips.pending.includes(cell && cell.ref);
    c.el.classList.toggle('pending', !!pending);
    c.el.classList.toggle('glow', g.phase === 'reveal' && state === 'up');
  });
  if (chaos) shuffle(app);
  K.chaosNo = g.chaos_no;
  K.grid.classList.toggle('revealing', g.phase === 'reveal');

  // ---- the status line ----------------------------------------------------------------
  const turnName = app.name(g.turn);
  const tp = app.players.get(g.turn);
  let status;
  if (g.phase === 'words') status = t('klepka.turn_words', { name: turnName });
  else if (g.phase === 'flips') status = t('klepka.turn_flips', { name: turnName });
  else if (g.phase === 'reveal') status = t('klepka.remember');
  else status = '';
  const sub = g.phase === 'flips' && g.flips ? t('klepka.pairs_left', { n: g.flips.pairs_left })
    : g.phase === 'words' ? t('klepka.turn_no', { n: g.turn_no }) : '';
  K.status.replaceChildren(
    chip(tp, 'big'),
    h('span', { class: 'ks-main' }, status),
    ...(sub ? [h('span', { class: 'ks-sub' }, sub)] : []));
  K.status.classList.toggle('reveal', g.phase === 'reveal');
  K.left.textContent = t('klepka.left', { n: g.on_table });
  if (K.turn !== g.turn) { if (K.turn != null) app.sound('turn'); K.turn = g.turn; }

  // ---- the players ---------------------------------------------------------------------
  K.players.replaceChildren(...g.order.map((seat) => playerBox(app, g, seat)));
  K.players.classList.toggle('many', g.order.length > 3);
  // what the prize cards in the players' hands do, one line each (issue 27)
  const kinds = ['polysemy', 'chaos', 'exchange'].filter((k) => g.order.some((seat) =>
    ((g.players[seat] || {}).hand || []).some((c) => c.kind === k)));
  K.prizes.replaceChildren(...kinds.map((k) => prizeAbout(app, k, null)));
  K.prizes.hidden = !kinds.length;
  // six players with full hands and a long headline leave no room on the screen for what each
  // does: then their names in one line, or none (every phone explains its own prize cards)
  const spills = () => K.prizes.getBoundingClientRect().bottom > document.documentElement.clientHeight;
  K.prizes.classList.remove('tight');
  if (kinds.length && spills()) {
    K.prizes.classList.add('tight');
    K.prizes.hidden = spills();
  }

  // ---- the words -------------------------------------------------------------------------
  const words = g.words.slice().reverse();
  K.words.replaceChildren(
    h('h3', null, t('klepka.words')),
    words.length ? h('ol', { class: 'kw-list' }, words.slice(0, 7).map((w) => {
      const p = app.players.get(w.seat);
      return h('li', { class: 'kw', style: { '--pc': p ? p.color : '#888' } },
        chip(p),
        h('span', { class: 'kw-word', lang: 'uk' }, w.word.toUpperCase()),
        w.double ? h('span', { class: 'kx2' }, '×2') : null,
        h('b', { class: 'kw-pts' }, `+${w.points}`));
    })) : h('p', { class: 'hint' }, t('klepka.no_words')));

  // the newest words that fit the box (the older ones leave from the bottom: none is cut)
  const items = [...K.words.querySelectorAll('.kw')];
  const over = () => K.words.scrollHeight > K.words.clientHeight + 1;
  for (let i = items.length - 1; i > 0 && over(); i -= 1) items[i].remove();
  // a box squeezed below its heading and newest word (six players and a prize's line) waits for
  // room rather than show them cut (issue 27); the words are on every phone too
  K.words.style.visibility = over() ? 'hidden' : '';

  // ---- what just happened (once per event) --------------------------------------------------
  const last = g.last;
  if (last && K.seq != null && last.seq > K.seq) event(app, g, last);
  K.seq = last ? last.seq : 0;
}

function build(root, g, app) {
  const { h } = app;
  const cells = [];
  const grid = h('div', { class: 'kt-grid', style: { '--rows': g.rows, '--cols': g.cols } });
  for (let i = 0; i < g.rows * g.cols; i += 1) {
    const front = h('div', { class: 'kc-front' });
    const el = h('div', { class: 'kc', dataset: { ref: `t${i}` } },
      h('div', { class: 'kc-in' },
        h('div', { class: 'kc-back', lang: 'uk' }, h('span', null, 'Клепка')),
        front));
    cells.push({ el, front, state: 'down', key: '' });
    grid.append(el);
  }
  const status = h('div', { class: 'k-status' });
  const left = h('div', { class: 'k-left' });
  const players = h('div', { class: 'k-players' });
  const words = h('div', { class: 'k-words' });
  const prizes = h('div', { class: 'k-prizes', hidden: true });
  const fx = h('div', { class: 'k-fx', 'aria-live': 'polite' });
  const box = h('div', { class: 'klepka-tv' },
    h('section', { class: 'k-tablebox' }, h('div', { class: 'k-felt' }, grid), left),
    h('aside', { class: 'k-side' }, status, players, prizes, words),
    fx);
  root.replaceChildren(box);
  K = { root, box, grid, cells, status, left, players, prizes, words, fx, size: `${g.rows}x${g.cols}`,
    chaosNo: g.chaos_no, seq: null, turn: null };
}

function playerBox(app, g, seat) {
  const { h, t } = app;
  const p = app.players.get(seat);
  const info = g.players[seat] || { hand: [], score: 0, points: 0, words: 0 };
  const hand = info.hand.slice().sort(order);
  return h('div', {
    class: ['kp-box', seat === g.turn && 'turn', p && !p.connected && !p.standin && 'away'],
    style: { '--pc': p ? p.color : '#888' },
    dataset: { seat },
  },
  h('div', { class: 'kp-head' },
    chip(p),
    app.standin(h('span', { class: 'kp-name' }, p ? p.name : seat), p),
    h('b', { class: 'kp-score' }, String(info.score))),
  h('div', { class: 'kp-hand' }, hand.length ? hand.map((c) => face(h, c, 'mini'))
    : h('span', { class: 'kp-empty' }, t('klepka.empty_hand'))));
}

function order(a, b) {
  const ka = a.kind === 'letter' ? 0 : 1;
  const kb = b.kind === 'letter' ? 0 : 1;
  if (ka !== kb) return ka - kb;
  return (a.letter || a.kind).localeCompare(b.letter || b.kind, 'uk');
}

function shuffle(app) {
  const { h, t } = app;
  K.grid.classList.remove('chaos');
  for (const c of K.cells) {
    c.el.style.setProperty('--dx', `${Math.round((Math.random() - 0.5) * 360)}%`);
    c.el.style.setProperty('--dy', `${Math.round((Math.random() - 0.5) * 360)}%`);
    c.el.style.setProperty('--rz', `${Math.round((Math.random() - 0.5) * 120)}deg`);
  }
  void K.grid.offsetWidth;   // restart the animation
  K.grid.classList.add('chaos');
  setTimeout(() => K && K.grid.classList.remove('chaos'), 1400);
  banner(app, h('div', { class: 'k-banner chaos-b' }, '🌀 ', t('klepka.chaos')), 1800);
  app.sound('reveal');
}

function banner(app, el, ms) {
  K.fx.append(el);
  setTimeout(() => el.remove(), ms);
}

function event(app, g, last) {
  const { h, t } = app;
  if (last.type === 'word_made') {
    flyWord(app, last);
  } else if (last.type === 'pair_taken') {
    app.sound('reveal');
    banner(app, h('div', { class: 'k-banner pair-b', lang: 'uk' }, t('klepka.pair', { letter: last.letter.toUpperCase() })), 1500);
  } else if (last.type === 'prize_taken') {
    app.sound('reveal');
    banner(app, h('div', { class: 'k-banner prize-b' }, face(h, last.card, 'big'),
      h('span', null, t('klepka.prize', { name: app.name(last.seat) })),
      h('span', { class: 'prize-name', lang: 'uk' }, `— ${PRIZE_UK[last.card.kind] || ''}`)), 1800);
  } else if (last.type === 'cards_exchanged') {
    banner(app, h('div', { class: 'k-banner' }, '⇄ ', t('klepka.exchanged', { a: app.name(last.seat), b: app.name(last.with) })), 2000);
  } else if (last.type === 'game_ended' && last.reason === 'slava') {
    banner(app, h('div', { class: 'k-banner slava-b', lang: 'uk' }, t('klepka.slava')), 4000);
  }
}

/** The accepted word pops up big in the middle, then flies to its player's box. */
function flyWord(app, w) {
  const { h } = app;
  const letters = [...w.word].map((ch) => h('span', { class: 'kf-l' }, ch.toUpperCase()));
  const el = h('div', { class: 'k-fly', lang: 'uk' },
    h('div', { class: 'kf-word' }, letters),
    h('div', { class: 'kf-pts' }, `+${w.points}`, w.double ? h('span', { class: 'kx2 big' }, '×2') : null));
  K.fx.append(el);
  app.sound(w.double ? 'win' : 'reveal');
  const target = K.players.querySelector(`[data-seat="${CSS.escape(w.seat)}"]`);
  setTimeout(() => {
    if (!target || !el.animate) { el.remove(); return; }
    const a = el.getBoundingClientRect();
    const b = target.getBoundingClientRect();
    const dx = b.left + b.width / 2 - (a.left + a.width / 2);
    const dy = b.top + b.height / 2 - (a.top + a.height / 2);
    const anim = el.animate([
      { transform: 'translate(-50%, -50%) scale(1)', opacity: 1 },
      { transform: `translate(calc(-50% + ${dx}px), calc(-50% + ${dy}px)) scale(.2)`, opacity: 0.2 },
    ], { duration: 700, easing: 'cubic-bezier(.5,0,.8,.4)', fill: 'forwards' });
    anim.onfinish = () => {
      el.remove();
      target.classList.remove('bump');
      void target.offsetWidth;
      target.classList.add('bump');
    };
  }, 1900);
}
