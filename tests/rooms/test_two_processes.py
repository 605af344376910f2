"""Two daphne processes over real Redis and PostgreSQL share one room."""
import asyncio
import contextlib

import pytest

from tests.liveserver import Conn, Daphne, http, room_with_players


pytestmark = [pytest.mark.slow, pytest.mark.redis, pytest.mark.postgres]


@contextlib.asynccontextmanager
async def shared_room(tmp_path, redis_url, database_url):
    """Two processes a and b; a room with the TV on a and three phones on b."""
    env = {"DATABASE_URL": database_url, "REDIS_URL": redis_url}
    a = Daphne(tmp_path, env).migrate().start()
    b = Daphne(tmp_path, env).start()
    try:
        room, seats = room_with_players(a.base, ["Ann", "Bob", "Cid"])
        tv = await Conn(a.base, room["code"], room["host_token"]).open()
        phones = [await Conn(b.base, room["code"], s["token"]).open() for s in seats]
        yield a, room, seats, tv, phones
    finally:
        a.kill()
        b.kill()


async def test_two_processes_share_a_room_and_every_action_shows_up_on_both(
        tmp_path, redis_server, postgres_database):
    async with shared_room(tmp_path, redis_server, postgres_database) as (a, room, seats, tv, phones):
        await tv.wait(lambda v: all(p["connected"] for p in v["room"]["players"]))
        await tv.act({"type": "start", "game": "count", "options": {"target": 9, "turn_seconds": 1}})
        await phones[0].wait(lambda v: v["room"]["phase"] == "playing")
        await phones[0].act({"type": "add", "n": 2})
        for conn in [tv] + phones:
            await conn.wait(lambda v: (v["game"] or {}).get("total", 0) >= 2)
        # the timer fires once across both processes: totals step by one per turn second
        totals = []
        for _ in range(6):
            await asyncio.sleep(0.5)
            totals.append(tv.view["game"]["total"])
        assert all(b - a <= 1 for a, b in zip(totals, totals[1:])), totals
        assert totals[-1] > totals[0]
        await phones[1].act({"type": "say", "text": "hello from b"})
        await tv.wait(lambda v: ["hello from b"] == [t for _, t in v["game"]["said"]])
        versions = {c.version for c in [tv] + phones}
        assert len(versions) == 1 or max(versions) - min(versions) <= 1


async def test_sketch_drawings_reach_the_other_process_once_for_each_socket(
        tmp_path, redis_server, postgres_database):
    """The drawings travel once per change between processes (the fan-out message's blobs);
    each socket, on either process, gets those it lacks before the view that names them."""
    async with shared_room(tmp_path, redis_server, postgres_database) as (a, room, seats, tv, phones):
        code = room["code"]
        await tv.act({"type": "start", "game": "sketch", "options": {"round_seconds": 6}})
        for n, p in enumerate(phones):
            await p.wait(lambda v: (v["game"] or {}).get("phase") == "drawing")
            word = next(x["word"] for x in p.view["actions"] if x["type"] == "draw" and x["board"] == 0)
            await p.act({"type": "draw", "board": 0, "word": word})
            await p.wait(lambda v: v["game"]["you"]["boards"][0]["word"] is not None)
            await p.act({"type": "stroke", "board": 0, "color": "#000", "width": 4,
                         "points": [[0.1, 0.1 + n / 10], [0.9, 0.2 + n / 10]]})
        await tv.wait(lambda v: v["game"]["phase"] == "guessing", timeout=20)
        drawn = {b["player"]: b["strokes"] for b in tv.view["game"]["boards"] if b["board"] == 0}
        assert all(len(s) == 1 for s in drawn.values()) and len(drawn) == 3
        assert any(f["t"] == "blobs" and len(f["d"]) == 3 for f in tv.frames)
        mark, v0 = len(tv.frames), tv.version
        # a phone guesses once its own process has shown it the guessing round, as a person does
        await phones[0].wait(lambda v: v["game"]["phase"] == "guessing", timeout=20)
        await phones[0].act({"type": "guess", "player": seats[1]["player_id"], "board": 0, "text": "nope"})
        await tv.wait(lambda v: tv.version > v0)
        await asyncio.sleep(0.5)
        assert [f["t"] for f in tv.frames[mark:]] == ["view"] * (len(tv.frames) - mark)
        assert {b["player"]: b["strokes"] for b in tv.view["game"]["boards"] if b["board"] == 0} == drawn
        moved = await Conn(a.base, code, seats[2]["token"]).open()    # Cid's phone, now on a
        assert moved.frames[0]["t"] == "blobs" and len(moved.frames[0]["d"]) == 3
        assert {b["player"]: b["strokes"] for b in moved.view["game"]["boards"] if b["board"] == 0} == drawn
        assert not (tv.held.missing or moved.held.missing or phones[0].held.missing)


async def test_audience_votes_on_both_processes_count_once_in_the_fold(
        tmp_path, redis_server, postgres_database):
    """Tallies live in Redis: votes sent to either process are folded once, by whichever
    process ends the phase, and the TV on one process sees the tally of votes on the other."""
    async with shared_room(tmp_path, redis_server, postgres_database) as (a, room, seats, tv, phones):
        code = room["code"]
        b_base = phones[0].url.split("/ws/")[0].replace("ws", "http", 1)
        await tv.act({"type": "start", "game": "count", "options": {"target": 30}})
        await phones[0].wait(lambda v: v["room"]["phase"] == "playing")
        fans = []
        for i, base in enumerate([a.base, b_base] * 3):
            status, p = http("POST", f"{base}/api/rooms/{code}/audience", {"name": f"F{i}"})
            assert status == 201, p
            fans.append(await Conn(base, code, p["token"]).open())
        for i, fan in enumerate(fans):
            await fan.wait(lambda v: v["room"]["phase"] == "playing" and v["actions"])
            await fan.act({"type": "predict", "n": 1})
            if i % 2:
                await fan.act({"type": "predict", "n": 2})     # a changed vote counts once
        for i, fan in enumerate(fans):
            await fan.wait(lambda v: sum(f["t"] == "mine" for f in fan.frames) == 1 + i % 2)
        # F0's pass on the other process too: the same voter, its vote changed there
        status, p0 = http("POST", f"{a.base}/api/rooms/{code}/audience", {"name": "Twin"})
        twin_a = await Conn(a.base, code, p0["token"]).open()
        twin_b = await Conn(b_base, code, p0["token"]).open()
        await twin_a.wait(lambda v: v["actions"])
        await twin_a.act({"type": "predict", "n": 1})
        await twin_a.wait(lambda v: any(f["t"] == "mine" for f in twin_a.frames))
        await twin_b.wait(lambda v: v["actions"])
        await twin_b.act({"type": "predict", "n": 3})
        await twin_b.wait(lambda v: any(f["t"] == "mine" and f["d"]["ref"] for f in twin_b.frames))
        assert [f["d"]["votes"] for f in twin_b.frames if f["t"] == "mine" and f["d"]["ref"]] == [{"n": 3}]
        await tv.wait(lambda v: any(f["t"] == "tally" and f["d"]["seq"] == 11 for f in tv.frames))
        last = max((f["d"] for f in tv.frames if f["t"] == "tally"), key=lambda d: d["seq"])
        assert last["voters"] == 7 and last["anonymous"] == 0
        turn = tv.view["game"]["turn"]
        phone = next(p for p, s in zip(phones, seats) if s["player_id"] == turn)
        await phone.act({"type": "add", "n": 2})
        await tv.wait(lambda v: v["game"]["audience"])
        folded = tv.view["game"]["audience"]
        assert len(folded) == 1 and folded[0]["voters"] == 7
        assert folded[0]["votes"] == {"1": 3, "2": 3, "3": 1}
        assert folded[0]["right"] == ["F1", "F3", "F5"]
        assert not any(f["t"] == "tally" for fan in fans for f in fan.frames)


class Publishes:
    """Redis's MONITOR, counting the PUBLISH commands to one room's group (the fan-out between
    processes; other tests' rooms on the same Redis are other groups)."""

    def __init__(self, redis_url, code):
        import threading

        import redis
        self.needle, self.count, self.kinds = f"room.{code}.all", 0, []
        self.monitor = redis.Redis.from_url(redis_url).monitor()
        self.monitor.__enter__()
        threading.Thread(target=self._listen, daemon=True).start()

    def _listen(self):
        try:
            for line in self.monitor.listen():
                cmd = line.get("command", "")
                if cmd.upper().startswith("PUBLISH") and self.needle in cmd:
                    self.count += 1
        except Exception:       # noqa: BLE001 - closed at the test's end
            pass

    def close(self):
        with contextlib.suppress(Exception):
            self.monitor.connection.disconnect()


async def test_a_room_routed_to_one_process_stays_off_redis_until_another_process_joins_it(
        tmp_path, redis_server, postgres_database):
    """Every socket of the room on a (as the proxy routes it): after the first second, its
    changes cross no Redis at all. A phone that connects on b is greeted, a starts publishing,
    and the phone gets every change after; once it leaves, the room is a's alone again."""
    env = {"DATABASE_URL": postgres_database, "REDIS_URL": redis_server}
    a = Daphne(tmp_path, env).migrate().start()
    b = Daphne(tmp_path, env).start()
    watch = None
    try:
        room, seats = room_with_players(a.base, ["Ann", "Bob", "Cid"])
        code = room["code"]
        tv = await Conn(a.base, code, room["host_token"]).open()
        phones = [await Conn(a.base, code, s["token"]).open() for s in seats[:2]]
        await tv.act({"type": "start", "game": "count", "options": {"target": 100}})
        await phones[0].wait(lambda v: v["room"]["phase"] == "playing")
        await asyncio.sleep(1.5)            # past the hello's grace
        watch = Publishes(redis_server, code)
        await asyncio.sleep(0.3)
        for i in range(5):
            await phones[i % 2].act({"type": "say", "text": f"a{i}"})
            await tv.wait(lambda v, i=i: f"a{i}" in [t for _, t in v["game"]["said"]])
        await asyncio.sleep(0.3)
        assert watch.count == 0, "a routed room's changes went through Redis"
        # Cid's phone on b: its hello makes the room shared
        far = await Conn(b.base, code, seats[2]["token"]).open()
        await tv.wait(lambda v: all(p["connected"] for p in v["room"]["players"]))
        await asyncio.sleep(0.3)
        for i in range(5):
            await phones[i % 2].act({"type": "say", "text": f"b{i}"})
            await far.wait(lambda v, i=i: f"b{i}" in [t for _, t in v["game"]["said"]], timeout=5)
        assert far.version == tv.version
        shared = watch.count
        assert shared >= 5
        await far.close()
        await asyncio.sleep(0.5)            # its bye
        await tv.wait(lambda v: not all(p["connected"] for p in v["room"]["players"]))
        before = watch.count
        for i in range(3):
            await phones[0].act({"type": "say", "text": f"c{i}"})
            await tv.wait(lambda v, i=i: f"c{i}" in [t for _, t in v["game"]["said"]])
        await asyncio.sleep(0.3)
        assert watch.count == before, "the room stayed on Redis after the other process left"
        for c in [tv] + phones:
            await c.close()
    finally:
        if watch is not None:
            watch.close()
        a.kill()
        b.kill()
