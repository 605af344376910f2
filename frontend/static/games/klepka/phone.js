// klepka on a phone: your letters as tiles (tap them in order to build a word), the table
// mirror to flip cards, exchange and chaos at any moment, and a dictionary check for disputes.
// The phone never decides what is legal: it offers what `view.actions` offers.
import { face, prizeAbout, ALPHABET, PRIZE_UK } from './i18n.js';

export { ready } from './i18n.js';
export { results } from './recap.js';

const P = {
  tray: [],          // card ids in word order (the polysemy id once per place it fills)
  shown: 0,          // tray slots already drawn (only new ones pop in)
  wild: null,        // {card, letter} once the polysemy card has a letter
  picker: false,     // the polysemy letter picker is open
  exchange: null,    // null | {give: null|id}
  zoom: false,
  flipping: null,    // a ref tapped, until the next view
  seq: null,         // the last event seen
  view: null,
  main: null,
  app: null,
  root: null,
  dispute: null,
  returnTo: null,    // where focus goes back to when a dialog closes
};

export function render(root, view, app) {
  P.app = app;
  const g = view.game;
  if (!g) return;
  if (P.root !== root || !P.main || !root.contains(P.main)) {
    P.root = root; P.dispute = null; P.seq = null;
    P.main = app.h('div', { class: 'k-main' });
    root.replaceChildren(P.main, disputeBox(app));
  }
  if (P.view !== view) { P.view = view; P.flipping = null; }
  app.onError(refused);
  const { h, t } = app;
  const me = view.you.role === 'player' ? view.you.id : null;
  const mine = g.mine || [];
  const acts = app.gameActions(view);
  const wordTpl = acts.find((a) => a.type === 'word');
  const done = acts.find((a) => a.type === 'words_done');
  const flips = new Map(acts.filter((a) => a.type === 'flip').map((a) => [a.card, a]));
  const chaos = acts.filter((a) => a.type === 'chaos');
  const swaps = acts.filter((a) => a.type === 'exchange');

  // keep the word in progress consistent with the hand
  const ids = new Set(mine.map((c) => c.id));
  P.tray = P.tray.filter((id) => ids.has(id));
  if (P.wild && (!ids.has(P.wild.card) || !P.tray.includes(P.wild.card))) P.wild = null;
  if (!wordTpl) { P.tray = []; P.wild = null; P.picker = false; }
  if (!swaps.length) P.exchange = null;

  // events: my word accepted, what my flip turned up (said by the live region too)
  const last = g.last;
  if (last && P.seq != null && last.seq > P.seq && last.seat === me) {
    if (last.type === 'word_made') scored(last);
    if (last.type === 'pair_taken') app.vibrate(40);
    const letter = (last.letter || (last.card && last.card.letter) || '').toUpperCase();
    app.say(last.type === 'word_made' ? t('klepka.you_made', { word: last.word.toUpperCase(), n: last.points })
      : last.type === 'pair_taken' ? t('klepka.pair', { letter })
        : last.type === 'card_flipped' && letter ? t('klepka.you_flipped', { letter })
          : last.type === 'prize_taken' ? t('klepka.you_prize', { kind: t(`klepka.kind.${last.card.kind}`) }) : []);
  }
  P.seq = last ? last.seq : 0;    // (the shell buzzes when the turn comes to you)

  const byId = new Map(mine.map((c) => [c.id, c]));
  const parts = [];
  parts.push(statusLine(app, g, me, wordTpl, flips));

  if (wordTpl) parts.push(wordBuilder(app, g, byId, wordTpl));
  if (me) parts.push(handBox(app, g, mine, !!wordTpl));
  if (done) {
    parts.push(h('button', { class: 'btn big k-done', onclick: () => { P.tray = []; P.wild = null; app.act(done); } },
      h('span', null, t('klepka.done')),
      h('small', null, t('klepka.done_hint', { n: g.made + 1 }))));
  }
  if (chaos.length || swaps.length) parts.push(anytime(app, chaos, swaps));
  parts.push(mirror(app, g, flips));
  const box = h('div', { class: ['klepka-phone', flips.size && 'flipping'] }, parts);
  const overlays = [];
  if (P.picker) overlays.push(letterPicker(app));
  if (P.exchange) overlays.push(exchangeSheet(app, g, swaps, me));
  const before = document.activeElement;
  P.main.replaceChildren(box, ...overlays);
  keepFocus(overlays[0], before);
}

// ---- dialogs: named by their heading, modal, focus kept inside, Escape cancels ----------------
let dialogNo = 0;
function sheet(app, title, body, onCancel) {
  const { h, t } = app;
  dialogNo += 1;
  const id = `k-dlg-${dialogNo}`;
  const close = h('button', { class: 'btn ghost k-cancel', onclick: onCancel }, t('klepka.cancel'));
  const el = h('div', { class: 'k-sheet', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': id },
    h('div', { class: 'k-sheet-box' }, h('h3', { id, tabindex: '-1' }, title), ...body, close));
  el.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { e.preventDefault(); onCancel(); return; }
    if (e.key !== 'Tab') return;
    const items = [...el.querySelectorAll('button:not([disabled])')];
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
    else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
  });
  return el;
}

/** Focus moves into an open dialog (its first choice) and back to where it came from. */
function keepFocus(dialog, a) {
  if (dialog) {
    if (!P.returnTo) {
      P.returnTo = a && a.dataset && a.dataset.card ? `[data-card="${CSS.escape(a.dataset.card)}"]`
        : a && a.classList && a.classList.contains('k-exchange') ? '.k-exchange' : '.k-hand .k-tile';
    }
    if (!dialog.contains(document.activeElement)) {
      const first = dialog.querySelector('.k-abc-btn, .k-tile, button');
      (first || dialog.querySelector('h3')).focus();
    }
  } else if (P.returnTo) {
    const back = P.main.querySelector(P.returnTo) || P.main.querySelector('button:not([disabled])');
    P.returnTo = null;
    if (back && (!document.activeElement || document.activeElement === document.body
      || !document.body.contains(document.activeElement))) back.focus();
  }
}

function statusLine(app, g, me, wordTpl, flips) {
  const { h, t } = app;
  const name = app.name(g.turn);
  const p = app.players.get(g.turn);
  let text;
  let mineTurn = false;
  if (g.phase === 'reveal') text = t('klepka.wait_reveal');
  else if (g.turn === me && wordTpl) { text = t('klepka.you_words'); mineTurn = true; }
  else if (g.turn === me && flips.size) { text = t('klepka.you_flip'); mineTurn = true; }
  else if (g.phase === 'words') text = t('klepka.wait_words', { name });
  else text = t('klepka.wait_flips', { name });
  const sub = g.phase === 'flips' && g.flips ? t('klepka.pairs_left', { n: g.flips.pairs_left }) : null;
  return h('div', { class: ['k-pstatus', mineTurn && 'mine', g.phase === 'reveal' && 'reveal'], style: { '--pc': p ? p.color : '#888' } },
    mineTurn ? null : h('span', { class: 'chip', style: { '--pc': p ? p.color : '#888' } }, p ? p.symbol || '' : ''),
    h('span', { class: 'kps-text' }, text),
    sub ? h('b', { class: 'kps-sub' }, sub) : null);
}

// ---- building a word ------------------------------------------------------------------
function letterOf(byId, id) {
  if (P.wild && id === P.wild.card) return P.wild.letter;
  const c = byId.get(id);
  return c && c.letter ? c.letter : '?';
}

function wordBuilder(app, g, byId, tpl) {
  const { h, t } = app;
  const slots = P.tray.map((id, i) => {
    const c = byId.get(id);
    const shown = c && c.kind === 'polysemy' ? { kind: 'letter', letter: P.wild ? P.wild.letter : '?', points: 0, colour: 'wild' } : c;
    const label = `${letterOf(byId, id).toUpperCase()} ${shown ? shown.points : ''}`.trim();
    return h('button', { class: ['k-slot', i >= P.shown && 'new'], 'aria-label': label, onclick: () => { P.tray.splice(i, 1); rerender(); } },
      face(h, shown, 'tray'));
  });
  P.shown = P.tray.length;
  const word = P.tray.map((id) => letterOf(byId, id)).join('');
  const send = () => {
    if (!P.tray.length) return;
    const d = { ...tpl, cards: P.tray.slice(), wild: P.wild ? { card: P.wild.card, letter: P.wild.letter } : null };
    app.act(d);
  };
  return h('div', { class: 'k-builder' },
    h('div', { class: ['k-tray', !P.tray.length && 'empty'], lang: 'uk' },
      slots.length ? slots : h('span', { class: 'k-tray-hint' }, t('klepka.tap_letters'))),
    h('div', { class: 'k-builder-btns' },
      h('button', { class: 'btn k-undo', disabled: !P.tray.length, 'aria-label': t('klepka.undo'),
        onclick: () => { P.tray.pop(); rerender(); } }, '⌫'),
      h('button', { class: 'btn primary big k-send', disabled: !P.tray.length, onclick: send },
        t('klepka.send'), word ? h('span', { class: 'k-send-word', lang: 'uk' }, word.toUpperCase()) : null)));
}

function handBox(app, g, mine, building) {
  const { h, t } = app;
  if (!mine.length) return h('p', { class: 'hint k-nohand' }, t('klepka.no_letters'));
  const cards = mine.slice().sort((a, b) => (a.kind === 'letter' ? 0 : 1) - (b.kind === 'letter' ? 0 : 1)
    || (a.letter || a.kind).localeCompare(b.letter || b.kind, 'uk'));
  return h('div', { class: 'k-handbox' },
    h('h3', null, t('klepka.your_letters')),
    h('div', { class: 'k-hand' }, cards.flatMap((c) => {
      const usable = building && (c.kind === 'letter' || c.kind === 'polysemy');
      const used = c.kind === 'letter' && P.tray.includes(c.id);
      // a prize card says what it does in one line under it (issue 27)
      const about = c.kind !== 'letter' ? prizeAbout(app, c.kind, `k-about-${c.id}`) : null;
      return [tile(app, c, {
        class: [used && 'used', !usable && 'inert'],
        disabled: !usable || used,
        dataset: { card: c.id },
        'aria-describedby': about ? about.id : null,
        onclick: () => tapTile(c),
      }), about].filter(Boolean);
    })));
}

/** A card as a button. Its accessible name contains its visible text: the letter and its
 * points, or the prize card's Ukrainian name (followed by the name in the room language). */
function tile(app, c, attrs) {
  const { h, t } = app;
  const prize = c && c.kind !== 'letter';
  const label = !c ? '' : prize ? `${PRIZE_UK[c.kind] || c.kind} (${t(`klepka.kind.${c.kind}`)})`
    : `${c.letter.toUpperCase()} ${c.points}`;
  return h('button', { ...attrs, class: ['k-tile', prize && 'k-prize', ...(attrs.class || [])], 'aria-label': label },
    face(h, c));
}

function tapTile(c) {
  if (c.kind === 'polysemy') {
    if (P.wild && P.wild.card === c.id) { P.tray.push(c.id); rerender(); return; }
    P.picker = c.id;
    rerender();
    return;
  }
  if (!P.tray.includes(c.id)) P.tray.push(c.id);
  rerender();
}

function letterPicker(app) {
  const { h, t } = app;
  const card = P.picker;
  return sheet(app, t('klepka.which_letter'), [
    h('div', { class: 'k-abc', lang: 'uk' }, ALPHABET.map((ch) => h('button', {
      class: 'k-abc-btn',
      onclick: () => { P.wild = { card, letter: ch }; P.tray.push(card); P.picker = false; rerender(); },
    }, ch.toUpperCase())))], () => { P.picker = false; rerender(); });
}

function scored(w) {
  const { h, t } = P.app;
  P.tray = [];
  P.wild = null;
  P.app.vibrate([40, 40, 120]);
  const el = h('div', { class: 'k-scored', lang: 'uk' },
    h('div', { class: 'ksc-word' }, w.word.toUpperCase()),
    h('div', { class: 'ksc-pts' }, t('klepka.you_scored', { n: w.points })),
    w.double ? h('div', { class: 'ksc-x2' }, t('klepka.double')) : null);
  document.body.append(el);
  setTimeout(() => el.remove(), 1800);
}

/** A refusal of our own action (the shell still shows its toast): shake the tray after a word. */
function refused(err, action) {
  if (!action || action.type !== 'word') return false;
  const tray = P.root && P.root.querySelector('.k-tray');
  if (tray) { tray.classList.remove('shake'); void tray.offsetWidth; tray.classList.add('shake'); }
  P.app.vibrate(200);
  return false;
}

// ---- exchange and chaos, at any moment ------------------------------------------------
function anytime(app, chaos, swaps) {
  const { h, t } = app;
  return h('div', { class: 'k-anytime' },
    swaps.length ? h('button', { class: 'btn big k-exchange', onclick: () => { P.exchange = { give: null }; rerender(); } },
      h('span', { class: 'k-ico' }, '⇄'), t('klepka.exchange')) : null,
    chaos.length ? h('button', { class: 'btn big k-chaos', onclick: () => app.act(chaos[0]) },
      h('span', { class: 'k-ico' }, '🌀'), t('klepka.chaos_btn')) : null);
}

function exchangeSheet(app, g, swaps, me) {
  const { h, t } = app;
  const mineById = new Map((g.mine || []).map((c) => [c.id, c]));
  const cancel = () => { P.exchange = null; rerender(); };
  if (!P.exchange.give) {
    const gives = [...new Set(swaps.map((a) => a.give))];
    return sheet(app, t('klepka.give'), [
      h('div', { class: 'k-hand' }, gives.map((id) => tile(app, mineById.get(id), {
        dataset: { card: id }, onclick: () => { P.exchange = { give: id }; rerender(); } })))], cancel);
  }
  const takes = swaps.filter((a) => a.give === P.exchange.give);
  const bySeat = [];
  for (const seat of g.order) {
    if (seat === me) continue;
    const hand = (g.players[seat] || { hand: [] }).hand;
    const offers = hand.map((c) => [c, takes.find((a) => a.take === c.id)]).filter(([, a]) => a);
    if (!offers.length) continue;
    const p = app.players.get(seat);
    bySeat.push(h('div', { class: 'k-ex-seat', style: { '--pc': p ? p.color : '#888' } },
      h('div', { class: 'k-ex-name' }, h('span', { class: 'chip', style: { '--pc': p ? p.color : '#888' } }, p ? p.symbol || '' : ''), p ? p.name : seat),
      h('div', { class: 'k-hand' }, offers.map(([c, a]) => tile(app, c, {
        dataset: { card: c.id }, onclick: () => { P.exchange = null; app.act(a); } })))));
  }
  return sheet(app, t('klepka.take'), [
    h('div', { class: 'k-ex-give', 'aria-hidden': 'true' }, face(h, mineById.get(P.exchange.give), 'mini'), h('span', null, '⇄')),
    ...bySeat], cancel);
}

// ---- the table mirror -------------------------------------------------------------------
function mirror(app, g, flips) {
  const { h, t } = app;
  const active = flips.size > 0;
  const cells = g.table.map((cell, i) => {
    if (cell == null) return h('span', { class: 'km-cell gone' });
    if (!cell.down) return h('span', { class: ['km-cell', 'up', g.phase === 'reveal' && 'glow'] }, face(h, cell.card, 'mini'));
    const a = flips.get(cell.ref);
    return h('button', {
      class: ['km-cell', 'down', a && 'can', P.flipping === cell.ref && 'tapped'],
      disabled: !a || !!P.flipping,
      dataset: { ref: cell.ref },
      'aria-label': `${Math.floor(i / g.cols) + 1}-${(i % g.cols) + 1}`,
      onclick: () => { if (!a) return; P.flipping = cell.ref; app.act(a); rerender(); },
    });
  });
  return h('div', { class: ['k-mirror', active && 'active', P.zoom && 'zoom'] },
    h('div', { class: 'km-head' },
      h('h3', null, active ? t('klepka.tap_card') : t('klepka.table')),
      h('button', { class: 'btn small ghost k-zoom', onclick: () => { P.zoom = !P.zoom; rerender(); } },
        P.zoom ? t('klepka.zoom_out') : `🔍 ${t('klepka.zoom')}`)),
    h('div', { class: 'km-scroll', tabindex: '0', role: 'group', 'aria-label': t('klepka.table') },
      h('div', { class: 'km-grid', style: { '--rows': g.rows, '--cols': g.cols } }, cells)));
}

// ---- settling a dispute with the dictionary ------------------------------------------------
function disputeBox(app) {
  const { h, t } = app;
  const input = h('input', { type: 'text', class: 'k-dispute-in', lang: 'uk', maxlength: 40, autocomplete: 'off',
    autocapitalize: 'none', spellcheck: 'false', enterkeyhint: 'go', placeholder: t('klepka.word_placeholder') });
  const out = h('p', { class: 'k-dispute-out', role: 'status' });
  const btn = h('button', { class: 'btn primary', type: 'submit' }, t('klepka.check'));
  const title = h('summary', null, t('klepka.dispute'));
  const form = h('form', {
    class: 'k-dispute-form',
    onsubmit: async (e) => {
      e.preventDefault();
      const word = input.value.trim().toLowerCase();
      if (!word) return;
      out.className = 'k-dispute-out';
      out.textContent = t('klepka.checking');
      try {
        const r = await fetch(`/api/dictionary/uk/${encodeURIComponent(word)}`, { cache: 'no-store' });
        const d = await r.json();
        if (!r.ok) throw new Error('bad');
        out.textContent = t(d.known ? 'klepka.known' : 'klepka.unknown', { word: d.word || word });
        out.className = `k-dispute-out ${d.known ? 'known' : 'unknown'}`;
      } catch (ex) {
        out.textContent = t('klepka.check_failed');
      }
    },
  }, input, btn);
  const el = h('details', { class: 'k-dispute' }, title, form, out);
  el.addEventListener('toggle', () => {
    if (el.open && !input.value) {
      const v = P.app.view && P.app.view.game;
      const last = v && v.words.length ? v.words[v.words.length - 1].word : '';
      input.value = last;
    }
  });
  P.dispute = { el, title };
  return el;
}

function rerender() {
  if (P.app && P.root && P.app.view && P.app.view.game) render(P.root, P.app.view, P.app);
}
