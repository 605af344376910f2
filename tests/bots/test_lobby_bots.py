"""Bots join through the public protocol and play a game to its end; the server's own bots
have no join budget of their own to spend, and the lobby's "add bot" is refused where its bot
could not join."""
import json

import pytest

from partyhub.http import limits
from partyhub.rooms.access import selectors
from partyhub.rooms.core import botpass
from partyhub.rooms.core.errors import ServiceError
from partyhub.rooms.views import viewmodel
from partyhub.rooms.write import services
from tests.harness.botgame import run_bot_game
from tests.rooms.helpers import make_room, player, tv


def post(client, url, body=None):
    return client.post(url, data=json.dumps(body or {}), content_type="application/json")


@pytest.mark.django_db(transaction=True)     # the API's database threads see the rows
def test_bot_pass_joins_are_outside_the_join_window(client, settings):
    """Issue 31: in-process bots all join from the server's own address; a VIP who spammed
    "add bot" used that address's joins up and stopped bots in every room for a minute."""
    settings.PARTYHUB_LIMITS = {**settings.PARTYHUB_LIMITS, "joins_per_minute": 2}
    limits.reset()
    code = post(client, "/api/rooms").json()["code"]
    assert [post(client, f"/api/rooms/{code}/join", {"name": n}).status_code for n in ("A", "B", "C")] == [201, 201, 429]
    for name in ("Robo", "Beep", "Chip"):
        r = post(client, f"/api/rooms/{code}/join", {"name": name, "bot_pass": botpass.for_room(code)})
        assert r.status_code == 201, r.json()
    r = post(client, f"/api/rooms/{code}/join", {"name": "Fake", "bot_pass": "not-the-pass"})
    assert r.json()["error"]["code"] == "rate_limited"     # a wrong pass is a person's join


@pytest.mark.django_db
def test_add_bot_is_refused_in_a_full_room_and_not_offered(settings):
    settings.PARTYHUB_LIMITS = {**settings.PARTYHUB_LIMITS, "max_seats": 2}
    code, _, seats = make_room(2)
    for actor in (tv(), player(seats[0])):
        with pytest.raises(ServiceError) as e:
            services.room_apply(code, actor, None, {"type": "add_bot"})
        assert e.value.code == "room_full"
    r = selectors.room_read(code)
    frames = viewmodel.viewer_frames(r.room, r.seats, "")
    assert '"add_bot"' not in frames["@table"] and '"add_bot"' not in frames[seats[0].player_id]
    services.room_apply(code, tv(), None, {"type": "kick", "player": seats[1].player_id})
    assert services.room_apply(code, tv(), None, {"type": "add_bot"}).effects == [("bot", code)]
    services.room_apply(code, tv(), None, {"type": "lock"})
    with pytest.raises(ServiceError) as e:
        services.room_apply(code, tv(), None, {"type": "add_bot"})
    assert e.value.code == "room_locked"


@pytest.mark.slow
async def test_bots_play_the_test_game_to_the_end(tmp_path):
    final = await run_bot_game(tmp_path, "count", 3, {"target": 30})
    results = final["room"]["results"]
    assert sum(results["scores"].values()) >= 30 and results["winners"]
    assert final["room"]["scoreboard"]["recent"][-1]["game"] == "count"


@pytest.mark.slow
async def test_the_lobbys_add_bot_is_flagged_and_a_human_after_it_takes_vip(tmp_path):
    """The in-process bot joins through the public API with the server's bot pass."""
    from tests.liveserver import Conn, Daphne, http
    server = Daphne(tmp_path).migrate().start()
    try:
        status, room = http("POST", server.base + "/api/rooms", {})
        assert status == 201
        tv = await Conn(server.base, room["code"], room["host_token"]).open()
        await tv.act({"type": "add_bot"})
        view = await tv.wait(lambda v: len(v["room"]["players"]) == 1)
        assert view["room"]["players"][0]["bot"] is True and view["room"]["vip"] is None
        status, ann = http("POST", f"{server.base}/api/rooms/{room['code']}/join", {"name": "Ann"})
        assert status == 201
        view = await tv.wait(lambda v: len(v["room"]["players"]) == 2)
        assert view["room"]["vip"] == ann["player_id"]
    finally:
        server.kill()


@pytest.mark.django_db(transaction=True)
def test_the_bots_command_pointed_at_a_refused_host_prints_the_servers_answer(monkeypatch, settings):
    """Inside compose, `manage.py bots CODE --url http://proxy` printed
    `bot: Expecting value: line 2 column 1` (the bot read Django's HTML 400 as JSON)."""
    import io
    import urllib.error
    import urllib.request
    from urllib.parse import urlsplit

    from django.core.management import call_command
    from django.test import Client

    settings.PARTYHUB_ALLOWED_HOSTS = ["testserver", "localhost"]
    settings.PARTYHUB_ALLOW_IP_HOSTS = False
    code, _, _ = make_room(1)

    def urlopen(req, timeout=None):     # the bot's HTTP, answered by this server's own stack
        url = urlsplit(req.full_url)
        r = Client().post(url.path, data=req.data, content_type="application/json", HTTP_HOST=url.netloc)
        raise urllib.error.HTTPError(req.full_url, r.status_code, "", {}, io.BytesIO(r.content))
    monkeypatch.setattr(urllib.request, "urlopen", urlopen)
    out = io.StringIO()
    call_command("bots", code, "--url", "http://proxy", stdout=out)
    line = out.getvalue().strip()
    assert line.startswith("bot: join refused: HTTP 400 host_not_allowed: This server does not answer "
                           "the name 'proxy'"), line
    assert "ALLOWED_HOSTS" in line
