// Modal dialogs in common code: named (role=dialog, aria-modal, aria-labelledby its heading),
// focus moved in while open, Tab kept inside, focus given back to where it was on close.
import { h } from './dom.js';

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), '
  + 'textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
let seq = 0;
// the last element that had focus, even if a re-render has since removed it
let lastFocus = null;
document.addEventListener('focusin', (e) => { lastFocus = e.target; });

/** Make `el` a modal dialog named by its first heading (or `label`). Returns {open(), close()}:
 * open() is idempotent (call it on every render while it shows); close() restores focus. */
export function modal(el, label) {
  el.setAttribute('role', 'dialog');
  el.setAttribute('aria-modal', 'true');
  let back = null;
  let shown = false;
  const name = () => {
    const head = el.querySelector('h1, h2, h3');
    if (head) {
      if (!head.id) { seq += 1; head.id = `dlg-title-${seq}`; }
      el.setAttribute('aria-labelledby', head.id);
      el.removeAttribute('aria-label');
    } else if (label) el.setAttribute('aria-label', label);
  };
  const items = () => [...el.querySelectorAll(FOCUSABLE)].filter((x) => !x.closest('[hidden]'));
  el.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab') return;
    const list = items();
    if (!list.length) { e.preventDefault(); el.focus(); return; }
    const first = list[0];
    const last = list[list.length - 1];
    if (e.shiftKey && (document.activeElement === first || document.activeElement === el)) { e.preventDefault(); last.focus(); }
    else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
  });
  if (!el.hasAttribute('tabindex')) el.tabIndex = -1;
  return {
    open() {
      name();
      if (!shown) {
        shown = true;
        const now = document.activeElement;
        back = now && now !== document.body ? now : lastFocus;
        if (back && el.contains(back)) back = null;
      }
      if (!el.contains(document.activeElement)) (items()[0] || el).focus();
    },
    close() {
      if (!shown) return;
      shown = false;
      const to = back && (back.isConnected ? back : twin(back));   // a re-rendered control: its twin
      back = null;
      if (to && typeof to.focus === 'function') to.focus();
    },
  };
}

/** The connected element drawn in place of a detached one: same tag, class and text. */
function twin(el) {
  const same = (x) => x.className === el.className && x.textContent === el.textContent;
  return [...document.getElementsByTagName(el.tagName)].find(same) || null;
}

/** A heading only screen readers read (the page's h1 where the design shows none). */
export function srHeading(level, text) {
  return h(`h${level}`, { class: 'sr-only' }, text);
}
