// Sketch on a phone, guessing rounds: the others' boards with a guess field each (a tap
// zooms one), and the guesses on your own boards, which you answer close or far.
import { paint, paintIfChanged, boardCanvas } from './board.js';
import { S, head } from './state.js';

export function renderGuessing(root, view, app) {
  const g = view.game;
  const me = g.you;
  const h = app.h;
  if (!root._parts) {
    const asked = h('div', { class: 'sk-asked' });
    const grid = h('div', { class: 'sk-gboards' });
    root.append(head(app, g), asked, h('p', { class: 'sk-tip hint' }, app.t('sketch.tap_zoom')), grid);
    root._parts = { asked, grid };
  }
  renderAsked(root._parts.asked, view, app);
  const guessable = new Set(app.gameActions(view).filter((a) => a.type === 'guess').map((a) => `${a.player}:${a.board}`));
  const shown = g.boards.filter((b) => b.player !== app.you.id && b.strokes);
  const gridKey = shown.map((b) => `${b.player}:${b.board}`).join(',');
  const grid = root._parts.grid;
  if (S.gridKey !== gridKey) {
    S.gridKey = gridKey;
    S.guessTiles.clear();
    const groups = [];
    let cur = null;
    for (const b of shown) {
      if (!cur || cur.player !== b.player) { cur = { player: b.player, boards: [] }; groups.push(cur); }
      cur.boards.push(b);
    }
    grid.replaceChildren(...(groups.length ? groups.map((grp) => {
      const p = app.players.get(grp.player);
      return h('section', { class: 'sk-group', style: { '--pc': p ? p.color : '#888' } },
        h('h3', null, h('span', { class: 'chip', style: { '--pc': p ? p.color : '#888' } }, p ? p.symbol : ''), app.name(grp.player)),
        h('div', { class: 'sk-gtiles' }, grp.boards.map((b) => guessTile(app, b))));
    }) : [h('p', { class: 'sk-wait' }, app.t('sketch.nothing'))]));
  }
  for (const b of shown) updateTile(app, b, me, guessable.has(`${b.player}:${b.board}`));
  if (S.zoom) updateZoom(app);
}

function guessTile(app, b) {
  const h = app.h;
  const key = `${b.player}:${b.board}`;
  const canvas = boardCanvas(h, 'sk-gcanvas');
  const input = h('input', { type: 'text', maxlength: 80, autocomplete: 'off', autocapitalize: 'off',
    enterkeyhint: 'send', placeholder: app.t('sketch.placeholder'), 'aria-label': app.t('sketch.placeholder') });
  const submit = (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    app.act({ type: 'guess', player: b.player, board: b.board, text });
    input.value = '';
  };
  const form = h('form', { class: 'sk-gform', onsubmit: submit }, input,
    h('button', { class: 'btn primary sk-send', type: 'submit', 'aria-label': app.t('sketch.send') }, '➤'));
  const status = h('div', { class: 'sk-gstatus' });
  const mine = h('ul', { class: 'sk-mine' });
  const tile = h('div', { class: 'sk-gtile' },
    h('button', { class: 'sk-zoomable', 'aria-label': app.t('sketch.board', { n: b.board + 1 }), onclick: () => openZoom(app, b) }, canvas),
    status, form, mine);
  S.guessTiles.set(key, { tile, canvas, input, form, status, mine, board: b });
  return tile;
}

function myGuesses(me, b) {
  return me.guesses.filter((x) => x.owner === b.player && x.board === b.board);
}

function guessLine(app, x) {
  const v = x.correct ? app.t('sketch.got_it') : x.feedback === 'close' ? app.t('sketch.said_close')
    : x.feedback === 'far' ? app.t('sketch.said_far') : app.t('sketch.waiting');
  return app.h('li', { class: ['sk-g', x.correct ? 'ok' : x.feedback || 'open'] },
    app.h('span', { class: 'sk-gtext' }, x.text), app.h('span', { class: 'sk-gfb' }, v));
}

function updateTile(app, b, me, open) {
  const parts = S.guessTiles.get(`${b.player}:${b.board}`);
  if (!parts) return;
  parts.board = b;
  requestAnimationFrame(() => paintIfChanged(parts.canvas, b.strokes));
  const won = me.won.find((w) => w.player === b.player && w.board === b.board);
  const by = b.won_by || [];   // left out while nobody has won the board
  // your wrong guesses left on it this round (issue 31): listed once you have used one
  const used = (me.left || []).find((x) => x.player === b.player && x.board === b.board);
  const left = used ? used.left : null;
  const key = JSON.stringify([by, open, !!won, left, app.lang]);
  if (parts._key !== key) {
    parts._key = key;
    parts.tile.classList.toggle('won', by.length > 0);
    parts.tile.classList.toggle('mine', !!won);
    parts.form.hidden = !open;
    parts.status.replaceChildren(...(by.length ? [
      won ? app.h('b', { class: 'sk-gotword reveal' }, won.word) : app.h('span', null, app.t('sketch.taken')),
      app.h('span', { class: 'sk-by' }, by.map((id) => {
        const p = app.players.get(id);
        return app.h('span', { class: 'chip', style: { '--pc': p ? p.color : '#888' } }, p ? p.symbol : '');
      }))] : left == null ? [] : [app.h('span', { class: ['sk-left', left ? '' : 'none'] },
      left ? app.t('sketch.guesses_left', { n: left }) : app.t('sketch.none_left'))]));
  }
  const list = myGuesses(me, b).slice(-3);
  const mk = JSON.stringify(list);
  if (parts.mine._key !== mk) {
    parts.mine._key = mk;
    parts.mine.replaceChildren(...list.map((x) => guessLine(app, x)));
  }
}

function renderAsked(box, view, app) {
  const g = view.game;
  const fb = app.gameActions(view).filter((a) => a.type === 'feedback');
  const open = new Set(fb.map((a) => a.guess));
  const rows = g.you.asked.slice(-8).reverse();   // this round's, on your boards
  rows.sort((a, b) => (open.has(b.id) ? 1 : 0) - (open.has(a.id) ? 1 : 0));
  const key = JSON.stringify([rows, [...open]]);
  if (box._key === key) return;
  box._key = key;
  if (!rows.length) { box.replaceChildren(); box.hidden = true; return; }
  box.hidden = false;
  const h = app.h;
  box.replaceChildren(h('h3', null, app.t('sketch.on_yours')), h('ul', null, rows.map((x) => {
    const p = app.players.get(x.player);
    const word = g.you.boards[x.board] ? g.you.boards[x.board].word : '';
    return h('li', { class: ['sk-ask', open.has(x.id) && 'open', x.correct && 'ok', 'pop'] },
      h('span', { class: 'chip', style: { '--pc': p ? p.color : '#888' } }, p ? p.symbol : ''),
      h('span', { class: 'sk-asktext' }, h('b', null, x.text), h('small', null, `${app.t('sketch.board', { n: x.board + 1 })} · ${word}`)),
      open.has(x.id) ? h('span', { class: 'sk-fb' },
        h('button', { class: 'btn sk-close', onclick: () => app.act({ type: 'feedback', guess: x.id, value: 'close' }) }, app.t('sketch.close')),
        h('button', { class: 'btn sk-far', onclick: () => app.act({ type: 'feedback', guess: x.id, value: 'far' }) }, app.t('sketch.far')))
        : h('span', { class: 'sk-gfb' }, x.correct ? '✓' : x.feedback ? app.t(`sketch.said_${x.feedback}`) : ''));
  })));
}
// A board tapped opens large in a dialog, with its guess field and your guesses moved into it.

function openZoom(app, b) {
  closeZoom();
  const h = app.h;
  const opener = document.activeElement;
  const canvas = boardCanvas(h, 'sk-zcanvas');
  const parts = S.guessTiles.get(`${b.player}:${b.board}`);
  const p = app.players.get(b.player);
  const title = h('b', { id: 'sk-zoom-title' }, `${app.name(b.player)} · ${app.t('sketch.board', { n: b.board + 1 })}`);
  const close = h('button', { class: 'btn ghost sk-zclose', 'aria-label': app.t('sketch.cancel'), onclick: closeZoom }, '✕');
  const box = h('div', { class: 'sk-zoom pop', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'sk-zoom-title', tabindex: '-1' },
    h('div', { class: 'sk-zhead', style: { '--pc': p ? p.color : '#888' } },
      h('span', { class: 'chip', 'aria-hidden': 'true', style: { '--pc': p ? p.color : '#888' } }, p ? p.symbol : ''), title, close),
    canvas);
  const slot = h('div', { class: 'sk-zslot' });
  box.append(slot);
  if (parts) slot.append(parts.status, parts.form, parts.mine);
  const shade = h('div', { class: 'sk-shade', onclick: (e) => { if (e.target === shade) closeZoom(); } }, box);
  shade.addEventListener('keydown', (e) => trapKeys(e, box));
  document.body.append(shade);
  S.zoom = { shade, canvas, key: `${b.player}:${b.board}`, parts, opener };
  close.focus();
  requestAnimationFrame(() => paint(canvas, b.strokes));
}

/** Keeps the keyboard in the open dialog: Escape closes it, Tab cycles inside it. */
function trapKeys(e, box) {
  if (e.key === 'Escape') { e.preventDefault(); closeZoom(); return; }
  if (e.key !== 'Tab') return;
  const items = [...box.querySelectorAll('button, input, [tabindex="0"]')].filter((el) => !el.closest('[hidden]') && !el.disabled);
  if (!items.length) return;
  const first = items[0]; const last = items[items.length - 1];
  if (e.shiftKey && (document.activeElement === first || !box.contains(document.activeElement))) { e.preventDefault(); last.focus(); }
  else if (!e.shiftKey && (document.activeElement === last || !box.contains(document.activeElement))) { e.preventDefault(); first.focus(); }
}

function updateZoom() {
  const z = S.zoom;
  if (!z || !z.parts) return;
  requestAnimationFrame(() => paintIfChanged(z.canvas, z.parts.board.strokes));
}

export function closeZoom() {
  const z = S.zoom;
  if (!z) return;
  S.zoom = null;
  if (z.parts) z.parts.tile.append(z.parts.status, z.parts.form, z.parts.mine);
  z.shade.remove();
  if (z.opener && z.opener.isConnected && typeof z.opener.focus === 'function') z.opener.focus();
}
