"""Slow requests are cut off (slowloris; issue 20, part 5; partyhub/edge.py's GuardedChannel).

A daphne (partyhub.edge) with 1.5 s for a request's headers and 2 s (plus a second per
4 KiB) for its body: 40 connections trickling their headers a byte at a time, 20 trickling a
request line, and 20 trickling a body are all answered 408 `request_too_slow` and closed
within the timeout (plus the timer's slack), while a calm socket's ping stays fast; a body
that comes slowly but steadily still passes. 127.0.0.1 only, every loop bounded.
"""
from __future__ import annotations

import asyncio
import json
import socket
import time

import pytest
import websockets

from tests.liveserver import room_with_players
from tests.security import attack
from tests.security.attack import PING_MS

pytestmark = pytest.mark.slow
HEADERS, BODY, RATE = 1.5, 2.0, 4096
SLACK = 1.0


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with attack.server(tmp_path_factory, "slow", PARTYHUB_HEADER_SECONDS=str(HEADERS),
                       PARTYHUB_BODY_SECONDS=str(BODY), PARTYHUB_BODY_MIN_RATE=str(RATE)) as srv:
        yield srv


def trickle(port: int, start: bytes, drip: bytes, gap: float, limit: float = 10.0):
    """Send `start`, then `drip` every `gap` seconds until the server answers or closes (or
    `limit`): (seconds until then, what the server sent)."""
    t0 = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=limit) as s:
        s.sendall(start)
        s.settimeout(gap)
        data = b""
        while time.monotonic() - t0 < limit:
            try:
                got = s.recv(65536)
                data += got
                if not got or b"\r\n\r\n" in data:
                    break
            except socket.timeout:
                try:
                    s.sendall(drip)
                except OSError:
                    break
            except OSError:
                break
        return time.monotonic() - t0, data


def answer(data: bytes) -> tuple[int | None, str | None]:
    if not data.startswith(b"HTTP/1.1 "):
        return None, None
    head, _, body = data.partition(b"\r\n\r\n")
    try:
        code = json.loads(body)["error"]["code"]
    except ValueError:
        code = None
    return int(head.split(b" ")[1]), code


async def many(n: int, *args):
    return await asyncio.gather(*(asyncio.to_thread(trickle, *args) for _ in range(n)))


async def calm_socket(server):
    room, seats = room_with_players(server.base, ["Calm"])
    url = server.base.replace("http", "ws", 1) + f"/ws/rooms/{room['code']}?token={seats[0]['token']}"
    return await websockets.connect(url, open_timeout=10)


async def under_slowloris(server, n, *args):
    ws = await calm_socket(server)
    stop = asyncio.Event()
    pinger = asyncio.create_task(attack.pings(ws, stop))
    try:
        results = await many(n, *args)
    finally:
        stop.set()
    rtts = await pinger
    await ws.close()
    return results, rtts


def report(name, results, rtts, limit):
    seconds = [s for s, _ in results]
    answers = {answer(d) for _, d in results}
    print(f"\n{name}: {len(results)} cut off after {min(seconds):.2f}-{max(seconds):.2f}s "
          f"(limit {limit}s), answers {answers}; ping max {max(rtts):.1f} ms over {len(rtts)}")
    assert answers == {(408, "request_too_slow")}
    assert all(limit - 0.1 < s < limit + SLACK for s in seconds), seconds
    assert max(rtts) < PING_MS


async def test_headers_trickled_a_byte_at_a_time_are_cut_off(server):
    start = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
    results, rtts = await under_slowloris(server, 40, server.port, start, b"a", 0.2)
    report("headers", results, rtts, HEADERS)


async def test_a_request_line_trickled_is_cut_off(server):
    results, rtts = await under_slowloris(server, 20, server.port, b"G", b"E", 0.2)
    report("request line", results, rtts, HEADERS)


async def test_a_body_trickled_under_the_byte_limit_is_cut_off(server):
    start = (b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             b"Content-Length: 60000\r\n\r\n{")
    # 100 bytes every 0.2 s: 500 B/s, under the 4 KiB/s that earns more time
    results, rtts = await under_slowloris(server, 20, server.port, start, b" " * 100, 0.2)
    report("body", results, rtts, BODY + 0.1)


def test_a_body_that_comes_slowly_but_steadily_passes(server):
    body = json.dumps({"language": "en", "pad": "x" * 40_000}).encode()
    head = (b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body))
    t0 = time.monotonic()
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as s:
        s.sendall(head)
        for i in range(0, len(body), 2000):       # 2 kB every 0.1 s: 20 kB/s, 2 s in all
            s.sendall(body[i:i + 2000])
            time.sleep(0.1)
        data = s.recv(65536)
    seconds = time.monotonic() - t0
    print(f"\nsteady body of {len(body)} bytes over {seconds:.2f}s: {data[:12]!r}")
    assert seconds > BODY and data.startswith(b"HTTP/1.1 201 ")


def test_requests_that_come_at_once_are_not_slowed(server):
    for _ in range(3):
        seconds, data = trickle(server.port, b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
                                b"", 5.0)
        assert data.startswith(b"HTTP/1.1 200 ") and seconds < 1
