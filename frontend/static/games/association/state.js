// Association on the phone: the state its modules share (phone.js, status.js), and who the
// phone is: a player, or the audience with its pick.

export const P = {
  root: null, stage: null, selected: null, sent: null, zoom: null, stripKey: null,
  cards: new Map(), hadOwn: false, hadAny: false, input: null, panelKey: null,
  pending: null, picks: new Map(),   // the audience: a vote on its way, turn -> card
};

export const AUD_VOTE = 'audience_vote';

/** Your player id, or null on an audience phone. */
export function me(view) {
  return view.you.role === 'player' ? view.you.id : null;
}

/** The audience's own pick in this turn's open ballot (app.audience.mine), else the vote on
 * its way; remembered per turn so the reveal can say whether it found the story card. */
export function audPick(app, g) {
  const mine = (app.audience || {}).mine;
  const card = mine && mine.ballot === `t${g.turn}` && mine.votes ? mine.votes.card : null;
  if (card) P.picks.set(g.turn, card);
  if (P.picks.size > 4) P.picks.delete(P.picks.keys().next().value);
  return P.pending || card || P.picks.get(g.turn) || null;
}
