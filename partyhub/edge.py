"""daphne with bounded request bodies: `python -m partyhub.edge <daphne's arguments>`.

Twisted reads a request's whole body before daphne sees it, and parses a form body
(urlencoded or multipart) into `request.args` on the event loop; daphne then queues the whole
body for the application at once. Nothing bounds the size. This server changes three things:

- Every body has a limit chosen by its path, before a byte of it is read: the view a path
  resolves to may name its own (`limits.body_limit`), every other path has `body_bytes`. A body
  over its limit is refused with 413 and a JSON error from its Content-Length, or as soon as
  a chunked body passes the limit; the connection then closes after a short linger that
  reads and drops the rest, so the client can read the answer.
- Twisted's form parsing never runs: the body goes to Django untouched.
- A body Twisted kept in a temporary file (over about 100 kB) is handed to the application
  a chunk at a time, as it asks, instead of all at once: it is never in memory whole.

And every request must come in time (slowloris: headers or a body trickled a byte at a
time hold a connection, and its file descriptor, for ever, since Twisted's idle timeout
restarts with every byte): its line and headers within `header_seconds` of its first byte,
its body within `body_seconds` plus one second for every `body_min_rate` bytes received
(`GuardedChannel`). Past that: 408 `request_too_slow` and the connection closes. A connection
that sends nothing at all is closed by Twisted's idle timeout (60 s).

Headers are bounded by Twisted itself (500 headers, 16 KiB with the request line: 400).
docs/security.md lists the limits.

WebSockets: the handshake's answer carries the `headers` of the application's
`websocket.accept` (the ASGI spec's; daphne drops them): X-Partyhub-Replica
(partyhub/http/replica.py).
"""
from __future__ import annotations

import asyncio
import io
import json
import sys
import tempfile
from functools import partial
from urllib.parse import unquote

from daphne.cli import CommandLineInterface  # first: installs Twisted's asyncio reactor
from daphne.server import Server
from daphne.http_protocol import HTTPFactory, WebRequest
from daphne.ws_protocol import WebSocketProtocol
from twisted.internet import reactor
from twisted.web import http

from partyhub.http.limits import BODY_LIMIT
from partyhub.rooms.core.errors import HTTP_STATUS, MESSAGES

LINGER_SECONDS = 2.0     # after a refusal: read and drop the rest for this long, then close
IN_MEMORY_BELOW = 100_000   # Twisted's own threshold between memory and a temporary file
CHUNK = 64 * 1024        # a spooled body is handed over in chunks of this size


def limit_for(raw_path: bytes) -> tuple[int, str]:
    """(bytes, error code) for a body sent to this path (query string included or not)."""
    from django.conf import settings
    from django.urls import Resolver404, resolve

    path = unquote(raw_path.split(b"?", 1)[0].decode("ascii", "replace"))
    try:
        setting, code = getattr(resolve(path).func, "body_limit", BODY_LIMIT)
    except Resolver404:
        setting, code = BODY_LIMIT
    return settings.PARTYHUB_LIMITS[setting], code


def refusal(code: str) -> bytes:
    """The raw HTTP answer that refuses a request with this error code (413 for a body over
    its limit, 408 for a slow request), with the protocol's JSON error; the connection closes."""
    status = HTTP_STATUS[code]
    payload = json.dumps({"error": {"code": code, "message": MESSAGES[code]}}).encode()
    head = (b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\nConnection: close\r\n\r\n"
            % (status, REASONS.get(status, b"Refused"), len(payload)))
    return head + payload


REASONS = {408: b"Request Timeout", 413: b"Content Too Large"}


def _limits() -> tuple[float, float, int]:
    """(header_seconds, body_seconds, body_min_rate) from the settings."""
    from django.conf import settings
    limits = settings.PARTYHUB_LIMITS
    return limits["header_seconds"], limits["body_seconds"], limits["body_min_rate"]


def _drop(data: bytes) -> None:
    """What a refused connection does with the rest of its body."""


class BoundedRequest(WebRequest):
    """daphne's request with a per-path body limit, no form parsing and a streamed body."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._parsePOSTFormSubmission = False   # Twisted never parses a form body
        self.limit, self.code, self.received, self.refused = 0, "body_too_large", 0, False
        self.spooled = None

    def gotLength(self, length):
        """All headers are in (Twisted calls this before reading any body)."""
        if length == 0:   # no body (most requests): nothing to look up
            self.content = io.BytesIO()
            return
        self.limit, self.code = limit_for(getattr(self.channel, "_path", b"/"))
        if length is not None and length > self.limit:
            self.content = io.BytesIO()
            self.refuse()
            return
        small = min(self.limit, length if length is not None else self.limit) < IN_MEMORY_BELOW
        self.content = io.BytesIO() if small else tempfile.TemporaryFile(prefix="partyhub-body-")

    def handleContentChunk(self, data):
        if self.refused:
            return
        self.received += len(data)
        if self.received > self.limit:   # a chunked body (a Content-Length was checked above)
            self.refuse()
            return
        self.content.write(data)

    def refuse(self) -> None:
        """Answer 413, read and drop whatever else comes for a moment, then close."""
        self.refused = True
        self.requestHeaders.removeHeader(b"Expect")   # no "100 Continue" after the answer
        channel, transport = self.channel, self.channel.transport
        channel.dataReceived = _drop
        transport.write(refusal(self.code))
        transport.loseWriteConnection()
        reactor.callLater(LINGER_SECONDS, transport.abortConnection)

    def requestReceived(self, command, path, version):
        if self.refused:
            return
        super().requestReceived(command, path, version)

    def process(self):
        if not isinstance(self.content, io.BytesIO):
            self.spooled, self.content = self.content, io.BytesIO()
        return super().process()


class GuardedChannel(http.HTTPChannel):
    """Twisted's HTTP channel with a deadline for each request to come in whole (the module's
    docstring). The clock starts at a request's first byte; when the headers are in it starts
    again for the body, whose allowance grows with every byte received; the deadline is
    checked when it falls due (one timer per connection, moved on only then)."""

    clock = reactor
    deadline = None         # the pending check, while a request is coming in
    started = 0.0           # when the request's first byte, or its body's, arrived
    body = None             # body bytes received so far; None while the headers come
    handling = False        # a request is in (until Twisted is done with it)

    def dataReceived(self, data):
        if self.deadline is None and not self.handling:
            self.started, self.body = self.clock.seconds(), None
            self.deadline = self.callLater(_limits()[0], self._check)
        elif self.body is not None:
            self.body += len(data)
        super().dataReceived(data)

    def allHeadersReceived(self):
        super().allHeadersReceived()
        self.started, self.body = self.clock.seconds(), 0

    def allContentReceived(self):
        self.handling = True
        self._disarm()
        super().allContentReceived()

    def requestDone(self, request):
        self.handling = False
        super().requestDone(request)

    def connectionLost(self, reason):
        self._disarm()
        super().connectionLost(reason)

    def _disarm(self) -> None:
        if self.deadline is not None and self.deadline.active():
            self.deadline.cancel()
        self.deadline = None

    def _check(self) -> None:
        self.deadline = None
        header_seconds, body_seconds, rate = _limits()
        allowed = header_seconds if self.body is None else body_seconds + self.body / rate
        left = self.started + allowed - self.clock.seconds()
        if left > 0:    # not before a quarter second: a body just under the rate halves `left`
            self.deadline = self.callLater(max(left, 0.25), self._check)
        elif not any(getattr(r, "refused", False) for r in self.requests):
            self.too_slow()

    def too_slow(self) -> None:
        """Answer 408, read nothing more, close (abort if the peer does not read)."""
        self.dataReceived = _drop
        transport = self.transport
        transport.write(refusal("request_too_slow"))
        transport.loseConnection()
        self.callLater(LINGER_SECONDS, transport.abortConnection)


def _guarded(factory) -> http._GenericHTTPChannelProtocol:
    """The protocol of a connection: Twisted's own wrapper (which picks HTTP/1.1 or HTTP/2)
    around a GuardedChannel instead of a plain HTTPChannel."""
    return http._GenericHTTPChannelProtocol(GuardedChannel())


class SpooledBody:
    """An ASGI `receive` that reads a spooled body from its file, then daphne's queue."""

    def __init__(self, file, queue: asyncio.Queue):
        self.file, self.queue = file, queue
        self.size = file.seek(0, 2)
        file.seek(0)

    async def receive(self) -> dict:
        if not self.file.closed:
            await asyncio.sleep(0)   # the reader loops on receive(): let the loop run between
            chunk = self.file.read(CHUNK)
            more = self.file.tell() < self.size
            if not more:
                self.file.close()
            return {"type": "http.request", "body": chunk, "more_body": more}
        while True:
            message = await self.queue.get()
            if message["type"] != "http.request":   # daphne's own (empty) body message
                return message


class BoundedFactory(HTTPFactory):
    protocol = _guarded

    def buildProtocol(self, addr):
        protocol = super().buildProtocol(addr)
        protocol.requestFactory = BoundedRequest
        return protocol


class HeadedWebSocket(WebSocketProtocol):
    """daphne's WebSocket protocol, whose handshake answer carries the accept's `headers`
    (daphne 4.2 passes only the subprotocol on: django/daphne issue 326). Autobahn adds the
    headers of a (subprotocol, headers) result of the handshake."""

    def handle_reply(self, message):
        if message.get("type") == "websocket.accept" and message.get("headers"):
            headers = {}
            for name, value in message["headers"]:
                headers.setdefault(bytes(name).decode("latin-1"), []).append(bytes(value).decode("latin-1"))
            self.serverAccept((message.get("subprotocol"), headers))
        else:
            super().handle_reply(message)


class BoundedServer(Server):
    """daphne's Server with BoundedRequest for HTTP, and HeadedWebSocket for sockets."""

    @property
    def http_factory(self):
        return self._bounded_factory

    @http_factory.setter
    def http_factory(self, made):
        """Server.run makes daphne's HTTPFactory; this server uses its own."""
        self._bounded_factory = BoundedFactory(self)

    @property
    def ws_factory(self):
        return self._ws_factory

    @ws_factory.setter
    def ws_factory(self, made):
        """Server.run makes daphne's WebSocketFactory: its sockets speak HeadedWebSocket."""
        made.protocol = HeadedWebSocket
        self._ws_factory = made

    def create_application(self, protocol, scope):
        """daphne's create_application, with the spooled body read as the application asks."""
        spooled = getattr(protocol, "spooled", None)
        if spooled is None:
            return super().create_application(protocol, scope)
        assert "application_instance" not in self.connections[protocol]
        queue = asyncio.Queue()
        scope.setdefault("asgi", {"version": "3.0"})
        instance = self.application(scope=scope, receive=SpooledBody(spooled, queue).receive,
                                    send=partial(self.handle_reply, protocol))
        if protocol not in self.connections:
            return None
        self.connections[protocol]["application_instance"] = asyncio.ensure_future(
            instance, loop=asyncio.get_event_loop())
        return queue


class BoundedCommandLine(CommandLineInterface):
    server_class = BoundedServer


def main(argv=None) -> None:
    BoundedCommandLine().run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    main()
