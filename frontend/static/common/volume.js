// The TV's sound control: mute and volume, kept across reloads (localStorage), wired to
// sounds.js. A speaker button in the bottom corner (mute / unmute); hovering it or moving the
// focus onto it with a remote's arrows shows quieter, the level and louder.
import { h } from './dom.js';
import * as sounds from './sounds.js';
import { store } from './util.js';

const STEPS = 10;
const KEY_LEVEL = 'partyhub.tv.volume';
const KEY_MUTED = 'partyhub.tv.muted';

/** The stored level (0..10, default 10) and mute. */
export function storedSound() {
  const n = Number.parseInt(store.get(KEY_LEVEL), 10);
  return { level: Number.isInteger(n) ? Math.min(STEPS, Math.max(0, n)) : STEPS,
    muted: store.get(KEY_MUTED) === '1' };
}

const NS = 'http://www.w3.org/2000/svg';

/** The speaker icon (SVG: old TVs have no emoji font): waves by level, a cross when muted. */
function icon(muted, level) {
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
