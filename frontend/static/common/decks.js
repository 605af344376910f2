// The TV host's decks, in the settings drawer (docs/protocol.md, "Decks"): upload a deck
// (POST /api/rooms/<code>/decks), list this TV's decks, rename, delete and share its own
// (PATCH, DELETE /api/decks/<id>, POST /api/decks/<id>/share, a new code with {new: true},
// DELETE /api/decks/<id>/share to stop sharing), and add a friend's deck by
// its share code (POST /api/decks/redeem). The host key of this TV browser
// (localStorage partyhub.hostKey) says who asks; a TV without one uses the room's host token.
import { h, region } from './dom.js';
import { t } from './i18n.js';
import { modal } from './dialog.js';
import { forgetChoice } from './picker.js';
import { store } from './util.js';

const up = { name: '', busy: false, pct: null, done: null, error: null, rejected: [] };
// the deck list and what is open on it: a rename field, a delete confirmation, the share card
const list = { decks: null, error: null, note: null, editing: null, confirming: null, busy: false, code: '', share: null };
let v = 0;            // bumped on every change: the region renders again
let redraw = () => {};
let again = () => {};  // the list asked for again (the drawer opened)

/** The caller's credentials: this TV's host key, else the room's host token. */
export function hostHeaders(token) {
  const key = store.get('partyhub.hostKey');
  if (key) return { 'X-Host-Key': key };
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** An API refusal in the screen's language (err.<code>), else the server's words. */
export function refusal(body, status) {
  const e = (body && body.error) || {};
  return t(`err.${e.code}`, null, e.message || `${t('err.unknown')} (${status})`);
}

async function call(method, url, token, data) {
  const headers = hostHeaders(token);
  if (data) headers['Content-Type'] = 'application/json';
  try {
    const r = await fetch(url, { method, headers, cache: 'no-store', body: data ? JSON.stringify(data) : undefined });
    let body = null;
    try { body = await r.json(); } catch (e) { /* 204, or not JSON */ }
    return { status: r.status, body };
  } catch (e) {
    return { status: 0, body: { error: { code: 'offline', message: t('conn.offline') } } };
  }
}

export function renderDecks(box, view, app, token) {
  redraw = () => { v += 1; if (app.view) renderDecks(box, app.view, app, token); };
  again = () => { if (!list.busy) refresh(app, token); };
  if (list.decks === null && !list.busy) refresh(app, token);
  const typing = [box._name, box._code].find((f) => f && f === document.activeElement);
  const caret = typing && [typing.selectionStart, typing.selectionEnd, typing.selectionDirection];
  region(box, [t('lang'), v], () => [deckList(app, token), uploadForm(box, app, token), redeemForm(box, app, token)]);
  // a field typed in is put back by the redraw (the list came in, an upload moved on): moving
  // it out of the page and back blurred it, and the keys typed next went nowhere
  if (typing && typing.isConnected && document.activeElement !== typing) {
    typing.focus({ preventScroll: true });
    typing.setSelectionRange(...caret);
  }
  renderShare(token);
}

/** The list again, and the picker's choices with it (the game list carries this host's decks). */
async function refresh(app, token) {
  list.busy = true;
  const [r, games] = await Promise.all([call('GET', '/api/decks', token),
    call('GET', '/api/games', token)]);
  list.busy = false;
  if (r.status === 200) {
    list.decks = r.body.decks;
    list.error = null;
  } else {
    list.decks = list.decks || [];
    list.error = refusal(r.body, r.status);
  }
  if (games.status === 200 && app.view && app.view.room && app.view.room.games) app.view.room.games = games.body;
  redraw();
}

/** The drawer opened: the list may have changed elsewhere (a friend deleted a deck). */
export function reloadDecks() {
  Object.assign(list, { note: null, error: null, editing: null, confirming: null, redeemed: null });
  again();
}

/* ---------- upload ---------- */

function uploadForm(box, app, token) {
  // the inputs outlive re-renders (progress, language): the chosen files stay chosen
  const name = box._name || (box._name = h('input', { type: 'text', maxlength: 40,
    oninput: (e) => { up.name = e.target.value; } }));
  name.value = up.name;
  name.placeholder = t('deck.name');
  const files = box._files || (box._files = h('input', { type: 'file', multiple: true,
    accept: 'image/jpeg,image/png,image/webp,.jpg,.jpeg,.png,.webp,.zip,application/zip' }));
  const go = h('button', { class: 'btn small', type: 'button', disabled: up.busy,
    onclick: () => upload(box, app, token, name.value, files.files) }, t('deck.upload'));
  let status = null;
  if (up.busy) {
    status = h('p', { class: 'hint', role: 'status' },
      up.pct != null && up.pct < 100 ? t('deck.uploading', { pct: up.pct }) : t('deck.processing'));
  } else if (up.error) {
    status = h('p', { class: 'hint warn', role: 'alert' }, up.error);
  } else if (up.done) {
    status = h('p', { class: 'hint', role: 'status' }, t('deck.done', up.done));
  }
  const rejected = up.rejected.length ? h('div', { class: 'deck-rejected' },
    h('p', { class: 'hint' }, t('deck.rejected')),
    h('ul', null, up.rejected.map((r) => h('li', null, h('b', null, r.file), ` — ${r.message}`)))) : null;
  return h('section', { class: 'deck-part deck-new' }, h('h4', null, t('deck.title')), h('p', { class: 'hint' }, t('deck.hint')),
    h('label', { class: 'opt' }, h('span', { class: 'olabel' }, t('deck.name')), name),
    h('label', { class: 'opt' }, h('span', { class: 'olabel' }, t('deck.files')), files),
    go, status, rejected);
}

function upload(box, app, token, name, fileList) {
  Object.assign(up, { name, done: null, error: null, rejected: [] });
  if (!name.trim()) { up.error = t('deck.need_name'); redraw(); return; }
  if (!fileList || !fileList.length) { up.error = t('deck.need_files'); redraw(); return; }
  const form = new FormData();
  form.append('name', name.trim());
  for (const f of fileList) form.append('files', f, f.name);
  const xhr = new XMLHttpRequest();
  xhr.open('POST', `/api/rooms/${encodeURIComponent(app.code)}/decks`);
  xhr.setRequestHeader('Authorization', `Bearer ${token}`);
  xhr.upload.onprogress = (e) => {
    if (!e.lengthComputable) return;
    up.pct = Math.floor((100 * e.loaded) / e.total);
    redraw();
  };
  xhr.onerror = () => { Object.assign(up, { busy: false, error: t('deck.failed', { message: t('conn.offline') }) }); redraw(); };
  xhr.onload = () => {
    let body = {};
    try { body = JSON.parse(xhr.responseText); } catch (e) { /* not JSON */ }
    up.busy = false;
    up.rejected = body.rejected || [];
    if (xhr.status === 201) {
      up.done = { name: body.name, n: body.cards };
      up.name = '';
      if (box._files) box._files.value = '';
      refresh(app, token);   // the picker offers the new deck at once
    } else {
      up.error = t('deck.failed', { message: refusal(body, xhr.status) });
    }
    redraw();
  };
  Object.assign(up, { busy: true, pct: 0 });
  redraw();
  xhr.send(form);
}

/* ---------- this TV's decks ---------- */

function size(bytes) {
  const mb = bytes / (1024 * 1024);
  const n = mb >= 10 ? Math.round(mb) : Math.max(0.1, Math.round(mb * 10) / 10);
  return t('decks.mb', { n: n.toLocaleString(t('lang')) });
}

function deckList(app, token) {
  const out = [h('h4', null, t('decks.title'))];
  if (list.error) out.push(h('p', { class: 'hint warn', role: 'alert' }, list.error));
  if (list.note) out.push(h('p', { class: 'hint', role: 'status' }, list.note));
  if (list.decks && !list.decks.length) out.push(h('p', { class: 'hint' }, t('decks.none')));
  if (list.decks && list.decks.length) {
    out.push(h('ul', { class: 'deck-rows' }, list.decks.map((d) => h('li', { class: ['deck-row', !d.mine && 'theirs'], dataset: { deck: d.id } },
      deckRow(d, app, token)))));
  }
  return h('section', { class: 'deck-part deck-mine' }, out);
}

function deckRow(d, app, token) {
  const said = t('decks.about', { n: d.cards, size: size(d.bytes) });
  const about = h('span', { class: 'deck-about' }, h('b', { class: 'deck-name' }, d.name),
    h('span', { class: 'hint' }, !d.mine ? `${said} · ${t('decks.shared_with_you')}`
      : d.share ? `${said} · ${t('decks.shared_code', { code: d.share })}` : said));
  if (!d.mine) return [about];
  if (list.editing === d.id) {
    const field = h('input', { type: 'text', maxlength: 40, value: list.draft ?? d.name, class: 'deck-rename',
      'aria-label': t('decks.new_name'), oninput: (e) => { list.draft = e.target.value; } });
    const save = () => change(app, token, 'PATCH', d, { name: field.value.trim() });
    field.addEventListener('keydown', (e) => { if (e.key === 'Enter') save(); });
    setTimeout(() => { field.focus(); field.select(); });
    return [field, h('span', { class: 'deck-acts' },
      h('button', { class: 'btn small primary', type: 'button', disabled: list.busy, onclick: save }, t('decks.save')),
      h('button', { class: 'btn small ghost', type: 'button', onclick: () => { list.editing = null; redraw(); } }, t('decks.cancel')))];
  }
  if (list.confirming === d.id) {
    return [h('span', { class: 'deck-about' }, h('b', { class: 'deck-ask' }, t('decks.delete_ask', { name: d.name })),
      h('span', { class: 'hint' }, t('decks.delete_note'))),
    h('span', { class: 'deck-acts' },
      h('button', { class: 'btn small danger', type: 'button', disabled: list.busy, onclick: () => change(app, token, 'DELETE', d) }, t('decks.delete_yes')),
      h('button', { class: 'btn small ghost', type: 'button', onclick: () => { list.confirming = null; redraw(); } }, t('decks.cancel')))];
  }
  const open = (what) => () => { Object.assign(list, { editing: null, confirming: null, note: null, error: null, redeemed: null }, what); redraw(); };
  return [about, h('span', { class: 'deck-acts' },
    h('button', { class: 'btn small ghost', type: 'button', onclick: open({ editing: d.id, draft: null }) }, t('decks.rename')),
    h('button', { class: 'btn small', type: 'button', onclick: () => share(d, app, token) }, t('decks.share')),
    h('button', { class: 'btn small ghost danger-text', type: 'button', onclick: open({ confirming: d.id }) }, t('decks.delete')))];
}

async function change(app, token, method, d, data) {
  list.busy = true;
  redraw();
  const r = await call(method, `/api/decks/${encodeURIComponent(d.id)}`, token, data);
  list.busy = false;
  if (r.status === 200 || r.status === 204) {
    Object.assign(list, { editing: null, confirming: null, error: null,
      note: method === 'DELETE' ? t('decks.deleted', { name: d.name }) : t('decks.renamed', { name: r.body.name }) });
    if (method === 'DELETE') forgetChoice(d.id);
    await refresh(app, token);
    return;
  }
  list.error = refusal(r.body, r.status);
  redraw();
}

/* ---------- share: the code, big, over the whole TV ---------- */

async function share(d, app, token, data) {
  const r = await call('POST', `/api/decks/${encodeURIComponent(d.id)}/share`, token, data);
  if (r.status !== 200) { list.error = refusal(r.body, r.status); list.share = null; redraw(); return; }
  list.share = { deck: d, app, token, name: d.name, code: r.body.code, url: r.body.url, renewed: Boolean(data), asking: false };
  if (d.share !== r.body.code) refresh(app, token);   // the row shows the code
  redraw();
}

/** Stop sharing: the code is dead and friends' TVs that added the deck lose it. */
async function unshare(s) {
  const r = await call('DELETE', `/api/decks/${encodeURIComponent(s.deck.id)}/share`, s.token);
  list.share = null;
  if (r.status === 200) Object.assign(list, { error: null, note: t('decks.unshared', { name: s.name }) });
  else list.error = refusal(r.body, r.status);
  await refresh(s.app, s.token);
}

let shareBox = null;
let shareDialog = null;

function renderShare() {
  if (!shareBox) {
    shareBox = h('div', { class: 'share-card-wrap', hidden: true });
    shareDialog = modal(shareBox);   // named by its heading, focus kept and given back
    document.body.appendChild(shareBox);
    // Escape closes the card only, not the drawer under it (the lobby listens on document)
    window.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || !list.share) return;
      e.stopPropagation();
      list.share = null;
      redraw();
    }, true);
  }
  const s = list.share;
  shareBox.hidden = !s;
  region(shareBox, [t('lang'), s && s.code, s && s.name, s && s.asking, s && s.renewed], () => {
    if (!s) return [];
    const close = h('button', { class: 'btn big primary', type: 'button', onclick: () => { list.share = null; redraw(); } }, t('pick.close'));
    if (s.asking) {       // stopping takes the deck from friends too: asked once more
      const no = h('button', { class: 'btn big', type: 'button', onclick: () => { s.asking = false; redraw(); } }, t('decks.cancel'));
      setTimeout(() => no.focus());
      return h('div', { class: 'share-card' },
        h('h2', null, t('decks.share_title', { name: s.name })),
        h('p', { class: 'share-how share-ask' }, t('decks.share_stop_ask', { name: s.name })),
        h('div', { class: 'share-acts' },
          h('button', { class: 'btn big danger', type: 'button', onclick: () => unshare(s) }, t('decks.share_stop')), no));
    }
    setTimeout(() => close.focus());
    return h('div', { class: 'share-card' },
      h('h2', null, t('decks.share_title', { name: s.name })),
      h('div', { class: 'join-label' }, t('decks.share_code')),
      h('div', { class: 'share-code', 'aria-label': s.code }, s.code.slice(0, 4), h('span', { class: 'gap' }), s.code.slice(4)),
      s.renewed ? h('p', { class: 'share-how share-renewed', role: 'status' }, t('decks.share_renewed')) : null,
      h('p', { class: 'share-how' }, t('decks.share_how')),
      s.url ? h('div', { class: 'join-label' }, t('decks.share_link')) : null,
      s.url ? h('div', { class: 'share-url' }, s.url) : null,
      h('div', { class: 'share-acts' }, close,
        h('button', { class: 'btn big', type: 'button', onclick: () => share(s.deck, s.app, s.token, { new: true }) }, t('decks.share_new')),
        h('button', { class: 'btn big ghost danger-text', type: 'button', onclick: () => { s.asking = true; redraw(); } }, t('decks.share_stop'))),
      h('p', { class: 'hint share-note' }, t('decks.share_note')));
  });
  if (s) shareDialog.open(); else shareDialog.close();
}

/* ---------- a friend's deck, by its share code ---------- */

function redeemForm(box, app, token) {
  // kept across re-renders, as the deck's name is (renderDecks keeps its focus)
  const field = box._code || (box._code = h('input', { type: 'text', maxlength: 12, class: 'deck-code', autocomplete: 'off',
    spellcheck: 'false', autocapitalize: 'characters', placeholder: 'ABCD EFGH',
    oninput: (e) => { list.code = e.target.value; },
    onkeydown: (e) => { if (e.key === 'Enter') redeem(app, token, e.target.value); } }));
  field.value = list.code;
  field.setAttribute('aria-label', t('decks.redeem_code'));
  const go = () => redeem(app, token, field.value);
  return h('section', { class: 'deck-part deck-redeem' }, h('h4', null, t('decks.redeem_title')),
    h('p', { class: 'hint' }, t('decks.redeem_hint')),
    h('div', { class: 'deck-redeem-row' }, field,
      h('button', { class: 'btn small', type: 'button', disabled: list.busy, onclick: go }, t('decks.redeem'))),
    list.redeemed ? h('p', { class: ['hint', list.redeemed.warn && 'warn'], role: list.redeemed.warn ? 'alert' : 'status' },
      list.redeemed.text) : null);
}

async function redeem(app, token, code) {
  Object.assign(list, { code, note: null, error: null, redeemed: null });
  if (!code.replace(/\s+/g, '')) { list.redeemed = { text: t('decks.need_code'), warn: true }; redraw(); return; }
  list.busy = true;
  redraw();
  const r = await call('POST', '/api/decks/redeem', token, { code });
  list.busy = false;
  if (r.status === 200) {
    Object.assign(list, { code: '', redeemed: { text: t('decks.redeemed', { name: r.body.name, n: r.body.cards }) } });
    await refresh(app, token);
    return;
  }
  list.redeemed = { text: refusal(r.body, r.status), warn: true };
  redraw();
}
