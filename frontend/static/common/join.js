// Screens before a socket: the phone's join form, "this TV is not the host", "no such room";
// and the way to a seat (seatFlow): the shell's join and claim flow.
import { h, mount, toast } from './dom.js';
import { t, getLang } from './i18n.js';
import { postJSON, store } from './util.js';
import { askForSeat, waitForClaim, storedClaim } from './claims.js';
import { keepAwake } from './wake.js';

const JOIN_ERRORS = ['room_not_found', 'name_taken', 'bad_name', 'room_full', 'room_locked', 'rate_limited', 'kicked',
  'name_kicked', 'not_claimable', 'seat_taken', 'claims_full', 'not_family_friendly', 'claim_pending_seat',
  'claim_pending_address'];

const passKey = (code) => `partyhub.audience.${code}`;

/** This room's audience pass ({token, audience_id, name}) kept by this browser, or null. */
export function storedPass(code) {
  try {
    const p = JSON.parse(store.get(passKey(code)) || 'null');
    return p && typeof p.token === 'string' && p.token ? p : null;
  } catch (e) { return null; }
}

export function forgetPass(code) { store.del(passKey(code)); }

/** POST /audience {name}: resolves {pass} (kept for this room) or {error: code or null, message}. */
async function askForPass(code, name) {
  const old = storedPass(code);
  if (old && old.name === name) return { pass: old };      // the same voter: no second pass
  try {
    const r = await postJSON(`/api/rooms/${encodeURIComponent(code)}/audience`, { name });
    if (r.status === 201 && r.body && r.body.token) {
      const pass = { token: r.body.token, audience_id: r.body.audience_id || null, name: r.body.name || name };
      store.set(passKey(code), JSON.stringify(pass));
      return { pass };
    }
    const e = (r.body && r.body.error) || {};
    return { error: e.code || null, message: e.message || '' };
  } catch (ex) {
    return { error: 'offline', message: '' };
  }
}

/** The join form. A name whose seat is disconnected is "claimable": the form then offers to
 * ask the host for that seat (onClaimed(answer, name) once the request is made). "Watch" takes
 * the typed name to the audience with a pass (onWatch(pass)), or with none typed watches
 * anonymously (onWatch(null)); a full or locked room offers the audience with the same name. */
export function showJoin(root, { code, message, name: typed, onJoined, onWatch, onGone, onClaimed, langPicker }) {
  const err = h('p', { class: 'form-error', role: 'alert', hidden: !message }, message || '');
  const claim = h('button', { class: 'btn primary claim-offer', type: 'button', hidden: true });
  const along = h('button', { class: 'btn primary big along-offer', type: 'button', hidden: true }, t('join.play_along'));
  const input = h('input', {
    class: 'name-input', type: 'text', name: 'name', maxlength: 32, required: true,
    autocomplete: 'nickname', autocapitalize: 'words', spellcheck: 'false', enterkeyhint: 'go',
    placeholder: t('join.placeholder'), 'aria-label': t('join.name'),
  });
  const count = h('span', { class: 'count' }, '0/32');
  const watch = h('button', { class: 'btn ghost watch', type: 'button', onclick: () => toAudience(input.value.trim(), watch) },
    t('join.watch'));
  const btn = h('button', { class: 'btn primary big', type: 'submit', disabled: true }, t('join.button'));
  const check = () => {
    const n = input.value.trim().length;
    count.textContent = `${input.value.length}/32`;
    btn.disabled = n < 1 || n > 32;
  };
  input.addEventListener('input', check);
  const form = h('form', {
    class: 'join-form',
    onsubmit: async (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      btn.disabled = true;
      btn.textContent = t('join.joining');
      try {
        const r = await postJSON(`/api/rooms/${encodeURIComponent(code)}/join`, { name, language: getLang() });
        if (r.status === 201 && r.body && r.body.token) { onJoined(r.body); return; }
        const c = r.body && r.body.error ? r.body.error.code : null;
        if (c === 'room_closed' && onGone) { onGone(c); return; }
        if (c === 'name_taken' && r.body.claimable && onClaimed) {
          showErr(t('join.claimable', { name }));
          offerClaim(name);
        } else {
          showErr(errText(c, r.body && r.body.error && r.body.error.message));
          if (c === 'room_full' || c === 'room_locked') offerAlong(name);
        }
      } catch (ex) {
        showErr(t('conn.offline'));
      }
      btn.textContent = t('join.button');
      check();
    },
  },
  h('label', { class: 'name-label', for: 'name' }, t('join.name')),
  h('div', { class: 'name-wrap' }, input, count),
  err,
  claim,
  along,
  h('div', { class: 'join-bottom' }, btn, watch));
  input.id = 'name';
  input.addEventListener('input', () => { claim.hidden = true; along.hidden = true; });
  if (typed) { input.value = typed; check(); }
  function errText(c, message) {
    return JOIN_ERRORS.includes(c) ? t(`join.err.${c}`) : message || t('err.unknown');
  }
  function offerClaim(name) {
    claim.hidden = false;
    claim.disabled = false;
    claim.textContent = t('join.claim');
    claim.onclick = async () => {
      claim.disabled = true;
      const r = await askForSeat(code, name);
      if (r.body) { onClaimed(r.body, name); return; }
      if (r.error === 'room_closed' && onGone) { onGone(r.error); return; }
      claim.hidden = true;
      showErr(r.error === 'offline' ? t('conn.offline') : errText(r.error, r.message));
    };
  }
  /** Into the audience: with a name, an audience pass; with none, anonymously. */
  async function toAudience(name, button) {
    if (!name) { onWatch(null); return; }
    if (name.length > 32) { showErr(t('join.err.bad_name')); return; }
    button.disabled = true;
    const r = await askForPass(code, name);
    if (r.pass) { onWatch(r.pass); return; }
    button.disabled = false;
    if (r.error === 'room_closed' && onGone) { onGone(r.error); return; }
    showErr(r.error === 'offline' ? t('conn.offline') : errText(r.error, r.message));
  }
  function offerAlong(name) {
    along.hidden = false;
    along.disabled = false;
    along.onclick = () => toAudience(name, along);
  }
  function showErr(m) {
    err.textContent = m;
    err.hidden = false;
    input.classList.add('shake');
    setTimeout(() => input.classList.remove('shake'), 500);
  }
  mount(root, h('main', { class: 'screen join-screen' },
    h('header', { class: 'join-head' },
      h('h1', { class: 'logo' }, 'partyhub'),
      h('div', { class: 'join-room' }, t('join.room'), h('b', null, code)),
      langPicker ? langPicker() : null),
    form));
  setTimeout(() => input.focus(), 50);
}

export function showNotHost(root, code, onWatch) {
  mount(root, h('main', { class: 'screen center-screen' },
    h('h1', { class: 'logo' }, 'partyhub'),
    h('h2', null, t('tv.not_host', { code })),
    h('p', { class: 'hint' }, t('tv.not_host_hint')),
    h('div', { class: 'btn-row' },
      h('button', { class: 'btn primary big', onclick: () => onWatch() }, t('tv.watch')),
      h('a', { class: 'btn big', href: '/' }, t('tv.new_room')))));
}

/** No such room, or (reason 'room_closed') a room that has ended: offer a new one. */
export function showGone(root, code, reason) {
  const ended = reason === 'room_closed';
  mount(root, h('main', { class: 'screen center-screen gone-screen' },
    h('h1', { class: 'logo' }, 'partyhub'),
    h('h2', null, !code ? t('room.none') : ended ? t('room.ended', { code }) : t('room.gone', { code })),
    ended ? h('p', { class: 'hint' }, t('room.ended_hint')) : null,
    h('a', { class: 'btn primary big', href: '/' }, ended ? t('room.new') : t('room.home'))));
}

export function showReplaced(root, onUseHere) {
  mount(root, h('main', { class: 'screen center-screen' },
    h('h1', { class: 'logo' }, 'partyhub'),
    h('h2', null, t('conn.replaced_title')),
    h('p', { class: 'hint' }, t('conn.replaced_hint')),
    h('button', { class: 'btn primary big', onclick: () => onUseHere() }, t('conn.use_here'))));
}

/** The join and claim flow of page `page` ('tv' | 'phone') of room `code`, drawn in `root`: which token
 * the page starts with, the join form, a claim waiting for the TV, a seat handed away, a refusal.
 * `S`: the shell's state; `start(token)` connects (app.js). */
export function seatFlow({ page: PAGE, code: CODE, root, S, app, start }) {

  /** use(module) once handover/handover.js is loaded; a failed load runs failed() and is forgotten. */
  function handovers(use, failed = () => {}) {
    if (!S.handover) {
      const loading = import('./handover/handover.js').then((m) => m.ready.then(() => m));
      S.handover = loading;
      loading.catch((e) => { if (S.handover === loading) S.handover = null; console.warn(e); });
    }
    return S.handover.then(use, failed);
  }

  /** This phone's seat was handed to another (a `handed` frame): it may ask for it back. */
  function handed(d, oldToken, message) {
    S.view = null;
    S.screen = null;
    handovers((m) => m.showHanded(root, {
      code: CODE, handover: d, oldToken, message,
      onAsked: (r) => waitForSeat(r, (why) => handed(d, oldToken, why)),
      onGone: refused,
      onOther: () => {
        store.del(`partyhub.seat.${CODE}`);
        store.del(`partyhub.pid.${CODE}`);
        askJoin(null);
      },
    }), () => setTimeout(() => { if (!S.view) handed(d, oldToken, message); }, 2000));
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

  /** A request for a seat waits for the TV (claims.js); `ended(message)`: it did not get it. */
  function waitForSeat(c, ended) {
    S.socket = waitForClaim(root, CODE, c, {
      onSeated: (pid) => {
        seated({ token: c.token, player_id: pid });
        toast(t('claim.welcome'), 'ok');
        start(c.token);
      },
      onEnded: (message) => { S.socket = null; (ended || askJoin)(message); },
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

  /** The page's first screen: a seat, a claim, a pass, the host's token, or the join form. */
  function enter(params) {
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
    if (claim) waitForSeat(claim);
    else if (seat) start(seat);
    else if (pass) start(pass.token);       // the same voter after a reload
    else if (params.has('watch')) start(null);
    else askJoinIfLiving();
  }

  return { handovers, handed, isPass, seated, refused, askJoin, enter };
}
