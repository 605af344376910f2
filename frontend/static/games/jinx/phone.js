// Jinx on the phone: the 3x3 mirror of the square. The active player sees the target in gold
// and sends the clue; a guesser taps a card to put a finger on it (only the slots offered in
// view.actions are live). A tap on a card that cannot be picked zooms it. A refused pick
// (a jinx: another finger was first) shakes the card, through app.onError.
// An audience phone (issue 22) taps a card to predict the target during the race: one tap,
// final; its own prediction (app.audience.mine) is marked, and the reveal says if it was right.
import { face, table, player, finger, put } from './board.js';

export { ready } from './board.js';

const S = { root: null, app: null, pending: null, pendingTurn: null, turn: null, phase: null, draft: '', guess: null };

function build(root, app) {
  const h = app.h;
  S.root = root;
  S.head = h('div', { class: 'jx-p-head' });
  S.grid = h('div', { class: 'jx-p-grid' });
  S.cells = [];
  for (let i = 0; i < 9; i += 1) {
    const b = h('button', { class: 'jx-p-cell', type: 'button', dataset: { slot: String(i) } });
    b.addEventListener('click', () => tap(i, app));
    S.cells.push(b);
    S.grid.append(b);
  }
  S.foot = h('div', { class: 'jx-p-foot' });
  // the zoom is a modal dialog named after its card: Escape or a tap closes it, Tab stays on Close
  S.zoom = h('div', { class: 'jx-zoom', hidden: true, role: 'dialog', 'aria-modal': 'true', tabindex: '-1' });
  S.zoom.addEventListener('click', closeZoom);
  S.zoom.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') closeZoom();
    if (e.key === 'Escape' || e.key === 'Tab') e.preventDefault();
  });
  S.keys = Array(9).fill(null);
  put(root, h('div', { class: 'jx-phone' }, S.head, S.grid, S.foot), S.zoom);
}

function pickFor(slot, view, app) {
  return app.gameActions(view).find((a) => a.type === 'pick' && a.slot === slot);
}

/** The audience's prediction this turn: from `mine` while the ballot is open, then kept for
 * the reveal (the shell drops `mine` when the ballot closes). */
function predicted(app, game) {
  const mine = (app.audience || {}).mine;
  const slot = mine && mine.votes ? mine.votes.slot : undefined;
  if (game.phase === 'race' && Number.isInteger(slot)) S.guess = { turn: game.turn, slot };
  const turn = game.phase === 'race' ? game.turn : game.last && game.last.turn;
  return S.guess && S.guess.turn === turn ? S.guess.slot : null;
}

function predictFor(slot, view, app) {
  if (predicted(app, view.game) != null) return null;
  return app.gameActions(view).find((a) => a.type === 'audience_predict' && a.slot === slot);
}

function tap(slot, app) {
  const view = app.view;
  if (!view || !view.game) return;
  const p = predictFor(slot, view, app);
  if (p && S.pending == null) {
    S.pending = slot;
    S.pendingTurn = view.game.turn;
    S.cells[slot].classList.add('pending');
    app.act({ type: 'audience_predict', slot });
    return;
  }
  if (p) return;      // a prediction is on its way
  const a = pickFor(slot, view, app);
  if (a && S.pending == null) {
    S.pending = slot;
    S.pendingTurn = view.game.turn;
    S.cells[slot].classList.add('pending');
    app.act({ type: 'pick', slot });
    return;
  }
  if (a) return;      // a pick is on its way
  const tab = table(view.game);
  const id = tab.grid[slot];
  if (id == null) return;
  const close = app.h('button', { class: 'btn big', type: 'button' }, app.t('jinx.close'));
  put(S.zoom, app.h('div', { class: 'jx-zoom-card pop' }, face(app, id)), close);
  S.zoom.setAttribute('aria-label', app.t('jinx.card', { n: slot + 1 }));
  S.zoomFrom = S.cells[slot];
  S.zoom.hidden = false;
  close.focus();
}

function closeZoom() {
  S.zoom.hidden = true;
  if (S.zoomFrom && S.zoomFrom.isConnected) S.zoomFrom.focus();
  S.zoomFrom = null;
}

/** A refusal of our own action: a refused pick shakes its card (the shell still toasts it). */
function refused(err, action) {
  if (!action || (action.type !== 'pick' && action.type !== 'audience_predict') || !S.cells) return false;
  const slot = Number.isInteger(action.slot) ? action.slot : S.pending;
  S.pending = null;
  const cell = slot != null ? S.cells[slot] : null;
  if (cell) {
    cell.classList.remove('pending', 'shake'); void cell.offsetWidth; cell.classList.add('shake');
  }
  if (S.app) S.app.vibrate([60, 40, 60, 40, 60]);
  return false;
}

/** Other frames: the table's public JINX! notice (when it reaches phones) shakes the card; others are ignored. */
export function stream(frame, app) {
  if (!frame || frame.t !== 'notice' || !S.cells) return;
  const d = frame.d || {};
  const slot = d.code === 'jinx' && d.action && Number.isInteger(d.action.slot) ? d.action.slot : null;
  if (slot == null || d.player === (app.you && app.you.id)) return;   // our own comes as an error
  const cell = S.cells[slot];
  if (cell) { cell.classList.remove('shake'); void cell.offsetWidth; cell.classList.add('shake'); }
}

/** A `mine` (or tally) frame arrived: draw the prediction (registered once: same function). */
function redraw() {
  if (S.app && S.app.view && S.app.view.game && S.root && S.root.isConnected) render(S.root, S.app.view, S.app);
}

export function render(root, view, app) {
  S.app = app;
  app.onError(refused);
  if (app.onAudience) app.onAudience(redraw);
  if (S.root !== root || !root.firstChild) build(root, app);
  const game = view.game;
  if (!game) return;
  const me = game.me || null;
  const tab = table(game);
  if (S.turn !== game.turn) { S.pending = null; S.draft = ''; }
  // a pick on its way ends when our finger lands, or with the turn (a refusal: refused())
  const guess = predicted(app, game);
  if (S.pending != null) {
    const mine = (me && me.pick === S.pending) || guess === S.pending;
    if (mine || game.phase !== 'race' || S.pendingTurn !== game.turn) S.pending = null;
  }
  const kind = guess == null ? /^(pick|audience_predict)$/ : /^pick$/;
  const picks = new Set(app.gameActions(view).filter((a) => kind.test(a.type)).map((a) => a.slot));
  for (let i = 0; i < 9; i += 1) drawCell(app, view, game, tab, i, picks.has(i), guess);
  S.grid.classList.toggle('live', picks.size > 0);
  S.root.firstChild.classList.toggle('with-form', !!app.gameActions(view).find((a) => a.type === 'clue'));
  drawHead(app, view, game, tab, me, guess);
  drawFoot(app, view, game, me);
  S.turn = game.turn;
  S.phase = game.phase;
}

function drawCell(app, view, game, tab, i, live, guess) {
  const cell = S.cells[i];
  const id = tab.grid[i];
  const f = tab.fingers[i];
  const target = tab.reveal ? tab.target === i : game.target === i;
  const mark = guess === i;
  const key = JSON.stringify([id, f, target, tab.reveal, app.lang, mark]);
  if (S.keys[i] !== key) {
    const fresh = S.keys[i] !== null && JSON.parse(S.keys[i])[0] !== id && id != null;
    S.keys[i] = key;
    // the cell's name comes from its content ("Card 3", then what is visible on it: the
    // finger's name), so the spoken name always contains the visible text
    put(cell,
      h2(app, 'span', { class: 'jx-sr' }, app.t('jinx.card', { n: i + 1 }), target ? ` · ${app.t('jinx.the_target')}` : '', f || mark ? ' · ' : ''),
      h2(app, 'div', { class: ['jx-card', fresh && 'flip'] }, face(app, id)),
      target ? h2(app, 'span', { class: 'jx-star', 'aria-hidden': 'true' }, '★') : null,
      f ? finger(app, f, 'pop') : null,
      mark ? h2(app, 'span', { class: 'jx-guess pop' }, app.t('jinx.aud_mine')) : null,
    );
  }
  cell.classList.toggle('live', live);
  cell.classList.toggle('target', target);
  cell.classList.toggle('empty', id == null);
  cell.classList.toggle('mine', !!f && f.player === view.you.id);
  cell.classList.toggle('taken', !!f);
  cell.classList.toggle('dim', tab.reveal && !target);
  cell.classList.toggle('pending', S.pending === i);
  cell.classList.toggle('guess', guess === i);
}

function h2(app, tag, attrs, ...kids) { return app.h(tag, attrs, ...kids); }

function drawHead(app, view, game, tab, me, guess) {
  const h = app.h;
  const t = app.t;
  let title;
  let hint = null;
  let cls = '';
  const act = player(app, tab.reveal ? tab.last.active : game.active);
  const audience = !me && view.you.role === 'audience';
  if (tab.reveal) {
    const L = tab.last;
    const you = view.you.id;
    if (audience && guess != null) {
      title = guess === L.target ? t('jinx.aud_right') : t('jinx.aud_wrong');
      cls = guess === L.target ? 'good' : '';
    } else if (L.finder === you && you != null) { title = t('jinx.you_found'); cls = 'good'; }
    else if (L.finder && L.active === you) { title = t('jinx.your_finder', { name: player(app, L.finder).name }); cls = 'good'; }
    else if (L.finder) title = t('jinx.found', { name: player(app, L.finder).name });
    else title = L.timed_out ? `${t('jinx.timeout')} · ${t('jinx.nobody')}` : t('jinx.nobody');
    hint = audience && guess != null ? (L.finder ? t('jinx.found', { name: player(app, L.finder).name }) : t('jinx.nobody')) : t('jinx.next');
  } else if (me && me.active) {
    if (game.phase === 'clue') { title = t('jinx.you_give'); hint = t('jinx.you_give_hint'); cls = 'turn'; }
    else { title = t('jinx.they_race'); hint = t('jinx.your_card'); }
  } else if (audience && game.phase === 'race' && guess != null) {
    title = t('jinx.aud_predicted', { n: guess + 1 });
    hint = t('jinx.aud_wait');
  } else if (audience && game.phase === 'race' && app.gameActions(view).some((a) => a.type === 'audience_predict')) {
    title = t('jinx.aud_tap');
    hint = t('jinx.aud_hint');
    cls = 'turn';
  } else if (game.phase === 'clue') {
    title = t('jinx.wait_clue', { name: act.name });
    hint = t('jinx.wait_hint');
  } else if (me && me.in) {
    title = t('jinx.tap');
    cls = 'turn';
  } else if (me && me.pick != null) {
    title = t('jinx.picked_wrong');
    hint = t('jinx.wait_others');
    cls = 'bad';
  } else {
    title = t('jinx.watching');
  }
  // the live region: how the race went for you (out, found), and who found the card
  if ((tab.reveal || cls === 'bad') && title !== S.said) app.say(title);
  S.said = title;
  const clue = !tab.reveal && game.phase === 'race' ? game.clue : tab.reveal ? tab.last.clue : null;
  const key = JSON.stringify([title, hint, cls, clue, app.lang]);
  if (S.headKey === key) return;
  S.headKey = key;
  put(S.head,
    h('h2', { class: ['jx-p-title', cls, 'pop'] }, title),
    hint ? h('p', { class: 'jx-p-hint' }, hint) : null,
    clue != null ? h('div', { class: 'jx-p-clue' }, h('span', { class: 'jx-clue-label' }, t('jinx.clue')),
      clue === '' ? h('i', null, t('jinx.spoken')) : h('b', null, clue)) : null,
  );
}

function drawFoot(app, view, game, me) {
  const h = app.h;
  const clueAct = app.gameActions(view).find((a) => a.type === 'clue');
  const key = clueAct ? `clue|${game.turn}|${app.lang}` : 'none';
  if (S.footKey === key) return;
  S.footKey = key;
  if (!clueAct) { put(S.foot); return; }
  const input = h('input', {
    type: 'text', class: 'jx-p-input', maxlength: 80, autocomplete: 'off', enterkeyhint: 'send',
    placeholder: app.t('jinx.placeholder'), 'aria-label': app.t('jinx.clue'), value: S.draft,
  });
  const send = h('button', { class: 'btn primary big jx-send', type: 'submit' }, app.t('jinx.send'));
  const aloud = h('button', { class: 'btn big ghost jx-aloud', type: 'button' }, app.t('jinx.said'));
  const sync = () => { S.draft = input.value; send.disabled = !input.value.trim(); };
  input.addEventListener('input', sync);
  sync();
  const form = h('form', { class: 'jx-p-form' }, input, h('div', { class: 'jx-p-buttons' }, send, aloud));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!input.value.trim()) return;
    app.act({ type: 'clue', text: input.value.trim() });
  });
  aloud.addEventListener('click', () => app.act({ type: 'clue', text: '' }));
  put(S.foot, form);
}

export { results } from './recap.js';   // the results screen's recap
