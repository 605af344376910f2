"""X-Partyhub-Replica: every answer names the replica (process) that served it.

Behind compose's nginx every room is routed to one web replica by its code (deploy/nginx,
README "Docker Compose"); this header lets an operator, and the stack's tests, see where a
room lives. It is put on every HTTP answer (pages, the API, static files, Django's error
pages) and on the WebSocket handshake's answer, by wrapping the ASGI application's `send`:
`http.response.start` and `websocket.accept` carry it in their `headers` (ASGI spec; daphne
itself drops a handshake's headers, partyhub/edge.py passes them on).

The name is settings.PARTYHUB_REPLICA: `PARTYHUB_REPLICA` from the environment, else the
machine's host name (a container's: its short id, as `docker ps` shows it; a pod's: its name).
"""
from __future__ import annotations

HEADER = b"x-partyhub-replica"
NAMED = ("http.response.start", "websocket.accept")


def header_value(name: str) -> bytes:
    """The name as a header value: printable ASCII only (anything else becomes '?')."""
    return "".join(c if " " < c < "\x7f" else "?" for c in name.strip())[:255].encode("ascii") or b"?"


class ReplicaHeader:
    """ASGI middleware: adds `X-Partyhub-Replica: <name>` to HTTP answers and WebSocket accepts."""

    def __init__(self, app, name: str):
        self.app = app
        self.header = (HEADER, header_value(name))

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        header = self.header

        async def named(message):
            if message["type"] in NAMED:
                message = {**message, "headers": [*(message.get("headers") or ()), header]}
            await send(message)

        return await self.app(scope, receive, named)
