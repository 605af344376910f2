"""Hostile HTTP bodies against a real daphne (127.0.0.1 only, every loop bounded), and what
the server pays for them: its resident memory (VmRSS) and a calm socket's ping round trip.

- `send_body(...)`: one request with a body of `size` bytes (by Content-Length or chunked),
  sent a MiB at a time until the server answers or closes; the status and the seconds.
- `Watch`: samples the server's VmRSS in a thread while an attack runs.
- `pings(ws, stop)`: WebSocket ping/pong round trips (ms) until `stop` is set.
- `server(...)`: a daphne of a test module's own.
"""
from __future__ import annotations

import asyncio
import select
import socket
import threading
import time
from contextlib import contextmanager

from tests.liveserver import Daphne

MiB = 1024 * 1024
RSS_GROWTH_MIB = 64   # what one hostile request may cost the server's memory, at most
PING_MS = 250         # a calm socket's ping round trip while it runs, at most


@contextmanager
def server(tmp_path_factory, name: str, **env):
    """A daphne (partyhub.edge) of its own, with room and join limits out of the way."""
    srv = Daphne(tmp_path_factory.mktemp(name), {
        "PARTYHUB_ROOMS_PER_MINUTE": "1000", "PARTYHUB_JOINS_PER_MINUTE": "1000", **env})
    try:
        yield srv.migrate().start()
    finally:
        srv.kill()


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


class Watch:
    """The largest VmRSS of `pid` while the block runs, sampled every 10 ms."""

    def __init__(self, pid: int):
        self.pid, self.peak, self.stop = pid, 0.0, threading.Event()
        self.before = rss_mib(pid)

    def _run(self):
        while not self.stop.is_set():
            self.peak = max(self.peak, rss_mib(self.pid))
            time.sleep(0.01)

    def __enter__(self):
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(5)

    @property
    def growth(self) -> float:
        return max(0.0, self.peak - self.before)


def _answer(s: socket.socket, timeout: float) -> bytes:
    s.settimeout(timeout)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            got = s.recv(65536)
            if not got:
                break
            data += got
    except OSError:
        pass
    return data


def send_body(port: int, path: str, size: int, content_type: str, chunked=False,
              headers: dict | None = None, body: bytes | None = None, timeout=30.0,
              stubborn=False):
    """(status or None, seconds until the answer, bytes sent). `body` (if given) starts the
    body, the rest is filler. Stops sending as soon as an answer can be read, unless
    `stubborn` (then it sends until done or the server closes)."""
    head = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Type: {content_type}"]
    head.append("Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}")
    head += [f"{k}: {v}" for k, v in (headers or {}).items()]
    filler = (b"a=" * (MiB // 2)) if "urlencoded" in content_type else b"x" * MiB
    start = time.monotonic()
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
        first = body or b""
        try:
            while sent < size and time.monotonic() - start < timeout:
                if not stubborn and select.select([s], [], [], 0)[0]:
                    break   # the server has answered (or closed): stop sending
                piece = (first[sent:sent + MiB] if sent < len(first) else filler)[:size - sent]
                s.sendall(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
                sent += len(piece)
            if chunked and sent >= size:
                s.sendall(b"0\r\n\r\n")
        except OSError:
            pass
        data = _answer(s, max(1.0, timeout - (time.monotonic() - start)))
    seconds = time.monotonic() - start
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else None
    return status, seconds, sent


async def pings(ws, stop: asyncio.Event, gap=0.02) -> list[float]:
    """Round trips (ms) of WebSocket pings, one every `gap` seconds, until `stop`."""
    out = []
    while not stop.is_set():
        t0 = time.perf_counter()
        pong = await ws.ping()
        await asyncio.wait_for(pong, 10)
        out.append((time.perf_counter() - t0) * 1000)
        await asyncio.sleep(gap)
    return out


async def under_attack(ws, attack, *args, **kwargs):
    """Run the blocking `attack` in a thread while `ws` is pinged: (its result, pings)."""
    stop = asyncio.Event()
    pinger = asyncio.create_task(pings(ws, stop))
    try:
        result = await asyncio.to_thread(attack, *args, **kwargs)
    finally:
        await asyncio.sleep(0.1)
        stop.set()
    return result, await pinger
