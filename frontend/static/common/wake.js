// Keeping the screen on, and vibration.
//
// The Screen Wake Lock API where the browser offers it (a secure context: https, localhost).
// Over plain HTTP on a LAN (`make run`), no browser has `navigator.wakeLock`; there, or when
// the lock is refused, NoSleep.js's tiny video (static/vendor/nosleep: a silent audio track)
// plays inline and looped, started by a tap: a browser keeps the screen on while a video
// plays audibly on a visible page (docs/decisions.md, "Awake phones over plain HTTP").
// Both are let go while the page is hidden and taken again when it comes back.

const MEDIA = 'vendor/nosleep/nosleep';

let wanted = false;
let lock = null;          // the WakeLockSentinel held
let asking = false;       // a wakeLock.request is under way
let fallback = false;     // the lock is missing or was refused: the video instead
let video = null;         // the fallback's <video>, made when first needed
let staticBase = '/static/';
let listening = false;

function makeVideo() {
  const v = document.createElement('video');
  v.className = 'keep-awake';
  v.setAttribute('playsinline', '');          // iOS: never full screen
  v.setAttribute('aria-hidden', 'true');
  v.setAttribute('disableremoteplayback', '');
  v.tabIndex = -1;
  v.loop = true;
  v.preload = 'auto';
  for (const [ext, type] of [['webm', 'video/webm'], ['mp4', 'video/mp4']]) {
    const s = document.createElement('source');
    s.src = `${staticBase}${MEDIA}.${ext}`;
    s.type = type;
    v.append(s);
  }
  // NoSleep's way with the 2 s mp4 (iOS): jump back before its end instead of looping.
  v.addEventListener('timeupdate', () => { if (v.duration > 1 && v.currentTime > 0.5) v.currentTime = Math.random() / 2; });
  document.body.append(v);
  return v;
}

function playVideo() {
  if (!video) video = makeVideo();
  if (!video.paused) return;
  const p = video.play();
  // refused without a user gesture: the next tap plays it
  if (p && typeof p.catch === 'function') p.catch(() => {});
}

async function requestLock() {
  asking = true;
  try {
    const l = await navigator.wakeLock.request('screen');
    if (!wanted || document.visibilityState !== 'visible') { l.release().catch(() => {}); return; }
    lock = l;
    l.addEventListener('release', () => { if (lock === l) lock = null; });
  } catch (e) {
    fallback = true;                     // refused (policy, battery saver): the video
    if (wanted && document.visibilityState === 'visible') playVideo();
  } finally {
    asking = false;
  }
}

function acquire() {
  if (!wanted || document.visibilityState !== 'visible') return;
  if (fallback || !('wakeLock' in navigator)) { playVideo(); return; }   // synchronous: in the tap
  if (!lock && !asking) requestLock();
}

function release() {
  const l = lock;
  lock = null;
  if (l) l.release().catch(() => {});
  if (video && !video.paused) video.pause();
}

function listen() {
  if (listening) return;
  listening = true;
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') acquire(); else release();
  });
  window.addEventListener('pageshow', acquire);        // back from the back-forward cache
  window.addEventListener('pagehide', release);
  // the video may only start in a user gesture (a tap's click or touchend, a key)
  for (const type of ['click', 'touchend', 'keydown']) {
    document.addEventListener(type, acquire, { capture: true, passive: true });
  }
}

/** Keep the screen on while this page is open and visible (on = false: let it sleep).
 * staticUrl: where the static files are served (for the fallback's video). */
export function keepAwake(on = true, staticUrl = null) {
  if (staticUrl) staticBase = staticUrl;
  listen();
  if (wanted === on) return;
  wanted = on;
  if (on) acquire(); else release();
}

/** Vibrate if the device can (phones); pattern in ms. */
export function vibrate(pattern = [80, 60, 80]) {
  try {
    if (navigator.vibrate) navigator.vibrate(pattern);
  } catch (e) { /* not allowed */ }
}
