// The shell of tv.html and phone.html: connects, keeps the latest view, and shows the
// lobby, the game (a game module or the generic renderer), the pause overlay or results.
import { h, mount, toast } from './dom.js';
import { t, useLang, getLang, addPack } from './i18n.js';
import { Socket } from './socket.js';
import { createTimer } from './timer.js';
import { keepAwake, vibrate } from './wake.js';
import { coachActed, closeHowto } from './coach.js';
import * as sounds from './sounds.js';
import { turnCue, cueCount } from './cues.js';
import { renderLobby } from './lobby.js';
import { lazy, drawLazy } from './lazy.js';
import { modal } from './dialog.js';
import { createAnnouncer, changes, turnOf, peopleNews, standinNote, winnerTitle } from './announce.js';
import { renderGeneric } from './generic.js';
import { showGone, showReplaced, storedPass, seatFlow } from './join.js';
import { createAudience } from './audience.js';
import { renderRequests } from './claims.js';
import { gameScreen } from './gamescreen.js';
import { store, ROOM_ACTIONS, playerName } from './util.js';
import { cardUrl } from './cards.js';
import { langPicker } from './langpick.js';
import { applyPhoneSound, phoneSoundToggle } from './speaker.js';

const B = document.body.dataset;
const PAGE = B.page === 'tv' ? 'tv' : 'phone';
const CODE = (B.code || '').toUpperCase();
const STATIC = B.static || '/static/';
const root = document.getElementById('app');

const statusEl = h('div', { class: 'conn', hidden: true, role: 'status' });
const screenEl = h('main', { class: 'screen' });
const overlayEl = h('div', { class: 'overlay', hidden: true });
const requestsEl = h('div', { class: 'requests', hidden: true });   // claims the TV answers (the VIP is told)
const headingEl = h('h1', { class: 'sr-only' });    // the page's h1 where the screen shows none
const overlayDialog = modal(overlayEl);
const audience = createAudience();   // the open ballot's tally (TV) and your own votes (audience.js)
const announcer = PAGE === 'phone' ? createAnnouncer() : null;   // phone: what a screen reader hears
const results = lazy(() => import('./results.js').then((m) => m.ready.then(() => m)));   // fetched while a game runs

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
  tv: null,             // the TV's own screens (tv/lobby.js), loaded before the TV starts
  hide: null,           // the host's hide button (hide.js), loaded with them
  volume: null,         // the TV's sound control (tv/volume.js)
  pending: null,        // the id of your last action, until a view or its error answers it
  pendingVote: null,    // the id of your last audience action, until its `mine` or error answers it
  joining: false,       // the join form is up (a language change redraws it)
  handovers: new Set(), // the hand-overs the TV announced
  handover: null,       // handover/handover.js, once loaded
  noteSeen: null,       // the stand-in note this phone has shown (its text), once per note
  noteOff: null,        // the note the player put away with OK
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
  /** A card's picture address (cards.js); `template`: a shipped deck's, from the game's view. */
  card(id, template) { return cardUrl(S.view, CODE, STATIC, id, template); },
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
    if (PAGE === 'phone') coachActed(S.gameRoot, d);
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
  join() { if (S.socket) S.socket.stop(); S.view = null; S.screen = null; flow.askJoin(null); },
  /** The name this page's audience pass votes under, or null (a seat, the anonymous audience). */
  get audienceName() {
    const pass = storedPass(CODE);
    return pass && S.socket && S.socket.token === pass.token ? pass.name : null;
  },
  name(id) { return playerName(S.view, id); },
  /** The keepsakes page (results): its address has a pass the token buys; the token stays here.
   * It opens in a new tab (issue 27): this page stays on the room, so "Play again" always has
   * its screen. The tab is opened at the tap (a later window.open is a blocked pop-up). */
  async keepsakes() {
    const tab = window.open('about:blank', '_blank');
    if (tab) tab.opener = null;
    const tk = S.socket && S.socket.token;
    const r = tk && await fetch(`/api/rooms/${CODE}/keepsakes`, { method: 'POST', headers: { Authorization: `Bearer ${tk}` } }).catch(() => 0);
    const url = r && r.ok && (await r.json()).url;
    if (url && tab) tab.location.replace(url);
    else {
      if (tab) tab.close();
      toast(t(url ? 'err.keepsake_tab' : 'err.keepsake_pass'), 'warn');
    }
  },
  /** The host's 🙈 button for {player: id, name} or {text} (TV only: hide.js, loaded with the TV's
   * modules; only the host's view offers `hide`, so a phone has null). */
  hideButton(what) { return S.hide ? S.hide.hideButton(app, what) : null; },
  /** Draw the screen anew from the latest view (a part loaded on demand has landed: lazy.js). */
  redraw() { if (S.view) render(S.view); },
  /** A seat's name element with "bot playing for Ann" under it while a stand-in plays the seat
   * (p: a player of view.room); with no name element, the tag alone (or null). */
  standin(name, p) {
    const tag = p && p.standin ? h('span', { class: 'standin-tag' }, t('standin.for', { name: p.name })) : null;
    return tag && name ? h('span', { class: 'standin' }, name, tag) : name || tag;
  },
  /** The phone's language control (lobby, join form): the player's own language. */
  langPicker() { return langPicker(chooseLang); },
  /** The phone's sound switch (speaker.js). */
  soundToggle() { return phoneSoundToggle(t); },
  gameActions(view) { return ((view || S.view || {}).actions || []).filter((a) => !ROOM_ACTIONS.has(a.type)); },
  roomActions(view) { return ((view || S.view || {}).actions || []).filter((a) => ROOM_ACTIONS.has(a.type)); },
};
window.partyhub = app;   // handy in the console and for tests
const game = gameScreen({ page: PAGE, S, app, overlayEl, overlayDialog, STATIC });   // the game screen (gamescreen.js)
const flow = seatFlow({ page: PAGE, code: CODE, root, S, app, start });   // the join and claim flow (join.js)
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
  if (PAGE === 'tv') flow.handovers((m) => m.announceHandovers(view, app, S.handovers));
  const news = peopleNews(prev, view);
  if (news.crown) toast(news.crown, 'crown', 8000);     // the TV's toasts are a live region
  if (!announcer) { for (const line of news.seats) toast(line, 'info', 5000); return; }
  const note = standinNote(view);
  const fresh = note && note !== S.noteSeen ? [note] : [];
  S.noteSeen = note;
  // the game's own lines (its phase names) come with its module: wait for it to load
  const speak = () => announcer.say([...(!own.length && done ? [t('a11y.accepted')] : []),
    ...changes(prev, view, (v) => winnerTitle(v.room, v.room.results || {})), ...fresh, ...news.seats, ...own]);
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
  if (S.joining) p.then(() => { if (S.joining) flow.askJoin(null); });   // the join form, anew
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
    closeHowto();           // a game starts (or ends): the How to play over the lobby goes
    if (screen === 'game') { game.buildGameScreen(); results.prefetch(); }
    else if (S.timer) S.timer.stop();
    if (screen === 'over') S.resultsBox = h('div', { class: 'results-game' });
  }
  document.body.classList.toggle('is-paused', !!view.room.paused);
  if (screen === 'lobby') (S.tv || { renderLobby }).renderLobby(S.screenBox, view, app);
  else if (screen === 'over') {
    drawLazy(S.screenBox, results, (m) => { m.renderResults(S.screenBox, view, app, S.resultsBox); game.drawResults(view); }, app.redraw);
  }
  else game.renderGame(view);
  game.renderOverlay(view);
  pageHeading(view, screen);
}

/** The h1 only screen readers read: the lobby's or the game's name; none where the screen has
 * its own (the results, a game module that draws an h1). */
function pageHeading(view, screen) {
  const room = view.room;
  headingEl.textContent = screen === 'lobby' ? t('a11y.h1_lobby') : t(`game.${room.game}`, null, game.gameName(room));
  headingEl.hidden = screen === 'over' || !!S.screenBox.querySelector('h1');
}

function onFrame(f) {
  if (f.t === 'watchers') {          // the TV: how many watch with no seat (partyhub/rooms/watchers.py)
    app.watchers = (f.d && f.d.n) || 0;
    if (S.view && S.screen === 'lobby') render(S.view);
    return;
  }
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
    game.renderAudienceBar(S.view);
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
    pid: () => (PAGE === 'phone' && token && !flow.isPass(token) ? store.get(`partyhub.pid.${CODE}`) : null),
    onReplaced: () => showReplaced(root, () => start(S.socket.token)),
    onRefused: flow.refused,
    onToken: (d) => {
      if (!d.token) return;
      flow.seated(d);
      toast(t('audience.took_seat'), 'ok');
      S.screen = null;
      S.socket.switchToken(d.token);
    },
    onClaim: (d) => toast(t(`claim.${d.state}`, null, t('claim.gone')), 'warn'),   // a spectator's ask
    onHanded: (d) => flow.handed(d, token),
  });
  S.socket.connect();
}

function boot() {
  if (!CODE) { showGone(root, ''); return; }
  const unlock = () => sounds.unlock();
  document.addEventListener('pointerdown', unlock, { passive: true });
  document.addEventListener('keydown', unlock);
  keepAwake(true, STATIC);
  if (PAGE !== 'tv') applyPhoneSound();
  // the TV's sound control: only the TV loads it (the phone page stays small)
  if (PAGE === 'tv') import('./tv/volume.js').then((m) => { S.volume = m.mountVolume(document.body, t); });
  flow.enter(new URLSearchParams(location.search));
}

/** The TV's own modules and strings (tv/; its styles: tv/tv.css, linked by tv.html): the phone
 * page never loads them. The TV's pack joins once the page's language is in use (one load). */
function tvFirst() {
  if (PAGE !== 'tv') return useLang(B.lang);
  return Promise.all([useLang(B.lang), import('./tv/lobby.js'), import('./hide.js')]).then(([, m, hide]) => {
    S.tv = m;
    S.hide = hide;
    return addPack(new URL('./tv/i18n/', import.meta.url).href);
  });
}

tvFirst().then(boot);     // the page's language (the server chose it): its strings first
