// Association on the TV: the storyteller and the clue, who has put a card down (avatars, never
// cards), the face-up numbered table and the voting progress, then the reveal: voter chips fly
// from the scoreboard onto the cards, owners and the story card show, the points pop in.
// The audience (issue 22): "N in the audience voted" while it votes (the live tally: a count,
// never per card), its pick badged at the reveal, "the audience: 3 of 7 found it".
// The scoreboard along the foot is scores.js.
import { put, face, back, player, avatar, tagStyle, crowdBadge } from './board.js';

export { ready } from './board.js';
import { drawScores } from './scores.js';

let K = null;   // the screen's persistent parts
let shell = null;     // the app the TV renders for (the tally hook draws with it)

/** A tally frame comes between views: the audience line follows it. */
function onCrowd() {
  if (K && shell && shell.view && shell.view.game) drawCrowd(shell, shell.view.game);
}

const FLY_START = 350;     // ms after the reveal starts: the first voter chip takes off
const FLY_STEP = 260;      // between two chips

export function render(root, view, app) {
  shell = app;
  if (app.onAudience) app.onAudience(onCrowd);   // once per game module (the shell dedupes)
  const g = view.game;
  if (!g) return;
  if (!K || K.root !== root || !root.contains(K.box)) build(root, app);
  const { h, t } = app;

  // ---- sounds on what changed ---------------------------------------------------------
  const stage = `${g.turn}:${g.phase}`;
  if (K.stage && K.stage !== stage) {
    if (g.phase === 'tell' || g.phase === 'vote') app.sound('turn');
  }
  const progress = g.players.filter((p) => p.played).length + g.players.filter((p) => p.voted).length;
  if (K.stage === stage && progress > K.count) app.sound('tick');
  K.stage = stage;
  K.count = progress;

  // ---- the side: turn, storyteller, clue, progress ---------------------------------------
  const teller = g.storyteller || (g.last && g.last.storyteller);
  const tp = player(app, teller);
  put(K.head,
    h('span', { class: 'as-turn' }, t('association.turn', { n: g.turn })),
    h('span', { class: 'as-deck' }, t('association.deck', { n: g.deck_count })),
    g.target_score ? h('span', { class: 'as-target' }, t('association.target', { n: g.target_score })) : null);
  put(K.teller,
    avatar(app, teller, 'big'),
    h('div', { class: 'as-teller-txt' },
      h('span', { class: 'as-label' }, t('association.storyteller')),
      h('span', { class: 'as-teller-name' }, tp.name)));
  K.teller.style.setProperty('--pc', tp.color);
  drawClue(app, g, tp);

  // ---- the table (rebuilt only when what it shows changes) --------------------------------
  const key = tableKey(g);
  if (key !== K.tableKey) {
    const prev = K.tableKey;
    K.tableKey = key;
    drawTable(app, g, prev);
  }
  drawProgress(app, g);
  drawCrowd(app, g);
  drawScores(K, app, g);
  fitClue();
}

/** The clue is the largest text on the TV and never cut (issue 27): it spans the table's
 * width above the cards, from its largest size down, 2 px a step, until the whole clue fits in
 * its share of the screen's height (CLUE_SHARE); never below CLUE_FLOOR times the storyteller's
 * name, the largest other text. The cards then take what is left (fit). */
const CLUE_SHARE = 0.27;
const CLUE_FLOOR = 1.15;
function fitClue() {
  const el = K.clue.querySelector('.as-clue-text');
  if (!K.clue.hidden && el) {
    el.style.fontSize = '';
    const name = K.teller.querySelector('.as-teller-name');
    const floor = Math.ceil((name ? parseFloat(getComputedStyle(name).fontSize) : 30) * CLUE_FLOOR);
    const room = window.innerHeight * CLUE_SHARE;
    let px = parseFloat(getComputedStyle(el).fontSize);
    while (K.clue.scrollHeight > room && px - 2 >= floor) {
      px -= 2;
      el.style.fontSize = `${px}px`;
    }
  }
  fit();
}

function build(root, app) {
  const h = app.h;
  const head = h('div', { class: 'as-head' });
  const teller = h('div', { class: 'as-teller' });
  const clue = h('div', { class: 'as-clue' });
  const progress = h('div', { class: 'as-progress' });
  const crowd = h('div', { class: 'as-crowd', hidden: true, role: 'status' });
  const table = h('div', { class: 'as-table' });
  const scores = h('div', { class: 'as-scores' });
  const credits = h('div', { class: 'as-credits' });
  const box = h('div', { class: 'as-tv' },
    h('aside', { class: 'as-side' }, head, teller, progress, crowd),
    h('section', { class: 'as-tablebox' }, clue, table),
    h('footer', { class: 'as-foot' }, scores, credits));
  root.replaceChildren(box);
  K = { root, box, head, teller, clue, progress, crowd, table, scores, credits, pills: new Map(),
    tableKey: null, stage: null, count: 0, hold: 0, holdTurn: null, timers: [], backs: 0 };
  credits.textContent = app.t('association.credits');

  // the table's size or the type's (the TV's stylesheet scales it) changed: fit again
  const again = () => { if (K && K.box === box) fitClue(); };
  if (window.ResizeObserver) {
    const ro = new ResizeObserver(again);
    ro.observe(box.querySelector('.as-tablebox'));
    ro.observe(teller);
  } else window.addEventListener('resize', again);
}

function later(fn, ms) {
  K.timers.push(setTimeout(fn, ms));
}

function tableKey(g) {
  if (g.phase === 'tell') return `tell:${g.turn}:${g.storyteller}`;
  if (g.phase === 'submit') return `submit:${g.turn}:${g.table_count}`;
  if (g.phase === 'vote') return `vote:${g.turn}:${g.table.join(',')}`;
  if (g.phase === 'reveal') return `reveal:${g.turn}:${g.last ? g.last.turn : ''}`;
  return `other:${g.phase}`;
}

// ---- the clue -------------------------------------------------------------------------------
function drawClue(app, g, tp) {
  const { h, t } = app;
  if (g.phase === 'tell' || g.clue == null) {
    K.clue.hidden = true;
    K.clueText = null;
    return;
  }
  K.clue.hidden = false;
  const text = g.clue;
  if (K.clueText === text) return;
  const first = K.clueText == null;
  K.clueText = text;
  put(K.clue,
    h('span', { class: 'as-label' }, t('association.clue')),
    text ? h('span', { class: 'as-clue-text', lang: '' }, text)
      : h('span', { class: 'as-clue-text spoken' }, '🗣 ', t('association.spoken')),
    text ? null : h('span', { class: 'as-clue-sub' }, t('association.spoken_hint', { name: tp.name })),
    text ? app.hideButton({ text }) : null);
  if (first) { K.clue.classList.remove('pop'); void K.clue.offsetWidth; K.clue.classList.add('pop'); }
}

// ---- who has submitted / voted --------------------------------------------------------------
function drawProgress(app, g) {
  const { h, t } = app;
  const others = g.players.filter((p) => p.id !== g.storyteller);
  if (g.phase === 'submit') {
    const down = g.table_count;
    put(K.progress,
      h('div', { class: 'as-prog-title' }, t('association.cards_down', { n: down })),
      h('div', { class: ['as-prog-avs', others.length > 5 && 'many'] }, others.map((p) => progressAv(app, p, p.played, p.sitting_out))));
  } else if (g.phase === 'vote') {
    const voters = others.filter((p) => !p.sitting_out || true);
    const done = voters.filter((p) => p.voted).length;
    put(K.progress,
      h('div', { class: 'as-prog-title' }, t('association.votes_in', { n: done, all: voters.length })),
      h('div', { class: ['as-prog-avs', voters.length > 5 && 'many'] }, voters.map((p) => progressAv(app, p, p.voted, false))));
  } else if (g.phase === 'reveal' && g.last) {
    const key = `case:${g.last.turn}`;
    if (K.progressKey === key) return;
    K.progressKey = key;
    const caseBox = h('div', { class: ['as-case', `case-${g.last.case}`] }, t(`association.case.${g.last.case}`));
    put(K.progress, caseBox, h('div', { class: 'as-next-hint' }, t('association.next_hint')));
    caseBox.style.visibility = 'hidden';
    later(() => { caseBox.style.visibility = ''; caseBox.classList.add('pop'); }, revealTime(g.last) + 500);
    return;
  } else {
    put(K.progress);
  }
  K.progressKey = null;
}

// ---- the audience ------------------------------------------------------------------------------
/** The side's audience line: while it votes, how many have (the tally of this turn's ballot);
 * at the reveal, once the owners show, how many of them found the storyteller's card. */
function drawCrowd(app, g) {
  const { h, t } = app;
  const on = !(app.view && app.view.room && app.view.room.audience_play === false);
  let text = null;
  let anon = 0;     // anonymous voters: a count apart, never in a card's votes (issue 31)
  if (on && g.phase === 'vote') {
    const tally = (app.audience || {}).tally;
    const ours = tally && tally.ballot === `t${g.turn}`;
    const n = ours ? (tally.summary && tally.summary.voted != null ? tally.summary.voted : tally.voters) : 0;
    anon = ours ? tally.anonymous || 0 : 0;
    if (n > 0) text = t('association.aud_tv_voted', { n });
  } else if (g.phase === 'reveal' && g.last && g.last.audience) {
    if (g.last.audience.voters > 0) text = t('association.aud_found', { found: g.last.audience.found, n: g.last.audience.voters });
    anon = g.last.audience.anonymous || 0;
  }
  const extra = anon > 0 ? t('audience.anonymous', { n: anon }) : null;
  const shown = !!(text || extra);
  const key = `${g.phase}:${g.turn}:${text}:${extra}`;
  if (key === K.crowdKey) return;
  const fresh = g.phase === 'reveal' && !String(K.crowdKey || '').startsWith(`reveal:${g.turn}:`);
  K.crowdKey = key;
  put(K.crowd, shown ? [h('span', { class: 'as-crowd-icon', 'aria-hidden': 'true' }, '👥'),
    h('span', null, text, extra ? h('span', { class: 'aud-anon' }, extra) : null)] : null);
  K.crowd.classList.remove('pop');
  K.crowd.hidden = !shown || fresh;
  fitClue();      // the clue's box gives the line its room
  // at the reveal the line comes with the owners' tags, not before
  if (shown && fresh) later(() => { K.crowd.hidden = false; K.crowd.classList.add('pop'); fitClue(); }, revealTime(g.last) + 700);
}

function progressAv(app, p, done, out) {
  const pl = player(app, p.id);
  const seen = K.done || (K.done = new Set());
  const key = `${K.stage}:${p.id}`;
  const fresh = done && !seen.has(key);
  if (done) seen.add(key);
  return app.h('div', { class: ['as-prog-p', done && 'done', out && 'out', fresh && 'fresh', !pl.connected && !pl.standin && 'away'] },
    avatar(app, p.id),
    app.standin(app.h('span', { class: 'as-prog-name' }, pl.name), pl),
    out ? app.h('span', { class: 'as-prog-out' }, app.t('association.sat_out')) : null);
}

// ---- the table -----------------------------------------------------------------------------------
function clearTimers() {
  for (const x of K.timers) clearTimeout(x);
  K.timers = [];
}

function drawTable(app, g, prev) {
  const { h, t } = app;
  clearTimers();
  if (g.phase === 'tell') {
    const tp = player(app, g.storyteller);
    K.backs = 0;
    K.table.className = 'as-table as-waiting';
    put(K.table, h('div', { class: 'as-tell', style: { '--pc': tp.color } },
      h('div', { class: 'as-tell-av' }, avatar(app, g.storyteller, 'huge')),
      h('div', { class: 'as-tell-title' }, t('association.tv_tell', { name: tp.name })),
      h('div', { class: 'as-tell-hint' }, t('association.tv_tell_hint'))));
    return;
  }
  if (g.phase === 'submit') {
    const expected = g.players.filter((p) => p.played || (!p.sitting_out && p.cards > 0)).length;
    const n = Math.max(expected, g.table_count);
    const slots = [];
    for (let i = 0; i < n; i += 1) {
      if (i < g.table_count) slots.push(h('div', { class: ['as-slot', 'down', i >= K.backs && 'drop'] }, back(app)));
      else slots.push(h('div', { class: 'as-slot empty' }));
    }
    K.backs = g.table_count;
    K.table.className = 'as-table';
    put(K.table, h('div', { class: 'as-banner' }, t('association.tv_submit')), h('div', { class: 'as-cards' }, slots));
    fit(n);
    return;
  }
  K.backs = 0;
  if (g.phase === 'vote') {
    const flip = !String(prev || '').startsWith(`vote:${g.turn}:`);
    const cards = g.table.map((id, i) => h('div', { class: ['as-slot', 'up', flip && 'flipin'], style: { '--i': String(i) }, dataset: { card: id } },
      h('div', { class: 'as-card' }, face(app, g, id), h('span', { class: 'as-num' }, String(i + 1)))));
    K.table.className = 'as-table';
    put(K.table, h('div', { class: 'as-banner' }, t('association.tv_vote')), h('div', { class: 'as-cards' }, cards));
    if (flip) app.sound('reveal');
    fit(cards.length);
    return;
  }
  if (g.phase === 'reveal' && g.last) {
    drawReveal(app, g);
    return;
  }
  put(K.table);
}

function revealTime(last) {
  const votes = last.cards.reduce((n, c) => n + c.voters.length, 0);
  return FLY_START + votes * FLY_STEP + 500;
}

function drawReveal(app, g) {
  const { h, t } = app;
  const L = g.last;
  const owned = revealTime(L);
  const flights = [];
  let k = 0;
  const cards = L.cards.map((c, i) => {
    const op = player(app, c.owner);
    const story = c.card === L.story_card;
    const chips = c.voters.map((v) => {
      const el = avatar(app, v, 'voter');
      flights.push({ el, seat: v, delay: FLY_START + k * FLY_STEP });
      k += 1;
      return el;
    });
    return h('div', { class: ['as-slot', 'up', 'revealed', story && 'story'], style: { '--i': String(i), ...tagStyle(app, c.owner) }, dataset: { card: c.card } },
      h('div', { class: 'as-card' }, face(app, g, c.card), h('span', { class: 'as-num' }, String(i + 1)),
        story ? h('span', { class: 'as-star' }, '★') : null,
        crowdBadge(app, L, c.card),
        h('div', { class: 'as-voters' }, chips)),
      h('div', { class: 'as-owner' }, avatar(app, c.owner, 'small'),
        h('span', { class: 'as-owner-name' }, story ? `${t('association.story')} · ${op.name}` : op.name)));
  });
  K.table.className = 'as-table revealing';
  const grid = h('div', { class: 'as-cards' }, cards);
  put(K.table, h('div', { class: 'as-banner' }, t('association.tv_reveal')), grid);
  fit(cards.length);
  // the voter chips fly from their scoreboard pills onto the cards
  for (const f of flights) {
    const pill = K.pills.get(f.seat);
    f.el.style.opacity = '0';
    later(() => {
      f.el.style.opacity = '';
      if (!pill || !f.el.animate) return;
      const a = pill.el.getBoundingClientRect();
      const b = f.el.getBoundingClientRect();
      const dx = a.left + a.width / 2 - (b.left + b.width / 2);
      const dy = a.top + a.height / 2 - (b.top + b.height / 2);
      f.el.animate([
        { transform: `translate(${dx}px, ${dy}px) scale(1.6)`, opacity: 0.4 },
        { transform: 'translate(0, 0) scale(1.25)', opacity: 1, offset: 0.85 },
        { transform: 'none', opacity: 1 },
      ], { duration: 650, easing: 'cubic-bezier(.3,.7,.4,1)' });
    }, f.delay);
  }
  later(() => { grid.classList.add('owned'); app.sound('reveal'); }, owned);
  // the scoreboard holds the old scores until the gains pop in
  K.hold = Date.now() + owned + 900;
  K.holdTurn = L.turn;
  later(() => { K.hold = 0; drawScores(K, app, app.view.game, true); }, owned + 900);
}

/** Card width from the room the table has: the layout with the biggest cards wins. */
function fit(n) {
  if (n != null) K.n = n;
  n = K.n || 1;
  const box = K.table.getBoundingClientRect();
  const banner = K.table.querySelector('.as-banner');
  const W = box.width;
  const H = box.height - (banner ? banner.offsetHeight + 14 : 0);
  const gap = 18;
  // the owner tag under a card at the reveal (its type grows with the card: measured below)
  const extra = K.table.classList.contains('revealing') ? 56 : 0;
  let best = 0;
  let bestCols = n;
  for (let rows = 1; rows <= n; rows += 1) {
    const cols = Math.ceil(n / rows);
    const w = Math.min((W - (cols - 1) * gap) / cols, ((H - (rows - 1) * gap) / rows - extra) * 2 / 3);
    if (w > best) { best = w; bestCols = cols; }
  }
  K.table.style.setProperty('--cols', String(bestCols));
  // what the table really takes (tags, the story card's glow): step down until it fits
  let cw = Math.max(40, Math.floor(best));
  const bottom = () => Math.max(...[...K.table.querySelectorAll('.as-slot')].map((el) => el.getBoundingClientRect().bottom));
  for (let i = 0; i < 12; i += 1) {
    K.table.style.setProperty('--cw', `${cw}px`);
    if (cw <= 40 || !K.table.querySelector('.as-slot') || bottom() <= box.bottom) break;
    cw = Math.floor(cw * 0.95);
  }
}

export { results } from './recap.js';   // the results screen's recap
