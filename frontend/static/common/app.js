// The shell of tv.html and phone.html: connects, keeps the latest view, and shows the
// lobby, the game (a game module or the generic renderer), the pause overlay or results.
import { h, mount, toast } from './dom.js';
import { t, useLang, getLang, gamePack, addPack } from './i18n.js';
import { Socket } from './socket.js';
import { createTimer } from './timer.js';
import { keepAwake, vibrate } from './wake.js';
import * as sounds from './sounds.js';
import { turnCue, cueCount } from './cues.js';
import { renderLobby } from './lobby.js';
import { renderResults, unit, winnerTitle } from './results.js';
import { modal } from './dialog.js';
import { createAnnouncer, changes, turnOf } from './announce.js';
import { renderGeneric } from './generic.js';
import { showJoin, showNotHost, showGone, showReplaced, storedPass, forgetPass } from './join.js';
import { createAudience, audienceActions } from './audience.js';
import { waitForClaim, storedClaim, renderRequests, ownClaim } from './claims.js';
import { store, ROOM_ACTIONS, playerName } from './util.js';
import { hideButton } from './hide.js';
import { langPicker } from './langpick.js';

const B = document.body.dataset;
const PAGE = B.page === 'tv' ? 'tv' : 'phone';
const CODE = (B.code || '').toUpperCase();
const STATIC = B.static || '/static/';
const root = document.getElementById('app');

const statusEl = h('div', { class: 'conn', hidden: true, role: 'status' });
const screenEl = h('main', { class: 'screen' });
const overlayEl = h('div', { class: 'overlay', hidden: true });
const requestsEl = h('div', { class: 'requests', hidden: true });   // claims the TV or VIP answers
const headingEl = h('h1', { class: 'sr-only' });    // the page's h1 where the screen shows none
const overlayDialog = modal(overlayEl);
const audience = createAudience();   // the open ballot's tally (TV) and your own votes (audience.js)
const announcer = PAGE === 'phone' ? createAnnouncer() : null;   // phone: what a screen reader hears

const S = {
  socket: null,
  view: null,
  screen: null,         // 'lobby' | 'game' | 'over'
  screenBox: null,
  gameId: null,
  module: null,         // the loaded game module, or 'generic'
  loading: null,
  gameRoot: null,
  timer: null,
  hadActions: false,
  players: new Set(),
  phase: null,
  myTurn: false,
  streamFns: [],
  errorFns: [],
  audienceFns: [],
  hooksFor: null,       // the game whose module registered streamFns / errorFns
  sent: new Map(),      // action id -> the action sent (the last 200), for error handlers
  resultsBox: null,     // the game module's slot on the results screen
  volume: null,         // the TV's sound control (volume.js)
  pending: null,        // the id of your last action, until a view or its error answers it
  pendingVote: null,    // the id of your last audience action, until its `mine` or error answers it
  joining: false,       // the join form is up (a language change redraws it)
};

/** What game modules get: see docs in README of frontend (render(root, view, app)). */
export const app = {
  page: PAGE,
  code: CODE,
  static: STATIC,
  get lang() { return getLang(); },
  get you() { return S.view ? S.view.you : { role: 'audience', id: null }; },
  get view() { return S.view; },
  /** The room version of the latest view (-1 before the first). */
  get version() { return S.socket ? S.socket.v : -1; },
  players: new Map(),
  t,
  h,
  toast,
  /** Send a game action; `quiet` (a stroke) is not a move the live region reports on. */
  act(d, quiet) {
    const id = S.socket && S.socket.act(d);
    if (!id) { toast(t('conn.offline'), 'warn'); return id; }
    // an audience vote is answered by a `mine` frame, not by a view
    if (app.you.role === 'audience' && !ROOM_ACTIONS.has(d.type)) S.pendingVote = id;
    else if (!quiet) S.pending = id;
    S.sent.set(id, d);
    if (S.sent.size > 200) S.sent.delete(S.sent.keys().next().value);
    return id;
  },
  sound(name) { if (PAGE === 'tv') sounds.play(name); },
  vibrate(p) { if (PAGE === 'phone') vibrate(p); },
  /** The phone's live region says what became of your move (said with the view it came in). */
  say(lines) { if (S.heard) S.heard = S.heard.concat(lines); else if (announcer) announcer.say(lines); },
  /** It has become your turn (phone): the shared edge pulse, sound and buzz (cues.js). */
  turnCue() { if (PAGE === 'phone') turnCue(); },
  get turnCues() { return cueCount(); },
  sounds,
  now() { return S.socket ? S.socket.now() : Date.now(); },
  createTimer(kind) { return createTimer({ kind, now: () => app.now() }); },
  onStream(fn) { if (!S.streamFns.includes(fn)) S.streamFns.push(fn); },
  /** fn(err, action) for refusals while the game runs; return true to silence the toast. */
  onError(fn) { if (!S.errorFns.includes(fn)) S.errorFns.push(fn); },
  /** The open ballot's {tally, mine}: the TV's live tally, your own accepted votes (or null). */
  get audience() { return audience.state; },
  /** fn(app.audience) when a tally or your own votes arrive (call it from every render: once). */
  onAudience(fn) { if (!S.audienceFns.includes(fn)) S.audienceFns.push(fn); },
  soundReady() { return sounds.ready(); },
  unlockSound() { sounds.unlock(); },
  /** An audience phone asks to join as a player (lobby). */
  join() { if (S.socket) S.socket.stop(); S.view = null; S.screen = null; askJoin(null); },
  /** The name this page's audience pass votes under, or null (a seat, the anonymous audience). */
  get audienceName() {
    const pass = storedPass(CODE);
    return pass && S.socket && S.socket.token === pass.token ? pass.name : null;
  },
  name(id) { return playerName(S.view, id); },
  /** The keepsakes page (results): its address has a pass the token buys; the token stays here. */
  async keepsakes() {
    const tk = S.socket && S.socket.token;
    const r = tk && await fetch(`/api/rooms/${CODE}/keepsakes`, { method: 'POST', headers: { Authorization: `Bearer ${tk}` } }).catch(() => 0);
    const url = r && r.ok && (await r.json()).url;
    if (url) location.assign(url); else toast(t('err.keepsake_pass'), 'warn');
  },
  /** The host's 🙈 button for {player: id, name} or {text} (TV only; null elsewhere). */
  hideButton(what) { return hideButton(app, what); },
  /** A seat's name element with "bot playing for Ann" under it while a stand-in plays the seat
   * (p: a player of view.room); with no name element, the tag alone (or null). */
  standin(name, p) {
    const tag = p && p.standin ? h('span', { class: 'standin-tag' }, t('standin.for', { name: p.name })) : null;
    return tag && name ? h('span', { class: 'standin' }, name, tag) : name || tag;
  },
  /** The phone's language control (lobby, join form): the player's own language. */
  langPicker() { return langPicker(chooseLang); },
  gameActions(view) { return ((view || S.view || {}).actions || []).filter((a) => !ROOM_ACTIONS.has(a.type)); },
  roomActions(view) { return ((view || S.view || {}).actions || []).filter((a) => ROOM_ACTIONS.has(a.type)); },
};
window.partyhub = app;   // handy in the console and for tests
if (announcer) toast.say = app.say;   // the phone's toasts are read by its live region, once

function setStatus(s) {
  if (s === 'open') audience.reconnected();
  statusEl.hidden = s === 'open' || s === 'closed';
  statusEl.className = `conn conn-${s}`;
  mount(statusEl, h('span', { class: 'dot' }), t(`conn.${s}`));
}

function onView(view) {
  const prev = S.view;
  S.view = view;
  app.players = new Map((view.room.players || []).map((p) => [p.id, p]));
  audience.view(view);
  // the TV speaks the room's language, a seated phone its player's (an unseated one its own)
  const lang = PAGE === 'tv' ? view.room.language : view.you.language;
  if (lang && lang !== getLang()) switchLang(lang);
  notice(prev, view);
  // a phone lets its screen sleep once the game is over (the TV shows the results on)
  if (PAGE === 'phone') keepAwake(view.room.phase !== 'over');
  const done = S.pending && prev;
  if (done) S.pending = null;
  S.heard = [];
  render(view);
  const own = S.heard;
  S.heard = null;
  renderRequests(requestsEl, view, app);
  if (!announcer) return;
  // the game's own lines (its phase names) come with its module: wait for it to load
  const speak = () => announcer.say([...(!own.length && done ? [t('a11y.accepted')] : []),
    ...changes(prev, view, (v) => winnerTitle(v.room, v.room.results || {})), ...own]);
  if (S.loading && view.room.phase === 'playing') S.loading.then(speak); else speak();
}

/** Speak `lang`: load its strings (the common ones and the game's), then rebuild every screen. */
function switchLang(lang) {
  if (PAGE === 'phone') rememberLang(lang);
  return useLang(lang).then(() => {
    if (getLang() !== lang) return;
    S.screen = null;
    if (S.volume) S.volume.relabel();
    if (S.view) render(S.view);
  });
}

/** A phone remembers its language for this room's page (the server renders the page in it). */
function rememberLang(lang) {
  document.cookie = `django_language=${lang}; path=/j/${encodeURIComponent(CODE)}; max-age=31536000; samesite=lax`;
}

/** The player picked a language on the phone: the seat keeps it (a reload, a second screen). */
function chooseLang(lang) {
  if (S.view && S.view.you.id && S.socket) app.act({ type: 'language', language: lang });
  const p = switchLang(lang);
  if (S.joining) p.then(() => { if (S.joining) askJoin(null); });   // the join form, anew
}

/** Sounds and vibration from what changed between two views. */
function notice(prev, view) {
  const ids = new Set(view.room.players.map((p) => p.id));
  if (prev) {
    for (const id of ids) if (!S.players.has(id)) app.sound('join');
    if (S.phase === 'lobby' && view.room.phase === 'playing') app.sound('start');
    if (S.phase === 'playing' && view.room.phase === 'over') app.sound('win');
  }
  S.players = ids;
  S.phase = view.room.phase;
  const has = app.gameActions(view).length > 0 && view.room.phase === 'playing';
  const me = view.you && view.you.id;
  const mine = !!(me && turnOf(view) === me);
  if (prev && ((has && !S.hadActions) || (mine && !S.myTurn))) app.turnCue();
  S.hadActions = has;
  S.myTurn = mine;
}

function render(view) {
  const phase = view.room.phase;
  const screen = phase === 'lobby' ? 'lobby' : phase === 'over' ? 'over' : 'game';
  if (screen !== S.screen) {
    S.screen = screen;
    S.screenBox = h('div', { class: ['screen-in', `screen-${screen}`] });
    mount(screenEl, headingEl, S.screenBox);
    S.resultsBox = null;
    if (screen === 'game') buildGameScreen();
    else if (S.timer) S.timer.stop();
    if (screen === 'over') S.resultsBox = h('div', { class: 'results-game' });
  }
  document.body.classList.toggle('is-paused', !!view.room.paused);
  if (screen === 'lobby') renderLobby(S.screenBox, view, app);
  else if (screen === 'over') { renderResults(S.screenBox, view, app, S.resultsBox); drawResults(view); }
  else renderGame(view);
  renderOverlay(view);
  pageHeading(view, screen);
}

/** The h1 only screen readers read: the lobby's or the game's name; none where the screen has
 * its own (the results, a game module that draws an h1). */
function pageHeading(view, screen) {
  const room = view.room;
  headingEl.textContent = screen === 'lobby' ? t('a11y.h1_lobby') : t(`game.${room.game}`, null, gameName(room));
  headingEl.hidden = screen === 'over' || !!S.screenBox.querySelector('h1');
}

function buildGameScreen() {
  S.timer = createTimer({
    kind: PAGE === 'tv' ? 'ring' : 'bar',
    now: () => app.now(),
    onTick: (s) => { if (s > 0 && s <= 5) app.sound(s === 1 ? 'last' : 'tick'); },
  });
  S.top = h('div', { class: 'gamebar' });
  S.gameRoot = h('div', { class: 'game-root' });
  S.pace = h('div', { class: 'pace' });    // host-paced: the TV's note, the VIP's "End the round"
  S.timerBox = h('div', { class: 'gamebar-timer' }, S.timer.el, S.pace);
  if (PAGE === 'tv') mount(S.screenBox, S.top, S.gameRoot);          // the ring sits in the bar
  else mount(S.screenBox, S.top, S.timerBox, S.gameRoot);
}

function renderGameBar(view) {
  const room = view.room;
  const me = app.players.get(view.you.id);
  const ra = app.roomActions(view);
  const btn = (a, label, cls) => h('button', { class: ['btn', 'small', cls], onclick: () => app.act(a) }, label);
  const controls = [];
  for (const a of ra) {
    if (a.type === 'pause') {
      const b = btn(a, PAGE === 'tv' ? t('room.pause') : '❚❚', 'pause');
      b.setAttribute('aria-label', t('room.pause'));
      controls.push(b);
    }
    if (a.type === 'resume') controls.push(btn(a, t('room.resume'), 'primary'));
    if (a.type === 'end' && PAGE === 'tv') controls.push(endButton(a));   // phones: in the pause overlay
  }
  const hideCode = room.streamer;
  const name = t(`game.${room.game}`, null, gameName(room));
  mount(S.top,
    PAGE === 'tv'
      ? h('div', { class: 'gb-left' }, hideCode ? null : h('span', { class: 'gb-code' }, room.code), h('span', { class: 'gb-game' }, name))
      : h('div', { class: 'gb-left' }, me ? [h('span', { class: 'chip big', style: { '--pc': me.color } }, me.symbol || ''),
        h('span', { class: 'gb-who' }, h('span', { class: 'gb-name' }, me.name),
          h('span', { class: 'gb-score' }, unit(room, me.score || 0)))]
        : audienceWho()),
    PAGE === 'tv' ? S.timerBox : null,
    h('div', { class: 'gb-right' }, controls));
}

function endButton(a) {
  let armed = false;
  const b = h('button', { class: 'btn small danger' }, t('room.end'));
  b.addEventListener('click', () => {
    if (armed) { app.act(a); return; }
    armed = true;
    b.textContent = t('room.end_confirm');
    setTimeout(() => { armed = false; b.textContent = t('room.end'); }, 3000);
  });
  return b;
}

function gameName(room) {
  const g = (room.games || []).find((x) => x.id === room.game);
  return g ? g.name : room.game || '';
}

function renderGame(view) {
  renderGameBar(view);
  S.timer.update(view.room.paced ? null : view);
  renderPace(view);
  if (!loadModule(view.room.game)) {
    if (!S.gameRoot.firstChild) mount(S.gameRoot, h('div', { class: 'loading' }, t('loading')));
    return;
  }
  drawGame(view);
}

/** A host-paced game (timers "none") draws no timer: the TV says who paces it, and the
 * VIP's phone has a big "End the round" while a timer would have been running. */
function renderPace(view) {
  const a = view.actions.find((x) => x.type === 'advance');
  const end = a && h('button', { class: 'btn primary big', style: { width: '100%' }, onclick: (e) => { e.currentTarget.disabled = true; app.act(a); } }, t('pace.end'));
  mount(S.pace, PAGE === 'tv' ? view.room.paced && h('p', null, t('pace.tv')) : end);
}

/** The module of game `id`: returns it once loaded ('generic' when missing), else starts loading. */
function loadModule(id) {
  if (id === S.gameId) return S.module;
  S.gameId = id;
  S.module = null;
  if (S.hooksFor !== id) { S.hooksFor = id; S.streamFns = []; S.errorFns = []; S.audienceFns = []; }
  const url = `${STATIC}games/${id}/${PAGE === 'tv' ? 'tv' : 'phone'}.js`;
  S.loading = Promise.all([import(url).then(
    (m) => (typeof m.render === 'function' ? m : 'generic'),
    () => 'generic',
  ), addPack(gamePack(STATIC, id))]).then(([m]) => {
    if (S.gameId !== id) return;
    S.module = m;
    S.loading = null;
    if (S.view) render(S.view);
  });
  return null;
}

/** The results screen: the game module's optional results(box, view, app) hook. */
function drawResults(view) {
  const box = S.resultsBox;
  const m = view.room.game ? loadModule(view.room.game) : null;
  if (!box || !m || m === 'generic' || typeof m.results !== 'function') return;
  try { m.results(box, view, app); } catch (e) { console.error(e); }
}

function drawGame(view) {
  try {
    if (S.module === 'generic') renderGeneric(S.gameRoot, view, app);
    else S.module.render(S.gameRoot, view, app);
  } catch (e) {
    console.error(e);
    S.module = 'generic';
    mount(S.gameRoot);
    renderGeneric(S.gameRoot, view, app);
  }
  renderAudienceBar(view);
}

/** The game bar's left of an audience phone: the name its pass votes under, "In the audience". */
function audienceWho() {
  const name = app.audienceName;
  return name ? h('span', { class: 'gb-who' }, h('span', { class: 'gb-name' }, name),
    h('span', { class: 'gb-score' }, t('audience.in_audience'))) : h('span', { class: 'gb-name' }, t('audience.in_audience'));
}

/** An audience phone during a game: "vote along" while audience actions are offered, else
 * "Watching"; take over a disconnected seat when allowed. */
function renderAudienceBar(view) {
  if (PAGE !== 'phone' || view.you.role !== 'audience') return;
  const seats = view.actions.filter((a) => a.type === 'take_seat');
  let bar = S.gameRoot.parentNode.querySelector('.audience-bar');
  if (!bar) { bar = h('div', { class: 'audience-bar' }); S.gameRoot.before(bar); }
  const asked = ownClaim(view);
  const voting = !asked && audienceActions(view).length > 0;
  bar.classList.toggle('voting', voting);
  if (asked) { mount(bar, h('p', null, t('audience.asked', { name: asked.seat }))); return; }
  mount(bar, h('p', { class: 'aud-state' }, voting ? t('audience.vote_along') : t('audience.watching_game')), seats.length ? h('div', { class: 'seat-list' },
    seats.map((a) => {
      const p = app.players.get(a.player);
      return h('button', { class: 'btn', onclick: () => app.act(a) }, t('audience.take', { name: p ? p.name : '?' }));
    })) : null);
}

function renderOverlay(view) {
  if (!view.room.paused) { overlayEl.hidden = true; overlayDialog.close(); return; }
  const resume = view.actions.find((a) => a.type === 'resume');
  const end = view.actions.find((a) => a.type === 'end');
  overlayEl.hidden = false;
  mount(overlayEl, h('div', { class: 'overlay-box' },
    h('div', { class: 'overlay-icon', 'aria-hidden': 'true' }, '❚❚'),
    h('h2', null, t('room.paused')),
    resume ? h('button', { class: 'btn primary big', onclick: () => app.act(resume) }, t('room.resume'))
      : h('p', null, t('room.paused_wait')),
    end && PAGE === 'phone' ? endButton(end) : null));
  overlayDialog.open();
}

function onFrame(f) {
  const m = S.module;
  if (m && m !== 'generic' && typeof m.stream === 'function') {
    try { m.stream(f, app); } catch (e) { console.error(e); }
  }
  for (const fn of S.streamFns) {
    try { fn(f); } catch (e) { console.error(e); }
  }
}

function onError(d) {
  const action = d.ref != null ? S.sent.get(d.ref) || null : null;
  let quiet = false;
  if (S.screen === 'game') {
    for (const fn of S.errorFns) {
      try { if (fn(d, action) === true) quiet = true; } catch (e) { console.error(e); }
    }
  }
  const mine = d.ref != null && (d.ref === S.pending || d.ref === S.pendingVote);
  if (mine) { if (d.ref === S.pending) S.pending = null; else S.pendingVote = null; }
  // the phone's toasts are read by its live region: a refusal is read once
  if (quiet) { if (mine) app.say(errorText(d)); return; }
  app.sound('error');
  toast(errorText(d), 'error');
}

/** err.<game>.<code>, then err.<code>, then the server's message. */
function errorText(d) {
  const game = S.view && S.view.room.game;
  const plain = t(`err.${d.code}`, null, d.message || d.code || t('err.unknown'));
  return game ? t(`err.${game}.${d.code}`, null, plain) : plain;
}

/** A `tally` or `mine` frame: keep it (audience.js), tell the game, and say an accepted vote
 * once (the game's own lines, said with app.say from its onAudience, replace "Your vote is in."). */
function onAudience(kind, d) {
  if (!audience.frame(kind, d)) return;
  S.heard = [];
  for (const fn of S.audienceFns) {
    try { fn(app.audience); } catch (e) { console.error(e); }
  }
  if (S.screen === 'game' && S.view) {
    if (S.module === 'generic') renderGeneric(S.gameRoot, S.view, app);
    renderAudienceBar(S.view);
  }
  const own = S.heard;
  S.heard = null;
  const answered = kind === 'mine' && d.ref != null && d.ref === S.pendingVote;
  if (answered) S.pendingVote = null;
  if (announcer && (answered || own.length)) announcer.say(own.length ? own : [t('audience.voted')]);
}

function start(token) {
  S.joining = false;
  mount(root, statusEl, screenEl, overlayEl, requestsEl, announcer ? announcer.el : null);
  S.socket = new Socket({
    code: CODE,
    token,
    onView,
    onFrame,
    onError,
    onAudience,
    onStatus: setStatus,
    // a seat's token: the player id it should find in the room (an audience pass has none)
    pid: () => (PAGE === 'phone' && token && !isPass(token) ? store.get(`partyhub.pid.${CODE}`) : null),
    onReplaced: () => showReplaced(root, () => start(S.socket.token)),
    onRefused: refused,
    onToken: (d) => {
      if (!d.token) return;
      seated(d);
      toast(t('audience.took_seat'), 'ok');
      S.screen = null;
      S.socket.switchToken(d.token);
    },
    onClaim: (d) => toast(t(`claim.${d.state}`, null, t('claim.gone')), 'warn'),   // a spectator's ask
  });
  S.socket.connect();
}

/** The token is this room's stored audience pass (no seat behind it). */
function isPass(token) {
  const pass = storedPass(CODE);
  return !!(pass && token === pass.token);
}

function seated(d) {
  store.set(`partyhub.seat.${CODE}`, d.token);
  if (d.player_id) store.set(`partyhub.pid.${CODE}`, d.player_id);
}

/** A new browser asked for its seat back (claims.js): wait until the host answers. */
function waitForSeat(c) {
  S.socket = waitForClaim(root, CODE, c, {
    onSeated: (pid) => {
      seated({ token: c.token, player_id: pid });
      toast(t('claim.welcome'), 'ok');
      start(c.token);
    },
    onEnded: (message) => { S.socket = null; askJoin(message); },
    onGone: (reason) => refused(reason),
  });
}

function refused(reason) {
  S.view = null;
  S.screen = null;
  const gone = reason === 'room_not_found' || reason === 'room_closed';
  if (gone) keepAwake(false);
  if (PAGE === 'tv') {
    if (gone) showGone(root, CODE, reason);
    else showNotHost(root, CODE, () => start(null));
    return;
  }
  // a stale or forged audience pass: forget it and ask again, with its name typed in
  const pass = storedPass(CODE);
  const lostPass = !!(pass && S.socket && S.socket.token === pass.token);
  if (lostPass) forgetPass(CODE);
  const hadSeat = !lostPass && !!store.get(`partyhub.seat.${CODE}`);
  store.del(`partyhub.seat.${CODE}`);
  store.del(`partyhub.pid.${CODE}`);
  if (gone) { showGone(root, CODE, reason); return; }
  const msg = reason === 'kicked' ? t('join.kicked') : hadSeat ? t('join.lost_seat') : null;
  askJoin(msg, lostPass ? pass.name : undefined);
}

function askJoin(message, name) {
  S.joining = true;
  const pass = storedPass(CODE);
  showJoin(root, {
    langPicker: app.langPicker,
    code: CODE,
    message,
    name: name !== undefined ? name : pass ? pass.name : '',
    onJoined: (r) => {
      forgetPass(CODE);      // one name in the room: the seat's
      store.set(`partyhub.seat.${CODE}`, r.token);
      store.set(`partyhub.pid.${CODE}`, r.player_id);
      start(r.token);
    },
    // an audience pass (kept by join.js for this room) or, with no name typed, the anonymous audience
    onWatch: (p) => start(p ? p.token : null),
    onGone: (reason) => refused(reason),
    onClaimed: (r, name) => waitForSeat({ token: r.token, claim: r.claim, player_id: r.player_id,
      seat: name, expires: r.expires }),
  });
}

/** Before the join form: a room that has ended (or never was) says so at once. */
async function askJoinIfLiving() {
  try {
    const r = await fetch(`/api/rooms/${encodeURIComponent(CODE)}`, { cache: 'no-store' });
    if (r.status === 404 || r.status === 410) {
      refused(r.status === 410 ? 'room_closed' : 'room_not_found');
      return;
    }
  } catch (e) { /* offline: the form says so when it is sent */ }
  askJoin(null);
}

function boot() {
  if (!CODE) { showGone(root, ''); return; }
  const unlock = () => sounds.unlock();
  document.addEventListener('pointerdown', unlock, { passive: true });
  document.addEventListener('keydown', unlock);
  keepAwake(true, STATIC);
  // the TV's sound control: only the TV loads it (the phone page stays small)
  if (PAGE === 'tv') import('./volume.js').then((m) => { S.volume = m.mountVolume(document.body, t); });
  const params = new URLSearchParams(location.search);
  if (PAGE === 'tv') {
    const token = store.get(`partyhub.host.${CODE}`);
    if (token) {
      store.set('partyhub.lastHost', JSON.stringify({ code: CODE, at: Date.now() }));
      start(token);
    } else if (params.has('watch')) start(null);
    else showNotHost(root, CODE, () => start(null));
    return;
  }
  const seat = store.get(`partyhub.seat.${CODE}`);
  const claim = storedClaim(CODE);
  const pass = storedPass(CODE);
  if (seat) start(seat);
  else if (claim) waitForSeat(claim);
  else if (pass) start(pass.token);       // the same voter after a reload
  else if (params.has('watch')) start(null);
  else askJoinIfLiving();
}

useLang(B.lang).then(boot);     // the page's language (the server chose it): its strings first
