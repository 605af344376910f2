// Screens before a socket: the phone's join form, "this TV is not the host", "no such room".
import { h, mount } from './dom.js';
import { t, getLang } from './i18n.js';
import { postJSON } from './util.js';
import { askForSeat } from './claims.js';

const JOIN_ERRORS = ['room_not_found', 'name_taken', 'bad_name', 'room_full', 'room_locked', 'rate_limited', 'kicked',
  'name_kicked', 'not_claimable', 'seat_taken', 'claims_full', 'not_family_friendly'];

/** The join form. A name whose seat is disconnected is "claimable": the form then offers to
 * ask the host for that seat (onClaimed(answer, name) once the request is made). */
export function showJoin(root, { code, message, onJoined, onWatch, onGone, onClaimed, langPicker }) {
  const err = h('p', { class: 'form-error', role: 'alert', hidden: !message }, message || '');
  const claim = h('button', { class: 'btn primary claim-offer', type: 'button', hidden: true });
  const input = h('input', {
    class: 'name-input', type: 'text', name: 'name', maxlength: 32, required: true,
    autocomplete: 'nickname', autocapitalize: 'words', spellcheck: 'false', enterkeyhint: 'go',
    placeholder: t('join.placeholder'), 'aria-label': t('join.name'),
  });
  const count = h('span', { class: 'count' }, '0/32');
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
        } else showErr(errText(c, r.body && r.body.error && r.body.error.message));
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
  h('div', { class: 'join-bottom' }, btn,
    h('button', { class: 'btn ghost', type: 'button', onclick: () => onWatch() }, t('join.watch'))));
  input.id = 'name';
  input.addEventListener('input', () => { claim.hidden = true; });
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
