"""A WebsocketCommunicator wrapper that speaks the protocol: views, acts, errors."""
import json
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
        out = await self.comm.receive_output(timeout)
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
        while not await self.comm.receive_nothing(timeout=0.1):
            await self.recv()

    async def close(self):
        await self.comm.disconnect()
