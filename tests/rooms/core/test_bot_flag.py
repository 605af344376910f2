"""Bots are flagged whichever way they join: the server's own bots (the lobby's "add bot",
`manage.py bots`) show the server's bot pass to the public join API; nothing else sets the
flag. A bot is never VIP while a human is seated: a human joining after bots takes VIP."""
import json

import pytest

from partyhub.rooms.access import selectors
from partyhub.rooms.core import botpass
from partyhub.rooms.store import store
from partyhub.rooms.timers import vip
from partyhub.rooms.views import viewmodel

pytestmark = pytest.mark.django_db(transaction=True)


def post(client, url, body=None):
    return client.post(url, data=json.dumps(body or {}), content_type="application/json")


def new_room(client):
    return post(client, "/api/rooms").json()["code"]


def join(client, code, name, **extra):
    return post(client, f"/api/rooms/{code}/join", {"name": name, **extra})


def players(code):
    room = selectors.room_get(code)
    return room, viewmodel.room_part(room, _seats(room), "")["players"]


def _seats(room):
    return store.seats(room, kicked=True)


def test_bots_first_then_a_human_the_human_is_vip_and_the_bots_are_shown_as_bots(client):
    code = new_room(client)
    for name in ("Robo", "Beep"):
        assert join(client, code, name, bot_pass=botpass.for_room(code)).status_code == 201
    room, shown = players(code)
    assert [p["bot"] for p in shown] == [True, True]
    assert room.vip == "", "with no human seated there is no VIP: the TV runs the room"
    ann = join(client, code, "Ann").json()["player_id"]
    room, shown = players(code)
    assert room.vip == ann
    assert {p["name"]: p["bot"] for p in shown} == {"Robo": True, "Beep": True, "Ann": False}


def test_a_public_client_cannot_make_itself_a_bot(client):
    code = new_room(client)
    r = join(client, code, "Sneaky", bot=True)
    assert r.status_code == 201
    room, shown = players(code)
    assert shown[0]["bot"] is False and room.vip == r.json()["player_id"]
    other = new_room(client)
    for bad in (botpass.for_room(other), "0" * 64, 123, ""):
        r = join(client, code, "Fake", bot_pass=bad)
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_allowed", bad
    assert len(players(code)[1]) == 1, "a refused join seats nobody"


def test_the_vip_passes_to_a_human_never_to_a_bot(client):
    code = new_room(client)
    ann = join(client, code, "Ann").json()["player_id"]
    join(client, code, "Robo", bot_pass=botpass.for_room(code))
    bo = join(client, code, "Bo").json()["player_id"]
    room = selectors.room_get(code)
    seats = _seats(room)
    assert room.vip == ann
    next(s for s in seats if s.player_id == ann).connected = False
    for s in seats:
        if s.player_id != ann:
            s.connected = True
    vip.ensure(room, seats, 0)
    assert room.vip == bo


def test_the_in_process_bot_and_the_command_use_the_pass(monkeypatch):
    """`add_bot` and `manage.py bots` join with the room's pass (unless --as-people)."""
    from django.core.management import call_command

    from partyhub.bots import client as botclient
    seen = []

    async def fake_run(base, code, seed=None, think=(0.3, 1.5), bot_pass=None):
        seen.append(bot_pass)
        return "ok"
    monkeypatch.setattr(botclient, "run", fake_run)
    call_command("bots", "abcd", "--count", "2")
    call_command("bots", "ABCD", "--as-people")
    assert seen == [botpass.for_room("ABCD")] * 2 + [None]
