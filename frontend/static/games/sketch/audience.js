// Sketch on an audience phone (issues 22, 31): in a guessing round one drawing large, ◀ ▶ and a strip of
// thumbnails to pick another, a guess field with a big button under the thumb. A guess is
// only recorded (`mine.reply`: {board, recorded, left}); whether it was right is told after
// the round, in the next drawing round's results (`game.audience`: who in the audience got
// which drawing, named guessers only). Only glory: no board, no point.
import { paint, paintIfChanged, boardCanvas } from './board.js';
import { S, head } from './state.js';

const A = S.aud;   // this module's part of the phone's state

/** The board number of the rules (seat index * 6 + board) of a view board. */
function boardNo(g, b) {
  const seat = g.players.findIndex((p) => p.id === b.player);
  return seat * (g.boards_per_player || 6) + b.board;
}

/** This phone's guesses in the open ballot ({board number: [texts]}), kept past its close
 * for the round's results. */
function myVotes(app) {
  const mine = (app.audience || {}).mine;
  if (mine && mine.ballot && mine.votes) A.said = { ballot: mine.ballot, votes: mine.votes };
  return A.said;
}

function guessesOn(votes, n) {
  const v = votes[String(n)];
  return Array.isArray(v) ? v.filter((x) => typeof x === 'string') : [];
}

function audienceRedraw() {
  const app = S.app;
  const root = A.root;
  if (!app || !root || !root.isConnected || !app.view || !app.view.game) return;
  const mine = (app.audience || {}).mine;
  if (mine && mine.reply && Number.isInteger(mine.reply.board) && mine.ref != null && mine.ref !== A.ref) {
    A.ref = mine.ref;
    app.vibrate(40);
    app.say(app.t('sketch.aud_recorded', { text: A.sent.get(mine.reply.board) || '' }));
  }
  renderAudience(root, app.view, app);
}

export function renderAudience(root, view, app) {
  const g = view.game;
  const h = app.h;
  A.root = root;
  if (app.onAudience) app.onAudience(audienceRedraw);
  if (A.round !== g.round) { A.round = g.round; A.sent.clear(); }
  const acts = app.gameActions(view).filter((a) => a.type === 'audience_guess');
  if (g.phase !== 'guessing' || !acts.length) return renderWatching(root, view, app);
  const open = new Set(acts.map((a) => a.board));
  const shown = g.boards.filter((b) => b.strokes && open.has(boardNo(g, b)));
  if (!shown.length) return renderWatching(root, view, app);
  const said = myVotes(app);
  const votes = said.ballot === view.room.audience_ballot ? said.votes : {};
  const most = g.audience_guesses || 3;
  const used = (b) => guessesOn(votes, boardNo(g, b)).length;
  if (!shown.some((b) => boardNo(g, b) === A.sel)) {
    const next = shown.find((b) => used(b) === 0) || shown[0];
    A.sel = boardNo(g, next);
  }
  if (!root._aud) {
    root._akey = null;
    const canvas = boardCanvas(h, 'sk-abig');
    const who = h('div', { class: 'sk-awho' });
    const prev = h('button', { class: 'btn big sk-anav', type: 'button', 'aria-label': app.t('sketch.aud_prev'), onclick: () => step(-1) }, '◀');
    const next = h('button', { class: 'btn big sk-anav', type: 'button', 'aria-label': app.t('sketch.aud_next'), onclick: () => step(1) }, '▶');
    const reply = h('p', { class: 'sk-areply', 'aria-live': 'off' });
    const input = h('input', { type: 'text', maxlength: 60, autocomplete: 'off', autocapitalize: 'off', enterkeyhint: 'send',
      class: 'sk-ainput', placeholder: app.t('sketch.placeholder'), 'aria-label': app.t('sketch.placeholder') });
    const send = h('button', { class: 'btn primary big sk-asend', type: 'submit' }, app.t('sketch.send'));
    const form = h('form', { class: 'sk-aform', onsubmit: (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text || A.sel == null) return;
      A.sent.set(A.sel, text);
      app.act({ type: 'audience_guess', board: A.sel, text });
      input.value = '';
    } }, input, send);
    const strip = h('div', { class: 'sk-astrip', role: 'group', 'aria-label': app.t('sketch.aud_boards') });
    root.replaceChildren(head(app, g), h('p', { class: 'sk-ahint' }, app.t('sketch.aud_hint')),
      h('div', { class: 'sk-astage' }, prev, h('div', { class: 'sk-abox' }, canvas, who), next), reply, form, strip);
    root._aud = { canvas, who, reply, form, input, send, strip, thumbs: new Map() };
  }
  const P = root._aud;
  function step(d) {
    const v = S.app.view;
    const gg = v.game;
    const list = gg.boards.filter((b) => b.strokes && new Set(S.app.gameActions(v).filter((a) => a.type === 'audience_guess').map((a) => a.board)).has(boardNo(gg, b)));
    const k = list.findIndex((b) => boardNo(gg, b) === A.sel);
    const b = list[(k + d + list.length) % list.length];
    if (b) { A.sel = boardNo(gg, b); renderAudience(root, v, S.app); }
  }
  // the strip of thumbnails (rebuilt when the boards on show change)
  const stripKey = shown.map((b) => boardNo(g, b)).join(',');
  if (P.strip._key !== stripKey) {
    P.strip._key = stripKey;
    P.thumbs.clear();
    P.strip.replaceChildren(...shown.map((b) => {
      const n = boardNo(g, b);
      const p = app.players.get(b.player);
      const c = boardCanvas(h, 'sk-athumb');
      const count = h('span', { class: 'sk-atick', 'aria-hidden': 'true' });
      const btn = h('button', { class: 'sk-athumbbtn', type: 'button', style: { '--pc': p ? p.color : '#888' },
        onclick: () => { A.sel = n; renderAudience(root, S.app.view, S.app); P.input.focus({ preventScroll: true }); } },
      h('span', { class: 'sr-only' }, `${app.name(b.player)} · ${app.t('sketch.board', { n: b.board + 1 })}`), c, count);
      P.thumbs.set(n, { btn, c, b, count });
      return btn;
    }));
  }
  for (const b of shown) {
    const t = P.thumbs.get(boardNo(g, b));
    if (!t) continue;
    requestAnimationFrame(() => paintIfChanged(t.c, b.strokes));
    t.btn.classList.toggle('sel', boardNo(g, b) === A.sel);
    t.btn.classList.toggle('got', used(b) > 0);     // guessed: how many of its guesses used
    t.count.textContent = used(b) ? `${used(b)}/${most}` : '';
    t.btn.setAttribute('aria-pressed', String(boardNo(g, b) === A.sel));
  }
  const b = shown.find((x) => boardNo(g, x) === A.sel);
  const p = app.players.get(b.player);
  requestAnimationFrame(() => paintIfChanged(P.canvas, b.strokes));
  const mineHere = guessesOn(votes, A.sel);
  const left = Math.max(0, most - mineHere.length);
  const key = JSON.stringify([A.sel, mineHere, left, app.lang]);
  if (root._akey !== key) {
    root._akey = key;
    P.who.replaceChildren(h('span', { class: 'chip', 'aria-hidden': 'true', style: { '--pc': p ? p.color : '#888' } }, p ? p.symbol : ''),
      h('b', null, app.name(b.player)), h('span', null, ` · ${app.t('sketch.board', { n: b.board + 1 })}`));
    P.who.parentNode.style.setProperty('--pc', p ? p.color : '#888');   // the drawer's colour frames it
    P.form.hidden = left === 0;
    P.reply.className = ['sk-areply', mineHere.length ? 'in' : ''].join(' ');
    const parts = [];
    if (mineHere.length) {
      parts.push(h('span', { class: 'sk-arec' }, app.t('sketch.aud_recorded', { text: mineHere[mineHere.length - 1] })));
      parts.push(h('span', { class: 'sk-aleft' }, left ? app.t('sketch.guesses_left', { n: left }) : app.t('sketch.none_left')));
      parts.push(h('span', { class: 'sk-alater' }, app.t('sketch.aud_later')));
    } else {
      parts.push(h('span', null, app.t('sketch.aud_type', { n: most })));
    }
    P.reply.replaceChildren(...parts);
  }
}

/** Drawing rounds (and nothing to guess): the round's results after its close, then the
 * drawings on show (none while they draw). */
function renderWatching(root, view, app) {
  const g = view.game;
  const h = app.h;
  root._aud = null;
  const last = g.audience && g.phase === 'drawing' && g.audience.ballot === `r${g.round - 1}` ? g.audience : null;
  const said = myVotes(app);
  const votes = last && said.ballot === last.ballot ? said.votes : {};
  const key = JSON.stringify([g.boards.map((b) => [b.status, (b.won_by || []).length]), last, votes, app.lang]);
  if (root._akey === key) return;
  root._akey = key;
  const shown = g.boards.filter((b) => b.strokes);
  root.replaceChildren(head(app, g), last ? audienceResults(app, g, last, votes) : '',
    h('p', { class: 'sk-wait' }, app.t('sketch.watch')),
    h('div', { class: 'sk-agrid' }, shown.map((b) => {
      const p = app.players.get(b.player);
      const c = boardCanvas(h, 'sk-acanvas');
      requestAnimationFrame(() => paint(c, b.strokes));
      return h('div', { class: ['sk-atile', (b.won_by || []).length && 'won'], style: { '--pc': p ? p.color : '#888' } }, c);
    })));
}

/** The name this phone guesses under: its pass's or its spectator seat's (null: anonymous). */
function myName(app) {
  if (app.audienceName) return app.audienceName;
  return app.you && app.you.id ? app.name(app.you.id) : null;
}

/** "Round 2: who got it": per drawing a player has won that a named voter got, or that this
 * phone guessed, the names (and "you"), and this phone's own guesses there. A drawing still
 * in play keeps its result until it is won or the game ends (the rules leave it out). */
function audienceResults(app, g, last, votes) {
  const h = app.h;
  const me = myName(app);
  const rows = new Map(last.boards.map((r) => [boardNo(g, r), r]));
  for (const n of Object.keys(votes)) {
    const k = Number(n);
    if (!rows.has(k) && guessesOn(votes, k).length) rows.set(k, { player: g.players[Math.floor(k / (g.boards_per_player || 6))]?.id, board: k % (g.boards_per_player || 6), n: 0, names: [] });
  }
  const mineGot = last.boards.filter((r) => me && r.names.includes(me)).length;
  const list = [...rows.keys()].sort((a, b) => a - b).map((k) => {
    const r = rows.get(k);
    const p = app.players.get(r.player);
    const more = r.n - r.names.length;
    const vb = g.boards.find((x) => x.player === r.player && x.board === r.board);
    const names = r.n ? (more > 0 ? `${r.names.join(', ')} +${more}` : r.names.join(', '))
      : vb && vb.status === 'won' ? '—' : app.t('sketch.aud_in_play');   // still in play: told later
    const yours = guessesOn(votes, k);
    const got = me && r.names.includes(me);
    return h('li', { class: ['sk-ares', got && 'got'] },
      h('span', { class: 'sk-aresby' }, h('span', { class: 'chip', 'aria-hidden': 'true', style: { '--pc': p ? p.color : '#888' } }, p ? p.symbol : ''),
        h('b', null, app.name(r.player)), ` · ${app.t('sketch.board', { n: r.board + 1 })}`),
      h('span', { class: 'sk-aresnames' }, got ? `✓ ${names}` : names),
      yours.length ? h('small', { class: 'sk-aresmine' }, app.t('sketch.aud_yours', { list: yours.join(', ') })) : '');
  });
  return h('section', { class: 'sk-aresults', 'aria-label': app.t('sketch.aud_results', { n: g.round - 1 }) },
    h('h3', null, app.t('sketch.aud_results', { n: g.round - 1 })),
    me ? h('p', { class: ['sk-aresme', mineGot ? 'ok' : ''] }, mineGot ? app.t('sketch.aud_you_got', { n: mineGot }) : app.t('sketch.aud_you_none')) : '',
    list.length ? h('ul', null, list) : h('p', { class: 'sk-wait' }, app.t('sketch.aud_nobody')));
}
