"""kill -9 daphne in each game's busiest phase (see crash_games.py), restart Redis under two
daphne processes, and kill one of two processes (crash_cluster.py): nothing acknowledged is
lost, every seat comes back to its hand and score, a missed timer fires once."""
import asyncio
import json
import threading
import time
import uuid

import pytest

from tests.liveserver import Conn, Daphne, room_with_players
from tests.reliability.crash_client import Player, PostgresLog, check_acknowledged, settle
from tests.reliability.crash_cluster import cluster_game
from tests.reliability.crash_games import crash_game
from tests.services import postgres_database  # noqa: F401 (fixture)

pytestmark = pytest.mark.slow
GAMES = ["association", "jinx", "klepka", "sketch"]


@pytest.mark.parametrize("game", GAMES)
async def test_kill_9_in_the_busiest_phase_loses_nothing(tmp_path, game):
    figures = await crash_game(tmp_path, game)
    print("CRASH", json.dumps(figures))


@pytest.mark.long
@pytest.mark.parametrize("seed", [11, 12, 13])
@pytest.mark.parametrize("game", GAMES)
async def test_kill_9_again_with_an_exact_quiet_restart(tmp_path, game, seed):
    """Long: other seeds, plus a quiet kill after which every seat's whole game view is equal."""
    figures = await crash_game(tmp_path, game, seed=seed, exact=True)
    print("CRASH", json.dumps(figures))


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.parametrize("what", ["redis", "kill"])
async def test_two_processes_survive_a_redis_restart_and_the_loss_of_one(tmp_path, postgres_database, what):
    """Two daphne processes over PostgreSQL and the test's own Redis: restart Redis
    (`redis-cli shutdown nosave`, start again), or kill -9 one process (its players move to
    the other): the game goes on, nothing acknowledged is lost."""
    figures = await cluster_game(tmp_path, postgres_database, what)
    print("CLUSTER", json.dumps(figures))


@pytest.mark.postgres
async def test_a_killed_process_last_write_lands_after_the_kill_and_settle_waits_for_it(tmp_path, postgres_database):
    """Why the cluster test waits for the killed process's sessions before `settle`: kill -9
    ends daphne, not the PostgreSQL session running its last statement. Here that statement
    (an unlocked game action) waits for the room's row lock, held by the test; the process
    is killed, and the action is not in the log yet. The lock goes half a second later and
    the action commits. `settle`, called at once, reads the log only once the killed
    process's sessions have ended, and finds it applied. Read at the kill, it would be
    settled as lost; the log would then hold one action more than `check_acknowledged`
    expects, and the seat's next acknowledged action would be reported missing from the
    log (as the [kill] variant once did under load)."""
    import psycopg
    app = f"partyhub-killed-{uuid.uuid4().hex[:8]}"
    a = Daphne(tmp_path, {"DATABASE_URL": postgres_database, "PGAPPNAME": app}).migrate().start()
    log = PostgresLog(postgres_database)
    lock = psycopg.connect(postgres_database)
    unlock = threading.Timer(0.5, lock.rollback)
    try:
        room, (seat,) = room_with_players(a.base, ["P0"])
        code = room["code"]
        tv = await Conn(a.base, code, room["host_token"]).open()
        await tv.act({"type": "start", "game": "count", "options": {}})
        await tv.wait(lambda v: v["room"]["phase"] == "playing")
        phone = await Conn(a.base, code, seat["token"]).open()
        lock.execute("SELECT 1 FROM rooms_room WHERE code = %s FOR UPDATE", (code,))
        d = {"type": "say", "text": "hello"}
        ref = await phone.act(d)
        end = time.monotonic() + 10
        while not lock.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s "
                               "AND wait_event_type = 'Lock'", (app,)).fetchone()[0]:
            assert time.monotonic() < end, "the action never waited for the lock"
            await asyncio.sleep(0.02)
        a.kill()
        assert ref not in log.recent_ids(code).get(seat["player_id"], [])
        player = Player([a.base], code, seat["token"], seat["player_id"], 1)
        player.sent.append({"id": ref, "d": d, "fate": "unknown"})
        unlock.start()
        log.wait_ended(app)
        settle(log, code, [player])
        assert player.sent[0]["applied"] is True
        assert log.actions(code)[-1] == (seat["player_id"], d)
        check_acknowledged(log, code, [player])
    finally:
        unlock.cancel()
        if unlock.is_alive():
            unlock.join()
        lock.close()
        a.kill()
