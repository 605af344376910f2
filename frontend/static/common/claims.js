// Getting a seat back: the asker's waiting screen, the requests the TV answers with Approve /
// Refuse (only there, where everyone sees it), and the names removed from the room with "let
// back in". Hand-overs: handover/handover.js.
// The server decides everything: these screens show view.room.claims and the offered actions.
import { h, mount, region } from './dom.js';
import { t } from './i18n.js';
import { Socket } from './socket.js';
import { postJSON, store } from './util.js';

const claimKey = (code) => `partyhub.claim.${code}`;

/** POST /claim {name}, or {token} (a handed seat's old phone): resolves {body} on 202, else
 * {error: code or null, message}. */
export async function askForSeat(code, name, oldToken) {
  try {
    const r = await postJSON(`/api/rooms/${encodeURIComponent(code)}/claim`, oldToken ? { token: oldToken } : { name });
    if (r.status === 202 && r.body && r.body.token) return { body: r.body };
    const e = (r.body && r.body.error) || {};
    return { error: e.code || null, message: e.message || '' };
  } catch (ex) {
    return { error: 'offline', message: '' };
  }
}

/** The claim this browser waits on (kept across reloads until it expires), or null. */
export function storedClaim(code) {
  try {
    const c = JSON.parse(store.get(claimKey(code)) || 'null');
    return c && c.token && c.expires > Date.now() ? c : null;
  } catch (e) { return null; }
}

/**
 * Wait on claim c ({token, player_id, seat, expires}) with an audience-like socket until the
 * host answers: approved ("token" frame, or a view that is already the seat's after a reload)
 * -> onSeated(player_id); denied, expired, dropped or cancelled -> onEnded(message or null);
 * the room is gone -> onGone(reason). Returns the socket.
 */
export function waitForClaim(root, code, c, { onSeated, onEnded, onGone }) {
  store.set(claimKey(code), JSON.stringify(c));
  let done = false;     // frames still queued behind the answer are ignored
  const finish = (fn, arg) => {
    if (done) return;
    done = true;
    socket.stop();
    store.del(claimKey(code));
    fn(arg);
  };
  const socket = new Socket({
    code,
    token: c.token,
    onView: (view) => { if (view.you && view.you.id) finish(onSeated, view.you.id); },
    onStatus: () => {},
    onToken: (d) => finish(onSeated, d.player_id || c.player_id),
    onClaim: (d) => finish(onEnded, t(`claim.${d.state}`, null, t('claim.gone'))),
    onRefused: (reason) => (reason === 'room_not_found' || reason === 'room_closed'
      ? finish(onGone, reason) : finish(onEnded, t('claim.gone'))),
  });
  socket.connect();
  showClaimWait(root, { code, seat: c.seat, expires: c.expires, now: () => socket.now(),
    onCancel: () => finish(onEnded, null) });
  return socket;
}

/** The asker waits: "Waiting for the host to let you in…", a countdown, and Cancel. */
function showClaimWait(root, { code, seat, expires, now, onCancel }) {
  const left = h('p', { class: 'claim-left hint', role: 'timer' });
  const tick = () => {
    if (!left.isConnected) { clearInterval(timer); return; }
    const s = Math.max(0, Math.ceil((expires - now()) / 1000));
    left.textContent = t('claim.left', { time: `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}` });
  };
  const timer = setInterval(tick, 1000);
  mount(root, h('main', { class: 'screen center-screen claim-wait' },
    h('div', { class: 'logo' }, 'partyhub'),
    h('div', { class: 'join-room' }, t('join.room'), h('b', null, code)),
    h('div', { class: 'claim-spinner', 'aria-hidden': 'true' }),
    h('h2', null, t('claim.waiting')),
    h('p', { class: 'hint' }, t('claim.waiting_hint', { name: seat })),
    left,
    h('button', { class: 'btn ghost', type: 'button', onclick: () => { clearInterval(timer); onCancel(); } },
      t('claim.cancel'))));
  tick();
}

function claimText(c) {
  if (c.back) return t('claims.back_old', { name: c.seat });
  return c.by ? t('claims.takeover', { name: c.name, seat: c.seat }) : t('claims.back', { name: c.seat });
}

/** The pending requests over any screen: the TV answers them; the VIP's phone is told. */
export function renderRequests(box, view, app) {
  const acts = view.actions || [];
  const answer = (type, id) => acts.find((a) => a.type === type && a.claim === id);
  const vip = app.page === 'phone' && !!view.you.id && view.room.vip === view.you.id;
  const claims = ((view.room && view.room.claims) || []).filter((c) => vip || answer('approve_claim', c.id));
  box.hidden = !claims.length;
  region(box, [t('lang'), vip, claims.map((c) => [c.id, c.name, c.seat, c.by, c.back, !!answer('approve_claim', c.id)])], () => claims.map((c) => {
    const player = app.players.get(c.player);
    const approve = answer('approve_claim', c.id);
    return h('div', { class: ['request', approve ? null : 'request-told'], role: approve ? 'alertdialog' : 'status',
      'aria-label': t('claims.title'), dataset: { claim: c.id } },
      h('div', { class: 'request-text' },
        h('span', { class: 'chip', style: { '--pc': player ? player.color : '#888' }, 'aria-hidden': 'true' },
          player ? player.symbol || '' : '?'),
        h('span', null, claimText(c))),
      h('p', { class: 'request-hint' }, t(approve ? 'claims.tv_hint' : 'claims.vip_hint')),
      approve ? h('div', { class: 'request-buttons' },
        h('button', { class: 'btn primary big approve', type: 'button', onclick: () => app.act(approve) },
          t('claims.approve')),
        h('button', { class: 'btn danger big deny', type: 'button', onclick: () => app.act(answer('deny_claim', c.id)) },
          t('claims.deny'))) : null);
  }));
}

/** Names removed from the room, each with "let back in" (TV and VIP only). */
export function renderBarred(box, view, app) {
  const acts = (view.actions || []).filter((a) => a.type === 'unban');
  box.hidden = !acts.length;
  region(box, [t('lang'), acts.map((a) => a.name)], () => [
    h('span', { class: 'barred-label' }, t('barred.title')),
    acts.map((a) => h('button', { class: 'btn small ghost unban', type: 'button', onclick: () => app.act(a) },
      t('barred.let_in', { name: a.name }))),
  ]);
}

/** The spectator's own pending request, if any (its seat asked with take_seat). */
export function ownClaim(view) {
  const me = view.you && view.you.id;
  return me ? ((view.room.claims || []).find((c) => c.by === me) || null) : null;
}
