// Table photos (issue 28, part 4; partyhub/rooms/domain/photos.py): loaded when the host has turned them
// on (lobby.js, tv/lobby.js). A phone adds up to 5 of its own pictures (camera roll or camera),
// sees its own thumbnails and takes them away; the TV in family mode sees them all and hides any.
// The pictures go through the deck uploads' checks on the server; a refusal says why, by its code.
import { h, mount } from '../dom.js';
import { t, addPack } from '../i18n.js';
import { store } from '../util.js';

// its strings (./i18n/) come with it: the phone page's own stay small
await addPack(new URL('./i18n/', import.meta.url).href);

export const PER_SEAT = 5;      // photos.PER_SEAT
const state = { busy: false, error: null, rejected: [] };
let styled = false;

function style(app) {
  if (styled) return;
  styled = true;
  document.head.append(h('link', { rel: 'stylesheet', href: new URL('./photos.css', import.meta.url).href }));
}

function said(code, fallback) {
  return t(`photo.err.${code}`, null, t(`err.${code}`, null, fallback || code));
}

function thumb(app, id, label, onRemove) {
  return h('li', { class: 'photo-thumb' },
    h('img', { src: app.card(id), alt: label, loading: 'lazy' }),
    h('button', { class: 'photo-remove', type: 'button', title: t('photo.remove'), 'aria-label': t('photo.remove'), onclick: onRemove }, '✕'));
}

async function call(method, url, token, body, app) {
  state.busy = true;
  state.error = null;
  app.redraw();
  try {
    const r = await fetch(url, { method, body, headers: { Authorization: `Bearer ${token}` }, cache: 'no-store' });
    const got = await r.json().catch(() => ({}));
    state.rejected = got.rejected || [];
    if (!r.ok) state.error = said(got.error && got.error.code, got.error && got.error.message);
  } catch (e) {
    state.error = t('conn.offline');
  }
  state.busy = false;
  app.redraw();
}

/** The phone's "Add your photos" part of the lobby. */
export function renderPhonePhotos(box, view, app) {
  style(app);
  const mine = view.you.photos || [];
  const token = store.get(`partyhub.seat.${app.code}`);
  const url = `/api/rooms/${encodeURIComponent(app.code)}/photos`;
  const input = h('input', { type: 'file', accept: 'image/*', multiple: true, class: 'photo-input', hidden: true,
    onchange: () => {
      const files = [...input.files].slice(0, PER_SEAT - mine.length);
      if (!files.length) return;
      const form = new FormData();
      for (const f of files) form.append('files', f, f.name);
      call('POST', url, token, form, app);
    } });
  const full = mine.length >= PER_SEAT;
  const on = !!view.room.photos.on;
  mount(box,
    h('h2', null, t('photo.title')),
    h('p', { class: 'hint' }, on ? t('photo.hint', { n: PER_SEAT }) : t('photo.off')),
    h('ul', { class: 'photo-thumbs' }, mine.map((id, i) =>
      thumb(app, id, t('photo.yours', { n: i + 1 }), () => call('DELETE', `${url}/${encodeURIComponent(id)}`, token, undefined, app)))),
    input,
    on ? h('button', { class: 'btn photo-add', type: 'button', disabled: full || state.busy, onclick: () => input.click() },
      state.busy ? t('loading') : full ? t('photo.full', { n: PER_SEAT }) : t('photo.add', { n: PER_SEAT - mine.length })) : null,
    state.error ? h('p', { class: 'photo-error', role: 'alert' }, state.error) : null,
    state.rejected.length ? h('ul', { class: 'photo-rejected' }, state.rejected.map((r) =>
      h('li', null, h('b', null, r.file), ` — ${said(r.code, r.message)}`))) : null);
}

/** The TV's photos: how many the table has; in family mode each one, with a hide button. */
export function renderTvPhotos(box, view, app) {
  style(app);
  const photos = view.room.photos || {};
  const ids = view.you.photos || [];
  const token = store.get(`partyhub.host.${app.code}`);
  const url = `/api/rooms/${encodeURIComponent(app.code)}/photos`;
  mount(box,
    h('p', { class: 'photo-count' }, t('photo.count', { n: photos.count || 0 })),
    view.room.family && token && ids.length ? h('ul', { class: 'photo-thumbs tv' }, ids.map((id, i) =>
      thumb(app, id, t('photo.nth', { n: i + 1 }), () => call('DELETE', `${url}/${encodeURIComponent(id)}`, token, undefined, app)))) : null,
    state.error ? h('p', { class: 'photo-error', role: 'alert' }, state.error) : null);
}
