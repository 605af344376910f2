"""Helpers for the stand-in tests: the timekeeper's pass at a chosen time, a seat dropping and
coming back over the real transport, the others playing as bots do, and the rules' replay of
the room's log."""
import json
import random

from channels.db import database_sync_to_async

from partyhub import bots
from partyhub.rooms.domain import roomactions
from partyhub.rooms.gateway import registry
from partyhub.rooms.live import timekeeper
from partyhub.rooms.live.publish import publish
from partyhub.rooms.models import Event, Room
from tests.rooms.wsclient import Client


def game_acts(view) -> list:
    return [a for a in (view or {}).get("actions", []) if a["type"] not in roomactions.HANDLERS]


def player(view, pid) -> dict:
    return next(p for p in view["room"]["players"] if p["id"] == pid)


def _row(code):
    return Room.objects.get(code=code)


async def row(code) -> Room:
    return await database_sync_to_async(_row)(code)


async def fire(at: int) -> int:
    """One timekeeper pass as if the wall clock read `at` (ms); returns how many rooms moved."""
    changes = await database_sync_to_async(timekeeper.fire_due)(at)
    for change in changes:
        await publish(change)
    return len(changes)


def _moves(code, pid, after_version):
    room = Room.objects.get(code=code)
    return list(Event.objects.filter(room=room, seat=pid, type="action", version__gt=after_version)
                .values_list("data", flat=True))


async def moves_of(code, pid, after_version=0) -> list:
    """The actions logged for the seat `pid` after that version (its phone's or a stand-in's)."""
    return await database_sync_to_async(_moves)(code, pid, after_version)


async def drop(code, tv, phone) -> int:
    """The phone goes away; returns when it went (the room's `away` note), after the TV saw it."""
    pid = phone.seat.player_id
    await phone.close()
    await tv.until(lambda v: not player(v, pid)["connected"])
    return (await row(code)).away[pid]["since"]


async def back(code, phone) -> Client:
    """The same phone (its token) opens a socket again."""
    again = Client(code, phone.seat.token)
    assert await again.open() is True
    again.seat = phone.seat
    return again


async def catch_up(clients, version):
    for c in clients:
        await c.until(lambda v, c=c: c.version >= version)


async def play_others(tv, phones, done, seed=1, steps=60):
    """The connected phones play as bots do (their own view's actions) until `done(tv view)`."""
    rnd, failed = random.Random(seed), {}
    await catch_up(phones, tv.version)
    for _ in range(steps):
        if done(tv.view):
            return
        movers = [p for p in phones if game_acts(p.view)]
        assert movers, ("nobody can move and the turn is not done", tv.view["game"])
        p = movers[0]
        d = bots.next_action(p.view, rnd, failed.get(p.version, set()))
        assert d is not None, p.view["actions"]
        await p.act(d)
        while True:
            f = await p.recv()
            if f["t"] == "error":
                failed.setdefault(p.version, set()).add(bots.offered_key(p.view["actions"], d))
                break
            if f["t"] == "view":
                await catch_up([tv, *phones], p.version)
                break
    assert done(tv.view), "the turn did not end"


def _replayed(code, start_version, start_state):
    room = Room.objects.get(code=code)
    game = registry.get(room.game_id)
    state = start_state
    for e in Event.objects.filter(room=room, type__in=("action", "audience_closed"),
                                  version__gt=start_version).order_by("id"):
        if e.type == "audience_closed":     # the write path's fold, logged after its move
            state = json.loads(json.dumps(game.audience_close(state, e.data["ballot"], e.data["entries"])))
            continue
        if e.seat == "" and e.data == {"type": "deadline"}:
            result = game.on_deadline(state, e.at - room.paused_total)
        else:
            result = game.apply(state, e.seat, e.data, e.at - room.paused_total)
        assert not hasattr(result, "code"), (e.seat, e.data, result)
        state = json.loads(json.dumps(result.state))
    return room.state, state, game.scores(room.state), game.scores(state)


async def replays(code, start_version, start_state):
    """The room's state and scores are the pure rules' replay of its logged moves (the
    stand-in's among them, as moves of the seat) from the state at the start."""
    stored, replayed, scores, rules_scores = await database_sync_to_async(_replayed)(
        code, start_version, start_state)
    assert replayed == stored, "the room's state is not the rules' replay of its log"
    assert scores == rules_scores
    return scores
