// Association on the phone: what it says. The status line at the top (whose move, what you
// did, how the audience voted), your reveal's summary, and the live region's lines.
import { put, player, avatar } from './board.js';
import { P, AUD_VOTE, me, audPick } from './state.js';

/** The status line: the clue, then what this phone is to do or waits for. */
export function drawStatus(app, view, g, own) {
  const { h, t } = app;
  const you = me(view);
  const tp = player(app, g.storyteller || (g.last && g.last.storyteller));
  const mine = own.length > 0;
  const others = g.players.filter((p) => p.id !== g.storyteller);
  const waitingSubmit = others.filter((p) => !p.played && !p.sitting_out && p.cards > 0).length;
  const voted = others.filter((p) => p.voted).length;
  let title;
  let sub = null;
  const isTeller = you && you === g.storyteller;
  const crowd = !you && own.some((a) => a.type === AUD_VOTE);
  const picked = crowd && audPick(app, g);
  if (crowd) {                       // the audience votes along
    const n = picked ? g.table.indexOf(picked) + 1 : 0;
    title = n ? t('association.aud_voted', { n }) : t('association.aud_vote');
    sub = n ? t('association.aud_change_hint') : t('association.aud_vote_hint');
  } else if (!you && g.phase === 'reveal' && g.last) {
    title = t(`association.case.${g.last.case}`);
    const pick = P.picks.get(g.last.turn);
    if (pick) sub = pick === g.last.story_card ? t('association.you_found') : t('association.you_missed');
  } else if (!you || !('hand' in g)) {
    title = t('association.watching');
  } else if (g.phase === 'tell') {
    title = isTeller ? t('association.you_tell') : t('association.wait_tell', { name: tp.name });
    sub = isTeller ? t('association.you_tell_hint') : t('association.wait_tell_hint');
  } else if (g.phase === 'submit') {
    if (isTeller) { title = t('association.they_submit'); sub = t('association.wait_more', { n: waitingSubmit }); }
    else if (g.sitting_out) title = t('association.sitting_out');
    else if (mine) title = t('association.you_submit');
    else if (g.mine) { title = t('association.submitted'); sub = t('association.wait_more', { n: waitingSubmit }); }
    else title = t('association.no_cards');
  } else if (g.phase === 'vote') {
    if (isTeller) title = t('association.they_vote');
    else if (mine) title = t('association.you_vote');
    else title = t('association.voted');
    if (!mine) sub = t('association.votes_in', { n: voted, all: others.length });
  } else if (g.phase === 'reveal' && g.last) {
    title = t(`association.case.${g.last.case}`);
  }
  const clue = g.phase === 'tell' || g.clue == null ? null
    : h('div', { class: ['as-p-clue', !g.clue && 'spoken', g.clue && g.clue.length > 60 && 'long'] },
      avatar(app, g.storyteller || (g.last && g.last.storyteller), 'small'),
      h('span', null, g.clue ? `“${g.clue}”` : `🗣 ${t('association.spoken')}`));
  put(P.status,
    clue,
    h('div', { class: ['as-p-title', mine && !picked && 'mine'] }, title),
    sub ? h('div', { class: 'as-p-sub' }, sub) : null);
  P.status.classList.toggle('mine', mine && !picked);   // yellow: your move (the audience: until it voted)
}

/** Your reveal: [what you gained, then found it / missed, votes on your card], or null. */
function revealLines(app, view, g) {
  const t = app.t;
  const L = g.last;
  const you = me(view);
  if (!you || !L || !(you in L.gains)) return null;
  const gain = L.gains[you] || 0;
  const lines = [gain > 0 ? t('association.gained', { n: gain }) : t('association.no_gain')];
  if (you !== L.storyteller) {
    const vote = L.cards.find((c) => c.voters.includes(you));
    if (vote) lines.push(vote.card === L.story_card ? t('association.you_found') : t('association.you_missed'));
  }
  const mine = L.cards.find((c) => c.owner === you);
  const votes = mine && you !== L.storyteller ? mine.voters.length : 0;
  if (votes) lines.push(t('association.votes_on_yours', { n: votes }));
  return lines;
}

export function revealSummary(app, view, g) {
  const h = app.h;
  const lines = revealLines(app, view, g);
  if (!lines) return null;
  const good = (g.last.gains[me(view)] || 0) > 0;
  if (good && P.buzzed !== P.stage) { P.buzzed = P.stage; app.vibrate([40, 40, 120]); }
  return h('div', { class: ['as-p-result', good ? 'good' : 'none'] },
    h('div', { class: 'as-p-gain' }, lines[0]),
    lines.slice(1).map((l) => h('div', { class: 'as-p-line' }, l)));
}

/** The live region: your card is down, your vote is in, and at the reveal how it went. */
export function sayResult(app, view, g) {
  const t = app.t;
  const lines = g.phase === 'submit' && g.mine && me(view) !== g.storyteller ? [t('association.submitted')]
    : g.phase === 'vote' && g.my_vote ? [t('association.voted')]
      : g.phase === 'reveal' && g.last ? [t(`association.case.${g.last.case}`), ...(revealLines(app, view, g) || [])] : [];
  const key = `${P.stage}:${lines.length}`;
  if (lines.length && key !== P.said) app.say(lines);
  P.said = key;
}
