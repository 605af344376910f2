// Tiny DOM helpers. Text is always set with textContent / text nodes, never parsed as HTML.
import { face } from './faces.js';

const PROPS = new Set(['value', 'checked', 'disabled', 'selected', 'hidden', 'readOnly', 'type']);

/** h('button', {class: 'big', onclick: fn, dataset: {id: 1}}, 'Text', child, [more]) */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v == null || v === false) continue;
      if (k === 'class') el.className = Array.isArray(v) ? v.filter(Boolean).join(' ') : v;
      else if (k === 'style' && typeof v === 'object') {
        for (const [sk, sv] of Object.entries(v)) {
          if (sk.startsWith('--')) el.style.setProperty(sk, sv);
          else el.style[sk] = sv;
        }
      } else if (k === 'dataset') Object.assign(el.dataset, v);
      else if (k === 'text') el.textContent = v;
      else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
      else if (PROPS.has(k)) el[k] = v;
      else el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const c of children) {
    if (c == null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** Replace el's children with the given ones. */
export function mount(el, ...children) {
  clear(el);
  return append(el, children);
}

/**
 * Re-render a region only when its key changes (keeps focus and input state in
 * forms that did not change). Returns true when it re-rendered.
 */
export function region(el, key, render) {
  const k = typeof key === 'string' ? key : JSON.stringify(key);
  if (el._regionKey === k) return false;
  el._regionKey = k;
  mount(el, render());
  return true;
}

let toastBox = null;
/** A short message at the top of the screen, read by `toast.say` when set (the phone). */
export function toast(text, kind = 'info', ms = 3500) {
  if (!toastBox) {
    toastBox = h('div', toast.say ? { class: 'toasts' } : { class: 'toasts', role: 'status', 'aria-live': 'polite' });
    document.body.appendChild(toastBox);
  }
  if (toast.say) toast.say(text);
  const el = h('div', { class: ['toast', kind] }, text);
  toastBox.appendChild(el);
  setTimeout(() => el.classList.add('out'), ms);
  setTimeout(() => el.remove(), ms + 400);
}

/** A player's colour chip: their face (faces.js) in a ring of their colour, else their
 * symbol on their colour. */
export function chip(player, extra) {
  const f = face(player);
  return h('span', {
    class: ['chip', extra, f && 'faced'],
    style: { '--pc': player ? player.color : '#888' },
    'aria-hidden': 'true',
  }, f || (player ? player.symbol || '' : ''));
}
