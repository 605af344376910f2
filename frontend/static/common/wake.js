// Screen Wake Lock (re-acquired when the page becomes visible again) and vibration.

let lock = null;
let wanted = false;

async function acquire() {
  if (!wanted || !('wakeLock' in navigator) || document.visibilityState !== 'visible') return;
  try {
    lock = await navigator.wakeLock.request('screen');
    lock.addEventListener('release', () => { lock = null; });
  } catch (e) { /* refused (battery saver, no gesture yet): try again on the next tap */ }
}

/** Keep the screen on while this page is open. */
export function keepAwake() {
  if (wanted) return;
  wanted = true;
  acquire();
  document.addEventListener('visibilitychange', () => { if (!lock) acquire(); });
  // some browsers only grant the lock after a user gesture
  document.addEventListener('pointerdown', () => { if (!lock) acquire(); }, { passive: true });
}

/** Vibrate if the device can (phones); pattern in ms. */
export function vibrate(pattern = [80, 60, 80]) {
  try {
    if (navigator.vibrate) navigator.vibrate(pattern);
  } catch (e) { /* not allowed */ }
}
