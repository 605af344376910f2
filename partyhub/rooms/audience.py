"""The audience plays along (docs/protocol.md, "The audience"): its actions, tallies and folds.

A socket's audience action (an `act` whose type is an `audience_schema` type) is judged here,
in the event loop, against the room's snapshot (as stream items are, streams.current), with
no room lock and no database write: the vote goes to the ballot's tally (tallies.py), the
voter's socket gets a `mine` frame, and the room's TV sockets a `tally` frame at most every
TALLY_SECONDS while the tally changes. The write path folds a ballot into the game's state
when its phase ends (`fold`, called wherever services accept a rules result): one room write
per phase, whatever the number of votes.

Voters: an audience pass's (audience id, name), a spectator seat's (player id, seat name), or
an anonymous socket's own id ("c" and hex digits, name None; a reload is a new voter).
"""
from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time

from partyhub.gamekit import TABLE, Ballot, Rejected, clean_action
from partyhub.rooms import fanout, registry, store, streams, tallies

log = logging.getLogger(__name__)
TALLY_SECONDS = 0.1


def _dumps(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


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
    try:
        return list(game.audience_actions(room.state))
    except Exception:
        log.warning("game rules raised: %s.audience_actions", game.id, exc_info=True)
        return []


def ballot(game, state):
    """The key of the ballot open in `state`, or None."""
    if not plays(game) or not state:
        return None
    try:
        return game.audience_ballot(state)
    except Exception:
        log.warning("game rules raised: %s.audience_ballot", game.id, exc_info=True)
        return None


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
        entries = tallies.close(room.code, room.game_no, old)
    except Exception:       # Redis away: the game goes on; the ballot's votes are lost
        log.warning("ballot %s of room %s folded empty: tallies unreachable", old, room.code, exc_info=True)
        entries = {}
    room.state = game.audience_close(room.state, old, entries)
    store.append(room, "audience_closed", "", {"ballot": old, "entries": entries}, at)


def drop(room) -> None:
    """The running game ends early or is dealt again: its open ballot is closed, unfolded."""
    if room.phase != "playing":
        return
    old = ballot(registry.get(room.game_id), room.state)
    if old is not None:
        try:
            tallies.close(room.code, room.game_no, old)
        except Exception:   # Redis away: the keys expire
            log.warning("ballot %s of room %s not dropped", old, room.code, exc_info=True)


# ---------------------------------------------------------------- the socket's side

def kinds() -> frozenset:
    """Every audience action type of the registered games."""
    return registry.audience_kinds()


def voter(consumer) -> tuple[str, str | None]:
    """(voter id, name) of a socket: its pass's, its seat's, or its own (anonymous)."""
    actor = consumer.actor
    if actor is not None and actor.voter is not None:
        return actor.voter
    if actor is not None and actor.seat is not None:
        return actor.seat.player_id, actor.seat.name
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
    if actor.seat is not None:
        seat = next((s for s in seats if s.player_id == actor.seat.player_id), actor.seat)
        if seat.playing:
            return Rejected("not_audience")
    if not room.settings.get("audience"):
        return Rejected("audience_off")
    if room.phase != "playing":
        return Rejected("no_game_running")
    if room.paused_at is not None:
        return Rejected("paused")
    key = ballot(game, room.state)
    if key is None:
        return Rejected("no_ballot")
    who, name = voter(consumer)
    return room, game, key, who, name, action


async def offer(consumer, ref, d: dict) -> None:
    """One audience action of a socket: judged, recorded, answered (`mine` or `error`)."""
    judged = _judge(consumer, d)
    if isinstance(judged, Rejected):
        return await consumer._error(judged.code, ref, judged.message or None)
    try:
        await _offer(consumer, ref, *judged)
    except Exception:       # the tallies cannot be reached (Redis away): nothing counted
        log.warning("audience action of room %s not counted", consumer.code, exc_info=True)
        await consumer._error("no_ballot", ref, UNCOUNTED)


UNCOUNTED = "Votes cannot be counted right now; try again in a moment."


async def _offer(consumer, ref, room, game, key, who, name, action) -> None:
    mine = tallies.votes(room.code, room.game_no, key, who)
    try:
        verdict = game.audience_check(room.state, action, mine)
    except Exception:
        log.warning("game rules raised: %s.audience_check", game.id, exc_info=True)
        verdict = Rejected("bad_action", "That action is malformed.")
    if isinstance(verdict, Rejected):
        return await consumer._error(verdict.code, ref, verdict.message or None)
    if not isinstance(verdict, Ballot):
        return await consumer._error("bad_action", ref)
    seq = None
    if verdict.key is not None:
        seq = tallies.record(room.code, room.game_no, key, who, name, verdict.key, verdict.value)
        if seq is None:
            return await consumer._error("no_ballot", ref)
        mine = {**mine, verdict.key: verdict.value}
        changed(room.code)
    # seq: the tally's count once this vote is in (a `tally` frame with seq >= it counts it)
    await consumer._send_json({"t": "mine", "d": {"ballot": key, "votes": mine, "ref": ref,
                                                  "reply": dict(verdict.reply or {}), "seq": seq}})


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
        return await consumer._send_json(_tally_frame(room, game, key))
    if consumer.actor is None or (consumer.actor.voter is None and consumer.actor.seat is None):
        return      # anonymous: a new voter
    who, _ = voter(consumer)
    mine = tallies.votes(room.code, room.game_no, key, who)
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


def _tally_frame(room, game, key) -> dict:
    seq, entries = tallies.entries(room.code, room.game_no, key)
    try:
        summary = game.audience_summary(room.state, entries)
    except Exception:
        log.warning("game rules raised: %s.audience_summary", game.id, exc_info=True)
        summary = {}
    return {"t": "tally", "d": {"ballot": key, "seq": seq, "voters": len(entries), "summary": summary}}


# ---------------------------------------------------------------- the TV's tally, coalesced

_due: dict = {}         # code -> the handle of the room's next tally frame
_sent: dict = {}        # code -> monotonic time of the room's last tally frame
_tasks: set = set()


def changed(code: str) -> None:
    """A vote was recorded: the room's TV sockets get the tally within TALLY_SECONDS."""
    if code in _due:
        return
    wait = max(0.0, _sent.get(code, 0.0) + TALLY_SECONDS - time.monotonic())
    _due[code] = asyncio.get_running_loop().call_later(wait, _start, code)


def _start(code: str) -> None:
    _due.pop(code, None)
    now = time.monotonic()
    if len(_sent) > 1000:       # bounded: a room's last send matters for TALLY_SECONDS only
        for old in [c for c, at in _sent.items() if at < now - TALLY_SECONDS]:
            del _sent[old]
    _sent[code] = now
    task = asyncio.get_running_loop().create_task(send_tally(code))
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


async def send_tally(code: str) -> None:
    """The open ballot's tally to the room's TV sockets (here and in the other processes)."""
    room, game, key = _open_ballot(code)
    if key is None:
        return
    try:
        text = _dumps(_tally_frame(room, game, key))
    except Exception:
        log.warning("no tally for room %s", code, exc_info=True)
        return
    await fanout.stream(code, (TABLE,), text)

