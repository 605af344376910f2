// The phone's lobby, and the players' list both lobbies draw (the TV's lobby: tv/lobby.js).
import { h, mount, region, chip } from './dom.js';
import { face } from './faces.js';
import { t } from './i18n.js';
import { lazy, drawLazy } from './lazy.js';
import { renderBarred } from './claims.js';

// the game picker: only the VIP's phone needs it (the TV's lobby imports it itself)
const picker = lazy(() => import('./picker.js'));
const pad = lazy(() => import('./portraitpad.js'));     // the portrait pad: when first opened
const photos = lazy(() => import('./photos/photos.js'));       // table photos: once the host turns them on
const seen = new Set();   // players already shown: only new ones pop in

/** A lobby's renderer: its parts are built into the box once, then updated for every view. */
export function lobbyScreen(build, update) {
  return (box, view, app) => {
    if (!box._parts) box._parts = build(box);
    update(box._parts, view, app);
  };
}

/** The phone's lobby (the TV's: tv/lobby.js). */
export const renderLobby = lobbyScreen(buildPhone, updatePhone);

/** The players as tiles (TV) or rows (phone); new players pop in. */
export function renderPlayers(box, view, app, kind) {
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
    pl.bot ? null : app.hideButton({ player: pl.id, name: pl.name }),
    pl.portrait ? app.hideButton({ portrait: pl.id, name: pl.name }) : null);
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
  return armedButton(h('button', { class: 'kick', title: t('lobby.kick', { name: pl.name }), 'aria-label': t('lobby.kick', { name: pl.name }) }, '✕'),
    a, t('lobby.kick_confirm'), app);
}

/** A button that acts on its second tap within 3 s (the first one asks `confirm`). */
export function armedButton(b, a, confirm, app) {
  const label = b.textContent;
  let armed = false;
  b.addEventListener('click', () => {
    if (armed) { app.act(a); return; }
    armed = true;
    b.classList.add('armed');
    b.textContent = confirm;
    setTimeout(() => { armed = false; b.classList.remove('armed'); b.textContent = label; }, 3000);
  });
  return b;
}

/* ---------- phone ---------- */

function openPad(app, me) {
  const m = pad((loaded) => loaded && loaded.openPad(app, me));
  if (m) m.openPad(app, me);
}

function buildPhone(box) {
  const p = {
    me: h('section', { class: 'me-card' }),
    list: h('section', { class: 'plist' }),
    barred: h('div', { class: 'barred', hidden: true }),
    photos: h('section', { class: 'photos', hidden: true }),
    bottom: h('section', { class: 'phone-bottom' }),
    picker: h('div', { class: 'picker-box' }),
    wait: h('div', { class: 'wait' }),
  };
  mount(p.bottom, p.wait, p.picker);
  mount(box, h('div', { class: 'lobby-phone' }, p.me, p.photos, p.list, p.barred, p.bottom));
  return p;
}

function updatePhone(p, view, app) {
  const room = view.room;
  const me = room.players.find((x) => x.id === view.you.id);
  if (me) {
    region(p.me, [t('lang'), me.name, me.color, me.symbol, room.vip === me.id, room.code, me.portrait, me.character], () => [
      h('div', { class: ['me-chip', face(me) && 'faced'], style: { '--pc': me.color } }, face(me) || me.symbol || ''),
      h('button', { class: 'btn small me-face', type: 'button', onclick: () => openPad(app, me) }, t('face.open')),
      h('div', { class: 'me-name' }, me.name),
      room.vip === me.id ? h('div', { class: 'tag vip' }, '★ ' + t('lobby.you_vip')) : null,
      h('div', { class: 'room-code' }, t('lobby.room', { code: room.code })),
      h('div', { class: 'me-tools' }, app.langPicker(), app.soundToggle()),
    ]);
  } else {
    const name = app.audienceName;
    region(p.me, [t('lang'), 'audience', room.code, room.phase, name, room.audience_play], () => [
      h('div', { class: 'me-name' }, name || t('audience.watching')),
      name ? h('div', { class: 'tag' }, t('audience.in_audience')) : null,
      h('div', { class: 'room-code' }, t('lobby.room', { code: room.code })),
      'audience_play' in room ? h('p', { class: 'hint aud-hint' }, t(room.audience_play ? 'audience.lobby_on' : 'audience.lobby_off')) : null,
      h('button', { class: 'btn primary big', onclick: () => app.join() }, t('audience.join')),
      h('div', { class: 'me-tools' }, app.langPicker(), app.soundToggle()),
    ]);
  }
  mount(p.list, h('h2', null, t('lobby.players', { n: room.players.length })),
    h('div', { class: 'players' }));
  renderPlayers(p.list.lastChild, view, app, 'rows');
  renderBarred(p.barred, view, app);
  // shown while the host has photos on, and after, to a phone that still has photos to take away
  p.photos.hidden = !(me && room.photos && (room.photos.on || (view.you.photos || []).length));
  if (!p.photos.hidden) drawLazy(p.photos, photos, (m) => m.renderPhonePhotos(p.photos, view, app), app.redraw);
  const canStart = (view.actions || []).some((a) => a.type === 'start');
  const isVip = me && room.vip === me.id;
  p.me.parentNode.classList.toggle('vip', !!isVip);
  p.picker.hidden = !isVip;
  if (isVip) drawLazy(p.picker, picker, (m) => m.renderPicker(p.picker, view, app, canStart), app.redraw);
  const vip = room.players.find((x) => x.id === room.vip);
  mount(p.wait, isVip ? null : h('p', { class: 'hint' },
    vip ? t('lobby.wait_vip', { name: vip.name }) : t('lobby.wait_start')));
}
