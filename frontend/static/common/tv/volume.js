// The TV's sound control: mute and volume, kept across reloads (localStorage), wired to
// sounds.js. A speaker button in the bottom corner (mute / unmute); hovering it or moving the
// focus onto it with a remote's arrows shows quieter, the level and louder.
import { h } from '../dom.js';
import * as sounds from '../sounds.js';
import { speakerIcon as icon } from '../speaker.js';
import { store } from '../util.js';

const STEPS = 10;
const KEY_LEVEL = 'partyhub.tv.volume';
const KEY_MUTED = 'partyhub.tv.muted';

/** The stored level (0..10, default 10) and mute. */
export function storedSound() {
  const n = Number.parseInt(store.get(KEY_LEVEL), 10);
  return { level: Number.isInteger(n) ? Math.min(STEPS, Math.max(0, n)) : STEPS,
    muted: store.get(KEY_MUTED) === '1' };
}

/** Level 0..10 -> gain: squared, so the steps sound even. */
function gain(level) { return (level / STEPS) ** 2; }

export function mountVolume(parent, t) {
  let { level, muted } = storedSound();
  const mute = h('button', { class: 'vol-btn vol-mute', type: 'button' });
  const down = h('button', { class: 'vol-btn vol-down', type: 'button' }, '−');
  const up = h('button', { class: 'vol-btn vol-up', type: 'button' }, '+');
  const bars = h('span', { class: 'vol-level', 'aria-hidden': 'true' },
    Array.from({ length: STEPS }, () => h('i')));
  const box = h('aside', { class: 'volume', 'aria-label': t('sound.label') }, mute, h('span', { class: 'vol-more' }, down, bars, up));

  function apply(preview) {
    sounds.setVolume(gain(level));
    sounds.setMuted(muted);
    store.set(KEY_LEVEL, String(level));
    store.set(KEY_MUTED, muted ? '1' : '0');
    box.classList.toggle('muted', muted);
    mute.replaceChildren(icon(muted, level));
    mute.setAttribute('aria-pressed', String(muted));
    [...bars.children].forEach((b, i) => b.classList.toggle('on', i < level));
    box.dataset.level = String(level);
    label();
    if (preview && !muted) { sounds.unlock(); sounds.play('tick'); }
  }

  function label() {
    box.setAttribute('aria-label', t('sound.label'));
    mute.setAttribute('aria-label', t(muted ? 'sound.unmute' : 'sound.mute'));
    mute.title = mute.getAttribute('aria-label');
    down.setAttribute('aria-label', t('sound.quieter'));
    down.title = t('sound.quieter');
    up.setAttribute('aria-label', t('sound.louder'));
    up.title = t('sound.louder');
    bars.parentNode.title = t('sound.level', { n: level * 10 });
  }

  mute.addEventListener('click', () => { muted = !muted; if (!muted && level === 0) level = 1; apply(true); });
  down.addEventListener('click', () => { level = Math.max(0, level - 1); apply(true); });
  up.addEventListener('click', () => { level = Math.min(STEPS, level + 1); muted = false; apply(true); });
  apply(false);
  parent.append(box);
  return { relabel: label, el: box };
}
