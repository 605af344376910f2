// Parts of the shell that only some phones need at some moments (the VIP's game picker, the
// results), loaded when first asked for, so that a phone's first download stays within its
// budget (docs/performance.md). A failed load says so where the part would be, with a button to
// try again, and any later render tries again too.
import { h, mount } from './dom.js';
import { t } from './i18n.js';

/** `load()` is the import (`() => import('./x.js')`). Returns get(then): the module once loaded,
 * else null, having started the load; `then` (the latest one given) runs when it lands. */
export function lazy(load) {
  let mod = null;
  let pending = null;
  let waiting = null;
  const get = (then) => {
    if (mod) return mod;
    if (then) waiting = then;
    if (!pending) {
      get.failed = false;
      pending = load().then((m) => { mod = m; get.failed = false; }, (e) => { get.failed = true; console.warn(e); })
        .then(() => { pending = null; const f = waiting; waiting = null; if (f) f(mod); });
    }
    return null;
  };
  get.failed = false;
  /** Load it when the browser is idle (the part is likely to be wanted soon). */
  get.prefetch = () => (window.requestIdleCallback || setTimeout)(() => get());
  return get;
}

/** `draw(module)` into `box` once `get`'s module is loaded; meanwhile "Loading…". A failed load
 * shows a line that says so and Try again; the render after that one loads anew (not the one the
 * failure itself brings, which would loop). `again` draws the box anew with the latest view. */
export function drawLazy(box, get, draw, again) {
  if (get.failed && box._lazyAsked && !box._loadFailed) {   // (a failed prefetch: this box tries first)
    box._loadFailed = true;
    box._regionKey = null;
    mount(box, h('div', { class: 'load-failed', role: 'alert' }, h('p', null, t('load.failed')),
      h('button', { class: 'btn small', onclick: () => drawLazy(box, get, draw, again) }, t('load.retry'))));
    return null;
  }
  box._loadFailed = false;
  box._lazyAsked = true;
  const m = get(again);
  if (m) return draw(m);
  box._regionKey = null;     // the part's own region() draws in full once it lands
  mount(box, h('p', { class: 'loading', role: 'status' }, t('loading')));
  return null;
}
