// Jinx on the TV: the 3x3 square large, fingers landing in player colours, "JINX!" on
// collisions (a public notice frame), the reveal of the target, cards flying to their new
// owners, and the score column. The audience (issue 22): "N in the audience predicted" during
// the race (the tally's count, never which cards), how many got it at the reveal.
import { ink } from '../ink.js';
import { chip } from '../../common/dom.js';
import { widest } from '../../common/fit.js';
import { face, table, player, finger, isSynthetic, put } from './board.js';

export { ready } from './board.js';

const S = { root: null };

function build(root, app) {
  const h = app.h;
  S.root = root;
  S.cells = [];
  S.keys = Array(9).fill(null);
  S.revealed = null;        // turn number of the reveal already animated
  S.gone = { turn: null, slots: new Set() };   // slots whose card has flown away
  S.phase = null;
  S.fingerKeys = Array(9).fill(null);
  S.turn = null;
  S.side = h('section', { class: 'jx-side' });
  S.board = h('section', { class: 'jx-board' });
  for (let i = 0; i < 9; i += 1) {
    const cell = h('div', { class: 'jx-cell', dataset: { slot: String(i) } });
    S.cells.push(cell);
    S.board.append(cell);
  }
  S.scores = h('section', { class: 'jx-scores' });
  S.note = h('p', { class: 'jx-note', hidden: true });
  S.aud = h('p', { class: 'jx-aud', 'aria-live': 'polite', hidden: true });
  root.replaceChildren(h('div', { class: 'jx-tv' }, S.side, h('div', { class: 'jx-board-wrap' }, S.board, S.note), S.scores));
}

export function render(root, view, app) {
  if (S.root !== root || !root.firstChild) build(root, app);
  const game = view.game;
  if (!game) return;
  S.app = app;
  if (app.onAudience) app.onAudience(drawAudience);
  const tab = table(game);
  drawAudience();
  const newTurn = S.turn !== game.turn;
  drawCells(app, game, tab, newTurn);
  drawSide(app, game, tab);
  drawScores(app, view, game, tab);
  S.note.hidden = false;
  S.note.textContent = app.t(isSynthetic(game) ? 'jinx.synthetic' : 'jinx.credits');
  if (game.phase !== S.phase) {
    if (game.phase === 'race') app.sound('turn');
    if (game.phase === 'reveal') app.sound('reveal');
  }
  if (tab.reveal && S.revealed !== tab.last.turn) {
    S.revealed = tab.last.turn;
    const moves = tab.last.moves;
    clearTimeout(S.flyTimer);
    S.flyTimer = setTimeout(() => fly(app, moves, tab.last), 1300);
  }
  S.phase = game.phase;
  S.turn = game.turn;
}

/** The audience's line under the square: how many predicted (race), how many got it (reveal). */
function drawAudience() {
  const app = S.app;
  const view = app && app.view;
  const game = view && view.game;
  if (!game || !S.aud) return;
  const tally = (app.audience || {}).tally;
  let text = null;
  let anon = 0;     // anonymous predictions: a count apart, never right or wrong (issue 31)
  if (game.phase === 'race' && tally && tally.summary) {
    if (tally.summary.predicted > 0) text = app.t('jinx.aud_count', { n: tally.summary.predicted });
    anon = tally.anonymous || 0;
  } else if (game.phase !== 'race' && game.phase !== 'clue' && game.last && game.last.audience) {
    const crowd = game.last.audience;
    if (crowd.predicted > 0) text = app.t('jinx.aud_got', { n: crowd.right, m: crowd.predicted });
    anon = crowd.anonymous || 0;
  }
  const extra = anon > 0 ? app.t('audience.anonymous', { n: anon }) : null;
  const key = `${text}|${extra}`;
  S.aud.hidden = !text && !extra;
  if (!S.aud.hidden && S.audKey !== key) {
    S.audKey = key;
    S.aud.replaceChildren(...[text, extra && app.h('span', { class: 'aud-anon' }, extra)].filter(Boolean));
    S.aud.classList.remove('bump'); void S.aud.offsetWidth; S.aud.classList.add('bump');
  }
}

function drawCells(app, game, tab, newTurn) {
  const h = app.h;
  for (let i = 0; i < 9; i += 1) {
    const cell = S.cells[i];
    const id = tab.grid[i];
    const gone = !tab.reveal && id == null;
    const key = `${id}|${gone}`;
    if (S.keys[i] !== key) {
      const fresh = S.keys[i] !== null && id != null;
      S.keys[i] = key;
      cell.replaceChildren(
        h('div', { class: ['jx-card', fresh && 'flip'] }, face(app, id), h('span', { class: 'jx-num' }, String(i + 1))),
        h('div', { class: 'jx-fingers' }),
      );
    }
    const f = tab.fingers[i];
    const fkey = f ? `${f.player}|${f.right}|${tab.reveal}` : null;
    if (S.fingerKeys[i] !== fkey) {
      const box = cell.querySelector('.jx-fingers');
      put(box, f ? finger(app, f, 'pop') : null);
      if (f && !tab.reveal) app.sound('tick');
      S.fingerKeys[i] = fkey;
    }
    cell.classList.toggle('empty', id == null);
    cell.classList.toggle('target', tab.reveal && tab.target === i);
    cell.classList.toggle('missed', tab.reveal && tab.target === i && !tab.last.finder);
    cell.classList.toggle('taken', !!f && !tab.reveal);
    cell.classList.toggle('dim', tab.reveal && tab.target !== i);
    cell.classList.toggle('gone', tab.reveal && S.gone.turn === tab.last.turn && S.gone.slots.has(i));
  }
  S.board.classList.toggle('racing', game.phase === 'race');
}

function drawSide(app, game, tab) {
  const h = app.h;
  const t = app.t;
  const act = player(app, tab.reveal ? tab.last.active : game.active);
  let head;
  let body;
  let status;
  if (tab.reveal) {
    const L = tab.last;
    head = h('div', { class: 'jx-who' }, chip(act, 'big'),
      h('span', null, t('jinx.giver', { name: act.name })));
    body = clueBox(app, L.clue);
    if (L.finder) {
      const f = player(app, L.finder);
      status = h('div', { class: 'jx-status found reveal', style: { '--pc': f.color, '--pc-ink': ink(f.color) } }, t('jinx.found', { name: f.name }));
    } else {
      status = h('div', { class: 'jx-status nobody reveal' }, L.timed_out ? `${t('jinx.timeout')} · ${t('jinx.nobody')}` : t('jinx.nobody'));
    }
  } else if (game.phase === 'clue') {
    head = h('div', { class: 'jx-who' }, chip(act, 'big'),
      h('span', null, t('jinx.giver', { name: act.name })));
    body = h('div', { class: 'jx-clue waiting' }, h('span', { class: 'jx-dots' }, '…'));
    status = h('div', { class: 'jx-status' }, t('jinx.thinking', { name: act.name }));
  } else {
    head = h('div', { class: 'jx-who' }, chip(act, 'big'),
      h('span', null, t('jinx.giver', { name: act.name })));
    body = clueBox(app, game.clue);
    status = h('div', { class: 'jx-status race' }, h('b', null, t('jinx.race')), h('span', null, t('jinx.race_hint')));
  }
  const key = JSON.stringify([game.phase, game.turn, game.clue, tab.last && tab.last.turn, app.lang, act.id, act.name]);
  if (S.sideKey !== key) {
    S.sideKey = key;
    S.side.replaceChildren(
      h('div', { class: 'jx-turn' }, t('jinx.turn', { n: tab.reveal ? tab.last.turn : game.turn })),
      head, body, status,
      h('div', { class: 'jx-piles' },
        h('div', { class: 'jx-pile deck', dataset: { pile: 'deck' } }, h('span', null, t('jinx.deck', { n: game.deck }))),
        h('div', { class: 'jx-pile discard', dataset: { pile: 'discard' } }, h('span', null, t('jinx.discard')))),
    );
  } else {
    const n = S.side.querySelector('.jx-pile.deck');
    if (n) n.replaceChildren(h('span', null, t('jinx.deck', { n: game.deck })));
  }
}

function clueBox(app, clue) {
  const h = app.h;
  if (clue == null) return h('div', { class: 'jx-clue waiting' }, '…');
  if (clue === '') return h('div', { class: 'jx-clue spoken pop' }, h('span', { class: 'jx-clue-label' }, app.t('jinx.clue')), app.t('jinx.spoken'));
  return h('div', { class: 'jx-clue pop' }, h('span', { class: 'jx-clue-label' }, app.t('jinx.clue')), h('span', { class: 'jx-clue-text', style: { '--ems': widest(clue) } }, clue),
    app.hideButton({ text: clue }));
}

function drawScores(app, view, game, tab) {
  const h = app.h;
  const out = new Set(game.phase === 'race' ? game.out : []);
  const activeId = tab.reveal ? tab.last.active : game.active;
  const rows = view.room.players.map((p) => h('div', {
    class: ['jx-score', p.id === activeId && 'active', out.has(p.id) && 'out', !p.connected && !p.standin && 'away'],
    style: { '--pc': p.color }, dataset: { player: p.id },
  },
  chip(p),
  app.standin(h('span', { class: 'jx-score-name' }, p.name), p),
  out.has(p.id) ? h('span', { class: 'jx-tag' }, app.t('jinx.out')) : null,
  h('span', { class: 'jx-score-n' }, String((game.won || {})[p.id] ?? p.score ?? 0))));
  // the audience's line sits under the scores (the square keeps the screen's height)
  S.scores.replaceChildren(h('h3', { class: 'jx-scores-title' }, app.t('jinx.cards')), ...rows, S.aud);
}

/** The reveal: every card of last.moves flies from where it was to where it goes. */
function fly(app, moves, last) {
  if (!S.root || !S.root.isConnected) return;
  moves.forEach((m, k) => {
    let from;
    if (m.from === 'grid') {
      const slot = last.grid.indexOf(m.face);
      from = S.cells[slot] && S.cells[slot].querySelector('.jx-card');
      setTimeout(() => {
        if (S.gone.turn !== last.turn) S.gone = { turn: last.turn, slots: new Set() };
        S.gone.slots.add(slot);
        const view = app.view;
        if (S.cells[slot] && view && view.game && view.game.phase !== 'clue' && view.game.phase !== 'race') S.cells[slot].classList.add('gone');
      }, 250 + k * 180);
    } else {
      from = S.scores.querySelector(`[data-player="${cssId(m.from)}"]`);
    }
    const to = m.to === 'discard' || m.to === 'deck'
      ? S.side.querySelector(`[data-pile="${m.to}"]`)
      : S.scores.querySelector(`[data-player="${cssId(m.to)}"] .chip`);
    if (!from || !to) return;
    const a = from.getBoundingClientRect();
    const b = to.getBoundingClientRect();
    const w = Math.min(a.width, 220);
    const hgt = w * 1.5;
    const ghost = app.h('div', { class: 'jx-ghost' }, face(app, m.face));
    Object.assign(ghost.style, { left: `${a.left + (a.width - w) / 2}px`, top: `${a.top + (a.height - hgt) / 2}px`, width: `${w}px`, height: `${hgt}px` });
    document.body.append(ghost);
    const dx = b.left + b.width / 2 - (a.left + a.width / 2);
    const dy = b.top + b.height / 2 - (a.top + a.height / 2);
    const anim = ghost.animate([
      { transform: 'translate(0,0) scale(1) rotate(0deg)', opacity: 1 },
      { transform: `translate(${dx * 0.5}px, ${dy * 0.5 - 60}px) scale(.7) rotate(-8deg)`, opacity: 1, offset: 0.5 },
      { transform: `translate(${dx}px, ${dy}px) scale(.18) rotate(6deg)`, opacity: 0.2 },
    ], { duration: 900, delay: k * 180, easing: 'cubic-bezier(.5,0,.3,1)', fill: 'both' });
    anim.onfinish = () => {
      ghost.remove();
      const row = to.closest('.jx-score, .jx-pile');
      if (row) { row.classList.remove('bump'); void row.offsetWidth; row.classList.add('bump'); }
    };
  });
}

function cssId(id) {
  return String(id).replace(/["\\]/g, '\\$&');
}

/** Frames other than views: a public refusal ("notice") shows the JINX! collision. */
export function stream(frame, app) {
  if (!frame || frame.t !== 'notice' || !S.root) return;
  const d = frame.d || {};
  if (d.code !== 'jinx') return;
  const slot = d.action && Number.isInteger(d.action.slot) ? d.action.slot : null;
  const cell = slot != null ? S.cells[slot] : null;
  const p = player(app, d.player);
  app.sound('error');
  const burst = app.h('div', { class: 'jx-burst', style: { '--pc': p.color, '--pc-ink': ink(p.color) } },
    app.h('span', { class: 'jx-burst-word' }, app.t('jinx.shout')),
    app.h('span', { class: 'jx-burst-name' }, p.name));
  (cell || S.board).append(burst);
  if (cell) { cell.classList.remove('shake'); void cell.offsetWidth; cell.classList.add('shake'); }
  setTimeout(() => burst.remove(), 1600);
}

export { results } from './recap.js';   // the results screen's recap
