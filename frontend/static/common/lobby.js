// The lobby: TV (code, QR, join URL, players, game picker, host settings) and phone.
import { h, mount, region, chip } from './dom.js';
import { t } from './i18n.js';
import { renderPicker, closeOptions, fitDrawer } from './picker.js';
import { store } from './util.js';
import { renderBarred } from './claims.js';

const seen = new Set();   // players already shown: only new ones pop in

export function renderLobby(box, view, app) {
  if (!box._built) {
    box._built = true;
    box._parts = app.page === 'tv' ? buildTv(box) : buildPhone(box);
  }
  if (app.page === 'tv') updateTv(box._parts, view, app);
  else updatePhone(box._parts, view, app);
}

/* ---------- TV ---------- */

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

function buildTv(box) {
  const p = {
    join: h('section', { class: 'join-panel' }),
    head: h('div', { class: 'players-head' }),
    players: h('div', { class: 'players' }),
    barred: h('div', { class: 'barred', hidden: true }),
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
  mount(box, h('div', { class: 'lobby-tv' }, p.join,
    h('section', { class: 'lobby-main' }, p.head, p.players, p.barred, p.host)));
  return p;
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

function updateTv(p, view, app) {
  const room = view.room;
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
    room.audience ? h('span', { class: 'badge' }, t('lobby.audience', { n: room.audience })) : null,
    // the host's "Audience plays along" switch, on or off (rooms of an older server have none)
    'audience_play' in room ? h('span', { class: ['badge', 'aud-play', room.audience_play ? 'on' : 'off'] },
      t(room.audience_play ? 'lobby.audience_on' : 'lobby.audience_off')) : null,
    !app.soundReady() ? h('button', { class: 'btn small ghost', onclick: (e) => { app.unlockSound(); e.currentTarget.remove(); } }, t('lobby.sound_on')) : null);
  renderPlayers(p.players, view, app, 'tiles');
  renderBarred(p.barred, view, app);
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
  box.hidden = !settings && !lock && !bot;
  region(box, [t('lang'), room.language, room.streamer, room.timers, room.standin, room.takeover, room.family, room.audience_play, room.locked, !!settings, lock && lock.type, !!bot], () => {
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
      for (const key of ['family', 'streamer', 'takeover', 'audience']) {
        // the audience switch's state is room.audience_play (room.audience counts the audience)
        const field = key === 'audience' ? 'audience_play' : key;
        if (key === 'audience' && !(field in room)) continue;
        out.push(h('label', { class: 'set toggle', dataset: { set: key } },
          h('input', { type: 'checkbox', checked: !!room[field], onchange: (e) => app.act({ type: 'settings', [key]: e.target.checked }) }),
          h('span', null, t(`set.${key}`))));
      }
    }
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

// decks.js is loaded by a host's TV only, when its drawer is first drawn: phones never need it
let decksModule = null;
function withDecks(fn) {
  if (decksModule) { fn(decksModule); return; }
  import('./decks.js').then((m) => { decksModule = m; fn(m); });
}

function renderDeckUpload(p, view, app) {
  const token = store.get(`partyhub.host.${app.code}`);
  p.decks.hidden = !token || !(view.actions || []).some((a) => a.type === 'settings');
  if (!p.decks.hidden) withDecks((m) => m.renderDecks(p.decks, view, app, token));
}

/** The players as tiles (TV) or rows (phone); new players pop in. */
function renderPlayers(box, view, app, kind) {
  const room = view.room;
  const kicks = new Map((view.actions || []).filter((a) => a.type === 'kick').map((a) => [a.player, a]));
  const items = room.players.map((pl) => {
    const isNew = !seen.has(pl.id);
    seen.add(pl.id);
    return h('div', {
      class: ['player', kind === 'tiles' ? 'tile' : 'row', isNew && 'pop', !pl.connected && 'away', pl.id === view.you.id && 'me'],
      style: { '--pc': pl.color },
    },
    h('span', { class: 'avatar' }, chip(pl, 'big'),
      h('span', { class: ['live', pl.connected ? 'on' : 'off'], title: t(pl.connected ? 'lobby.connected' : 'lobby.away') })),
    h('span', { class: 'pname', title: pl.name }, pl.name),
    h('span', { class: 'tags' },
      pl.id === room.vip ? h('span', { class: 'tag vip', title: t('lobby.vip') }, '★ ' + t('lobby.vip')) : null,
      pl.bot ? h('span', { class: 'tag' }, t('lobby.bot')) : null,
      pl.id === view.you.id ? h('span', { class: 'tag' }, t('lobby.you')) : null),
    kicks.has(pl.id) ? kickButton(kicks.get(pl.id), pl, app) : null,
    pl.bot ? null : app.hideButton({ player: pl.id, name: pl.name }));
  });
  if (kind === 'tiles' && room.players.length < 3) {
    for (let i = room.players.length; i < 3; i++) {
      items.push(h('div', { class: 'player tile empty' }, h('span', { class: 'avatar' }, h('span', { class: 'chip big ghost' }, '?')),
        h('span', { class: 'pname' }, t('lobby.waiting'))));
    }
  }
  box.classList.toggle('few', kind === 'tiles' && room.players.length <= 6);   // 3 columns, big; 7-12: 3 columns
  box.classList.toggle('many', kind === 'tiles' && room.players.length > 12);
  mount(box, items);
}

function kickButton(a, pl, app) {
  let armed = false;
  const b = h('button', { class: 'kick', title: t('lobby.kick', { name: pl.name }), 'aria-label': t('lobby.kick', { name: pl.name }) }, '✕');
  b.addEventListener('click', () => {
    if (armed) { app.act(a); return; }
    armed = true;
    b.classList.add('armed');
    b.textContent = t('lobby.kick_confirm');
    setTimeout(() => { armed = false; b.classList.remove('armed'); b.textContent = '✕'; }, 3000);
  });
  return b;
}

/* ---------- phone ---------- */

function buildPhone(box) {
  const p = {
    me: h('section', { class: 'me-card' }),
    list: h('section', { class: 'plist' }),
    barred: h('div', { class: 'barred', hidden: true }),
    bottom: h('section', { class: 'phone-bottom' }),
    picker: h('div', { class: 'picker-box' }),
    wait: h('div', { class: 'wait' }),
  };
  mount(p.bottom, p.wait, p.picker);
  mount(box, h('div', { class: 'lobby-phone' }, p.me, p.list, p.barred, p.bottom));
  return p;
}

function updatePhone(p, view, app) {
  const room = view.room;
  const me = room.players.find((x) => x.id === view.you.id);
  if (me) {
    region(p.me, [t('lang'), me.name, me.color, me.symbol, room.vip === me.id, room.code], () => [
      h('div', { class: 'me-chip', style: { '--pc': me.color } }, me.symbol || ''),
      h('div', { class: 'me-name' }, me.name),
      room.vip === me.id ? h('div', { class: 'tag vip' }, '★ ' + t('lobby.you_vip')) : null,
      h('div', { class: 'room-code' }, t('lobby.room', { code: room.code })),
      app.langPicker(),
    ]);
  } else {
    const name = app.audienceName;
    region(p.me, [t('lang'), 'audience', room.code, room.phase, name, room.audience_play], () => [
      h('div', { class: 'me-name' }, name || t('audience.watching')),
      name ? h('div', { class: 'tag' }, t('audience.in_audience')) : null,
      h('div', { class: 'room-code' }, t('lobby.room', { code: room.code })),
      'audience_play' in room ? h('p', { class: 'hint aud-hint' }, t(room.audience_play ? 'audience.lobby_on' : 'audience.lobby_off')) : null,
      h('button', { class: 'btn primary big', onclick: () => app.join() }, t('audience.join')),
      app.langPicker(),
    ]);
  }
  mount(p.list, h('h2', null, t('lobby.players', { n: room.players.length })),
    h('div', { class: 'players' }));
  renderPlayers(p.list.lastChild, view, app, 'rows');
  renderBarred(p.barred, view, app);
  const canStart = (view.actions || []).some((a) => a.type === 'start');
  const isVip = me && room.vip === me.id;
  p.me.parentNode.classList.toggle('vip', !!isVip);
  p.picker.hidden = !isVip;
  if (isVip) renderPicker(p.picker, view, app, canStart);
  const vip = room.players.find((x) => x.id === room.vip);
  mount(p.wait, isVip ? null : h('p', { class: 'hint' },
    vip ? t('lobby.wait_vip', { name: vip.name }) : t('lobby.wait_start')));
}
