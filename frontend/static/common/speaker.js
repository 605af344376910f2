// The speaker icon the TV's volume control and the phone's sound switch share, and the phone's
// switch itself: one big button that turns the phone's sounds (the turn cue) off and on, kept
// across reloads and rooms (localStorage). The buzz of a phone that vibrates stays.
import { h } from './dom.js';
import * as sounds from './sounds.js';
import { store } from './util.js';

const KEY_PHONE_MUTED = 'partyhub.phone.muted';

const NS = 'http://www.w3.org/2000/svg';

/** The speaker icon (SVG: old TVs have no emoji font): waves by level, a cross when muted. */
export function speakerIcon(muted, level = 10) {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  const path = (d, fill) => {
    const el = document.createElementNS(NS, 'path');
    el.setAttribute('d', d);
    el.setAttribute('fill', fill ? 'currentColor' : 'none');
    el.setAttribute('stroke', 'currentColor');
    el.setAttribute('stroke-width', '2');
    el.setAttribute('stroke-linecap', 'round');
    el.setAttribute('stroke-linejoin', 'round');
    svg.append(el);
  };
  path('M3 9h4l5-4v14l-5-4H3z', true);
  if (muted || level === 0) path('M16 9l6 6M22 9l-6 6');
  else {
    path('M15.5 9.5a3.5 3.5 0 0 1 0 5');
    if (level >= 5) path('M18.5 6.5a8 8 0 0 1 0 11');
  }
  return svg;
}

/** The phone's stored choice, applied to sounds.js (at boot). */
export function applyPhoneSound() {
  sounds.setMuted(store.get(KEY_PHONE_MUTED) === '1');
}

/** A toggle button: pressed while the phone's sound is on. Its name stays "Sound" (its state is
 * aria-pressed), its title says what a tap does. */
export function phoneSoundToggle(t) {
  const b = h('button', { class: 'btn small sound-toggle', type: 'button', 'aria-label': t('sound.phone') });
  function show() {
    const muted = sounds.isMuted();
    b.setAttribute('aria-pressed', String(!muted));
    b.title = t(muted ? 'sound.phone_on' : 'sound.phone_off');
    b.classList.toggle('muted', muted);
    b.replaceChildren(speakerIcon(muted));
  }
  b.addEventListener('click', () => {
    const muted = !sounds.isMuted();
    sounds.setMuted(muted);
    store.set(KEY_PHONE_MUTED, muted ? '1' : '0');
    if (!muted) { sounds.unlock(); sounds.play('turn'); }
    show();
  });
  show();
  return b;
}
