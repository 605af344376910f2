// The audience's live state on one page (docs/protocol.md, "The audience plays"): the latest
// `tally` (the TV's) and `mine` (a voter's own) of the open ballot. No DOM: app.js feeds it
// frames and views, game modules read `state` as app.audience.
//
// - A frame of another ballot starts that ballot anew (tally and mine both dropped); a late
//   frame of a ballot already left behind in this game is ignored.
// - Tallies of one ballot: the highest `seq` wins; the first tally on a new socket is taken
//   whatever its seq (a server restarted with its tallies in memory counts anew).
// - A view of another game (`room.game_no`) or of the lobby clears everything.
// - A phone whose audience actions go from some to none while the game runs unpaused with the
//   audience on has seen its ballot close: its `mine` goes (the next ballot may use the same
//   keys: jinx's slots). A view that names the open ballot (`room.audience_ballot`: no server
//   sends it yet) drops a `mine` of another ballot at once, back-to-back ballots included.
import { ROOM_ACTIONS } from './util.js';

/** An audience socket's game actions are the audience's (audience_vote, the test game's
 * predict, ...): a seat that plays never gets them, the audience gets no other. */
export function audienceActions(view) {
  if (!view || !view.you || view.you.role !== 'audience') return [];
  return (view.actions || []).filter((a) => !ROOM_ACTIONS.has(a.type));
}

export function createAudience() {
  let tally = null;
  let mine = null;
  let ballot = null;
  let past = new Set();
  let fresh = true;
  let game;                 // the game_no (or 'lobby') the state belongs to; undefined before a view
  let offered = false;      // the last view offered audience actions

  function clear() {
    const had = !!(tally || mine);
    tally = null;
    mine = null;
    return had;
  }

  /** Make b the ballot in hand; false for a ballot left behind. */
  function moveTo(b) {
    if (b === ballot) return true;
    if (past.has(b)) return false;
    if (ballot != null) past.add(ballot);
    if (past.size > 64) past = new Set([...past].slice(-32));
    ballot = b;
    clear();
    return true;
  }

  return {
    /** What app.audience shows: {tally, mine}. */
    get state() { return { tally, mine }; },

    /** A `tally` or `mine` frame's d; true when it changed the state. */
    frame(kind, d) {
      if (!d || typeof d !== 'object' || typeof d.ballot !== 'string' || !d.ballot) return false;
      if (kind !== 'tally' && kind !== 'mine') return false;
      if (!moveTo(d.ballot)) return false;
      if (kind === 'tally') {
        const old = tally && typeof tally.seq === 'number' ? tally.seq : null;
        if (!fresh && old !== null && !(typeof d.seq === 'number' && d.seq > old)) return false;
        fresh = false;
        tally = d;
        return true;
      }
      mine = d;
      return true;
    },

    /** A new view; true when it cleared something. */
    view(view) {
      const room = (view && view.room) || {};
      const key = room.phase === 'lobby' || room.game_no == null ? 'lobby' : String(room.game_no);
      const acts = audienceActions(view).length > 0;
      const wasOffered = offered;
      offered = acts;
      if (game === undefined) { game = key; return false; }
      if (key !== game) {
        game = key;
        ballot = null;
        past = new Set();
        return clear();
      }
      // a view that names the open ballot (room.audience_ballot, where the server sends it)
      if ('audience_ballot' in room && mine && mine.ballot !== room.audience_ballot) {
        mine = null;
        return true;
      }
      const running = room.phase === 'playing' && !room.paused && room.audience_play !== false;
      if (wasOffered && !acts && running && mine) {
        mine = null;
        return true;
      }
      return false;
    },

    /** A new socket opened: its first tally is the current one. */
    reconnected() { fresh = true; },
  };
}
