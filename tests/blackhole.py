"""A TCP proxy whose network can go away without closing anything: a phone's Wi-Fi dropping.

`Blackhole(target_host, target_port, host)` listens on `host` (a free port) and forwards each
connection to the target. `cut()` stops the network: from then on, every connection open so
far, and every one accepted before `restore()`, is silently dead for good: bytes from either
side are read and dropped, neither side is closed (a half-open socket, as after a Wi-Fi
change). After `restore()`, new connections are forwarded again.

What the server sent into the void is kept: every WebSocket frame from the server side of a
dead connection is parsed and recorded in `lost` (its JSON, and when), so a test can say which
frames a client never received.
"""
from __future__ import annotations

import asyncio
import json
import time


class _Frames:
    """Parses one direction of a WebSocket connection (the server's): an HTTP head, then
    frames (RFC 6455 5.2). Text frames are decoded as JSON."""

    def __init__(self):
        self.buf = b""
        self.head = True

    def feed(self, data: bytes) -> list:
        self.buf += data
        out = []
        if self.head:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return out
            self.buf, self.head = self.buf[end + 4:], False
        while len(self.buf) >= 2:
            b0, b1 = self.buf[0], self.buf[1]
            n, at = b1 & 0x7F, 2
            if n == 126:
                if len(self.buf) < 4:
                    break
                n, at = int.from_bytes(self.buf[2:4], "big"), 4
            elif n == 127:
                if len(self.buf) < 10:
                    break
                n, at = int.from_bytes(self.buf[2:10], "big"), 10
            mask = self.buf[at:at + 4] if b1 & 0x80 else None
            at += 4 if mask else 0
            if len(self.buf) < at + n:
                break
            payload = self.buf[at:at + n]
            if mask:
                payload = bytes(c ^ mask[i % 4] for i, c in enumerate(payload))
            self.buf = self.buf[at + n:]
            opcode = b0 & 0x0F
            if opcode == 1 and not b0 & 0x40:      # a text frame, not compressed
                try:
                    out.append(json.loads(payload))
                except ValueError:
                    out.append({"t": "?", "raw": payload[:80]})
            elif opcode in (1, 2):
                out.append({"t": "?", "opcode": opcode, "rsv1": bool(b0 & 0x40)})
        return out


class _Link:
    def __init__(self, proxy: "Blackhole", dead: bool):
        self.proxy = proxy
        self.dead = dead
        self.frames = _Frames()
        self.writers: list = []
        self.task = asyncio.current_task()


class Blackhole:
    def __init__(self, target_host: str, target_port: int, host: str = "127.0.0.1"):
        self.target = (target_host, target_port)
        self.host = host
        self.port = None
        self.links: list[_Link] = []
        self.down = False
        self.lost: list[tuple[float, dict]] = []      # (monotonic time, frame) never delivered
        self.accepted = 0
        self.server = None

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def start(self):
        self.server = await asyncio.start_server(self._serve, self.host, 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    def cut(self):
        """The network goes: every connection there is now is dead for good."""
        self.down = True
        for link in self.links:
            link.dead = True

    def restore(self):
        """The network is back for new connections; the dead ones stay dead (and open)."""
        self.down = False

    async def close(self):
        self.server.close()
        for link in self.links:
            for w in link.writers:
                w.close()
            if link.task is not None:
                link.task.cancel()
        await asyncio.sleep(0)

    async def _serve(self, reader, writer):
        try:
            await self._link(reader, writer)
        except asyncio.CancelledError:      # close(): the handler ends quietly
            pass

    async def _link(self, reader, writer):
        self.accepted += 1
        link = _Link(self, dead=self.down)
        self.links.append(link)
        link.writers.append(writer)
        if link.dead:                       # accepted into the void: read, drop, keep open
            await self._drain(reader)
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        link.writers.append(up_writer)
        await asyncio.gather(self._pipe(reader, up_writer, link, None),
                             self._pipe(up_reader, writer, link, link.frames),
                             return_exceptions=True)

    @staticmethod
    async def _drain(reader):
        while await reader.read(65536):
            pass

    async def _pipe(self, reader, writer, link, frames):
        """Forwards until either side closes; once the link is dead, drops (and, from the
        server, records) whatever comes, and never closes."""
        while True:
            data = await reader.read(65536)
            parsed = frames.feed(data) if frames is not None and data else []
            if link.dead:
                now = time.monotonic()
                self.lost.extend((now, f) for f in parsed)
                if not data:
                    return await asyncio.Event().wait()      # the other side hung up: stay open
                continue
            if not data:
                writer.close()
                return
            writer.write(data)
            await writer.drain()
