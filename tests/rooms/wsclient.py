"""A WebsocketCommunicator wrapper that speaks the protocol: views, acts, errors."""
import asyncio
import json
import time
import uuid

from channels.testing import WebsocketCommunicator

from partyhub.asgi import application
from partyhub.blobs import Held

HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


class Client:
    def __init__(self, code, token=None, headers=HEADERS):
        path = f"/ws/rooms/{code}" + (f"?token={token}" if token else "")
        self.comm = WebsocketCommunicator(application, path, headers=headers)
        self.view, self.version, self.frames = None, -1, []
        self.pongs = 0          # pongs taken (tests/harness/recorded.py pings to settle)
        self.held = Held()      # the drawings this connection was sent (blobs frames)

    async def open(self):
        """True once the first view is in; otherwise the close code (a refused token is
        accepted, then closed before any view)."""
        connected, close_code = await self.comm.connect(timeout=5)
        if not connected:
            return close_code
        first = await self.next_view()
        return True if first["t"] == "view" else first["code"]

    async def recv(self, timeout=3):
        return self.take(await self.comm.receive_output(timeout))

    def take(self, out):
        """One output message of the application, as a frame (kept in `frames`)."""
        if out["type"] == "websocket.close":
            self.frames.append({"t": "_closed", "code": out.get("code")})
            return self.frames[-1]
        frame = self.held.take(json.loads(out["text"]))
        self.frames.append(frame)
        if frame["t"] == "view":
            assert frame["v"] > self.version, "versions only grow"
            self.version, self.view = frame["v"], frame["d"]
        return frame

    async def next_view(self, timeout=3):
        while True:
            f = await self.recv(timeout)
            if f["t"] in ("view", "_closed"):
                return f

    async def until(self, pred, timeout=3):
        while not (self.view and pred(self.view)):
            await self.recv(timeout)
        return self.view

    async def send(self, obj):
        await self.comm.send_to(text_data=obj if isinstance(obj, str) else json.dumps(obj))

    async def act(self, d, ref=None):
        ref = ref or uuid.uuid4().hex
        await self.send({"t": "act", "id": ref, "d": d})
        return ref

    async def error(self, timeout=3):
        while True:
            f = await self.recv(timeout)
            if f["t"] in ("error", "_closed"):
                return f

    async def drain(self):
        await drain_all([self])

    async def close(self):
        await self.comm.disconnect()


async def until_quiet(comms, quiet=0.02) -> list:
    """Every message the applications behind `comms` (WebsocketCommunicators) send, until none
    has sent one for `quiet` seconds: [(index in comms, message)], each one's in order. One
    quiet wait for them all, where draining them one after another waits once for each (a
    view goes to every socket of the room at once)."""
    out = []
    while True:
        for i, comm in enumerate(comms):
            if comm.future.done():
                comm.future.result()        # the application's exception, if it raised
            while not comm.output_queue.empty():
                out.append((i, comm.output_queue.get_nowait()))
        end = time.monotonic() + quiet
        while all(c.output_queue.empty() for c in comms):
            if time.monotonic() >= end:
                return out
            await asyncio.sleep(0.005)


async def drain_all(clients, quiet=0.1, ping=False):
    """Client.drain for several clients at once (until_quiet). `ping`: first each open one is
    pinged, and its frames are taken until it has answered (a socket answers after what was
    sent on it before: an action applied and its views published; the pong is not kept),
    for at most 10 s; then until none gets a frame for `quiet` seconds."""
    comms = [c.comm for c in clients]
    waiting = set()
    if ping:
        for i, c in enumerate(clients):
            if not c.comm.future.done():
                await c.send({"t": "ping", "d": {"c": DRAIN}})
                waiting.add(i)
    end = time.monotonic() + 10
    while waiting and time.monotonic() < end:
        for i, out in await until_quiet(comms, 0.005):
            if _drain_pong(out):
                waiting.discard(i)
            else:
                clients[i].take(out)
    for i, out in await until_quiet(comms, quiet):
        if not _drain_pong(out):
            clients[i].take(out)


DRAIN = "drain"


def _drain_pong(out) -> bool:
    if out["type"] != "websocket.send" or '"pong"' not in out.get("text", ""):
        return False
    frame = json.loads(out["text"])
    return frame.get("t") == "pong" and (frame.get("d") or {}).get("c") == DRAIN
