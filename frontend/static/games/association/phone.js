// Association on the phone: your hand as big swipeable cards (tap to choose, 🔍 to look
// closer), the storyteller's clue form, submit, vote on the numbered table (your own card is
// not offered: only what view.actions lists is live), waiting states, and the reveal.
// The audience (issue 22) votes along in the vote phase: the table as a grid of big cards, a
// tap votes (a later tap changes the vote), its pick marked from app.audience.mine.
// The state the phone's modules share is state.js; the status line and what the live region
// says, status.js.
import { put, face, player, avatar, tagStyle, crowdBadge } from './board.js';

export { ready } from './board.js';
import { P, AUD_VOTE, me, audPick } from './state.js';
import { drawStatus, revealSummary, sayResult } from './status.js';

/** Your own vote (a `mine` frame) came back, or the tally moved: draw the marks anew. */
function onCrowd(state) {
  if (state && state.mine) P.pending = null;
  rerender();
}

function build(root, app) {
  const h = app.h;
  P.root = root;
  P.status = h('div', { class: 'as-p-status' });
  P.strip = h('div', { class: 'as-p-strip' });
  P.hint = h('div', { class: 'as-p-swipe' });
  P.panel = h('div', { class: 'as-p-panel' });
  P.zoomBox = h('div', { class: 'as-zoom', hidden: true, role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'as-zoom-title' });
  P.zoomBox.addEventListener('click', (e) => { if (e.target === P.zoomBox) closeZoom(); });
  P.zoomBox.addEventListener('keydown', zoomKeys);
  const typed = P.input ? P.input.value : '';   // a page redrawn anew keeps the clue being typed
  P.input = h('input', { type: 'text', class: 'as-p-input', maxlength: 140, autocomplete: 'off', enterkeyhint: 'send' });
  P.input.value = typed;
  P.input.addEventListener('input', () => updateButtons());
  P.input.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); tell(false); } });
  P.stripKey = null;
  P.panelKey = null;
  P.cards = new Map();
  put(root, h('div', { class: 'as-phone' }, P.status, P.strip, P.hint, P.panel), P.zoomBox);
}

function acts(view, app) {
  return app.gameActions(view);
}

/** A refused clue (family mode's not_family_friendly, bad_clue): the form opens again, the
 * typed clue kept, and the shell's toast says why. */
function refused(err, action) {
  if (action && action.type === AUD_VOTE) {       // refused (the ballot closed, audience off...)
    if (P.pending === action.card) P.picks.delete(P.view && P.view.game ? P.view.game.turn : null);
    P.pending = null;
    rerender();
    return false;
  }
  if (!action || action.type !== 'tell') return false;
  P.sent = null;
  rerender();
  return false;
}

export function render(root, view, app) {
  P.app = app;
  app.onError(refused);
  if (app.onAudience) app.onAudience(onCrowd);   // once per game module (the shell dedupes)
  if (P.root !== root || !root.contains(P.status)) build(root, app);
  const g = view.game;
  if (!g) return;
  P.view = view;
  const stage = `${g.turn}:${g.phase}`;
  if (stage !== P.stage) {
    if (g.phase === 'tell') P.input.value = '';
    P.selected = null;
    P.sent = null;
    P.pending = null;
    P.stage = stage;
    closeZoom();
  }
  const all = acts(view, app);
  const own = all.filter((a) => a.type !== 'next');
  // the turn cue when it becomes your turn (the shell cues only when actions go from none to some)
  if (own.length && !P.hadOwn && P.hadAny) app.turnCue();
  P.hadOwn = own.length > 0;
  P.hadAny = all.length > 0;
  const pickable = new Map(own.filter((a) => a.card != null).map((a) => [a.card, a]));
  if (P.selected && !pickable.has(P.selected)) P.selected = null;
  drawStatus(app, view, g, own);
  sayResult(app, view, g);
  drawStrip(app, view, g, pickable);
  drawPanel(app, view, g, all, own);
}

// ---- the cards: the hand, or the table during vote and reveal --------------------------------
function shown(g) {
  if (g.phase === 'vote') return { mode: 'table', ids: g.table };
  if (g.phase === 'reveal' && g.last) return { mode: 'reveal', ids: g.last.cards.map((c) => c.card) };
  return { mode: 'hand', ids: g.hand || [] };
}

function drawStrip(app, view, g, pickable) {
  const { h, t } = app;
  const { mode, ids } = shown(g);
  const key = `${mode}:${g.turn}:${ids.join(',')}`;
  if (key !== P.stripKey) {
    const keep = P.stripKey && P.stripKey.split(':')[0] === mode && P.stripKey.split(':')[2] === ids.join(',');
    const left = P.strip.scrollLeft;
    P.stripKey = key;
    P.cards = new Map();
    const L = mode === 'reveal' ? g.last : null;
    const kids = ids.map((id, i) => {
      const info = L ? L.cards[i] : null;
      // two sibling buttons (never one inside the other): the card itself picks, 🔍 zooms
      const zoomBtn = h('button', { class: 'as-p-zoom', type: 'button', 'aria-label': t('association.zoom_n', { n: i + 1 }) }, '🔍');
      zoomBtn.addEventListener('click', () => openZoom(id, zoomBtn));
      const badge = h('span', { class: 'as-p-badge' });
      const story = info && info.card === L.story_card;
      const pick = h('button', { class: 'as-p-pick', type: 'button' },
        h('span', { class: 'as-card' }, face(app, g, id),
          mode !== 'hand' ? h('span', { class: 'as-num' }, String(i + 1)) : null,
          info ? h('span', { class: 'as-voters' }, info.voters.map((v) => avatar(app, v, 'voter small'))) : null,
          info ? crowdBadge(app, L, id) : null,
          // a space: the card's text reads "3 Yours", as its name "Card 3, Yours" does (WCAG
          // 2.5.3); between positioned boxes it takes no room
          ' ', badge));
      pick.addEventListener('click', () => tapCard(id, pick));
      // the reveal's star rides on the owner's tag, under the card, clear of the 🔍 button
      const el = h('div', { class: ['as-p-card', mode !== 'hand' && 'numbered'], dataset: { card: id } },
        pick, zoomBtn,
        info ? h('div', { class: ['as-owner', story && 'story'], style: tagStyle(app, info.owner) },
          story ? h('span', { class: 'as-star', 'aria-hidden': 'true' }, '★') : avatar(app, info.owner, 'small'),
          // the star says "story" to the eye; the words are there for a screen reader
          story ? h('span', { class: 'as-sr' }, `${t('association.story')}: `) : null,
          h('span', { class: 'as-owner-name' }, player(app, info.owner).name)) : null);
      P.cards.set(id, { el, badge, i, pick });
      return el;
    });
    // the audience holds no cards: nothing to say about them (the shell says where it stands)
    put(P.strip, kids.length ? kids : me(view) ? h('p', { class: 'hint as-p-empty' }, t('association.no_cards')) : []);
    P.strip.classList.toggle('single', kids.length === 1);
    P.strip.classList.toggle('aud', mode === 'table' && !me(view));   // the audience: a grid
    P.strip.classList.toggle('mode-reveal', mode === 'reveal');
    if (keep) P.strip.scrollLeft = left;
    else P.strip.scrollLeft = 0;
    if (L && !keep) {          // the reveal opens on the storyteller's card
      const c = P.cards.get(L.story_card);
      if (c) requestAnimationFrame(() => { P.strip.scrollLeft = c.el.offsetLeft - (P.strip.clientWidth - c.el.offsetWidth) / 2; });
    }
  }
  const you = me(view);
  const pick = mode === 'table' && !you ? audPick(app, g) : null;
  for (const [id, c] of P.cards) {
    const can = pickable.has(id);
    const own = mode === 'table' && id === g.mine;
    const voted = mode === 'table' && (id === g.my_vote || (pick != null && id === pick));
    c.el.classList.toggle('can', can);
    c.el.classList.toggle('sel', id === P.selected);
    c.el.classList.toggle('own', own);
    c.el.classList.toggle('voted', voted);
    c.el.classList.toggle('story', mode === 'reveal' && g.last && id === g.last.story_card);
    c.el.classList.toggle('mine-r', mode === 'reveal' && g.last && g.last.cards[c.i].owner === you);
    c.pick.setAttribute('aria-pressed', id === P.selected ? 'true' : 'false');
    c.badge.textContent = own ? t('association.yours') : voted ? '✓' : id === P.selected ? t('association.chosen') : '';
    c.badge.hidden = !c.badge.textContent;
    // the name says the number and what the card shows in words (the badge's text included)
    // joined by a comma (a pause when read; axe's Label in Name check reads past it, not a "·")
    c.pick.setAttribute('aria-label', [t('association.card_n', { n: c.i + 1 }), voted ? t('association.your_vote') : c.badge.textContent]
      .filter(Boolean).join(', '));
  }
  P.strip.classList.toggle('live', pickable.size > 0);
  P.hint.textContent = P.cards.size > 1 && !P.strip.classList.contains('aud') ? t('association.swipe') : '';
}

function tapCard(id, from) {
  const view = P.app.view;
  if (!view || !view.game) return;
  const aud = acts(view, P.app).find((a) => a.type === AUD_VOTE && a.card === id);
  if (aud) {                      // the audience: a tap votes (again: changes the vote)
    if (audPick(P.app, view.game) === id) { openZoom(id, from); return; }
    P.pending = id;
    P.picks.set(view.game.turn, id);
    P.app.act(aud);
    P.app.vibrate(30);
    rerender();
    return;
  }
  const can = acts(view, P.app).some((a) => a.card === id);
  if (can && P.sent !== P.stage) {
    if (P.selected === id) { openZoom(id, from); return; }
    P.selected = id;
    rerender();
    const c = P.cards.get(id);
    if (c && c.el.scrollIntoView) c.el.scrollIntoView({ behavior: 'smooth', inline: 'center', block: 'nearest' });
    return;
  }
  openZoom(id, from);
}

function openZoom(id, from) {
  const app = P.app;
  const view = app.view;
  const { h, t } = app;
  const aud = acts(view, app).find((a) => a.type === AUD_VOTE && a.card === id);
  const can = !aud && acts(view, app).some((a) => a.card === id) && P.sent !== P.stage;
  P.zoom = id;
  const n = P.cards.has(id) ? P.cards.get(id).i + 1 : null;
  put(P.zoomBox,
    h('h2', { class: 'as-zoom-title', id: 'as-zoom-title' }, n != null && shown(view.game).mode !== 'hand'
      ? t('association.card_n', { n }) : t('association.zoom')),
    h('div', { class: 'as-zoom-card pop' }, h('div', { class: 'as-card' }, face(app, view.game, id))),
    h('div', { class: 'as-zoom-btns' },
      can ? h('button', { class: 'btn primary big', type: 'button', onclick: () => { P.selected = id; closeZoom(); rerender(); } }, t('association.choose')) : null,
      aud && audPick(app, view.game) !== id ? h('button', { class: 'btn primary big', type: 'button', onclick: () => { closeZoom(); tapCard(id, null); } }, t('association.aud_vote_this')) : null,
      h('button', { class: 'btn big ghost', type: 'button', onclick: () => closeZoom() }, t('association.close'))));
  P.zoomBox.hidden = false;
  P.zoomFrom = from || null;
  const first = P.zoomBox.querySelector('button');
  if (first) first.focus();
}

function closeZoom() {
  const was = P.zoom;
  P.zoom = null;
  if (P.zoomBox) { P.zoomBox.hidden = true; P.zoomBox.replaceChildren(); }
  // focus goes back where it came from (if that control is still on the page)
  if (was != null && P.zoomFrom && P.zoomFrom.isConnected) P.zoomFrom.focus();
  P.zoomFrom = null;
}

/** The zoom is modal: Escape closes it and Tab cycles through its own buttons. */
function zoomKeys(e) {
  if (e.key === 'Escape') { e.preventDefault(); closeZoom(); return; }
  if (e.key !== 'Tab') return;
  const btns = [...P.zoomBox.querySelectorAll('button')];
  if (!btns.length) return;
  const i = btns.indexOf(document.activeElement);
  const next = e.shiftKey ? (i <= 0 ? btns.length - 1 : i - 1) : (i + 1) % btns.length;
  e.preventDefault();
  btns[next].focus();
}

// ---- the action panel -------------------------------------------------------------------------
function drawPanel(app, view, g, all, own) {
  const { h, t } = app;
  const type = own.length ? own[0].type : all.some((a) => a.type === 'next') ? 'next' : null;
  if (type === AUD_VOTE) { P.panelKey = null; put(P.panel); return; }   // a tap on a card votes
  const sent = P.sent === P.stage;
  const key = `${P.stage}:${type}:${sent}:${g.mine || ''}:${g.my_vote || ''}`;
  if (key !== P.panelKey) {
    P.panelKey = key;
    const parts = [];
    if (type === 'tell') {
      P.input.placeholder = t('association.clue_placeholder');
      P.tellBtn = h('button', { class: 'btn primary big as-p-tell', type: 'button', onclick: () => tell(false) }, t('association.tell'));
      P.aloudBtn = h('button', { class: 'btn big as-p-aloud', type: 'button', onclick: () => tell(true) }, '🗣 ', t('association.aloud'));
      parts.push(h('div', { class: 'as-p-form' }, P.input, h('div', { class: 'as-p-row' }, P.aloudBtn, P.tellBtn)));
    } else if (type === 'submit' || type === 'vote') {
      P.goBtn = h('button', { class: 'btn primary big as-p-go', type: 'button', onclick: () => go(type) });
      parts.push(P.goBtn);
    } else if (g.phase === 'reveal' && g.last) {
      parts.push(revealSummary(app, view, g));
      const next = all.find((a) => a.type === 'next');
      if (next) {
        parts.push(h('button', { class: 'btn primary big as-p-next', type: 'button', disabled: sent,
          onclick: () => { P.sent = P.stage; app.act(next); rerender(); } }, t('association.next'), ' →'));
      }
    } else if (g.mine && (g.phase === 'submit' || g.phase === 'vote')) {
      parts.push(h('div', { class: 'as-p-mine' },
        h('div', { class: 'as-p-mini' }, face(app, g, g.mine)),
        h('span', null, g.mine && view.you.id === g.storyteller ? t('association.your_story') : t('association.submitted'))));
    }
    put(P.panel, parts);
  }
  updateButtons();
}

function updateButtons() {
  const { t } = P.app;
  const sent = P.sent === P.stage;
  if (P.tellBtn && P.tellBtn.isConnected) {
    P.tellBtn.disabled = !P.selected || !P.input.value.trim() || sent;
    P.aloudBtn.disabled = !P.selected || sent;
  }
  if (P.goBtn && P.goBtn.isConnected) {
    const type = P.panelKey.split(':')[2];
    const c = P.selected && P.cards.get(P.selected);
    P.goBtn.disabled = !P.selected || sent;
    P.goBtn.textContent = !P.selected ? t('association.pick_first')
      : type === 'vote' ? t('association.vote_for', { n: c ? c.i + 1 : '?' }) : t('association.submit');
  }
}

function tell(aloud) {
  const app = P.app;
  const a = acts(app.view, app).find((x) => x.type === 'tell' && x.card === P.selected);
  const clue = aloud ? '' : P.input.value.replace(/\s+/g, ' ').trim();
  if (!a || (!aloud && !clue) || P.sent === P.stage) return;
  P.sent = P.stage;
  app.act({ ...a, clue });
  P.input.blur();
  rerender();
}

function go(type) {
  const app = P.app;
  const a = acts(app.view, app).find((x) => x.type === type && x.card === P.selected);
  if (!a || P.sent === P.stage) return;
  P.sent = P.stage;
  app.act(a);
  app.vibrate(30);
  rerender();
}

function rerender() {
  if (P.app && P.root && P.app.view && P.app.view.game) render(P.root, P.app.view, P.app);
}

export { results } from './recap.js';   // the results screen's recap
