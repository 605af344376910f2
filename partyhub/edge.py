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

Headers are bounded by Twisted itself (500 headers, 16 KiB with the request line: 400).
docs/security.md lists the limits.
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
from twisted.internet import reactor

LINGER_SECONDS = 2.0     # after a refusal: read and drop the rest for this long, then close
IN_MEMORY_BELOW = 100_000   # Twisted's own threshold between memory and a temporary file
CHUNK = 64 * 1024        # a spooled body is handed over in chunks of this size


def limit_for(raw_path: bytes) -> tuple[int, str]:
    """(bytes, error code) for a body sent to this path (query string included or not)."""
    from django.conf import settings
    from django.urls import Resolver404, resolve

    from partyhub.rooms.limits import BODY_LIMIT
    path = unquote(raw_path.split(b"?", 1)[0].decode("ascii", "replace"))
    try:
        setting, code = getattr(resolve(path).func, "body_limit", BODY_LIMIT)
    except Resolver404:
        setting, code = BODY_LIMIT
    return settings.PARTYHUB_LIMITS[setting], code


def refusal(code: str) -> bytes:
    """The raw HTTP answer to a body over its limit: 413 with the protocol's JSON error."""
    from partyhub.rooms.errors import MESSAGES
    payload = json.dumps({"error": {"code": code, "message": MESSAGES[code]}}).encode()
    head = (b"HTTP/1.1 413 Content Too Large\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(payload))
    return head + payload


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
    def buildProtocol(self, addr):
        protocol = super().buildProtocol(addr)
        protocol.requestFactory = BoundedRequest
        return protocol


class BoundedServer(Server):
    """daphne's Server with BoundedRequest for HTTP (WebSockets are unchanged)."""

    @property
    def http_factory(self):
        return self._bounded_factory

    @http_factory.setter
    def http_factory(self, made):
        """Server.run makes daphne's HTTPFactory; this server uses its own."""
        self._bounded_factory = BoundedFactory(self)

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
