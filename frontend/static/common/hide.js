// The host's one-tap "hide" (TV only: app.js imports it with the TV's modules, never on a phone): a
// crossed-eye button beside a player's name or a clue. The server replaces the name or text in every
// view (docs/protocol.md, room action `hide`).
import { h } from './dom.js';
import { t } from './i18n.js';

/** A hide button for `what` ({player: id, name}, {portrait: id, name} or {text}), or null when
 * this screen may not hide (its view offers no `hide` action) or there is nothing to hide. */
export function hideButton(app, what) {
  const view = app.view;
  if (!view || !(view.actions || []).some((a) => a.type === 'hide')) return null;
  const key = what.player ? 'player' : what.portrait ? 'portrait' : 'text';
  const d = { type: 'hide', [key]: what[key] };
  if (key === 'text' && (!what.text || what.text === '•••')) return null;
  const label = key === 'text' ? t('hide.text') : t(`hide.${key}`, { name: what.name || '' });
  return h('button', {
    class: ['hide-btn', key === 'portrait' && 'hide-face'], type: 'button', title: label, 'aria-label': label,
    onclick: (e) => { e.currentTarget.disabled = true; app.act(d); },
  }, eyeSlash());
}

const SVG = 'http://www.w3.org/2000/svg';

/** A crossed-out eye, drawn (an emoji needs a font a TV may not have). */
function eyeSlash() {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'hide-icon');
  const parts = [['path', { d: 'M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z' }],
    ['circle', { cx: '12', cy: '12', r: '3' }], ['path', { d: 'M4 20 20 4' }]];
  for (const [tag, attrs] of parts) {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    svg.appendChild(el);
  }
  return svg;
}
