"""A real daphne on 127.0.0.1, driven as a rebinding page would drive it: the browser
believes the server is `evil.example:8132` (its DNS answer is this machine), so both Host
and Origin carry that name. Forged hosts and foreign origins are refused over real sockets;
the machine's own LAN address is served (phones on the Wi-Fi), and so is any other address
(the Docker host's, in front of a container), but only to pages from that very address."""
import asyncio
from http.client import HTTPConnection
import json
import socket

import pytest
import websockets

from partyhub.http.net import lan_address, own_hosts
from tests.liveserver import Daphne, http, room_with_players

# The server's hosts come from the machine's addresses at its start, the test's at its own
# time: on the Docker tests' worker, so that no stack adds a bridge in between.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("docker")]
REBOUND = "evil.example:8132"
ELSEWHERE = "10.9.8.7"       # an address on no interface of this machine: a Docker host's


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Daphne(tmp_path_factory.mktemp("edges")).migrate().start()
    yield srv
    srv.kill()


def raw(server, method, path, body=None, headers=None):
    conn = HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, dict(r.getheaders()), r.read()
    finally:
        conn.close()


async def upgrade(server, code, token, host, origin):
    """The socket's handshake answer: True when accepted, else the HTTP status."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    try:
        async with websockets.connect(f"ws://{host}/ws/rooms/{code}?token={token}", sock=sock,
                                      origin=origin, open_timeout=5) as ws:
            json.loads(await asyncio.wait_for(ws.recv(), 5))
            return True
    except websockets.InvalidStatus as e:
        return e.response.status_code


def test_a_forged_host_gets_400_over_http(server):
    for method, path, body in [("GET", "/", None), ("GET", "/api/games", None),
                               ("POST", "/api/rooms", "{}")]:
        status, headers, _ = raw(server, method, path, body, {
            "Host": REBOUND, "Origin": f"http://{REBOUND}", "Content-Type": "application/json"})
        assert status == 400, (method, path, status)
        assert "Content-Security-Policy" in headers
    status, _, _ = raw(server, "GET", "/", headers={"Host": f"127.0.0.1:{server.port}"})
    assert status == 200


async def test_sockets_by_a_forged_host_or_from_a_foreign_page_are_refused(server):
    room, seats = await asyncio.to_thread(room_with_players, server.base, ["Ann"])
    code, token, own = room["code"], seats[0]["token"], f"127.0.0.1:{server.port}"
    assert await upgrade(server, code, token, REBOUND, f"http://{REBOUND}") == 403   # rebinding
    assert await upgrade(server, code, token, REBOUND, None) == 403                   # forged Host
    assert await upgrade(server, code, token, own, "http://evil.example") == 403      # foreign page
    assert await upgrade(server, code, token, own, "http://partyhub.test.evil") == 403
    assert await upgrade(server, code, token, own, f"http://{own}") is True            # its own page
    assert await upgrade(server, code, token, own, f"http://{lan_address()}:{server.port}") is True
    assert await upgrade(server, code, token, f"{lan_address()}:{server.port}", None) is True
    assert await upgrade(server, code, token, own, "http://partyhub.test") is True      # PUBLIC_URL


def test_posts_from_a_foreign_page_or_as_a_form_are_refused(server):
    status, body = http("POST", server.base + "/api/rooms", {}, {"Origin": "http://evil.example"})
    assert status == 403 and body["error"]["code"] == "bad_origin"
    status, _, text = raw(server, "POST", "/api/rooms", '{"language": "en"}', {"Content-Type": "text/plain"})
    assert status == 415 and json.loads(text)["error"]["code"] == "bad_content_type"
    status, _, text = raw(server, "POST", "/api/rooms", "[" * 60_000, {"Content-Type": "application/json"})  # under the body limit
    assert status == 400 and json.loads(text)["error"]["code"] == "bad_request"
    status, body = http("POST", server.base + "/api/rooms", {}, {"Origin": server.base})
    assert status == 201


def test_an_address_the_machine_does_not_know_is_served_over_http(server):
    assert ELSEWHERE not in own_hosts()
    host = f"{ELSEWHERE}:{server.port}"
    assert raw(server, "GET", "/", headers={"Host": host})[0] == 200
    own, foreign = ({"Host": host, "Origin": origin, "Content-Type": "application/json"}
                    for origin in (f"http://{host}", "http://203.0.113.5"))
    assert raw(server, "POST", "/api/rooms", "{}", own)[0] == 201
    status, _, text = raw(server, "POST", "/api/rooms", "{}", foreign)
    assert status == 403 and json.loads(text)["error"]["code"] == "bad_origin"


async def test_a_socket_by_an_address_is_served_and_by_a_rebound_name_refused(server):
    room, seats = await asyncio.to_thread(room_with_players, server.base, ["Ann"])
    code, token, host = room["code"], seats[0]["token"], f"{ELSEWHERE}:{server.port}"
    rebound = f"evil.example:{server.port}"
    assert await upgrade(server, code, token, host, None) is True
    assert await upgrade(server, code, token, host, f"http://{host}") is True          # its own page
    assert await upgrade(server, code, token, host, "http://203.0.113.5") == 403       # another machine
    assert await upgrade(server, code, token, host, f"http://{rebound}") == 403
    assert await upgrade(server, code, token, rebound, f"http://{rebound}") == 403     # rebinding
    assert await upgrade(server, code, token, rebound, None) == 403
