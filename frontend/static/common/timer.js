// Countdown from view.deadline (server epoch ms) corrected by the measured clock offset.
// kind 'ring': a big ring with seconds (TV); 'bar': a thin bar with seconds (phone).
// Frozen while the room is paused.
import { h } from './dom.js';

const NS = 'http://www.w3.org/2000/svg';

function svg(tag, attrs) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

/**
 * createTimer({kind, now: () => serverNowMs, onTick(secondsLeft)}) -> {el, update(view), stop()}
 */
export function createTimer({ kind = 'bar', now = () => Date.now(), onTick = null } = {}) {
  const el = h('div', { class: ['timer', `timer-${kind}`], hidden: true, role: 'timer' });
  const label = h('span', { class: 'timer-num' });
  let fill;
  if (kind === 'ring') {
    const s = svg('svg', { viewBox: '0 0 100 100', class: 'ring' });
    s.appendChild(svg('circle', { cx: 50, cy: 50, r: 44, class: 'ring-bg' }));
    fill = svg('circle', { cx: 50, cy: 50, r: 44, class: 'ring-fg', pathLength: 100 });
    s.appendChild(fill);
    el.append(s, label);
  } else {
    fill = h('span', { class: 'bar-fill' });
    el.append(h('span', { class: 'bar' }, fill), label);
  }

  let deadline = null;
  let total = 1;
  let paused = false;
  let frozenLeft = 0;
  let raf = 0;
  let lastSec = null;

  function draw(left) {
    const frac = Math.max(0, Math.min(1, left / total));
    const sec = Math.ceil(left / 1000);
    label.textContent = sec >= 60 ? `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, '0')}` : String(sec);
    label.classList.toggle('long', sec >= 60);      // m:ss: smaller type, inside the ring
    if (kind === 'ring') fill.style.strokeDashoffset = String(100 - frac * 100);
    else fill.style.transform = `scaleX(${frac})`;
    el.classList.toggle('low', sec <= 5 && !paused);
    el.classList.toggle('paused', paused);
    if (!paused && sec !== lastSec) {
      lastSec = sec;
      if (onTick) onTick(sec);
    }
  }

  function loop() {
    raf = 0;
    if (deadline == null) return;
    const left = Math.max(0, deadline - now());
    draw(left);
    if (left > 0 && !paused) {
      // redraw about 10x per second; cheaper than every frame on weak TVs
      raf = setTimeout(() => requestAnimationFrame(loop), 100);
    }
  }

  function update(view) {
    const room = (view && view.room) || {};
    const dl = view && typeof view.deadline === 'number' ? view.deadline : null;
    if (room.paused && (typeof room.remaining === 'number' || deadline != null)) {
      // paused: the server sends no deadline but what was left; show it frozen
      frozenLeft = typeof room.remaining === 'number' ? room.remaining : Math.max(0, deadline - now());
      if (deadline == null) total = Math.max(frozenLeft, 1000);
      paused = true;
      deadline = deadline ?? now() + frozenLeft;
      el.hidden = false;
      clearTimeout(raf);
      raf = 0;
      draw(frozenLeft);
      return;
    }
    if (dl == null) {
      deadline = null;
      paused = false;
      el.hidden = true;
      clearTimeout(raf);
      raf = 0;
      return;
    }
    const resumed = paused;
    paused = false;
    if (dl !== deadline) {
      const left = dl - now();
      // a new timer: its length is what is left when we first see it (kept across a resume)
      if (!resumed || left > total + 1500) total = Math.max(left, 1000);
      deadline = dl;
      lastSec = null;
    }
    el.hidden = false;
    clearTimeout(raf);
    loop();
  }

  function stop() {
    clearTimeout(raf);
    deadline = null;
  }

  return { el, update, stop };
}
