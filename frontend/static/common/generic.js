// The generic game renderer: used when a game has no tv.js / phone.js (the test game).
// It shows the game view's fields and every legal game action as a big button; an
// action with null fields gets an input per field (free text) before its button.
// An audience phone gets its audience actions the same way, its own accepted votes
// (app.audience.mine) marked; the TV shows how many in the audience voted (app.audience.tally).
import { h, mount, chip } from './dom.js';
import { t } from './i18n.js';
import { humanise, ROOM_ACTIONS } from './util.js';

function valueText(v, app) {
  if (v == null) return '—';
  if (typeof v === 'string' && app.players.has(v)) return app.players.get(v).name;
  if (Array.isArray(v)) return v.map((x) => valueText(x, app)).join(', ');
  if (typeof v === 'object') {
    return Object.entries(v).map(([k, x]) => `${app.players.has(k) ? app.players.get(k).name : k}: ${valueText(x, app)}`).join('; ');
  }
  return String(v);
}

function actionLabel(a, app) {
  const base = t(`act.${a.type}`, null, humanise(a.type));
  const parts = Object.entries(a).filter(([k, v]) => k !== 'type' && v != null).map(([k, v]) => valueText(v, app));
  return parts.length ? `${base}: ${parts.join(' · ')}` : base;
}

export function renderGeneric(root, view, app) {
  const game = view.game || {};
  const fields = Object.entries(game).filter(([, v]) => v !== undefined);
  const acts = (view.actions || []).filter((a) => !ROOM_ACTIONS.has(a.type));
  const votes = ((app.audience && app.audience.mine) || {}).votes || {};
  const active = document.activeElement;
  if (active && root.contains(active) && active.tagName === 'INPUT' && root._actsKey === JSON.stringify(acts)) {
    // the player is typing and nothing they can do changed: only refresh the facts
    mount(root.querySelector('.gen-facts'), facts(fields, app));
    mount(root.querySelector('.gen-audience'), audienceLine(app, votes));
    return;
  }
  root._actsKey = JSON.stringify(acts);
  mount(root, h('div', { class: ['generic', `generic-${app.page}`] },
    h('dl', { class: 'gen-facts' }, facts(fields, app)),
    scores(view, app),
    h('p', { class: 'gen-audience hint' }, audienceLine(app, votes)),
    h('div', { class: 'gen-actions' }, acts.length ? acts.map((a) => actionControl(a, app, votes))
      : h('p', { class: 'hint wait-turn' }, app.page === 'tv' ? '' : t('game.wait')))));
}

/** The phone: your accepted votes; the TV: how many in the audience voted. */
function audienceLine(app, votes) {
  const keys = Object.keys(votes);
  if (keys.length) return t('audience.your_vote', { vote: keys.map((k) => `${k}: ${valueText(votes[k], app)}`).join(' · ') });
  const tally = app.audience && app.audience.tally;
  if (!tally) return '';
  const anon = tally.anonymous || 0;       // anonymous voters: a count apart (issue 31)
  const named = (tally.voters || 0) - anon;
  return [named > 0 ? t('audience.voters', { n: named }) : '', anon > 0 ? t('audience.anonymous', { n: anon }) : '']
    .filter(Boolean).join(' · ');
}

/** The action is the vote you cast: each of its fields is your vote under that key. */
function isMine(a, votes) {
  const f = Object.entries(a).filter(([k]) => k !== 'type');
  return f.length > 0 && f.every(([k, v]) => v !== null && votes[k] === v);
}

function facts(fields, app) {
  return fields.map(([k, v]) => [h('dt', null, t(`field.${k}`, null, humanise(k))), h('dd', null, valueText(v, app))]);
}

function scores(view, app) {
  if (app.page !== 'tv') return null;
  return h('div', { class: ['gen-scores', view.room.players.length > 7 && 'cols'] }, view.room.players.map((p) => h('div', {
    class: ['gen-score', !p.connected && !p.standin && 'away'], style: { '--pc': p.color }, title: p.name,
  }, chip(p), app.standin(h('span', { class: 'pname' }, p.name), p), h('b', null, String(p.score || 0)))));
}

function actionControl(a, app, votes) {
  const blanks = Object.keys(a).filter((k) => k !== 'type' && a[k] === null);
  if (!blanks.length) {
    const mine = isMine(a, votes);
    return h('button', { class: ['btn big act', mine && 'mine'], 'aria-pressed': app.you.role === 'audience' ? String(mine) : null,
      onclick: () => app.act(a) }, actionLabel(a, app));
  }
  const inputs = blanks.map((k) => h('input', {
    type: 'text', name: k, maxlength: 100, autocomplete: 'off', enterkeyhint: 'send',
    placeholder: t(`field.${k}`, null, humanise(k)), 'aria-label': humanise(k),
  }));
  return h('form', {
    class: 'act-form',
    onsubmit: (e) => {
      e.preventDefault();
      const d = { ...a };
      for (const inp of inputs) d[inp.name] = inp.value.trim();
      app.act(d);
    },
  }, inputs, h('button', { class: 'btn big primary', type: 'submit' }, actionLabel(a, app)));
}
