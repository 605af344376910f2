// Hand-overs (a seat moved to another phone, approved on the TV): the TV announces each one,
// and the phone that lost its seat says so and may ask for it back. Loaded only when needed
// (the TV, or a phone that got a `handed` frame), with its own strings (./i18n/) and styles.
import { h, mount } from '../dom.js';
import { t, addPack } from '../i18n.js';
import { askForSeat } from '../claims.js';

const styles = h('link', { rel: 'stylesheet', href: new URL('./handover.css', import.meta.url).href });
const styled = new Promise((done) => { styles.onload = styles.onerror = done; });
document.head.append(styles);

/** Resolves once this module's strings and styles are loaded. */
export const ready = Promise.all([addPack(new URL('./i18n/', import.meta.url).href), styled]);

const SHOWN_MS = 12000;
let banners = null;

/** A lower-third banner on the TV for SHOWN_MS, read by screen readers. */
function banner(text) {
  if (!banners) {
    banners = h('div', { class: 'handovers', role: 'status', 'aria-live': 'polite' });
    document.body.append(banners);
  }
  const el = h('div', { class: 'handover' }, h('span', { class: 'handover-icon', 'aria-hidden': 'true' }, '⇄'), text);
  banners.append(el);
  setTimeout(() => el.classList.add('out'), SHOWN_MS);
  setTimeout(() => el.remove(), SHOWN_MS + 400);
}

/** The TV announces every hand-over it has not announced yet (view.room.handovers): "Bob's seat
 * moved to a new phone: approved on the TV". `seen` (a Set) remembers them across views; a TV
 * that opens later announces only those of the last minute. */
export function announceHandovers(view, app, seen) {
  for (const ho of view.room.handovers || []) {
    const key = `${ho.player}:${ho.at}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (app.now() - ho.at > 60000) continue;
    banner(t(`handover.${ho.kind}`, { seat: ho.seat, name: ho.name }, t('handover.new_phone', { seat: ho.seat })));
    app.sound('join');
  }
}

/**
 * The phone whose seat was handed (a `handed` frame d: {player, seat, kind, approved}): says
 * so, and offers to ask for the seat back with its old token (the TV decides again) or to join
 * anew. `message`: why an earlier request back ended. onAsked(claim) once a request waits;
 * onGone(reason) when the room has ended; onOther() to join under another name.
 */
export function showHanded(root, { code, handover, oldToken, message, onAsked, onGone, onOther }) {
  const err = h('p', { class: 'form-error', role: 'alert', hidden: !message }, message || '');
  const ask = h('button', { class: 'btn primary big ask-back', type: 'button' }, t('handed.ask'));
  ask.onclick = async () => {
    ask.disabled = true;
    const r = await askForSeat(code, null, oldToken);
    if (r.body) { onAsked(r.body); return; }
    if (r.error === 'room_closed' || r.error === 'room_not_found') { onGone(r.error); return; }
    ask.disabled = false;
    err.textContent = r.error === 'offline' ? t('conn.offline')
      : t(`handed.err.${r.error}`, null, t(`err.${r.error}`, null, r.message || t('err.unknown')));
    err.hidden = false;
  };
  mount(root, h('main', { class: 'screen center-screen claim-wait handed-screen' },
    h('div', { class: 'logo' }, 'partyhub'),
    h('div', { class: 'join-room' }, t('join.room'), h('b', null, code)),
    h('div', { class: 'handed-icon', 'aria-hidden': 'true' }, '📺'),
    h('h2', null, t('handed.title')),
    h('p', { class: 'hint' }, t('handed.hint', { seat: handover.seat || '' })),
    err,
    ask,
    h('button', { class: 'btn ghost join-other', type: 'button', onclick: onOther }, t('handed.other'))));
}
