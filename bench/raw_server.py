"""The raw `websockets` floor: broadcast each received frame to the sockets of its room.

Run: python -m bench.raw_server --port 8765   (path /ws/<room>)
"""
from __future__ import annotations

import argparse
import asyncio
from collections import defaultdict

from websockets.asyncio.server import broadcast, serve

ROOMS: dict = defaultdict(set)


async def handler(ws):
    path = ws.request.path
    room = path.rsplit("/", 1)[-1]
    members = ROOMS[room]
    members.add(ws)
    try:
        async for frame in ws:
            broadcast(members, frame)
    finally:
        members.discard(ws)


async def main(port: int) -> None:
    async with serve(handler, "127.0.0.1", port, max_size=2 ** 20, compression=None):
        await asyncio.Future()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, default=8765)
    asyncio.run(main(p.parse_args().port))
