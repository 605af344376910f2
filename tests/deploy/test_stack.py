"""The real stack: docker-compose.yml on a Docker engine, three web replicas behind nginx.

One compose project for the whole module, used in order as a host would: a deck uploaded,
rooms routed to one replica each by their code, a game played while a replica is killed (its
rooms answer from the others), the metrics read, a rebuild after a code change,
the logs checked, the limits tried, a backup restored into a fresh database. Torn down
(`down -v`, and the dockerd this module started) also on failure. Skips without a Docker
engine; under PARTYHUB_REQUIRE_SERVICES=1 (.ci/run) that is a failure.
"""
from __future__ import annotations

import asyncio
import json
import random
import re
import time

import pytest

from partyhub import bots
from partyhub.bots import client as botclient
from tests.deploy import players
from tests.deploy.players import Client, drive, get, post_json, served_by
from tests.deploy.stack import Engine, Stack, check_images, run
from tests.liveserver import http

pytestmark = [pytest.mark.slow, pytest.mark.docker, pytest.mark.timeout(1800)]
REPLICAS = 3
METRICS_TOKEN = "metrics-token-of-the-test"
MARK = "# rebuilt by tests/deploy/test_stack.py"


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("stack")
    engine = Engine(workdir).start()
    s = None
    try:
        check_images()
        s = Stack(workdir, {"WEB_REPLICAS": REPLICAS, "LOG_LEVEL": "INFO",
                            "METRICS_TOKEN": METRICS_TOKEN})
        s.up()
        s.room = {}      # what the tests pass on: the room, its seats, the deck
        yield s
    finally:
        if s is not None:
            s.down()
        engine.stop()


def webs(stack) -> list[str]:
    names = stack.containers("web")
    assert len(names) == REPLICAS, names
    return names


def hostnames(stack) -> dict[str, str]:
    """{container: its host name}: the name its answers carry in X-Partyhub-Replica."""
    return {name: run(["docker", "inspect", "--format", "{{.Config.Hostname}}", name]).stdout.strip()
            for name in webs(stack)}


def check_rooms_left(stack, victim: str) -> None:
    """With `victim` (a host name) dead, the rooms it served answer from another replica, and
    every other room from the same replica as before (stack.room["homes"])."""
    homes = stack.room["homes"]
    now = {code: served_by(f"{stack.base}/api/rooms/{code}")[0] for code in homes}
    assert victim not in now.values(), now
    assert {c: r for c, r in now.items() if homes[c] != victim} == \
           {c: r for c, r in homes.items() if r != victim}, (homes, now)


def serves_card_everywhere(stack, code: str, card: str, deck_pass: str) -> None:
    """A card of the room's deck, by the room's pass (partyhub/decks/deckpass.py), on every replica."""
    for name in webs(stack):
        status, body = stack.get_inside(name, f"/r/{code}/cards/{card}.webp?p={deck_pass}")
        assert status == 200 and body[:4] == b"RIFF" and body[8:12] == b"WEBP", (name, status)


def sockets_by_replica(stack) -> dict[str, float]:
    found = {}
    for name in webs(stack):
        _, body = stack.get_inside(name, "/metrics", {"Authorization": f"Bearer {METRICS_TOKEN}"})
        m = re.search(rb"^partyhub_sockets ([\d.]+)$", body, re.M)
        found[name] = float(m.group(1)) if m else 0.0
    return found


def test_a_20_mb_deck_uploads_through_nginx_and_is_not_served_before_a_room_deals_it(stack):
    status, room = post_json(stack.base + "/api/rooms", {})
    assert status == 201, room
    data = players.pictures_zip(20, 36)
    assert len(data) >= 20 * 1024 * 1024
    status, made = players.upload_deck(stack.base, room["code"], room["host_token"], "Noise", data)
    assert status == 201, made
    assert made["cards"] == 36 and made["rejected"] == []
    # a deck no room deals yet: no replica serves its pictures (the game below deals it)
    status, _ = stack.get_inside(webs(stack)[0], f"/r/{room['code']}/cards/{made['deck']}-001.webp?p=x")
    assert status == 404
    stack.room.update(room=room, deck=made["deck"])


async def test_every_request_and_socket_of_a_room_names_one_replica_and_rooms_spread(stack):
    """nginx routes by the room's code (deploy/nginx): a room's pages, API calls and sockets
    all reach one replica, which names itself in X-Partyhub-Replica; rooms spread over them."""
    names, base = set(hostnames(stack).values()), stack.base
    homes, sockets = {}, []
    try:
        for n in range(12):
            status, room = post_json(base + "/api/rooms", {})
            assert status == 201, room
            code = room["code"]
            seen = {served_by(f"{base}{path}")[0] for path in (
                f"/api/rooms/{code}", f"/api/rooms/{code.lower()}/qr.svg", f"/j/{code.lower()}", f"/tv/{code}")}
            sockets.append(await Client(base, code, room["host_token"]).open())
            if n < 3:     # a phone: its join and its socket
                replica, seat = served_by(f"{base}/api/rooms/{code}/join", {"name": "Cy"})
                seen.add(replica)
                sockets.append(await Client(base, code, json.loads(seat)["token"]).open())
            seen |= {c.replica for c in sockets if c.url.split("?")[0].endswith(code)}
            assert len(seen) == 1 and seen <= names, (code, seen, names)
            homes[code] = seen.pop()
    finally:
        for c in sockets:
            await c.close()
    assert len(set(homes.values())) >= 2, homes
    print(f"12 rooms on the replicas: {sorted(list(homes.values()).count(r) for r in names)}")
    stack.room["homes"] = homes


async def test_a_game_with_a_tv_phones_and_bots_goes_on_when_a_replica_is_killed(stack):
    room, deck = stack.room["room"], stack.room["deck"]
    base, code, rnd = stack.base, room["code"], random.Random(19)
    seats = [post_json(f"{base}/api/rooms/{code}/join", {"name": n})[1] for n in ("Ann", "Bob")]
    tv = await Client(base, code, room["host_token"]).open()
    phones = [await Client(base, code, s["token"]).open() for s in seats]
    bot_tasks = [asyncio.create_task(botclient.run(base, code, seed=i, think=(0.8, 2.0))) for i in range(2)]
    stop = asyncio.Event()
    drivers = [asyncio.create_task(drive(p, random.Random(i), stop)) for i, p in enumerate(phones)]
    try:
        await tv.wait(lambda v: len(v["room"]["players"]) == 4 and
                      all(p["connected"] for p in v["room"]["players"]), timeout=60)
        await tv.act({"type": "start", "game": "association", "options": {
            "deck": deck, "target_score": 0, "tell_seconds": 6, "submit_seconds": 6,
            "vote_seconds": 6, "reveal_seconds": 2, "on_timeout": "random"}})
        await tv.wait(lambda v: v["room"]["phase"] == "playing" and v["room"]["game_no"] == 1, 30)
        stack.room["deck_pass"] = tv.view["room"]["deck_pass"]   # the room's, for the tests below
        for n in (1, 18, 36):
            serves_card_everywhere(stack, code, f"{deck}-{n:03d}", stack.room["deck_pass"])
        await asyncio.sleep(rnd.uniform(1, 3))
        held = sockets_by_replica(stack)
        victim = max(held, key=held.get)
        assert held[victim] >= 1, held
        home = hostnames(stack)[victim]
        assert {c.replica for c in [tv, *phones]} == {home}, "the room's sockets are on one replica"
        run(["docker", "kill", victim])
        killed_at = tv.version
        assert tv.view["room"]["phase"] == "playing", "the game ended before the kill"
        final = await tv.wait(lambda v: v["room"]["phase"] == "over", timeout=300)
        for phone in phones:
            await phone.wait(lambda v: v["room"]["phase"] == "over", timeout=60)
        await tv.wait(lambda v: all(p["connected"] for p in v["room"]["players"]), timeout=60)
    finally:
        stop.set()
        moves = await asyncio.gather(*drivers)
        for t in bot_tasks:
            t.cancel()
        for c in [tv, *phones]:
            await c.close()
    assert final["room"]["results"], final["room"]
    assert tv.version > killed_at + 5, (killed_at, tv.version)   # played on, well after the kill
    assert all(n > 0 for n in moves), moves
    assert not any(t.done() and not t.cancelled() and t.exception() for t in bot_tasks)
    print(f"killed {victim} holding {held[victim]:.0f} of {sum(held.values()):.0f} sockets; "
          f"the TV and phones reconnected {tv.drops + sum(p.drops for p in phones)} times")
    assert tv.replica != home and {p.replica for p in phones} == {tv.replica}, "moved together"
    check_rooms_left(stack, home)
    stack.compose("up", "-d", "--wait", timeout=300)   # a killed container stays down: start it
    assert victim in webs(stack)
    stack.room.update(seats=seats)
    tokens = [room["host_token"], *(s["token"] for s in seats)]
    stack.room["tokens"] = tokens


async def test_metrics_answer_only_the_token_and_count_the_game(stack):
    assert get(stack.base + "/metrics")[0] == 404
    assert get(stack.base + "/metrics", {"Authorization": "Bearer wrong"})[0] == 404
    code, seat = stack.room["room"]["code"], stack.room["seats"][0]
    phone = await Client(stack.base, code, seat["token"]).open()   # the room is live again
    try:
        status, body = get(stack.base + "/metrics", {"Authorization": f"Bearer {METRICS_TOKEN}"})
    finally:
        await phone.close()
    assert status == 200
    assert re.search(r'^partyhub_rooms\{game="association",phase="over"\} 1\.0$', body.decode(), re.M)
    actions = 0.0
    for name in webs(stack):
        _, raw = stack.get_inside(name, "/metrics", {"Authorization": f"Bearer {METRICS_TOKEN}"})
        page = raw.decode()
        for series in ("partyhub_sockets ", "partyhub_action_seconds_bucket{", "partyhub_stream_items_total ",
                       "partyhub_timers_fired_total ", "# TYPE process_cpu_seconds_total counter"):
            assert series in page, (name, series)
        actions += float(re.search(r"^partyhub_actions_total ([\d.]+)$", page, re.M).group(1))
    assert actions > 0    # the game's moves on the replicas that lived through it


def test_a_rebuild_after_a_code_change_keeps_the_rooms_the_decks_and_the_replicas(stack):
    code, deck = stack.room["room"]["code"], stack.room["deck"]
    before = {name: stack.image_id(name) for name in webs(stack)}
    page = stack.dir / "partyhub" / "web.py"
    page.write_text(page.read_text() + f"\n{MARK}\n")
    stack.keep_logs()
    started = time.monotonic()
    stack.up()      # the same command as the first time: `docker compose up --build -d`
    print(f"rebuild and recreate: {time.monotonic() - started:.0f} s")
    after = webs(stack)
    assert all(stack.image_id(name) not in before.values() for name in after)
    for name in after:
        assert MARK in run(["docker", "exec", name, "cat", "/app/partyhub/web.py"]).stdout
    status, summary = http("GET", f"{stack.base}/api/rooms/{code}")
    assert status == 200 and [p["name"] for p in summary["players"]][:2] == ["Ann", "Bob"]
    serves_card_everywhere(stack, code, f"{deck}-007", stack.room["deck_pass"])


def test_the_logs_have_time_and_level_and_no_healthchecks_tokens_or_tracebacks(stack):
    logs = stack.saved_logs + stack.logs()
    web = [line.split("|", 1)[1].strip() for line in logs.splitlines()
           if line.startswith("web-") and "|" in line]
    web = [line for line in web if line]
    assert web, logs[-2000:]
    line_shape = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w.]+ ")
    odd = [line for line in web if not line_shape.match(line)]
    # a traceback is many such lines: say them whole (pytest's diff cut one to 'Traceback (...c_coro)'),
    # its end too (CI, 2026-12-03: 60 lines ended in the second of two chained exceptions), and the
    # logged line before each (its time and logger)
    before = [web[i - 1] for i, line in enumerate(web)
              if i and not line_shape.match(line) and line_shape.match(web[i - 1])]
    assert not odd, "web lines not in the log's shape, after:\n" + "\n".join(before) + "\n\n" + "\n".join(
        odd if len(odd) <= 160 else odd[:40] + ["[...]"] + odd[-120:])
    assert any("partyhub.access" in line and "/ws/rooms/" in line for line in web)
    assert not [line for line in web if "/healthz" in line]
    assert "Traceback" not in logs
    leaked = [t for t in stack.room["tokens"] + [METRICS_TOKEN] if t in logs]
    assert not leaked
    proxy = [line for line in logs.splitlines() if line.startswith("proxy-")]
    assert any('"GET /ws/rooms/' in line for line in proxy)
    assert not [line for line in proxy if "recv() failed" in line or "token=" in line]


def test_room_creation_is_limited_per_address_across_every_replica(stack):
    refused_after = None
    for n in range(31):
        spoof = {"X-Forwarded-For": f"10.9.{n}.1"}   # nginx replaces it with the peer's address
        status, body = post_json(stack.base + "/api/rooms", {}, spoof)
        if status == 429:
            assert body["error"]["code"] == "rate_limited"
            refused_after = n
            break
        assert status == 201, body
    assert refused_after is not None and refused_after <= 30   # 30 a minute, not 30 per replica


async def test_a_backup_restored_into_a_fresh_database_plays_on(stack, tmp_path):
    room, seats, deck = stack.room["room"], stack.room["seats"], stack.room["deck"]
    dump, decks_tar = tmp_path / "partyhub.dump", tmp_path / "decks.tar"
    with open(dump, "wb") as out:     # README.md, "Backups": the same commands
        stack.compose("exec", "-T", "db", "pg_dump", "-U", "partyhub", "-Fc", "partyhub", stdout=out)
    with open(decks_tar, "wb") as out:
        stack.compose("exec", "-T", "web", "tar", "-C", "/data", "-cf", "-", "decks", stdout=out)
    stack.keep_logs()
    stack.down()                      # every container and volume gone: a fresh machine
    stack.compose("up", "-d", "--wait", "db")
    with open(dump, "rb") as src:
        stack.compose("exec", "-T", "db", "pg_restore", "-U", "partyhub", "-d", "partyhub",
                      "--no-owner", stdin=src)
    with open(decks_tar, "rb") as src:
        stack.compose("run", "--rm", "-T", "--no-deps", "web", "tar", "-C", "/data", "-xf", "-",
                      stdin=src)
    stack.up()
    serves_card_everywhere(stack, room["code"], f"{deck}-001", stack.room["deck_pass"])
    tv = await Client(stack.base, room["code"], room["host_token"]).open()
    phones = [await Client(stack.base, room["code"], s["token"]).open() for s in seats]
    try:
        await tv.wait(lambda v: v["room"]["phase"] == "over" and v["room"]["game_no"] == 1, 30)
        await tv.act({"type": "again"})
        await tv.wait(lambda v: v["room"]["phase"] == "playing" and v["room"]["game_no"] == 2, 30)
        teller = await asyncio.wait_for(_first_offered(phones), 60)
        played = teller.version
        await teller.act(bots.choose(teller.view["actions"], "en", random.Random(1)))
        await teller.wait(lambda v: teller.version > played, 30)
    finally:
        for c in [tv, *phones]:
            await c.close()


async def _first_offered(phones):
    while True:
        for p in phones:
            if p.view and bots.choose(p.view.get("actions", []), "en", random.Random(0)):
                return p
        await asyncio.sleep(0.1)
