"""Abuse against a real daphne: a flooding socket is throttled and closed while another
socket's latency stays flat; joins beyond the limit get 429; a foreign Origin, a forged
token and another room's token are refused."""
from __future__ import annotations

import asyncio
import json
from urllib.parse import quote
import statistics
import time

import pytest
import websockets

from tests.liveserver import Daphne, http, room_with_players
from tests.reliability.livekit import Sock, server_errors

pytestmark = pytest.mark.slow
RESULTS: dict = {}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("abuse")
    srv = Daphne(tmp, {"PARTYHUB_JOINS_PER_MINUTE": "1000", "PARTYHUB_ROOMS_PER_MINUTE": "1000"}).migrate().start()
    yield srv
    srv.kill()


async def _ping_rtt(sock: Sock, n: int, gap=0.05) -> list:
    """n ping round trips; at most 20 a second (pings count in the socket's frame budget of
    30 a second, so a calm socket stays calm)."""
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        await sock.barrier()
        out.append((time.perf_counter() - t0) * 1000)
        await asyncio.sleep(gap)
    return out


async def test_flood_is_throttled_and_closed_while_others_stay_fast(server):
    room, seats = await asyncio.to_thread(room_with_players, server.base, ["Calm", "Flood", "Third"])
    code = room["code"]
    calm = await Sock(server.base, code, seats[0]["token"], "calm").open()
    flood = await Sock(server.base, code, seats[1]["token"], "flood").open()
    before = await _ping_rtt(calm, 40)
    sent = 0

    async def flooder():
        nonlocal sent
        frame = json.dumps({"t": "act", "id": None, "d": {"type": "nothing_here"}})
        try:
            while flood.closed is None and sent < 20000:
                await flood.send(frame)
                sent += 1
                if sent % 50 == 0:
                    await asyncio.sleep(0)
        except websockets.ConnectionClosed:
            pass
    task = asyncio.create_task(flooder())
    during = await _ping_rtt(calm, 40)
    await task
    await flood.wait(lambda: flood.closed is not None, 10)
    codes = [f["d"]["code"] for f in flood.frames if f["t"] == "error"]
    p50_before, p50_during = statistics.median(before), statistics.median(during)
    RESULTS["flood"] = {"sent": sent, "floods": codes.count("flood"), "close": flood.closed,
                        "p50_before_ms": round(p50_before, 2), "p50_during_ms": round(p50_during, 2),
                        "p95_during_ms": round(sorted(during)[int(len(during) * 0.95)], 2)}
    print(f"\nflood: {RESULTS['flood']}")
    assert flood.closed == 4008
    assert codes.count("flood") == 3
    assert calm.closed is None
    assert p50_during < 3 * p50_before + 20, RESULTS["flood"]
    # the calm socket still acts normally
    await calm.barrier()
    await calm.close()


async def test_joins_beyond_the_limit_are_refused(tmp_path):
    server = Daphne(tmp_path, {"PARTYHUB_JOINS_PER_MINUTE": "20"}).migrate().start()
    try:
        await _joins(server)
    finally:
        server.kill()


async def _joins(server):
    rooms = [(await asyncio.to_thread(http, "POST", server.base + "/api/rooms", {}))[1] for _ in range(2)]
    statuses = []
    for i in range(30):      # two rooms: a room has at most 16 seats
        s, body = await asyncio.to_thread(http, "POST", f"{server.base}/api/rooms/{rooms[i % 2]['code']}/join",
                                          {"name": f"J{i}"})
        statuses.append((s, (body.get("error") or {}).get("code") if isinstance(body, dict) else None))
    ok = [s for s, _ in statuses if s == 201]
    refused = [c for s, c in statuses if s == 429]
    RESULTS["joins"] = {"tried": 30, "accepted": len(ok), "refused_429": len(refused)}
    print(f"\njoins: {RESULTS['joins']}")
    assert len(ok) == 20 and len(refused) == 10      # 20 joins a minute per address
    assert set(refused) == {"rate_limited"}


async def test_foreign_origin_forged_token_and_other_rooms_token_are_refused(server):
    room_a, seats_a = await asyncio.to_thread(room_with_players, server.base, ["Ann"])
    room_b, seats_b = await asyncio.to_thread(room_with_players, server.base, ["Bob"])
    ws = server.base.replace("http", "ws", 1)
    outcomes = {}
    # a foreign Origin: refused before accept (HTTP 403 on the upgrade)
    for origin in ["http://evil.example", "null", "http://127.0.0.1.evil.example", "https://partyhub.test.evil"]:
        with pytest.raises(websockets.InvalidStatus) as e:
            await websockets.connect(f"{ws}/ws/rooms/{room_a['code']}?token={seats_a[0]['token']}",
                                     origin=origin, open_timeout=5)
        assert e.value.response.status_code == 403
        outcomes[origin] = 403
    # its own host and PUBLIC_URL are allowed
    for origin in [server.base, "http://partyhub.test"]:
        c = await websockets.connect(f"{ws}/ws/rooms/{room_a['code']}", origin=origin, open_timeout=5)
        assert json.loads(await c.recv())["t"] == "view"
        await c.close()

    async def closed_with(url):
        """How the server refused: the HTTP status of the upgrade, or the close code of a
        socket that got no frame at all."""
        try:
            c = await websockets.connect(url, open_timeout=5)
        except websockets.InvalidStatus as e:     # refused at the upgrade
            return e.response.status_code
        try:
            await asyncio.wait_for(c.recv(), 5)
        except websockets.ConnectionClosed as e:
            return e.rcvd.code if e.rcvd else None
        raise AssertionError(f"{url} was accepted")
    forged = [seats_a[0]["token"][:-2] + "xx", "x" * 32, "", room_b["host_token"], seats_b[0]["token"],
              "' OR 1=1 --", "%00", "A" * 4000]
    for tok in forged:
        if tok == "":
            continue   # no token = the anonymous audience (documented)
        code = await closed_with(f"{ws}/ws/rooms/{room_a['code']}?token={quote(tok)}")
        assert code == 4003, (tok, code)    # accepted, then closed before any frame
        outcomes[tok[:20]] = code
    # a player's token is refused as another room's host, and room B's token at room A's log
    s, body = await asyncio.to_thread(http, "GET", f"{server.base}/api/rooms/{room_a['code']}/log", None,
                                      {"Authorization": f"Bearer {room_b['host_token']}"})
    assert s == 401 and body["error"]["code"] == "unauthorized"
    RESULTS["refusals"] = {"origins_403": 4, "tokens_refused": outcomes, "log_401": 1}
    print(f"\nrefusals: {RESULTS['refusals']}")
    assert not server_errors(server)
