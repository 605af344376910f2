"""X-Partyhub-Replica (partyhub/http/replica.py, partyhub/edge.py): every HTTP answer and every
socket's handshake names the replica that served it. The middleware in-process, then a real
daphne (partyhub.edge) over real sockets."""
import asyncio
import json
import socket
from http.client import HTTPConnection

import pytest
import websockets

from partyhub.http.replica import ReplicaHeader, header_value
from tests.liveserver import Conn, Daphne, room_with_players

NAME = "web-7f3a"


async def through(scope_type: str, messages: list[dict]) -> list[dict]:
    """What the middleware sends on for these messages of an application."""
    sent = []

    async def app(scope, receive, send):
        for m in messages:
            await send(m)

    async def send(m):
        sent.append(m)

    await ReplicaHeader(app, NAME)({"type": scope_type}, None, send)
    return sent


async def test_an_http_answer_gets_the_header_and_keeps_its_own():
    start = {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]}
    body = {"type": "http.response.body", "body": b"ok"}
    sent = await through("http", [start, body])
    assert sent[0]["headers"] == [(b"content-type", b"text/plain"), (b"x-partyhub-replica", NAME.encode())]
    assert sent[1] is body
    assert start["headers"] == [(b"content-type", b"text/plain")], "the application's message is not changed"


async def test_a_socket_accept_gets_the_header_and_its_frames_do_not():
    accept, frame = {"type": "websocket.accept", "subprotocol": None}, {"type": "websocket.send", "text": "x"}
    sent = await through("websocket", [accept, frame])
    assert sent[0]["headers"] == [(b"x-partyhub-replica", NAME.encode())]
    assert sent[0]["subprotocol"] is None and sent[1] is frame


async def test_lifespan_passes_untouched():
    message = {"type": "lifespan.startup.complete"}
    assert (await through("lifespan", [message]))[0] is message


@pytest.mark.parametrize("name, value", [
    ("3f2a9c1b0d4e", b"3f2a9c1b0d4e"), (" web-1 \n", b"web-1"), ("héllo\r\nX: y", b"h?llo??X:?y"), ("", b"?"),
])
def test_the_name_is_a_safe_header_value(name, value):
    assert header_value(name) == value


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """Two daphne processes: one named by PARTYHUB_REPLICA, one by its host name."""
    named = Daphne(tmp_path_factory.mktemp("named"), env={"PARTYHUB_REPLICA": "replica-a"}).migrate().start()
    plain = Daphne(tmp_path_factory.mktemp("plain"), env={"PARTYHUB_REPLICA": ""}).migrate().start()
    yield named, plain
    named.kill()
    plain.kill()


def answer_headers(server, method, path, body=None) -> tuple[int, dict]:
    conn = HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"})
        r = conn.getresponse()
        r.read()
        return r.status, {k.lower(): v for k, v in r.getheaders()}
    finally:
        conn.close()


@pytest.mark.slow
@pytest.mark.parametrize("method, path, status", [
    ("GET", "/healthz", 200), ("GET", "/", 200), ("POST", "/api/rooms", 201),
    ("GET", "/api/rooms/ZZZZ", 404), ("GET", "/static/common/app.js", 200), ("GET", "/no/such/page", 404),
])
def test_every_http_answer_names_the_replica(servers, method, path, status):
    named, plain = servers
    for server, name in ((named, "replica-a"), (plain, socket.gethostname())):
        got, headers = answer_headers(server, method, path, "{}" if method == "POST" else None)
        assert got == status, (path, got)
        assert headers.get("x-partyhub-replica") == name, (path, headers)


@pytest.mark.slow
async def test_the_socket_handshake_names_the_replica(servers):
    named, _ = servers
    room, seats = room_with_players(named.base, ["Ann"])
    code = room["code"]
    conn = await Conn(named.base, code, seats[0]["token"]).open()
    try:
        assert conn.ws.response.headers["X-Partyhub-Replica"] == "replica-a"
        assert conn.view["room"]["code"] == code, "the socket works as before"
    finally:
        await conn.close()


@pytest.mark.slow
async def test_a_refused_socket_is_refused_as_before(servers):
    named, _ = servers
    room, seats = room_with_players(named.base, ["Ann"])
    url = named.base.replace("http", "ws", 1) + f"/ws/rooms/{room['code']}?token={seats[0]['token']}"
    with pytest.raises(websockets.InvalidStatus) as refused:
        async with websockets.connect(url, origin="http://evil.example", open_timeout=5) as ws:
            json.loads(await asyncio.wait_for(ws.recv(), 5))
    assert refused.value.response.status_code == 403
