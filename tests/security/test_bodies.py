"""Request bodies are bounded by path before they are read (issue 20, part 1; partyhub/edge.py).

One daphne (partyhub.edge, deck uploads limited to 8 MiB here): 100 MiB bodies to a JSON
path, to a path that does not exist, to the upload path, as urlencoded and multipart forms,
and chunked without a Content-Length, are each refused with 413 and the protocol's JSON error
quickly; meanwhile the server's VmRSS grows by less than 64 MiB and a calm WebSocket's ping
round trip stays under 250 ms. A 100 MiB upload under a server's limit is streamed to disk,
not held in memory, and a small JSON request still works beside it all.
"""
from __future__ import annotations

import json
import socket

import pytest
import websockets

from tests.liveserver import http, room_with_players
from tests.security import attack
from tests.security.attack import PING_MS, RSS_GROWTH_MIB, MiB, Watch, send_body, under_attack

pytestmark = pytest.mark.slow
SIZE = 100 * MiB


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with attack.server(tmp_path_factory, "bodies", PARTYHUB_DECK_UPLOAD_MB="8") as srv:
        yield srv


@pytest.fixture(scope="module")
def room(server):
    made, seats = room_with_players(server.base, ["Calm"])
    return made, seats[0]


async def _calm(server, room):
    made, seat = room
    url = server.base.replace("http", "ws", 1) + f"/ws/rooms/{made['code']}?token={seat['token']}"
    return await websockets.connect(url, max_size=2 ** 22, open_timeout=10)


def _warm(server, room):
    """Every code path an attack takes, once, so that what is measured is the attack."""
    send_body(server.port, "/api/rooms", 2 * MiB, "application/json")
    send_body(server.port, "/api/rooms", 2 * MiB, "application/json", chunked=True)
    assert http("POST", server.base + "/api/rooms", {})[0] == 201


ATTACKS = {
    "json_path": ("/api/rooms", "application/json", False, "body_too_large"),
    "unknown_path": ("/no/such/page", "multipart/form-data; boundary=x", False, "body_too_large"),
    "upload_path_over_its_limit": ("/api/rooms/{code}/decks", "multipart/form-data; boundary=x",
                                   False, "upload_too_large"),
    "chunked_without_length": ("/api/rooms/{code}/join", "application/json", True, "body_too_large"),
    "urlencoded_form": ("/api/rooms", "application/x-www-form-urlencoded", False, "body_too_large"),
    "urlencoded_chunked": ("/admin/login/", "application/x-www-form-urlencoded", True, "body_too_large"),
    "multipart_chunked": ("/api/rooms/{code}/decks", "multipart/form-data; boundary=x", True,
                          "upload_too_large"),
}


@pytest.mark.parametrize("kind", list(ATTACKS))
async def test_a_100_mib_body_is_refused_with_413_at_once_and_costs_nothing(server, room, kind):
    path, ctype, chunked, code = ATTACKS[kind]
    path = path.format(code=room[0]["code"])
    _warm(server, room)
    ws = await _calm(server, room)
    try:
        with Watch(server.proc.pid) as watch:
            (status, seconds, sent), rtts = await under_attack(
                ws, send_body, server.port, path, SIZE, ctype, chunked=chunked)
    finally:
        await ws.close()
    print(f"\n{kind}: {status} in {seconds:.3f}s after {sent / MiB:.1f} MiB sent; "
          f"RSS +{watch.growth:.1f} MiB; ping max {max(rtts):.1f} ms over {len(rtts)}")
    assert status == 413
    assert seconds < 3
    assert sent <= 16 * MiB, "the refusal came before the body"
    assert watch.growth < RSS_GROWTH_MIB
    assert max(rtts) < PING_MS
    assert http("GET", server.base + "/healthz")[0] == 200


async def test_a_client_that_sends_on_after_the_refusal_is_cut_off(server, room):
    """It sends its 100 MiB without reading: the server drops what it reads for a moment
    (so that a polite client reads its 413), then closes."""
    _warm(server, room)
    ws = await _calm(server, room)
    try:
        with Watch(server.proc.pid) as watch:
            (status, seconds, sent), rtts = await under_attack(
                ws, send_body, server.port, "/api/rooms", SIZE, "application/json", stubborn=True)
    finally:
        await ws.close()
    print(f"\nstubborn: {status} after {seconds:.2f}s, {sent / MiB:.0f} MiB sent; RSS "
          f"+{watch.growth:.1f} MiB; ping max {max(rtts):.1f} ms over {len(rtts)}")
    assert seconds < 10
    assert watch.growth < RSS_GROWTH_MIB
    assert max(rtts) < PING_MS


def test_the_refusal_is_the_protocols_json_error(server, room):
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 70000\r\n\r\n")
        data = b""
        while True:
            got = s.recv(65536)
            if not got:
                break
            data += got
    head, body = data.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 413 ")
    assert b"Content-Type: application/json" in head
    assert json.loads(body)["error"]["code"] == "body_too_large"


def test_a_body_at_the_limit_passes_and_a_byte_more_does_not(server, room):
    limit = 64 * 1024
    body = json.dumps({"language": "en", "pad": "x" * (limit - 30)}).encode()
    body += b" " * (limit - len(body))
    assert len(body) == limit
    status, _, _ = send_body(server.port, "/api/rooms", limit, "application/json", body=body)
    assert status == 201
    status, _, _ = send_body(server.port, "/api/rooms", limit + 1, "application/json",
                             body=body + b" ")
    assert status == 413


def test_a_form_body_is_never_parsed_by_twisted(server, room):
    """A urlencoded body under the limit reaches Django as it was sent, where the JSON API
    refuses its type (tests/security/test_edge.py shows Twisted's parser never runs)."""
    body = b"a=1&" * 1000
    status, _, _ = send_body(server.port, "/api/rooms", len(body),
                             "application/x-www-form-urlencoded", body=body)
    assert status == 415   # bad_content_type: the JSON API looked at the body as sent


async def test_a_large_upload_under_the_limit_streams_to_disk(tmp_path_factory):
    """The default 200 MiB upload limit: a 100 MiB multipart upload with the host token is
    read, spooled and parsed without the server's memory growing by its size."""
    boundary = "bound4ry"
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nBig\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; "
            f"filename=\"junk.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n").encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    body = head + b"\0" * (SIZE - len(head) - len(tail)) + tail
    with attack.server(tmp_path_factory, "stream") as srv:
        made, seats = room_with_players(srv.base, ["Calm"])
        async with await _calm(srv, (made, seats[0])) as ws:
            with Watch(srv.proc.pid) as watch:
                (status, seconds, sent), rtts = await under_attack(
                    ws, send_body, srv.port, f"/api/rooms/{made['code']}/decks", len(body),
                    f"multipart/form-data; boundary={boundary}", body=body, timeout=60,
                    headers={"Authorization": f"Bearer {made['host_token']}"})
    print(f"\nupload 100 MiB: {status} in {seconds:.2f}s; RSS +{watch.growth:.1f} MiB; "
          f"ping max {max(rtts):.1f} ms")
    assert sent == len(body)
    assert status == 400   # no_images: the one file is no picture (it was read whole)
    assert watch.growth < RSS_GROWTH_MIB
    assert max(rtts) < PING_MS
