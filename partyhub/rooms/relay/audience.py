"""The audience plays along (docs/protocol.md, "The audience"): its actions, tallies and folds.

A socket's audience action (an `act` whose type is an `audience_schema` type) is judged here,
in the event loop, against the room's snapshot (as stream items are, streams.current), with
no room lock and no database write: the vote goes to the ballot's tally (tallies.py), the
voter's socket gets a `mine` frame, and the room's TV sockets a `tally` frame at most every
TALLY_SECONDS while the tally changes. The write path folds a ballot into the game's state
when its phase ends (`fold`, called wherever services accept a rules result): one room write
per phase, whatever the number of votes.

Voters: an audience pass's (audience id, name), a spectator seat's (player id, seat name), or
an anonymous socket's own id ("c" and hex digits, name None; a reload is a new voter). Anyone
can open anonymous sockets by the hundred, so the games count only named voters (passes and
spectator seats) in their per-card tallies and awards (gamekit.named); the anonymous ones are
a count apart (the `tally` frame's `anonymous`, the games' results). A ballot takes at most
`voters_per_ballot` voters (`ballot_full` for a new one past it). The names the rules see are
the room's as it is now: a name the host hid is PLACEHOLDER (`shown`).
"""
from __future__ import annotations

import ipaddress
import logging
import secrets

from django.conf import settings

from partyhub.gamekit import TABLE, Ballot, Rejected, clean_action
from partyhub.jsontext import compact as _dumps
from partyhub.rooms.access import audiencepass, familymode
from partyhub.rooms.core import pending, tallies
from partyhub.rooms.core.coalesce import Coalesced
from partyhub.rooms.gateway import calls, registry
from partyhub.rooms.relay import fanout, streams

log = logging.getLogger(__name__)
TALLY_SECONDS = 0.1


# ---------------------------------------------------------------- what the rules say

def plays(game) -> bool:
    """Whether a game has an audience (its rules give audience_* functions)."""
    return game is not None and bool(getattr(game, "audience_schema", None))


def may_play(room, game) -> bool:
    """Whether the audience may play now: the host lets it, a game with an audience runs,
    not paused."""
    return (bool(room.settings.get("audience")) and room.phase == "playing"
            and room.paused_at is None and room.state is not None and plays(game))


def actions(room, game) -> list:
    """The audience's legal actions now ([] when it may not play)."""
    if not may_play(room, game):
        return []
    return calls.audience_actions(game, room.state)


def ballot(game, state):
    """The key of the ballot open in `state`, or None."""
    if not plays(game) or not state:
        return None
    return calls.audience_ballot(game, state)


# ---------------------------------------------------------------- the write path's side

def fold(room, game, before, at: int | None = None) -> None:
    """After the rules changed `room.state` from `before`: when the ballot open in `before`
    is no longer the open one, close it in the tally store and fold its entries into the
    state (the room is saved by the caller, in the same transaction). The log gets an
    `audience_closed` event with the ballot and its entries, right after the move that closed
    it, so the state is still the rules' replay of the log."""
    old = ballot(game, before)
    if old is None or old == ballot(game, room.state):
        return
    try:
        entries = shown(room, tallies.close(room.code, room.game_no, old))
    except Exception:       # Redis away: the game goes on; the ballot's votes are lost
        log.warning("ballot %s of room %s folded empty: tallies unreachable", old, room.code, exc_info=True)
        entries = {}
    folded = calls.audience_close(game, room.state, old, entries)
    if folded is None:
        return      # the rules raised (logged): the state stays as the move left it
    room.state = folded
    pending.append(room, "audience_closed", "", {"ballot": old, "entries": entries}, at)


def shown(room, entries: dict) -> dict:
    """Entries with their names as the room may show them: a name the host hid (`hide`, a
    text or a seat's old name) is PLACEHOLDER."""
    hidden = familymode.hidden(room)
    if not hidden:
        return entries
    return {v: {**e, "name": familymode.PLACEHOLDER}
            if isinstance(e.get("name"), str) and familymode.hidden_keys([e["name"]]) & hidden else e
            for v, e in entries.items()}


def open_now(room) -> tuple | None:
    """(game_no, ballot key) of the ballot open in the running game, or None."""
    if room.phase != "playing":
        return None
    old = ballot(registry.get(room.game_id), room.state)
    return None if old is None else (room.game_no, old)


def drop(room, opened: tuple | None) -> None:
    """The running game ended early or was dealt again (after that write succeeded): the
    ballot that was open (`open_now` before it) is closed, unfolded."""
    if opened is not None:
        try:
            tallies.close(room.code, *opened)
        except Exception:   # Redis away: the keys expire
            log.warning("ballot %s of room %s not dropped", opened, room.code, exc_info=True)


# ---------------------------------------------------------------- the socket's side

def kinds() -> frozenset:
    """Every audience action type of the registered games."""
    return registry.audience_kinds()


def voter(consumer, seat=None) -> tuple[str, str | None]:
    """(voter id, name) of a socket: its pass's, its seat's (`seat`: as the room has it now),
    or its own (anonymous)."""
    actor = consumer.actor
    if actor is not None and actor.voter is not None:
        return actor.voter.voter
    if actor is not None and actor.seat is not None:
        seat = seat or actor.seat
        return seat.player_id, seat.name
    own = getattr(consumer, "voter_id", None)
    if own is None:
        own = consumer.voter_id = "c" + secrets.token_hex(6)
    return own, None


def _judge(consumer, d: dict):
    """(room, game, ballot, voter, name, action) for an audience action, or Rejected."""
    now = streams.current(consumer.code)
    if now is None:
        return Rejected("no_game_running")
    room, seats = now
    game = registry.get(room.game_id) if room.phase != "lobby" else None
    schema = getattr(game, "audience_schema", None) or {}
    if game is None:
        return Rejected("no_game_running")
    if not schema:      # klepka: the audience watches
        return Rejected("no_ballot", "The audience watches this game.")
    action = clean_action(schema, d)
    if isinstance(action, Rejected):
        return action
    actor = consumer.actor
    if actor is None or actor.role == "tv":
        return Rejected("not_audience")
    seat = None
    if actor.seat is not None:
        seat = next((s for s in seats if s.player_id == actor.seat.player_id), actor.seat)
        if seat.playing:
            return Rejected("not_audience")
    if _beside_a_player(consumer, seats):
        return Rejected("not_audience", "A player of this game plays from your address.")
    if actor.voter is not None:
        refused = audiencepass.refusal(actor.voter, room, seats)
        if refused is not None:
            return Rejected(refused, REVOKED)
    if not room.settings.get("audience"):
        return Rejected("audience_off")
    if room.phase != "playing":
        return Rejected("no_game_running")
    if room.paused_at is not None:
        return Rejected("paused")
    key = ballot(game, room.state)
    if key is None:
        return Rejected("no_ballot")
    who, name = voter(consumer, seat)
    return room, game, key, who, name, action


def _beside_a_player(consumer, seats) -> bool:
    """Whether a socket of a seat playing the game comes from this socket's address (its
    second tab or browser, tokenless or with a pass: issue 31). Addresses as every limit
    sees them (limits.client_address: the peer, or behind a trusted proxy the address it
    saw); a loopback or unknown address names no one (a proxy without TRUST_PROXY, the
    server's own browser). This process's sockets only (fanout.SEATS)."""
    address = getattr(consumer, "address", None)
    if not address or address == "?" or _loopback(address):
        return False
    by_seat = fanout.SEATS.get(consumer.code) or {}
    return any(getattr(c, "address", None) == address
               for s in seats if s.playing for c in by_seat.get(s.player_id, ()))


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


REVOKED = "Your audience pass no longer counts here; watch again to get a new one."
PASS_ENDED = frozenset(("pass_expired", "pass_revoked", "name_taken", "name_kicked"))


async def offer(consumer, ref, d: dict) -> None:
    """One audience action of a socket: judged, recorded, answered (`mine` or `error`)."""
    judged = _judge(consumer, d)
    if isinstance(judged, Rejected):
        await consumer._error(judged.code, ref, judged.message or None)
        if judged.code in PASS_ENDED and consumer.actor is not None and consumer.actor.voter is not None:
            await consumer._end_pass()      # the page forgets the pass and asks again
        return
    try:
        await _offer(consumer, ref, *judged)
    except Exception:       # the tallies cannot be reached (Redis away): nothing counted
        log.warning("audience action of room %s not counted", consumer.code, exc_info=True)
        await consumer._error("no_ballot", ref, UNCOUNTED)


UNCOUNTED = "Votes cannot be counted right now; try again in a moment."


TRIES = 3      # a voter's votes changed by its other socket between the rules' look and the record


async def _offer(consumer, ref, room, game, key, who, name, action) -> None:
    """The rules judge the action against the voter's votes as this socket last knew them;
    the tally records it only if they are still those (one Redis script, awaited), else the
    rules judge again against the votes as they are."""
    mine, seen = _known(consumer, room, key)
    for _ in range(TRIES):
        verdict = calls.rules_call(game, "audience_check", room.state, action, mine)
        if isinstance(verdict, Rejected):
            return await consumer._error(verdict.code, ref, verdict.message or None)
        if not isinstance(verdict, Ballot):
            return await consumer._error("bad_action", ref)
        if verdict.key is None:         # nothing recorded (a wrong sketch guess)
            return await _mine(consumer, key, mine, ref, verdict, None)
        done = await tallies.vote(room.code, room.game_no, key, who, name, verdict.key, verdict.value,
                                  seen, settings.PARTYHUB_LIMITS["voters_per_ballot"])
        if done.status == "changed":
            mine, seen = done.votes, done.n
            continue
        if done.status == "full":
            return await consumer._error("ballot_full", ref)
        if done.status != "ok":
            return await consumer._error("no_ballot", ref)
        _remember(consumer, room, key, done.votes, done.n)
        changed(room.code)
        return await _mine(consumer, key, done.votes, ref, verdict, done.seq)
    await consumer._error("no_ballot", ref, UNCOUNTED)


async def _mine(consumer, key, votes, ref, verdict, seq) -> None:
    # seq: the tally's count once this vote is in (a `tally` frame with seq >= it counts it)
    await consumer._send_json({"t": "mine", "d": {"ballot": key, "votes": votes, "ref": ref,
                                                  "reply": dict(verdict.reply or {}), "seq": seq}})


def _known(consumer, room, key) -> tuple[dict, int]:
    """(votes, their count) of this socket's voter in the ballot, as this socket last saw them
    ({}, 0 for a ballot it has not seen: the record tells when that is wrong)."""
    known = getattr(consumer, "audience_votes", None)
    if known and known[0] == (room.game_no, key):
        return dict(known[1]), known[2]
    return {}, 0


def _remember(consumer, room, key, votes: dict, n: int) -> None:
    consumer.audience_votes = ((room.game_no, key), dict(votes), n)


async def greet(consumer) -> None:
    """A socket has its first view: a TV socket gets the open ballot's tally, an audience
    socket with votes in it its `mine`."""
    room, game, key = _open_ballot(consumer.code)
    if key is None:
        return
    try:
        await _greet(consumer, room, game, key)
    except Exception:       # the tallies cannot be reached: the next tally frame tells
        log.warning("no tally for a new socket of room %s", consumer.code, exc_info=True)


async def _greet(consumer, room, game, key) -> None:
    if consumer.viewer == TABLE:
        return await consumer._send_json(await _tally_frame(room, game, key))
    if consumer.actor is None or (consumer.actor.voter is None and consumer.actor.seat is None):
        return      # anonymous: a new voter
    who, _ = voter(consumer)
    mine, n = await tallies.read_votes(room.code, room.game_no, key, who)
    _remember(consumer, room, key, mine, n)
    if mine:
        await consumer._send_json({"t": "mine", "d": {"ballot": key, "votes": mine, "ref": None,
                                                      "reply": {}}})


def _open_ballot(code: str):
    """(room, game, ballot key) of the room's snapshot; the key is None when none is open."""
    now = streams.current(code)
    if now is None:
        return None, None, None
    room = now[0]
    game = registry.get(room.game_id) if room.phase == "playing" else None
    return room, game, ballot(game, room.state)


async def _tally_frame(room, game, key) -> dict:
    """voters: all who voted; anonymous: those of them with no name (counted apart: the
    summary's and the results' counts are the named voters')."""
    seq, entries = await tallies.read_entries(room.code, room.game_no, key)
    entries = shown(room, entries)
    summary = calls.audience_summary(game, room.state, entries)
    anonymous = sum(1 for e in entries.values() if e.get("name") is None)
    return {"t": "tally", "d": {"ballot": key, "seq": seq, "voters": len(entries),
                                "anonymous": anonymous, "summary": summary}}


# ---------------------------------------------------------------- the TV's tally, coalesced

def changed(code: str) -> None:
    """A vote was recorded: the room's TV sockets get the tally within TALLY_SECONDS."""
    _tally.changed(code)


async def send_tally(code: str) -> None:
    """The open ballot's tally to the room's TV sockets (here and in the other processes)."""
    room, game, key = _open_ballot(code)
    if key is None:
        return
    try:
        text = _dumps(await _tally_frame(room, game, key))
    except Exception:
        log.warning("no tally for room %s", code, exc_info=True)
        return
    await fanout.stream(code, (TABLE,), text)


_tally = Coalesced(TALLY_SECONDS, send_tally)
