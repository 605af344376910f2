"""partyhub/edge.py in process: Twisted's real HTTP parser fed bytes, no sockets."""
from __future__ import annotations

import asyncio
import io
import json

import pytest
from twisted.internet.testing import StringTransport
from twisted.web import http

from partyhub import edge


class Transport(StringTransport):
    half_closed = aborted = False

    def loseWriteConnection(self):
        self.half_closed = True

    def abortConnection(self):
        self.aborted = True


class Server:
    def protocol_connected(self, request):
        pass

    def protocol_disconnected(self, request):
        pass


class Recorded(edge.BoundedRequest):
    """Stops where daphne would hand the request to the application."""
    seen: list = []

    def process(self):
        Recorded.seen.append(self)


class Parsing(Recorded):
    """As Recorded, with Twisted's form parsing left on (what daphne's class does)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._parsePOSTFormSubmission = True


class Factory:
    server = Server()


def feed(*pieces: bytes, request_class=Recorded):
    """A channel with our request class fed these bytes: (transport, requests processed).
    The last request made is kept in `feed.request`."""
    Recorded.seen = []
    channel = http.HTTPChannel()
    channel.requestFactory = request_class
    channel.factory = Factory()
    transport = Transport()
    channel.makeConnection(transport)
    for piece in pieces:
        channel.dataReceived(piece)
    feed.request = channel.requests[-1] if channel.requests else None
    return transport, Recorded.seen


def head(path, length=None, ctype="application/json", chunked=False) -> bytes:
    size = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {length}"
    return f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: {ctype}\r\n{size}\r\n\r\n".encode()


def answer(transport) -> tuple[int, dict]:
    raw = transport.value()
    top, body = raw.split(b"\r\n\r\n", 1)
    return int(top.split(b" ")[1]), json.loads(body)


def test_a_form_body_reaches_the_application_unparsed():
    body = b"a=1&b=2&" * 100
    transport, seen = feed(head("/api/rooms", len(body), "application/x-www-form-urlencoded") + body)
    assert len(seen) == 1 and seen[0].args == {}
    seen[0].content.seek(0)
    assert seen[0].content.read() == body
    _, seen = feed(head("/api/rooms", len(body), "application/x-www-form-urlencoded") + body,
                   request_class=Parsing)
    assert seen[0].args == {b"a": [b"1"] * 100, b"b": [b"2"] * 100}   # what it would cost


@pytest.mark.parametrize("path, code", [("/api/rooms", "body_too_large"),
                                        ("/nowhere", "body_too_large"),
                                        ("/api/rooms/ABCD/decks", "upload_too_large")])
def test_a_length_over_the_paths_limit_is_refused_before_the_body(settings, path, code):
    settings.PARTYHUB_LIMITS = {**settings.PARTYHUB_LIMITS, "deck_body_bytes": 1000}
    limit = 1000 if code == "upload_too_large" else settings.PARTYHUB_LIMITS["body_bytes"]
    transport, seen = feed(head(path, limit + 1), b"x" * 5000)
    status, body = answer(transport)
    assert (status, body["error"]["code"]) == (413, code) and body["error"]["message"]
    assert transport.half_closed and not seen
    transport, seen = feed(head(path, limit) + b"x" * limit)
    assert transport.value() == b"" and len(seen) == 1


def test_a_chunked_body_is_cut_off_as_it_passes_the_limit():
    limit = 64 * 1024
    piece = b"%x\r\n%s\r\n" % (1024, b"y" * 1024)
    transport, seen = feed(head("/api/rooms", chunked=True), *([piece] * 64), b"0\r\n\r\n")
    assert transport.value() == b"" and len(seen) == 1   # 64 KiB: within the limit
    transport, seen = feed(head("/api/rooms", chunked=True), *([piece] * 200))
    status, body = answer(transport)
    assert (status, body["error"]["code"]) == (413, "body_too_large") and not seen
    assert transport.value().count(b"HTTP/1.1 413") == 1
    assert feed.request.content.tell() == limit       # the rest was read and dropped
    assert transport.half_closed


def test_a_spooled_body_is_handed_over_a_chunk_at_a_time_then_the_queue():
    async def run():
        queue = asyncio.Queue()
        queue.put_nowait({"type": "http.request", "body": b"", "more_body": False})
        queue.put_nowait({"type": "http.disconnect"})
        data = b"q" * (2 * edge.CHUNK + 10)
        reader = edge.SpooledBody(io.BytesIO(data), queue)
        got = [await reader.receive() for _ in range(3)]
        assert [len(m["body"]) for m in got] == [edge.CHUNK, edge.CHUNK, 10]
        assert [m["more_body"] for m in got] == [True, True, False]
        assert b"".join(m["body"] for m in got) == data
        assert await reader.receive() == {"type": "http.disconnect"}
    asyncio.run(run())


@pytest.mark.parametrize("headers", [[f"X-H{i}: v" for i in range(501)],      # 501 headers
                                     [f"X-Big: {'v' * 17000}"]])              # over 16 KiB
def test_headers_are_bounded_by_twisted(headers):
    raw = ("GET / HTTP/1.1\r\nHost: x\r\n" + "\r\n".join(headers) + "\r\n\r\n").encode()
    transport, seen = feed(raw)
    assert not seen
    assert transport.value().startswith(b"HTTP/1.1 400") or transport.disconnecting   # a line
    # over 16 KiB is dropped with the connection, without an answer


# ---------------------------------------------------------------- slow requests (GuardedChannel)

def guarded(settings):
    """A GuardedChannel on a fake clock, 2 s for headers, 5 s plus 1 s per 100 bytes of body."""
    from twisted.internet.task import Clock
    settings.PARTYHUB_LIMITS = {**settings.PARTYHUB_LIMITS, "header_seconds": 2.0,
                                "body_seconds": 5.0, "body_min_rate": 100}
    Recorded.seen = []
    clock = Clock()
    channel = edge.GuardedChannel()
    channel.clock, channel.callLater = clock, clock.callLater
    channel.requestFactory = Recorded
    channel.factory = Factory()
    transport = Transport()
    channel.makeConnection(transport)
    return channel, transport, clock


def test_headers_that_do_not_come_whole_in_time_are_answered_408(settings):
    channel, transport, clock = guarded(settings)
    channel.dataReceived(b"GET / HTTP/1.1\r\n")
    for _ in range(19):                 # a byte every 0.1 s restarts Twisted's idle timeout
        clock.advance(0.1)
        channel.dataReceived(b"X")
    assert transport.value() == b""
    clock.advance(0.11)
    assert answer(transport) == (408, {"error": {"code": "request_too_slow",
                                                 "message": "The request came too slowly."}})
    assert transport.disconnecting and Recorded.seen == []
    channel.dataReceived(b"-More: headers\r\n\r\n")    # nothing more is read
    assert Recorded.seen == []


def test_a_body_earns_time_with_every_byte_it_sends(settings):
    channel, transport, clock = guarded(settings)
    channel.dataReceived(head("/api/rooms", 2000))
    for _ in range(15):                 # 50 bytes a second: half the rate that earns time
        clock.advance(1)
        channel.dataReceived(b" " * 50)
    # 15 s in: 5 s + 750 bytes / 100 per second = 12.5 s allowed: cut off at the check
    assert answer(transport)[0] == 408 and Recorded.seen == []

    channel, transport, clock = guarded(settings)
    channel.dataReceived(head("/api/rooms", 2000))
    for _ in range(20):                 # 100 bytes a second: it keeps up, and comes in whole
        clock.advance(1)
        channel.dataReceived(b" " * 100)
    assert transport.value() == b"" and len(Recorded.seen) == 1


def test_a_request_that_came_in_whole_has_no_deadline_while_it_is_answered(settings):
    channel, transport, clock = guarded(settings)
    channel.dataReceived(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    assert len(Recorded.seen) == 1 and channel.deadline is None
    clock.advance(60)
    assert transport.value() == b""
