// The game screen of the shell: its bar (the seat or the room, the timer, pause and end), the
// game's own module (loaded on demand; the generic renderer when it has none or it fails), the
// host-paced note, a stand-in's note, an audience phone's bar and the pause overlay.
import { h, mount, chip } from './dom.js';
import { t, gamePack, addPack } from './i18n.js';
import { createTimer } from './timer.js';
import { renderCoach } from './coach.js';
import { standinNote, standinBox, unit } from './announce.js';
import { renderGeneric } from './generic.js';
import { audienceActions } from './audience.js';
import { ownClaim } from './claims.js';

/** The game screen of page `page` ('tv' | 'phone'); `S`: the shell's state; `overlayEl`: its pause overlay. */
export function gameScreen({ page: PAGE, S, app, overlayEl, overlayDialog, STATIC }) {
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
    S.note = h('div', { class: 'standin-note-box' });    // the phone: what a stand-in did for you
    if (PAGE === 'tv') mount(S.screenBox, S.top, S.gameRoot);          // the ring sits in the bar
    else mount(S.screenBox, S.top, S.timerBox, S.note, S.gameRoot);
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
    if (PAGE !== 'tv') controls.unshift(app.soundToggle());
    const hideCode = room.streamer;
    const name = t(`game.${room.game}`, null, gameName(room));
    mount(S.top,
      PAGE === 'tv'
        ? h('div', { class: 'gb-left' }, hideCode ? null : h('span', { class: 'gb-code' }, room.code), h('span', { class: 'gb-game' }, name))
        : h('div', { class: 'gb-left' }, me ? [chip(me, 'big'),
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
    renderNote(view);
    if (!loadModule(view.room.game)) {
      if (!S.gameRoot.firstChild) mount(S.gameRoot, h('div', { class: 'loading' }, t('loading')));
      return;
    }
    drawGame(view);
  }

  /** A host-paced game (timers "none") draws no timer: the TV says who paces it, and the
   * VIP's phone has a big "End the round" while a timer would have been running; so has the
   * TV while no VIP's phone is connected (the server offers it `advance` then). */
  function renderPace(view) {
    const a = view.actions.find((x) => x.type === 'advance');
    const end = a && h('button', { class: ['btn', 'primary', PAGE === 'tv' ? 'pace-end' : 'big'], style: PAGE === 'tv' ? null : { width: '100%' }, onclick: (e) => { e.currentTarget.disabled = true; app.act(a); } }, t('pace.end'));
    mount(S.pace, PAGE === 'tv' ? view.room.paced && [h('p', null, t(a ? 'pace.tv_away' : 'pace.tv')), end] : end);
  }

  /** The phone of a seat a stand-in played: what it did (you.standin), until OK or its own move. */
  function renderNote(view) {
    if (!S.note) return;
    const note = standinNote(view);
    if (!note || note === S.noteOff) { mount(S.note); return; }
    mount(S.note, standinBox(note, h('button', { class: 'btn small', onclick: () => { S.noteOff = note; mount(S.note); } }, t('standin.ok'))));
  }

  /** The module of game `id`: returns it once loaded ('generic' when missing), else starts loading. */
  function loadModule(id) {
    if (id === S.gameId) return S.module;
    S.gameId = id;
    S.module = null;
    if (S.hooksFor !== id) { S.hooksFor = id; S.streamFns = []; S.errorFns = []; S.audienceFns = []; }
    const url = `${STATIC}games/${id}/${PAGE === 'tv' ? 'tv' : 'phone'}.js`;
    S.loading = Promise.all([import(url).then(
      (m) => (typeof m.render === 'function' ? Promise.resolve(m.ready).then(() => m, () => m) : 'generic'),
      () => 'generic',
    ), addPack(gamePack(STATIC, id))]).then(([m]) => {
      if (S.gameId !== id) return;
      S.module = m;
      S.loading = null;
      app.redraw();
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
    if (PAGE === 'phone') renderCoach(S.gameRoot, view, app);    // the first turn's line (coach.js)
  }

  /** The game bar's left of an audience phone: the name its pass votes under, "In the audience". */
  function audienceWho() {
    const name = app.audienceName;
    return name ? h('span', { class: 'gb-who' }, h('span', { class: 'gb-name' }, name),
      h('span', { class: 'gb-score' }, t('audience.in_audience'))) : h('span', { class: 'gb-name' }, t('audience.in_audience'));
  }

  /** An audience phone during a game: "vote along" while audience actions are offered, else "Watching";
   * take over a disconnected seat when allowed. A late joiner (a seat that joined while the game runs) is told
   * where it stands: in the audience, how to play along, dealt in next game or no seat there (`you.dealt_next`). */
  function renderAudienceBar(view) {
    if (PAGE !== 'phone' || view.you.role !== 'audience') return;
    const seats = view.actions.filter((a) => a.type === 'take_seat');
    let bar = S.gameRoot.parentNode.querySelector('.audience-bar');
    if (!bar) { bar = h('div', { class: 'audience-bar' }); S.gameRoot.before(bar); }
    const asked = ownClaim(view);
    const voting = !asked && audienceActions(view).length > 0;
    bar.classList.toggle('voting', voting);
    if (asked) { mount(bar, h('p', null, t('audience.asked', { name: asked.seat }))); return; }
    const list = seats.length ? h('div', { class: 'seat-list' },
      seats.map((a) => {
        const p = app.players.get(a.player);
        return h('button', { class: 'btn', onclick: () => app.act(a) }, t('audience.take', { name: p ? p.name : '?' }));
      })) : null;
    const late = !!view.you.id && view.room.phase === 'playing';
    const next = t(view.you.dealt_next === false ? 'late.full' : 'late.next', { game: t(`game.${view.room.game}`, null, gameName(view.room)) });
    bar.classList.toggle('late', late && !voting);
    if (!late) { mount(bar, h('p', { class: 'aud-state' }, voting ? t('audience.vote_along') : t('audience.watching_game')), list); return; }
    if (voting) { mount(bar, h('p', { class: 'aud-state' }, t('audience.vote_along')), h('p', { class: 'aud-next' }, next), list); return; }
    const along = view.room.audience_play && view.room.audience_game;
    mount(bar, h('h2', { class: 'aud-title' }, t('late.title')),
      h('p', { class: 'aud-how' }, t(along ? 'late.vote' : 'late.watch')),
      h('p', { class: 'aud-next' }, next),
      list ? [h('p', { class: 'aud-seat' }, t('late.seat')), list] : null);
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

  return { buildGameScreen, renderGame, gameName, loadModule, drawResults, renderAudienceBar, renderOverlay };
}
