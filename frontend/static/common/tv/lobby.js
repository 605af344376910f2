// The TV's lobby: the code, the QR and the join URL, the players as tiles, the game picker and
// the host's settings and decks drawer. Loaded by the TV page only (app.js), with its strings
// (./i18n/) and the TV's styles (./tv.css, linked by tv.html): a phone never downloads them.
import { h, mount, region } from '../dom.js';
import { t } from '../i18n.js';
import { renderPicker, closeOptions, fitDrawer } from '../picker.js';
import { store } from '../util.js';
import { renderBarred } from '../claims.js';
import { renderPlayers, armedButton, lobbyScreen } from '../lobby.js';
import { lazy, drawLazy } from '../lazy.js';

const photos = lazy(() => import('../photos/photos.js'));    // table photos: once the host turns them on

const qrCache = new Map();
let escParts = null;   // the TV lobby whose drawers Escape closes

/** The QR code image; the SVG is loaded as a blob so it shows even without an xmlns.
 * `onUrl` gets the link the code holds (the server's X-Join-Url), which the TV shows. */
function qrImage(code, onUrl) {
  const url = `/api/rooms/${encodeURIComponent(code)}/qr.svg`;
  const img = h('img', { alt: t('lobby.qr_alt'), width: 264, height: 264 });
  const cached = qrCache.get(code);
  if (cached) { img.src = cached.src; if (cached.link) onUrl(cached.link); return img; }
  fetch(url).then((r) => (r.ok ? r.text().then((text) => [text, r.headers.get('X-Join-Url')]) : Promise.reject(r.status))).then(([text, link]) => {
    let fixed = /<svg[^>]*xmlns=/.test(text) ? text : text.replace('<svg', '<svg xmlns="http://www.w3.org/2000/svg"');
    const size = /<svg[^>]*\swidth="(\d+)"[^>]*\sheight="(\d+)"/.exec(fixed);
    if (size && !/<svg[^>]*viewBox=/.test(fixed)) fixed = fixed.replace('<svg', `<svg viewBox="0 0 ${size[1]} ${size[2]}"`);
    const src = URL.createObjectURL(new Blob([fixed], { type: 'image/svg+xml' }));
    qrCache.set(code, { src, link });
    img.src = src;
    if (link) onUrl(link);
  }).catch(() => { img.src = url; });
  return img;
}

/** Everyone watching without a seat in the game: the spectator seats (room.audience) and the
 * audience passes and anonymous audience sockets the server counts (its `watchers` frame). */
function watching(room, app) {
  return (room.audience || 0) + (app.watchers || 0);
}

function buildTv(box) {
  const p = {
    join: h('section', { class: 'join-panel' }),
    head: h('div', { class: 'players-head' }),
    players: h('div', { class: 'players' }),
    barred: h('div', { class: 'barred', hidden: true }),
    photos: h('div', { class: 'photos tv-photos', hidden: true }),
    host: h('section', { class: 'host-panel' }),
    picker: h('div', { class: 'picker-box' }),
    settings: h('div', { class: 'settings' }),
    gear: h('button', { class: 'btn gear', type: 'button', 'aria-expanded': 'false' }, '⚙'),
    drawer: h('div', { class: 'drawer settings-drawer', hidden: true }),
    decks: h('div', { class: 'deck-upload', hidden: true }),
  };
  // host settings live behind the gear, in a drawer over the players: the players stay in view
  const openSettings = (open) => {
    p.drawer.hidden = !open;
    p.gear.setAttribute('aria-expanded', open ? 'true' : 'false');
    p.gear.classList.toggle('on', open);
    if (open) { fitDrawer(p.host); closeOptions(p.picker); if (!p.decks.hidden) withDecks((m) => m.reloadDecks()); }
  };
  p.gear.addEventListener('click', () => openSettings(p.drawer.hidden));
  p.drawerHead = h('div', { class: 'drawer-head' });
  p.drawerClose = h('button', { class: 'btn small primary', type: 'button', onclick: () => openSettings(false) });
  mount(p.drawer, p.drawerHead, p.settings, p.decks);
  p.closeAll = () => { openSettings(false); closeOptions(p.picker); };
  if (!escParts) {
    document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && escParts) escParts.closeAll(); });
    window.addEventListener('resize', () => { if (escParts) fitDrawer(escParts.host); });
  }
  escParts = p;
  mount(p.host, p.picker, p.gear, p.drawer);
  const main = h('section', { class: 'lobby-main' }, p.head, p.players, p.barred, p.photos, p.host);
  mount(box, h('div', { class: 'lobby-tv' }, p.join, main));
  refitOn([main, p.head, p.players, p.barred, p.photos, p.picker], p.host);
  return p;
}

let refit = null;     // the one observer of the lobby drawn last (a new lobby takes it over)

/** The drawers' room above the host panel follows the layout above it whenever that changes
 * size: a font that arrives late, a deck's label, a player's tile, a photo. Measured only on
 * open and on each view, a drawer opened before such a change ran off the top of the screen,
 * its Done button with it (CI, a loaded machine, after a deck upload). */
function refitOn(parts, host) {
  if (typeof ResizeObserver !== 'function') return;
  if (refit) refit.disconnect();
  refit = new ResizeObserver(() => fitDrawer(host));
  for (const el of parts) refit.observe(el);
}

const SHOW_CODE_MS = 15000;

/** Streamer mode hides the code and the QR from the stream; the host may show them a moment. */
function hidesCode(room, p) {
  return room.streamer && !(p.shownUntil > Date.now());
}

function showCode(p, app) {
  p.shownUntil = Date.now() + SHOW_CODE_MS;
  clearTimeout(p.shownTimer);
  p.shownTimer = setTimeout(() => { p.shownUntil = 0; if (app.view && app.view.room.phase === 'lobby') updateTv(p, app.view, app); },
    SHOW_CODE_MS);
  updateTv(p, app.view, app);
}

/** The TV's lobby (the phone's: lobby.js). */
export const renderLobby = lobbyScreen(buildTv, updateTv);

function updateTv(p, view, app) {
  const room = view.room;
  // an open drawer's room above it changes as the lobby above it grows (players, a deck's labels)
  if (!p.drawer.hidden) requestAnimationFrame(() => fitDrawer(p.host));
  region(p.join, [t('lang'), room.code, room.join_url, hidesCode(room, p)], () => {
    if (hidesCode(room, p)) {
      const canShow = (view.actions || []).some((a) => a.type === 'settings');
      return h('div', { class: 'join-hidden' }, h('div', { class: 'logo small' }, 'partyhub'),
        h('p', null, t('lobby.streamer_hidden')),
        canShow && !room.locked ? h('button', { class: 'btn show-code', type: 'button', onclick: () => showCode(p, app) },
          t('lobby.streamer_show')) : null);
    }
    const link = h('div', { class: 'join-url' }, room.join_url || '');
    return [
      h('div', { class: 'join-label' }, t('lobby.scan')),
      h('div', { class: 'qr' }, qrImage(room.code, (shown) => { link.textContent = shown; })),
      link,
      h('div', { class: 'join-label' }, t('lobby.code')),
      h('div', { class: `code n${room.code.length}`, 'aria-label': room.code }, [...room.code].map((c) => h('span', null, c))),
    ];
  });
  mount(p.head,
    h('h2', null, t('lobby.players', { n: room.players.length })),
    room.locked ? h('span', { class: 'badge warn' }, t('lobby.locked')) : null,
    watching(room, app) ? h('span', { class: 'badge watching' }, t('lobby.audience', { n: watching(room, app) })) : null,
    // the host's "Audience plays along" switch, on or off (rooms of an older server have none)
    'audience_play' in room ? h('span', { class: ['badge', 'aud-play', room.audience_play ? 'on' : 'off'] },
      t(room.audience_play ? 'lobby.audience_on' : 'lobby.audience_off')) : null,
    !app.soundReady() ? h('button', { class: 'btn small ghost', onclick: (e) => { app.unlockSound(); e.currentTarget.remove(); } }, t('lobby.sound_on')) : null);
  renderPlayers(p.players, view, app, 'tiles');
  renderBarred(p.barred, view, app);
  p.photos.hidden = !(room.photos && room.photos.on);
  if (!p.photos.hidden) drawLazy(p.photos, photos, (m) => m.renderTvPhotos(p.photos, view, app), app.redraw);
  const acts = view.actions || [];
  const canStart = acts.some((a) => a.type === 'start');
  // the host panel is for whoever may run the room (the TV); an audience TV only watches
  p.host.hidden = !acts.some((a) => ['start', 'settings', 'lock', 'unlock', 'add_bot'].includes(a.type));
  p.picker.hidden = !(room.games || []).length;
  renderPicker(p.picker, view, app, canStart);
  renderSettings(p.settings, view, app);
  renderDeckUpload(p, view, app);
  p.gear.hidden = p.settings.hidden;
  if (p.settings.hidden) p.drawer.hidden = true;
  p.gear.title = t('lobby.settings');
  p.gear.setAttribute('aria-label', t('lobby.settings'));
  p.drawerClose.textContent = t('pick.close');
  region(p.drawerHead, [t('lang')], () => [h('h3', null, t('lobby.settings')), p.drawerClose]);
}

function renderSettings(box, view, app) {
  const room = view.room;
  const acts = view.actions || [];
  const settings = acts.find((a) => a.type === 'settings');
  const lock = acts.find((a) => a.type === 'lock' || a.type === 'unlock');
  const bot = acts.find((a) => a.type === 'add_bot');
  const revoke = acts.find((a) => a.type === 'revoke_passes');
  box.hidden = !settings && !lock && !bot;
  region(box, [t('lang'), room.language, room.streamer, room.timers, room.standin, room.vip_grace, room.takeover, room.family, room.audience_play, room.photos && room.photos.on, room.locked, !!settings, lock && lock.type, !!bot, !!revoke], () => {
    const out = [];
    if (settings) {
      out.push(h('label', { class: 'set' }, h('span', null, t('set.language')),
        h('select', { onchange: (e) => app.act({ type: 'settings', language: e.target.value }) },
          [['en', 'English'], ['uk', 'Українська'], ['ru', 'Русский']].map(([v, n]) =>
            h('option', { value: v, selected: room.language === v }, n)))));
      out.push(h('label', { class: 'set' }, h('span', null, t('set.timers')),
        h('select', { 'data-set': 'timers', onchange: (e) => app.act({ type: 'settings', timers: e.target.value }) },
          ['normal', 'extended', 'relaxed', 'none'].map((v) =>
            h('option', { value: v, selected: room.timers === v }, t(`timers.${v}`))))));
      const waits = [...new Set([0, 10, 20, 30, 60, room.standin || 0])].sort((a, b) => a - b);
      out.push(h('label', { class: 'set' }, h('span', null, t('set.standin')),
        h('select', { 'data-set': 'standin', onchange: (e) => app.act({ type: 'settings', standin: +e.target.value }) },
          waits.map((n) => h('option', { value: n, selected: (room.standin || 0) === n }, n ? t('opt.seconds', { n }) : t('standin.off'))))));
      if ('vip_grace' in room) {     // how long the VIP's phone may be away (issue 27)
        const graces = [...new Set([0, 15, 30, 60, 120, 300, room.vip_grace])].sort((a, b) => a - b);
        out.push(h('label', { class: 'set' }, h('span', null, t('set.vip_grace')),
          h('select', { 'data-set': 'vip_grace', onchange: (e) => app.act({ type: 'settings', vip_grace: +e.target.value }) },
            graces.map((n) => h('option', { value: n, selected: room.vip_grace === n }, t('opt.seconds', { n }))))));
      }
      for (const key of ['family', 'streamer', 'takeover', 'audience', 'photos']) {
        // the audience switch's state is room.audience_play (room.audience counts the audience)
        const field = key === 'audience' ? 'audience_play' : key;
        if (key === 'audience' && !(field in room)) continue;
        // room.photos is there only while the table has photos on or some photos
        const on = key === 'photos' ? room.photos && room.photos.on : room[field];
        out.push(h('label', { class: 'set toggle', dataset: { set: key } },
          h('input', { type: 'checkbox', checked: !!on, onchange: (e) => app.act({ type: 'settings', [key]: e.target.checked }) }),
          h('span', null, t(`set.${key}`))));
      }
    }
    // every audience pass void at once (named voters tap "Watch" again): two taps, as a kick
    if (revoke && 'audience_play' in room) out.push(confirmButton(revoke, t('set.revoke_passes'), t('set.revoke_confirm'), t('set.revoke_passes_hint'), app));
    if (lock) {
      out.push(h('label', { class: 'set toggle' },
        h('input', { type: 'checkbox', checked: lock.type === 'unlock', onchange: () => app.act({ type: lock.type }) }),
        h('span', null, t('set.locked'))));
    }
    if (bot) out.push(h('button', { class: 'btn small', onclick: () => app.act({ type: 'add_bot' }) }, t('lobby.add_bot')));
    return out;
  });
}

/* ---------- custom decks (TV host only): frontend/static/common/decks.js ---------- */

// decks.js is loaded by a host's TV only, when its drawer is first drawn
let decksModule = null;
function withDecks(fn) {
  if (decksModule) { fn(decksModule); return; }
  import('../decks.js').then((m) => { decksModule = m; fn(m); });
}

function renderDeckUpload(p, view, app) {
  const token = store.get(`partyhub.host.${app.code}`);
  p.decks.hidden = !token || !(view.actions || []).some((a) => a.type === 'settings');
  if (!p.decks.hidden) withDecks((m) => m.renderDecks(p.decks, view, app, token));
}

function confirmButton(a, label, confirm, hint, app) {
  return armedButton(h('button', { class: 'btn small revoke-passes', type: 'button', title: hint }, label), a, confirm, app);
}
