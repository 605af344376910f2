// Game picker with an options form built from the game's option specs, and Start.
import { h, region } from './dom.js';
import { t } from './i18n.js';
import { humanise } from './util.js';
import { about, howtoButton, loadGames } from './coach.js';

// The chosen game and options are room state (room.chosen, the `choose` action).
const pick = { game: null, open: false, view: null, app: null, shown: false };

/** Close the options drawer (the TV's settings drawer opens in the same spot). */
export function closeOptions(box) {
  if (!pick.open) return;
  pick.open = false;
  if (box && box._rerender) box._rerender();
}

/** The TV's drawers open upwards from the host panel: the room above it is their limit (CSS
 * --above), so that a tall drawer scrolls instead of running off the top of a 720p screen. */
export function fitDrawer(host) {
  const top = host ? host.getBoundingClientRect().top : 0;
  if (top > 0) host.style.setProperty('--above', `${Math.round(top)}px`);
}

/** A choice that is gone (a deleted deck): no option keeps it picked. */
export function forgetChoice(value) {
  const c = pick.view && pick.view.room.chosen;
  if (!c) return;
  const options = Object.fromEntries(Object.entries(c.options).filter(([, v]) => v !== value));
  pick.app.act({ type: 'choose', game: c.game, options });
}

export function gameLabel(g) {
  return t(`game.${g.id}`, null, g.name || g.id);
}

/** opt.<game>.<name> (in the game's own strings), then opt.<name> (the platform's: the deck). */
export function optionLabel(name, game) {
  const plain = t(`opt.${name}`, null, humanise(name));
  return game ? t(`opt.${game}.${name}`, null, plain) : plain;
}

/** choice.<game>.<name>.<value> (in the game's own strings), then choice.<name>.<value>, then
 * choice.<value> (the platform's: the standard deck, choice.default). */
function choiceLabel(name, value, game) {
  const plain = t(`choice.${name}.${value}`, null, t(`choice.${value}`, null, humanise(value)));
  return game ? t(`choice.${game}.${name}.${value}`, null, plain) : plain;
}

export function renderPicker(box, view, app, enabled) {
  const room = view.room;
  Object.assign(pick, { view, app });
  const games = room.games || [];
  const starts = new Map((view.actions || []).filter((a) => a.type === 'start').map((a) => [a.game, a]));
  const chosen = room.chosen && games.some((g) => g.id === room.chosen.game) ? room.chosen : null;
  if (chosen) pick.game = chosen.game;
  else if (!pick.game || !games.some((g) => g.id === pick.game)) {
    pick.game = (room.game && games.some((g) => g.id === room.game)) ? room.game
      : ([...starts.keys()][0] || (games[0] && games[0].id) || null);
  }
  // the games' own strings: each tile's one line, its How to play (howto.js) and its options'
  // labels (drawn anew when they come)
  loadGames(games, app.static, () => { if (pick.view) renderPicker(box, pick.view, pick.app, enabled); });
  const picked = games.find((g) => g.id === pick.game);
  const labels = picked ? Object.keys(picked.options || {}).map((name) => optionLabel(name, picked.id)) : [];
  const key = [t('lang'), games.map((g) => about(g.id)), labels, pick.game, enabled, [...starts.keys()], games.map((g) => g.id), room.players.length, room.timer_factor, room.timers,
    room.language, JSON.stringify(chosen), games.map((g) => JSON.stringify(g.options))];   // the deck choices grow when a deck is uploaded
  // a control pressed a moment ago (a stepper's +) is drawn anew: the keyboard focus follows it
  const had = box.contains(document.activeElement) && document.activeElement.dataset.focus;
  if (region(box, key, () => build(box, view, app, games, starts, enabled)) && had) {
    const twin = box.querySelector(`[data-focus="${had}"]`);
    if (twin) twin.focus();
  }
}

function build(box, view, app, games, starts, enabled) {
  const rerender = () => { box._regionKey = null; renderPicker(box, view, app, enabled); };
  box._rerender = rerender;
  const tv = app.page === 'tv';
  const mayChoose = (view.actions || []).some((a) => a.type === 'choose');
  const choose = (game, options) => { if (mayChoose) app.act({ type: 'choose', game, options }); };
  const n = view.room.players.length;
  const list = h('div', { class: 'games', role: 'radiogroup', 'aria-label': t('pick.title') },
    games.map((g) => {
      const fits = starts.has(g.id) || (n >= g.min_players && n <= g.max_players);
      const card = h('button', {
        class: ['game-card', g.id === pick.game && 'sel', !fits && 'dim'],
        role: 'radio',
        'data-game': g.id,
        'data-focus': `game:${g.id}`,
        'aria-checked': g.id === pick.game ? 'true' : 'false',
        title: gameLabel(g),
        onclick: () => {
          if (g.id === pick.game) return;
          pick.game = g.id;
          choose(g.id, {});
          rerender();
        },
      },
      h('span', { class: 'gname' }, gameLabel(g)),
      h('span', { class: 'gplayers' }, t('pick.players', { min: g.min_players, max: g.max_players })),
      g.minutes ? h('span', { class: 'gtime' }, t('pick.minutes', { n: g.minutes })) : null,
      // a game whose words have a language of their own says so before the host starts it
      g.words_language && g.words_language !== view.room.language ? h('span', { class: 'gwords' }, t(`pick.words.${g.words_language}`)) : null,
      about(g.id) ? h('span', { class: 'gabout' }, about(g.id)) : null);
      // the tile and its How to play side by side (a button may not hold another)
      const how = howtoButton(g, gameLabel(g), app);
      return how ? h('div', { class: 'game-slot' }, card, how) : card;
    }));
  const g = games.find((x) => x.id === pick.game);
  const start = g && starts.get(g.id);
  const chosen = view.room.chosen && view.room.chosen.game === pick.game ? view.room.chosen.options : {};
  const values = { ...chosen };
  const change = (name, v) => { values[name] = v; choose(g.id, { ...values }); };
  const form = g ? optionsForm(g, values, view.room, change) : null;
  let note = null;
  if (g && !start) {
    note = h('p', { class: 'hint' }, n < g.min_players || n > g.max_players
      ? t('pick.needs', { min: g.min_players, max: g.max_players }) : t('pick.cannot'));
  }
  const go = h('button', {
    class: 'btn primary big start',
    disabled: !start || !enabled,
    onclick: () => {
      if (!start) return;
      app.act(mayChoose ? { type: 'start', game: g.id } : { type: 'start', game: g.id, options: values });
    },
  }, g && tv ? t('pick.start', { game: gameLabel(g) }) : t('pick.start_plain'));
  // the options stay folded behind a toggle: on the TV they open in a drawer over the
  // players, on the phone they unfold in place
  const toggle = form ? h('button', {
    class: ['btn', 'small', 'ghost', 'opts-toggle', pick.open && 'on'],
    type: 'button',
    'data-focus': 'options',
    'aria-expanded': pick.open ? 'true' : 'false',
    onclick: () => {
      pick.open = !pick.open;
      if (pick.open && tv) {
        const host = box.closest('.host-panel');
        const other = host?.querySelector('.settings-drawer');
        if (other) other.hidden = true;
        fitDrawer(host);
      }
      rerender();
    },
  }, h('span', { 'aria-hidden': 'true' }, '⚙'), t('pick.options'), h('span', { class: 'caret', 'aria-hidden': 'true' }, pick.open ? '▴' : '▾')) : null;
  let opts = null;
  if (form && pick.open) {
    // it slides in when opened, not again each time a change redraws it
    opts = tv ? h('div', { class: ['drawer', 'opts-drawer', pick.shown && 'still'] },
      h('div', { class: 'drawer-head' }, h('h3', null, `${t('pick.options')}: ${gameLabel(g)}`),
        h('button', { class: 'btn small primary', type: 'button', onclick: () => { pick.open = false; rerender(); } }, t('pick.close'))),
      form) : form;
  }
  pick.shown = !!opts;
  if (tv) return [list, h('div', { class: 'pick-bar' }, toggle, note, go), opts];
  return [h('h3', null, t('pick.title')), list, toggle, opts, note, go];
}

/** An unset `language` shows the room's. */
export function shownValue(name, spec, values, roomLanguage) {
  if (name in values) return values[name];
  if (name === 'language' && Array.isArray(spec.choices) && spec.choices.includes(roomLanguage)) return roomLanguage;
  return spec.default;
}

/** The room's timers setting as the options form applies it: how many times the chosen
 * length runs (normal 1, x2, x4), or `paced` (none: no timer runs, the VIP moves on). */
export function roomTimers(room) {
  return { factor: room.timer_factor || 1, paced: room.timers === 'none' };
}

/** What a timer option chosen as `v` seconds will actually be in a game dealt now: the
 * room's setting applied (one layer: the host sees the seconds that run, not two numbers). */
export function appliedLabel(v, timers) {
  if (!v) return t('opt.off');
  if (timers.paced) return t('opt.no_timer');
  return t('opt.seconds', { n: v * timers.factor });
}

const NICE = [3, 5, 8, 10, 15, 20, 30, 45, 60, 90, 120, 150, 180, 240, 300, 450, 600];

/** The presets a timer option offers: off (when allowed), and half, once and twice its
 * default on a round grid (or 30/60/120 s for one that is off by default). */
export function presets(spec) {
  const min = spec.min != null ? spec.min : 0;
  const max = spec.max != null ? spec.max : 600;
  const near = (x) => NICE.reduce((a, b) => (Math.abs(b - x) < Math.abs(a - x) ? b : a));
  const d = spec.default;
  const wanted = d > 0 ? [near(d / 2), d, near(d * 2)] : [30, 60, 120];
  const out = [...(min === 0 ? [0] : []), ...wanted.filter((x) => x >= Math.max(min, 1) && x <= max)];
  return [...new Set(out)];
}

function optionsForm(g, values, room, change) {
  const entries = Object.entries(g.options || {});
  if (!entries.length) return null;
  const timers = roomTimers(room);
  const timed = entries.some(([, spec]) => spec.seconds);
  const note = timed && (timers.paced || timers.factor > 1)
    ? h('p', { class: 'hint timers-note' }, timers.paced ? t('opt.timers_none') : t('opt.timers_factor', { n: timers.factor }))
    : null;
  return h('div', { class: 'options' }, note, entries.map(([name, spec]) => {
    const val = shownValue(name, spec, values, room.language);
    const label = h('span', { class: 'olabel' }, optionLabel(name, g.id));
    if (Array.isArray(spec.choices)) {
      return h('label', { class: 'opt' }, label,
        h('select', { 'data-opt': name, 'data-focus': name, onchange: (e) => change(name, spec.choices[e.target.selectedIndex]) },
          spec.choices.map((c) => h('option', { value: String(c), selected: c === val },
            spec.labels && spec.labels[c] != null ? spec.labels[c] : choiceLabel(name, c, g.id)))));
    }
    if (typeof spec.default === 'boolean') {
      return h('label', { class: 'opt toggle' },
        h('input', { type: 'checkbox', 'data-opt': name, 'data-focus': name, checked: !!val, onchange: (e) => change(name, e.target.checked) }), label);
    }
    if (typeof spec.default === 'number') {
      return stepper(name, spec, val, change, label, timers);
    }
    const long = (spec.max || 0) > 200;
    return h('label', { class: ['opt', long && 'wide'] }, label,
      h(long ? 'textarea' : 'input', { type: long ? null : 'text', value: val == null ? '' : String(val),
        maxlength: spec.max || 200, rows: long ? 3 : null, 'data-opt': name, 'data-focus': name, onchange: (e) => change(name, e.target.value) }));
  }));
}

/**
 * The step at value v: fine near zero, coarser further up, so every sensible value is
 * reachable (a 3 s reveal can go back to 1 s) and a long range does not take 100 taps.
 */
export function stepAt(spec, v) {
  const span = (spec.max != null ? spec.max : 9999) - (spec.min != null ? spec.min : 0);
  if (spec.seconds) return v < 60 ? 5 : 10;     // what a person would set; presets for the rest
  if (span <= 20) return 1;
  if (span > 1000) return v < 1000 ? 100 : 250;
  return v < 10 ? 1 : v < 50 ? 5 : 10;
}

/** The next value up (dir 1) or down (dir -1): on the grid of the step there, within min..max. */
export function nextValue(spec, v, dir) {
  const min = spec.min != null ? spec.min : 0;
  const max = spec.max != null ? spec.max : 9999;
  const s = dir > 0 ? stepAt(spec, v) : stepAt(spec, v - 1);
  const nv = dir > 0 ? Math.floor(v / s) * s + s : Math.ceil(v / s) * s - s;
  return Math.max(min, Math.min(max, nv));
}

function stepper(name, spec, val, change, label, timers) {
  let v = typeof val === 'number' ? val : (spec.min != null ? spec.min : 0);
  const out = h('output', { class: 'oval', 'data-opt': name });
  if (spec.seconds && timers.paced) {
    // the room's timers are off: no length applies, so none is offered (the note says why)
    out.textContent = appliedLabel(v, timers);
    return h('div', { class: 'opt stepper' }, label, out);
  }
  const chips = spec.seconds ? presets(spec).map((p) => h('button', {
    class: 'btn small ghost preset', type: 'button', 'data-preset': String(p), 'data-focus': `${name}=${p}`,
    'aria-label': `${label.textContent}: ${appliedLabel(p, timers)}`,
    onclick: () => { v = p; show(); change(name, v); },
  }, appliedLabel(p, timers))) : [];
  const show = () => {
    // a timer shows the seconds that will run (the room's x2 or x4 applied), or that none runs
    out.textContent = spec.seconds ? appliedLabel(v, timers) : String(v);
    for (const c of chips) c.setAttribute('aria-pressed', Number(c.dataset.preset) === v ? 'true' : 'false');
  };
  const set = (dir) => {
    v = nextValue(spec, v, dir);
    show();
    change(name, v);
  };
  show();
  return h('div', { class: ['opt', 'stepper', chips.length && 'timed'] }, label,
    h('span', { class: 'steps' },
      // named with their option ("Points to win −"), so a screen reader says what they change
      h('button', { class: 'stepbtn', type: 'button', 'aria-label': `${label.textContent} −`, 'data-focus': `${name}-`, onclick: () => set(-1) }, '−'),
      out,
      h('button', { class: 'stepbtn', type: 'button', 'aria-label': `${label.textContent} +`, 'data-focus': `${name}+`, onclick: () => set(1) }, '+')),
    chips.length ? h('span', { class: 'presets' }, chips) : null);
}
