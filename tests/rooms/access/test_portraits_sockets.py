"""Portraits over real sockets (partyhub/rooms/access/portraits.py), every frame recorded: a face
drawn in one room reaches that room's TV, phones and audience once per connection (a `blobs`
frame; again only after a reconnect or a new drawing), and no frame of another room, its TV,
phones or audience, ever holds it; a game played in both rooms does not change that."""
import json

import pytest
from channels.db import database_sync_to_async

from tests.rooms.helpers import make_room
from tests.rooms.wsclient import Client, drain_all

pytestmark = pytest.mark.django_db(transaction=True)

# a drawing with a point no other value holds: 0.123 is kept as 123 thousandths
FACE = [{"points": [[0.123, 0.877], [0.321, 0.789], [0.5, 0.5]], "color": "#8e44ad", "width": 8}]
MARK = "[123,877,321,789"


async def table(n):
    code, host, seats = await database_sync_to_async(make_room)(n)
    conns = {"tv": Client(code, host), "aud": Client(code)}
    for s in seats:
        conns[s.player_id] = Client(code, s.token)
    for c in conns.values():
        assert await c.open() is True
    return code, seats, conns


def texts(conns) -> dict:
    """{connection: [each frame as JSON text]} (views with their blobs resolved, blobs frames)."""
    return {k: [json.dumps(f, separators=(",", ":")) for f in c.frames] for k, c in conns.items()}


def blob_frames_with_the_face(conn) -> int:
    return sum(1 for f in conn.frames if f["t"] == "blobs" and MARK in json.dumps(f["d"], separators=(",", ":")))


async def test_a_face_reaches_its_room_once_per_connection_and_never_another_room():
    code_a, seats_a, a = await table(3)
    code_b, seats_b, b = await table(3)
    everyone = list(a.values()) + list(b.values())
    await a[seats_a[0].player_id].act({"type": "portrait", "strokes": FACE})
    await drain_all(everyone, ping=True)
    await b[seats_b[1].player_id].act({"type": "portrait", "character": "c2"})
    for conns in (a, b):                       # a game in each room: many more views
        await conns["tv"].act({"type": "start", "game": "count", "options": {"target": 6}})
    await drain_all(everyone, ping=True)
    for _ in range(3):
        for conns, seats in ((a, seats_a), (b, seats_b)):
            for s in seats:
                await conns[s.player_id].act({"type": "add", "n": 1})
        await drain_all(everyone, ping=True)
    for key, frames in texts(b).items():
        assert frames and not any(MARK in t for t in frames), key
        assert not any('"portrait":' in t for t in frames), key
    for key, conn in a.items():
        assert blob_frames_with_the_face(conn) == 1, key            # sent once, not with every view
        assert conn.view["room"]["players"][0]["portrait"][0]["p"][:4] == [123, 877, 321, 789], key
        assert len([f for f in conn.frames if f["t"] == "view"]) > 3, key
    # a reconnect is sent it again, once; another room's new socket is not
    again = Client(code_a, seats_a[0].token)
    stranger = Client(code_b, seats_b[0].token)
    assert await again.open() is True and await stranger.open() is True
    await drain_all([again, stranger], ping=True)
    assert blob_frames_with_the_face(again) == 1 and blob_frames_with_the_face(stranger) == 0
    assert not any(MARK in t for t in texts({"s": stranger})["s"])
    for c in everyone + [again, stranger]:
        await c.close()


@pytest.mark.slow
async def test_a_face_survives_a_killed_server(tmp_path):
    from tests.liveserver import Conn, Daphne, room_with_players
    server = Daphne(tmp_path).migrate().start()
    try:
        room, seats = room_with_players(server.base, ["Ann", "Bob"])
        code = room["code"]
        ann = await Conn(server.base, code, seats[0]["token"]).open()
        bob = await Conn(server.base, code, seats[1]["token"]).open()
        await ann.act({"type": "portrait", "strokes": FACE})
        await bob.act({"type": "portrait", "character": "c35"})
        await ann.wait(lambda v: "portrait" in v["room"]["players"][0] and "character" in v["room"]["players"][1])
        server.kill()
        server.start()
        tv = await Conn(server.base, code, room["host_token"]).open()
        players = (await tv.wait(lambda v: True))["room"]["players"]
        assert players[0]["portrait"][0]["p"][:4] == [123, 877, 321, 789]
        assert players[1]["character"] == "c35"
        await tv.close()
    finally:
        server.kill()
