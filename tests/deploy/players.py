"""Players for the compose stack: a TV and phones that reconnect as the pages do, and bots.

Phones choose among their view's moves as bots do (partyhub.bots.choose); the bots are
partyhub.bots itself, joining and playing through the public protocol.
"""
from __future__ import annotations

import asyncio
import io
import json
import os
import random
import urllib.error
import urllib.request
import uuid
import zipfile

import websockets
from PIL import Image

from partyhub import bots
from tests.liveserver import Conn


REPLICA = "X-Partyhub-Replica"


class Client(Conn):
    """A protocol client that opens its socket again when it drops (its replica died)."""

    closing = False
    drops = 0

    @property
    def replica(self) -> str | None:
        """The replica that accepted the socket now open (its handshake's X-Partyhub-Replica)."""
        return self.ws.response.headers.get(REPLICA)

    async def _read(self):
        while True:
            await super()._read()
            if self.closing:
                return
            self.drops += 1
            self.ws = await self._reopen()

    async def _reopen(self, seconds=90):
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        while True:
            try:
                return await websockets.connect(self.url, max_size=2 ** 22, open_timeout=10)
            except (OSError, websockets.InvalidStatus, websockets.InvalidHandshake, asyncio.TimeoutError):
                if loop.time() > end:
                    raise
                await asyncio.sleep(0.5)

    async def close(self):
        self.closing = True
        await self.ws.close()
        self.reader.cancel()


async def drive(phone: Client, rnd: random.Random, stop: asyncio.Event, think=(0.8, 2.0)) -> int:
    """Play the phone's seat as a person would: a move of its view whenever the view changes (or
    every 3 s after a refused or lost one), after a think time drawn from `think` seconds (no
    instant taps: a phone that ended every reveal at once would finish a game in seconds).
    Returns the number of moves sent."""
    acted_on, sent, since = -1, 0, 0.0
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        await asyncio.sleep(0.1)
        view = phone.view
        if view is None or (phone.version == acted_on and loop.time() - since < 3):
            continue
        action = bots.choose(view.get("actions", []), view["room"].get("language", "en"), rnd)
        if action is None:
            continue
        acted_on, since = phone.version, loop.time()
        await asyncio.sleep(rnd.uniform(*think))
        try:
            await phone.act(action)
            sent += 1
        except websockets.ConnectionClosed:
            pass   # the socket is being opened again: the next view says what to do
    return sent


def get(url: str, headers: dict | None = None) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def served_by(url: str, body: dict | None = None) -> tuple[str, bytes]:
    """The replica that answered a GET (or a POST of this JSON body) through the proxy, and
    the answer's body."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.headers[REPLICA], r.read()
    except urllib.error.HTTPError as e:
        return e.headers[REPLICA], e.read()


def post_json(url: str, body: dict, headers: dict | None = None) -> tuple[int, dict]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", **(headers or {})})
    return _send(req)


def _send(req, timeout=120) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        body = e.read()
        try:
            return e.code, json.loads(body or b"null")
        except ValueError:
            return e.code, {"html": body[:200].decode("latin-1")}


def pictures_zip(megabytes: float, count: int) -> bytes:
    """A zip of `count` JPEG pictures of noise (which does not compress), `megabytes` in all."""
    buf = io.BytesIO()
    per = int(megabytes * 1024 * 1024 / count)
    side = 300
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for n in range(count):
            while True:
                im = Image.frombytes("RGB", (side, side * 3 // 2), os.urandom(side * side * 3 // 2 * 3))
                out = io.BytesIO()
                im.save(out, "JPEG", quality=95)
                if out.tell() >= per:
                    break
                side += 40
            z.writestr(f"deck/card-{n:02d}.jpg", out.getvalue())
    return buf.getvalue()


def upload_deck(base: str, code: str, host_token: str, name: str, data: bytes) -> tuple[int, dict]:
    """POST /api/rooms/<code>/decks as the TV's upload form does (multipart, one zip)."""
    boundary = uuid.uuid4().hex
    body = b"".join([
        f'--{boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n{name}\r\n'.encode(),
        f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="deck.zip"\r\n'
        f'Content-Type: application/zip\r\n\r\n'.encode(), data, b"\r\n",
        f"--{boundary}--\r\n".encode()])
    req = urllib.request.Request(f"{base}/api/rooms/{code}/decks", data=body, method="POST", headers={
        "Content-Type": f"multipart/form-data; boundary={boundary}",
        "Authorization": f"Bearer {host_token}"})
    return _send(req, timeout=300)
