"""The room lifecycle on a real daphne with a short idle time: a room with a socket open stays,
a room everybody left closes (410, an error frame and close 4010 for a returning phone), and
is purged after the retention (404, its code free)."""
import asyncio
import time

import pytest
import websockets

from tests.liveserver import Conn, Daphne, http, room_with_players

pytestmark = pytest.mark.slow
IDLE_S = 2.0
RETENTION_DAYS = 6 / 86400      # six seconds


async def status_becomes(url: str, wanted: int, within: float) -> float:
    """Poll until GET url answers `wanted`; returns the seconds it took."""
    t0 = time.monotonic()
    while True:
        status, _ = await asyncio.to_thread(http, "GET", url)
        if status == wanted:
            return time.monotonic() - t0
        assert time.monotonic() - t0 < within, f"{url} still answers {status}"
        await asyncio.sleep(0.2)


async def test_a_room_lives_while_a_socket_is_open_then_closes_and_is_purged(tmp_path):
    server = Daphne(tmp_path, {"PARTYHUB_ROOM_IDLE_SECONDS": str(IDLE_S),
                               "PARTYHUB_ROOM_RETENTION_DAYS": str(RETENTION_DAYS),
                               "TIMEKEEPER_INTERVAL": "0.1",
                               # it polls a closed room until it is gone: 410 is a failed lookup
                               "PARTYHUB_LOOKUPS_PER_MINUTE": "10000"}).migrate().start()
    try:
        room, seats = await asyncio.to_thread(room_with_players, server.base, ["Ann"])
        summary = f"{server.base}/api/rooms/{room['code']}"
        tv = await Conn(server.base, room["code"], room["host_token"]).open()
        phone = await Conn(server.base, room["code"], seats[0]["token"]).open()
        await asyncio.sleep(3 * IDLE_S)                 # idle time passes; the sockets beat
        assert (await asyncio.to_thread(http, "GET", summary))[0] == 200
        await phone.close()                             # the phone sleeps, the TV is still on
        await asyncio.sleep(2 * IDLE_S)
        assert (await asyncio.to_thread(http, "GET", summary))[0] == 200
        await tv.close()                                # everybody has gone
        closed_after = await status_becomes(summary, 410, within=IDLE_S + 5)
        ws = server.base.replace("http", "ws", 1) + f"/ws/rooms/{room['code']}?token={seats[0]['token']}"
        async with websockets.connect(ws) as c:         # the phone comes back: told, then closed
            frame = await asyncio.wait_for(c.recv(), 5)
            assert '"room_closed"' in frame
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(c.recv(), 5)
            assert closed.value.rcvd.code == 4010
        status, body = await asyncio.to_thread(http, "POST", f"{summary}/join", {"name": "Bob"})
        assert status == 410 and body["error"]["code"] == "room_closed"
        purged_after = await status_becomes(summary, 404, within=6 + 5)
        print(f"closed {closed_after:.1f} s after the last socket left, purged {purged_after:.1f} s later")
    finally:
        server.kill()
