"""Issue 27, item 1: bots never end a reveal. Association's `next` only moves the table on
(the game's `pacing`), so no bot plays it; a reveal ends when a person taps, or its timer
runs out; with nobody but bots at the table it ends after pace.ALL_BOTS_MS, a server-side
deadline (partyhub/rooms/timers/pace.py). Over the real transport, with real bot sessions."""
import asyncio
import json
import random

import pytest
from channels.db import database_sync_to_async

from partyhub import bots
from partyhub.bots import client as botclient
from partyhub.rooms.models import Event
from partyhub.rooms.timers import pace
from partyhub.rooms.write import services
from tests.rooms.helpers import make_room
from tests.rooms.standinkit import fire, row
from tests.rooms.wsclient import Client

pytestmark = pytest.mark.django_db(transaction=True)
NO_TIMERS = {"target_score": 0, "tell_seconds": 0, "submit_seconds": 0, "vote_seconds": 0,
             "reveal_seconds": 0}


class BotSocket:
    """A bot's session (`bots.client.session`) over an in-process socket: it records what it sent."""

    def __init__(self, client):
        self.client, self.sent = client, []

    async def recv(self):
        while True:
            out = await self.client.comm.receive_output(timeout=60)
            if out["type"] == "websocket.send":
                return out["text"]

    async def send(self, raw):
        self.sent.append(json.loads(raw))
        await self.client.comm.send_to(text_data=raw)


def _table(humans, bot_seats):
    code, host, seats = make_room(humans)
    for i in range(bot_seats):
        _, seat, token = services.seat_join(code, f"Bot{i}", bot=True)
        seat.token = token
        seats.append(seat)
    return code, host, seats


async def table(humans, bot_seats):
    """A TV, the humans' phones (Clients) and the bots' sessions, all connected."""
    code, host, seats = await database_sync_to_async(_table)(humans, bot_seats)
    tv = Client(code, host)
    assert await tv.open() is True
    phones, sessions = [], []
    for i, s in enumerate(seats):
        c = Client(code, s.token)
        assert await c.open() is True
        c.seat = s
        if i < humans:
            phones.append(c)
        else:
            sock = BotSocket(c)
            sock.task = asyncio.create_task(botclient.session(sock, random.Random(i), (0.01, 0.05)))
            sessions.append(sock)
    await tv.until(lambda v: all(p["connected"] for p in v["room"]["players"]))
    return code, tv, phones, sessions


def sent_kinds(sessions) -> set:
    return {f["d"].get("type") for s in sessions for f in s.sent if f.get("t") == "act"}


async def play_human(phone, tv, until):
    """The human phone plays its own actions (the first offered, any clue) until `until`."""
    for _ in range(40):
        await tv.until(lambda v: True)
        if until(tv.view):
            return
        await phone.drain()
        mine = [a for a in phone.view["actions"] if a["type"] in ("tell", "submit", "vote")]
        if mine:
            await phone.act({**mine[0], **({"clue": "moon"} if mine[0]["type"] == "tell" else {})})
            await phone.next_view()
        else:
            await tv.recv(timeout=5)
    assert until(tv.view), tv.view["game"]


def _events(code, kind):
    return list(Event.objects.filter(room__code=code, type=kind).values_list("seat", flat=True))


async def stop(sessions):
    for s in sessions:
        s.task.cancel()


async def test_bots_never_send_next_and_the_reveal_waits_for_the_human():
    code, tv, (ann,), sessions = await table(1, 3)
    await tv.act({"type": "start", "game": "association", "options": NO_TIMERS})
    await play_human(ann, tv, lambda v: (v["game"] or {}).get("phase") == "reveal")
    # the bots had everything a phone has: they played their tells, cards and votes at once,
    # yet the reveal stays until the human taps (no server deadline: a person is here)
    await asyncio.sleep(1.0)
    await tv.drain()
    assert tv.view["game"]["phase"] == "reveal"
    assert (await row(code)).deadline_at is None
    assert "next" not in sent_kinds(sessions) and sent_kinds(sessions) & {"submit", "vote", "tell"}
    await ann.drain()
    assert {"type": "next"} in ann.view["actions"]
    await ann.act({"type": "next"})
    await tv.until(lambda v: v["game"]["turn"] == 2)
    assert await database_sync_to_async(_events)(code, "action") and "next" not in sent_kinds(sessions)
    await stop(sessions)


async def test_an_all_bot_reveal_ends_after_the_fixed_time_and_the_bots_play_on():
    code, tv, phones, sessions = await table(0, 3)
    await tv.act({"type": "start", "game": "association", "options": NO_TIMERS})
    view = await tv.until(lambda v: (v["game"] or {}).get("phase") == "reveal", timeout=20)
    turn = view["game"]["turn"]
    room = await row(code)
    since = room.settings[pace.KEY]["at"]
    assert room.deadline_at == since + pace.ALL_BOTS_MS
    assert await fire(since + pace.ALL_BOTS_MS - 1) == 0        # not a moment before
    assert tv.view["game"]["phase"] == "reveal"
    assert await fire(since + pace.ALL_BOTS_MS) == 1
    await tv.until(lambda v: v["game"]["turn"] == turn + 1)
    assert "next" not in sent_kinds(sessions)
    closed = await database_sync_to_async(_events)(code, "reveal_closed")
    assert len(closed) == 1
    # the bots play the next turn on their own, up to its reveal, which waits again
    await tv.until(lambda v: v["game"]["phase"] == "reveal" and v["game"]["turn"] == turn + 1, timeout=20)
    assert (await row(code)).deadline_at is not None
    await stop(sessions)


async def test_a_human_whose_phone_went_away_leaves_only_bots_at_the_table():
    code, tv, (ann,), sessions = await table(1, 3)
    await tv.act({"type": "start", "game": "association", "options": NO_TIMERS})
    await play_human(ann, tv, lambda v: (v["game"] or {}).get("phase") == "reveal")
    assert (await row(code)).deadline_at is None
    await ann.close()
    await tv.until(lambda v: not next(p for p in v["room"]["players"] if p["id"] == ann.seat.player_id)["connected"])
    room = await row(code)
    assert room.deadline_at == room.settings[pace.KEY]["at"] + pace.ALL_BOTS_MS
    assert await fire(room.deadline_at) == 1
    await tv.until(lambda v: v["game"]["turn"] == 2)
    await stop(sessions)


def test_every_games_pacing_names_its_own_actions_and_no_bot_or_stand_in_plays_them():
    from games.association.rules import GAME as association
    from partyhub.rooms.gateway import registry
    from partyhub.rooms.timers import standin
    for game in registry.listed():
        assert pace.kinds(game) <= set(game.actions_schema), game.id
    assert pace.kinds(association) == {"next"}
    view = {"room": {"game": "association", "language": "en"}, "game": {"phase": "reveal"},
            "actions": [{"type": "next"}]}
    assert bots.offered_actions(view) == []
    assert all(bots.next_action(view, random.Random(seed)) is None for seed in range(20))
    assert "next" in bots.never_played("association")

    class Reveal:      # a room whose game offers its seats only `next`
        game_id, state = "association", {"x": 1}
    assert not standin.waits_on(Reveal, type("G", (), {"actions": lambda self, s, p: [{"type": "next"}]})(), "p1")
