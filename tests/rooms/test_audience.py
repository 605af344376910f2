"""The audience plays along (partyhub/rooms/audience.py, tallies.py): over real sockets."""
import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client as HttpClient

from partyhub.rooms import tallies
from tests.rooms.test_consumers import table
from tests.rooms.wsclient import Client

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fresh_tallies():
    tallies.reset()
    yield
    tallies.reset()


def audience_pass(code, name="Zoe"):
    r = HttpClient().post(f"/api/rooms/{code}/audience", json.dumps({"name": name}),
                          content_type="application/json", HTTP_ORIGIN="http://testserver")
    return r.status_code, r.json()


async def playing(n=2, **options):
    """A room of n phones playing count, its TV, and an audience member with a pass."""
    code, tv, phones = await table(n)
    await tv.act({"type": "start", "game": "count", "options": {"target": 30, **options}})
    await tv.until(lambda v: v["room"]["phase"] == "playing")
    status, p = await database_sync_to_async(audience_pass)(code)
    assert status == 201
    fan = Client(code, p["token"])
    assert await fan.open() is True
    fan.pass_ = p
    return code, tv, phones, fan


async def frame(client, kind, timeout=3):
    while True:
        f = await client.recv(timeout)
        if f["t"] in (kind, "_closed"):
            return f


async def test_an_audience_pass_votes_and_gets_its_own_votes_back():
    code, tv, phones, fan = await playing()
    assert fan.view["you"] == {"role": "audience", "id": None}
    assert fan.view["room"]["audience_play"] is True
    assert {"type": "predict", "n": 2} in fan.view["actions"]
    assert not any(a["type"] == "predict" for a in phones[0].view["actions"])
    ref = await fan.act({"type": "predict", "n": 2})
    mine = await frame(fan, "mine")
    assert mine["d"] == {"ballot": "t0", "votes": {"n": 2}, "ref": ref, "reply": {"n": 2, "changed": False}}
    tally = await frame(tv, "tally")
    assert tally["d"]["ballot"] == "t0" and tally["d"]["voters"] == 1 and tally["d"]["seq"] >= 1
