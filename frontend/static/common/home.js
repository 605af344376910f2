// The TV landing page: language, New room, Back to a recent room, join by code.
import { h, mount } from './dom.js';
import { t, pick, useLang } from './i18n.js';
import { store, postJSON } from './util.js';
import { hostHeaders, refusal } from './decks.js';

const lang = pick(document.body.dataset.lang);
const ready = useLang(lang);     // the page's strings (common/i18n/<lang>.js)
const params = new URLSearchParams(location.search);
const saved = store.get('partyhub.lang');
if (!params.has('lang') && saved && saved !== lang && ['en', 'uk', 'ru'].includes(saved)) {
  params.set('lang', saved);   // a shared deck's link (?deck=) keeps its code
  location.replace(`?${params}`);
}

for (const a of document.querySelectorAll('.langs a')) {
  a.addEventListener('click', () => store.set('partyhub.lang', a.dataset.lang));
}

const err = document.getElementById('home-error');
const btn = document.getElementById('new-room');
btn.addEventListener('click', async () => {
  btn.disabled = true;
  const label = btn.textContent;
  btn.textContent = t('home.creating');
  err.hidden = true;
  try {
    // the host key: this TV browser's decks are the rooms it makes (a new browser is given one)
    const r = await postJSON('/api/rooms', { language: lang, host_key: store.get('partyhub.hostKey') || undefined });
    if (r.status === 201 && r.body && r.body.code) {
      const code = r.body.code;
      if (r.body.host_key) store.set('partyhub.hostKey', r.body.host_key);
      store.set(`partyhub.host.${code}`, r.body.host_token);
      store.set('partyhub.lastHost', JSON.stringify({ code, at: Date.now() }));
      location.href = `/tv/${encodeURIComponent(code)}`;
      return;
    }
    const e = r.body && r.body.error;
    err.textContent = e && e.code === 'rate_limited' ? t('err.rate_limited') : t('home.error');
  } catch (ex) {
    err.textContent = t('home.error');
  }
  err.hidden = false;
  btn.disabled = false;
  btn.textContent = label;
});

async function offerBack() {
  let last = null;
  try { last = JSON.parse(store.get('partyhub.lastHost') || 'null'); } catch (e) { return; }
  if (!last || !last.code || Date.now() - last.at > 24 * 3600e3) return;
  if (!store.get(`partyhub.host.${last.code}`)) return;
  try {
    const r = await fetch(`/api/rooms/${encodeURIComponent(last.code)}`, { cache: 'no-store' });
    if (r.status !== 200) {
      if (r.status === 404) store.del(`partyhub.host.${last.code}`);
      return;
    }
  } catch (e) { return; }
  mount(document.getElementById('back'),
    h('a', { class: 'btn big ghost', href: `/tv/${encodeURIComponent(last.code)}` }, t('home.back', { code: last.code })));
}
ready.then(offerBack);

const form = document.getElementById('have-code');
form.addEventListener('submit', (e) => {
  e.preventDefault();
  const code = form.elements.code.value.trim().toUpperCase();
  if (!/^[A-Z]{4,8}$/.test(code)) {   // 4 letters, more once many rooms exist
    err.textContent = t('home.code_bad');
    err.hidden = false;
    return;
  }
  location.href = `/j/${code}`;
});

/* A deck's share link (/?deck=CODE, docs/protocol.md "Decks"): add it to this TV's decks. */
function newHostKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const shared = (params.get('deck') || '').replace(/[^A-Za-z0-9]/g, '').toUpperCase().slice(0, 12);
if (shared) ready.then(() => {
  const note = h('p', { class: 'hint', role: 'status' });
  const add = h('button', { class: 'btn big', type: 'button' }, t('home.deck_add', { code: shared }));
  add.addEventListener('click', async () => {
    add.disabled = true;
    // a TV that never made a room has no host key yet: it makes its own (the server keeps it)
    if (!store.get('partyhub.hostKey')) store.set('partyhub.hostKey', newHostKey());
    const r = await fetch('/api/decks/redeem', { method: 'POST', body: JSON.stringify({ code: shared }),
      headers: { 'Content-Type': 'application/json', ...hostHeaders() } }).catch(() => null);
    const body = r ? await r.json().catch(() => null) : { error: { message: t('conn.offline') } };
    if (r && r.status === 200) {
      note.textContent = t('decks.redeemed', { name: body.name, n: body.cards });
      add.remove();
    } else {
      note.textContent = refusal(body, r ? r.status : 0);
      note.classList.add('warn');
      add.disabled = false;
    }
  });
  document.querySelector('.home-actions').after(h('section', { class: 'home-deck' },
    h('h2', null, t('home.deck_title')), h('p', { class: 'hint' }, t('home.deck_hint')), add, note));
});
