// The phone's "your turn" cue, one for every game: the screen's edge pulses (a still glow when
// the phone asks for reduced motion), a short sound once a tap has unlocked the phone's audio,
// and a buzz where the phone can vibrate (not on iPhones: they have no navigator.vibrate).
import * as sounds from './sounds.js';
import { vibrate } from './wake.js';

const SHOWN_MS = 1600;
let count = 0;        // cues given on this page (tests read it as app.turnCues)
let edge = null;
let hideTimer = null;

function still() {
  return !!(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
}

/** Pulse the screen's edge: one element, restarted when a cue comes while it shows. */
function pulse() {
  if (!edge) {
    edge = document.createElement('div');
    edge.className = 'turn-cue';
    edge.setAttribute('aria-hidden', 'true');
  }
  edge.classList.remove('pulse', 'still');
  void edge.offsetWidth;              // restart the animation
  edge.classList.add(still() ? 'still' : 'pulse');
  document.body.append(edge);
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => edge.remove(), SHOWN_MS);
}

/** It has become your turn. */
export function turnCue() {
  count += 1;
  pulse();
  sounds.play('turn');
  vibrate([90, 60, 90]);
}

export function cueCount() { return count; }
