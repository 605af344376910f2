"""The bots' reconnecting loop (partyhub/bots/client.py `dial`), shared by the lobby's bots
and the crash tests' clients: a refused handshake ends a lobby bot, and with the crash
clients' Redial it tries the next address; a socket that closes is dialled again; a session
that gives a reason ends the loop."""
import asyncio
import random

import pytest
import websockets
from websockets.asyncio.server import serve

from partyhub.bots.client import Redial, dial

QUICK = Redial(first=0.01, most=0.01, spread=0, open_timeout=2)
EVERY = Redial(first=0.01, most=0.01, spread=0, open_timeout=2,
               drops=(OSError, websockets.WebSocketException, asyncio.TimeoutError))


@pytest.fixture
async def servers():
    """Two servers: one that refuses every handshake (403), one that accepts and closes."""
    opened = []

    def refuse(connection, request):
        return connection.respond(403, "no\n")

    async def accept(ws):
        opened.append(ws.request.path)
        await ws.close()

    async with serve(accept, "127.0.0.1", 0, process_request=refuse) as no, \
            serve(accept, "127.0.0.1", 0) as yes:
        bases = [f"http://127.0.0.1:{s.sockets[0].getsockname()[1]}" for s in (no, yes)]
        yield bases, opened


async def test_a_refused_handshake_ends_a_lobby_bot(servers):
    (no, _), _ = servers
    assert await dial([no], "ABCD", "t", None, random.Random(1), QUICK) == "refused"


async def test_a_closed_socket_is_dialled_again_until_the_session_gives_a_reason(servers):
    (_, yes), opened = servers
    calls = []

    async def session(ws, base):
        calls.append(base)
        return "done" if len(calls) == 3 else None
    assert await dial([yes], "ABCD", "tok", session, random.Random(1), QUICK) == "done"
    assert calls == [yes] * 3 and opened[0] == "/ws/rooms/ABCD?token=tok"


async def test_the_crash_clients_try_the_next_address_when_one_refuses(servers):
    (no, yes), _ = servers
    calls = []

    async def session(ws, base):
        calls.append(base)
        return "done"
    assert await dial([no, yes], "ABCD", "t", session, random.Random(1), EVERY) == "done"
    assert calls == [yes]


async def test_time_runs_out():
    # nothing listens there: every try fails at once
    assert await dial(["http://127.0.0.1:9"], "ABCD", "t", None, random.Random(1), QUICK,
                      seconds=0.1) == "timeout"
