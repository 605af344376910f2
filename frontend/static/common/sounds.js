// Small synthesised sounds (WebAudio, no audio files): the TV's table sounds and the phone's
// turn cue. Browsers start audio only after a user gesture: unlock() on the first tap or key.
// Every tone goes through one master gain: the TV's mute and volume (volume.js) set it.

let ctx = null;
let master = null;
let muted = false;
let volume = 1;
let played = 0;       // sounds that reached the speakers' graph (tests read it through stats())
const heard = {};     // ...of them, how many of each name

function ac() {
  if (!ctx) {
    const C = window.AudioContext || window.webkitAudioContext;
    if (!C) return null;
    ctx = new C();
    master = ctx.createGain();
    master.gain.value = level();
    master.connect(ctx.destination);
  }
  return ctx;
}

function level() { return muted ? 0 : volume; }

function applyLevel() {
  if (master) master.gain.value = level();
}

export function unlock() {
  const c = ac();
  if (c && c.state === 'suspended') c.resume();
}

export function ready() {
  return !!ctx && ctx.state === 'running';
}

export function setMuted(m) { muted = !!m; applyLevel(); }
export function isMuted() { return muted; }

/** The master volume, 0..1 (clamped). */
export function setVolume(v) {
  const n = Number(v);
  volume = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 1;
  applyLevel();
}
export function getVolume() { return volume; }

/** For tests and the console: {played, gain} (gain: the master gain now, null before audio). */
export function stats() {
  return { played, heard: { ...heard }, gain: master ? master.gain.value : null, state: ctx ? ctx.state : null };
}

function tone(freq, start, dur, { type = 'sine', gain = 0.2, to = null } = {}) {
  const c = ctx;
  const t0 = c.currentTime + start;
  const o = c.createOscillator();
  const g = c.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, t0);
  if (to) o.frequency.exponentialRampToValueAtTime(to, t0 + dur);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  o.connect(g).connect(master);
  o.start(t0);
  o.stop(t0 + dur + 0.05);
}

const SOUNDS = {
  join: () => { tone(520, 0, 0.12, { to: 880, gain: 0.25 }); tone(1040, 0.08, 0.1, { gain: 0.12 }); },
  leave: () => tone(440, 0, 0.18, { to: 260, gain: 0.15 }),
  start: () => [523, 659, 784, 1047].forEach((f, i) => tone(f, i * 0.09, 0.22, { type: 'triangle', gain: 0.22 })),
  tick: () => tone(1200, 0, 0.05, { type: 'square', gain: 0.06 }),
  last: () => tone(1500, 0, 0.09, { type: 'square', gain: 0.09 }),
  hurry: () => [880, 1175].forEach((f, i) => tone(f, i * 0.12, 0.1, { type: 'square', gain: 0.1 })),
  reveal: () => { tone(300, 0, 0.35, { to: 900, type: 'sawtooth', gain: 0.08 }); tone(1320, 0.3, 0.25, { gain: 0.18 }); },
  turn: () => tone(880, 0, 0.15, { type: 'triangle', gain: 0.2 }),
  error: () => tone(200, 0, 0.2, { type: 'square', gain: 0.08 }),
  win: () => [523, 659, 784, 659, 784, 1047].forEach((f, i) =>
    tone(f, i * 0.12, i === 5 ? 0.6 : 0.18, { type: 'triangle', gain: 0.22 })),
};

/** Play a named sound: join, leave, start, tick, last, hurry, reveal, turn, error, win. */
export function play(name) {
  if (muted || volume === 0) return false;
  const c = ac();
  if (!c || c.state !== 'running') return false;
  const s = SOUNDS[name];
  if (!s) return false;
  try { s(); } catch (e) { return false; }
  played += 1;
  heard[name] = (heard[name] || 0) + 1;
  return true;
}
