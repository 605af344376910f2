"""Limits on every door (issue 20, part 5), against a real daphne (partyhub.edge).

One server with small limits and TRUST_PROXY=1, so that each test comes from addresses of
its own (X-Forwarded-For; every connection is to 127.0.0.1): pings count in the flood
limit; sockets are capped per address and per room; failed room lookups (HTTP and sockets
alike) and anonymous sockets are limited per address; room creation is limited; an empty
room closes after a short idle; codes grow longer when the code space is small.
Every loop is bounded.
"""
from __future__ import annotations

import asyncio
import json
import random
import time

import pytest
import websockets

from tests.liveserver import http
from tests.security import attack

pytestmark = pytest.mark.slow
PER_ADDRESS, PER_ROOM, AUDIENCE, ROOMS, LOOKUPS = 12, 8, 20, 10, 30


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with attack.server(tmp_path_factory, "doors", TRUST_PROXY="1",
                       PARTYHUB_SOCKETS_PER_ADDRESS=str(PER_ADDRESS),
                       PARTYHUB_SOCKETS_PER_ROOM=str(PER_ROOM),
                       PARTYHUB_AUDIENCE_PER_MINUTE=str(AUDIENCE),
                       PARTYHUB_ROOMS_PER_MINUTE=str(ROOMS),
                       PARTYHUB_EMPTY_ROOM_IDLE_SECONDS="2",
                       PARTYHUB_CODE_ALPHABET="AB") as srv:
        yield srv


def address(n: int) -> dict:
    return {"X-Forwarded-For": f"198.51.100.{n}"}


MADE = iter(range(1, 10_000))


def players(server, n: int):
    """A room with n players, made and joined from an address of its own (10.9.x.y)."""
    made = next(MADE)
    where = {"X-Forwarded-For": f"10.9.{made // 256}.{made % 256}"}
    status, room = http("POST", server.base + "/api/rooms", {}, headers=where)
    assert status == 201, room
    seats = []
    for i in range(n):
        status, seat = http("POST", f"{server.base}/api/rooms/{room['code']}/join", {"name": f"P{i}"},
                            headers=where)
        assert status == 201, seat
        seats.append(seat)
    return room, seats


async def socket(server, code, token=None, frm: int = 1):
    url = server.base.replace("http", "ws", 1) + f"/ws/rooms/{code}" + (f"?token={token}" if token else "")
    return await websockets.connect(url, open_timeout=10, additional_headers=address(frm))


async def first(ws) -> tuple[dict | None, int | None]:
    """(the first frame, the close code if the socket closed right after it)."""
    frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
    if frame["t"] == "view":
        return frame, None
    try:
        await asyncio.wait_for(ws.recv(), 10)
    except websockets.ConnectionClosed as e:
        return frame, e.rcvd.code if e.rcvd else None
    raise AssertionError("a refused socket stayed open")


async def test_pings_count_in_the_flood_limit(server):
    room, seats = players(server, 1)
    ws = await socket(server, room["code"], seats[0]["token"], frm=1)
    assert (await first(ws))[0]["t"] == "view"
    pongs, floods = 0, 0

    async def read():       # while the pings go out: nothing waits unread on this side
        nonlocal pongs, floods
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
            pongs += frame["t"] == "pong"
            floods += frame["t"] == "error" and frame["d"]["code"] == "flood"
    reader = asyncio.create_task(read())
    for i in range(1000):
        try:
            await ws.send(json.dumps({"t": "ping", "d": {"c": i}}))
        except websockets.ConnectionClosed:
            break
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await reader
    # The server closes with 4008 while this client may still be writing its pings: the
    # server's kernel then answers the unread pings with a reset, and a reset can drop the
    # close frame from this side's buffer before it is read (no close frame received; seen
    # once in CI on a loaded machine). Reading while the pings go out keeps that window small.
    rcvd = closed.value.rcvd
    print(f"\n1000 pings: {pongs} pongs, {floods} flood errors, close {rcvd and rcvd.code}")
    assert rcvd is None or rcvd.code == 4008
    assert floods == 3 and pongs < 100      # the burst (60) and what refilled meanwhile


async def test_sockets_past_the_cap_of_an_address_are_refused(server):
    rooms = [players(server, PER_ADDRESS // 2) for _ in range(2)]
    tokens = [(room["code"], seat["token"]) for room, seats in rooms for seat in seats]
    open_ = [await socket(server, code, token, frm=2) for code, token in tokens]
    for ws in open_:
        assert (await first(ws))[0]["t"] == "view"
    extra = await socket(server, rooms[0][0]["code"], rooms[0][0]["host_token"], frm=2)
    frame, code = await first(extra)
    assert frame["d"]["code"] == "too_many_sockets" and code == 4029
    other = await socket(server, rooms[0][0]["code"], rooms[0][0]["host_token"], frm=3)
    assert (await first(other))[0]["t"] == "view"            # another address is not counted
    await other.close()
    await open_.pop().close()                                  # a place is given back
    again = await _until_view(server, rooms[0][0]["code"], rooms[0][0]["host_token"], frm=2)
    for ws in open_ + [again]:
        await ws.close()


async def _until_view(server, code, token, frm, tries=20):
    for _ in range(tries):
        ws = await socket(server, code, token, frm=frm)
        frame, _ = await first(ws)
        if frame["t"] == "view":
            return ws
        await asyncio.sleep(0.1)
    raise AssertionError("the place was never given back")


async def test_sockets_past_the_cap_of_a_room_are_refused(server):
    room, seats = players(server, PER_ROOM + 1)
    open_ = []
    for i, seat in enumerate(seats[:PER_ROOM]):                # each from an address of its own
        ws = await socket(server, room["code"], seat["token"], frm=10 + i)
        assert (await first(ws))[0]["t"] == "view"
        open_.append(ws)
    extra = await socket(server, room["code"], seats[-1]["token"], frm=30)
    frame, code = await first(extra)
    assert frame["d"]["code"] == "room_crowded" and code == 4029
    elsewhere, others = players(server, 1)
    ws = await socket(server, elsewhere["code"], others[0]["token"], frm=30)
    assert (await first(ws))[0]["t"] == "view"                # the address itself may go elsewhere
    for s in open_ + [ws]:
        await s.close()


def unknown_codes(n: int) -> list[str]:
    """n codes of the real alphabet that no room holds (this server's codes are A and B)."""
    rnd = random.Random(5)
    return ["".join(rnd.choice("CDEFGHJK") for _ in range(4)) for _ in range(n)]


async def test_probing_codes_is_rate_limited_well_before_the_end(server):
    living, _ = players(server, 1)
    statuses = []
    start = time.monotonic()
    for code in unknown_codes(200):
        status, body = http("GET", f"{server.base}/api/rooms/{code}", headers=address(40))
        statuses.append((status, body["error"]["code"]))
    seconds = time.monotonic() - start
    print(f"\n200 probes in {seconds:.2f}s: {statuses.count((404, 'room_not_found'))} answered, "
          f"{statuses.count((429, 'rate_limited'))} rate limited")
    assert statuses[:LOOKUPS] == [(404, "room_not_found")] * LOOKUPS
    assert statuses[LOOKUPS:] == [(429, "rate_limited")] * (200 - LOOKUPS)
    # a room that exists is not told apart while the budget is spent: not over HTTP,
    # not by its QR code, a join or a socket
    for path in ("", "/qr.svg"):
        assert http("GET", f"{server.base}/api/rooms/{living['code']}{path}", headers=address(40))[0] == 429
    assert http("POST", f"{server.base}/api/rooms/{living['code']}/join", {"name": "X"},
                headers=address(40))[0] == 429
    frame, code = await first(await socket(server, living["code"], frm=40))
    assert frame["d"]["code"] == "rate_limited" and code == 4029
    assert http("GET", f"{server.base}/api/rooms/{living['code']}", headers=address(41))[0] == 200


async def test_sockets_to_unknown_rooms_and_joins_count_as_failed_lookups(server):
    codes = unknown_codes(LOOKUPS + 1)
    for code in codes[:LOOKUPS // 2]:
        frame, close = await first(await socket(server, code, frm=42))
        assert frame["d"]["code"] == "room_not_found" and close == 4010
    for code in codes[LOOKUPS // 2:LOOKUPS]:
        status, body = http("POST", f"{server.base}/api/rooms/{code}/join", {"name": "X"}, headers=address(42))
        assert (status, body["error"]["code"]) == (404, "room_not_found")
    frame, close = await first(await socket(server, codes[-1], frm=42))
    assert frame["d"]["code"] == "rate_limited" and close == 4029


async def test_anonymous_sockets_are_limited_per_address(server):
    room, _ = players(server, 1)
    outcomes = []
    for _ in range(AUDIENCE + 10):
        ws = await socket(server, room["code"], frm=50)
        frame, close = await first(ws)
        outcomes.append(frame["t"] if frame["t"] == "view" else (frame["d"]["code"], close))
        await ws.close()
    assert outcomes[:AUDIENCE] == ["view"] * AUDIENCE
    assert outcomes[AUDIENCE:] == [("rate_limited", 4029)] * 10
    host = await socket(server, room["code"], room["host_token"], frm=50)
    assert (await first(host))[0]["t"] == "view"              # a token still opens its seat
    await host.close()


def test_room_creation_is_limited_per_address(server):
    made = [http("POST", server.base + "/api/rooms", {}, headers=address(60))[0] for _ in range(ROOMS + 3)]
    assert made == [201] * ROOMS + [429] * 3
    assert http("POST", server.base + "/api/rooms", {}, headers=address(61))[0] == 201


async def test_an_empty_room_closes_after_the_short_idle_and_goes_but_not_a_joined_or_watched_one(server):
    empty = http("POST", server.base + "/api/rooms", {}, headers=address(70))[1]
    watched = http("POST", server.base + "/api/rooms", {}, headers=address(70))[1]
    joined, _ = players(server, 1)
    tv = await socket(server, watched["code"], watched["host_token"], frm=70)
    assert (await first(tv))[0]["t"] == "view"
    end = time.monotonic() + 15
    while http("GET", f"{server.base}/api/rooms/{empty['code']}", headers=address(71))[0] not in (410, 404):
        assert time.monotonic() < end, "the empty room never closed"
        await asyncio.sleep(0.5)
    closed_after = time.monotonic() - end + 15
    status = http("GET", f"{server.base}/api/rooms/{empty['code']}", headers=address(71))[0]
    end = time.monotonic() + 15
    while status != 404:                                       # it never had a seat: purged soon
        assert time.monotonic() < end, "the empty room was never purged"
        await asyncio.sleep(0.5)
        status = http("GET", f"{server.base}/api/rooms/{empty['code']}", headers=address(71))[0]
    await asyncio.sleep(2.5)                                   # more than the empty idle again
    assert http("GET", f"{server.base}/api/rooms/{joined['code']}", headers=address(72))[0] == 200
    assert http("GET", f"{server.base}/api/rooms/{watched['code']}", headers=address(72))[0] == 200
    await tv.close()
    print(f"\nthe empty room closed {closed_after:.1f}s after it was made (idle 2s)")


async def test_codes_grow_longer_when_the_space_runs_short(server):
    """This server's alphabet is A and B: 16 codes of 4 letters, 32 of 5."""
    codes = []
    for i in range(40):
        status, room = http("POST", server.base + "/api/rooms", {}, headers=address(100 + i // ROOMS))
        assert status == 201, room
        codes.append(room["code"])
    lengths = [len(c) for c in codes]
    print(f"\nlengths of 40 new codes: {lengths}")
    assert len(set(codes)) == 40
    assert lengths.count(4) <= 16 and max(lengths) >= 5 and set(lengths) <= {4, 5, 6, 7, 8}
    # a longer code works at every door. The length is judged on a random sample (codes.py),
    # so a new room may still draw one of the last free 4-letter codes (the module's other
    # rooms hold some too; make test-fast, 2026-12-02: the 41st was "ABBB"); each such room
    # takes one, and after at most the 16 of them the next code is longer
    for _ in range(17):
        room, seats = players(server, 1)
        if len(room["code"]) >= 5:
            break
    assert len(room["code"]) >= 5
    assert http("GET", f"{server.base}/j/{room['code'].lower()}", headers=address(110))[0] == 200
    ws = await socket(server, room["code"], seats[0]["token"], frm=110)
    assert (await first(ws))[0]["d"]["you"]["id"] == seats[0]["player_id"]
    await ws.close()
