"""A stand-in on two daphne processes over real Redis and PostgreSQL: either timekeeper may
play the dropped seat, the seat is played once per think time (never by both), and the phone
gets it back on the other process."""
import pytest

from partyhub.rooms.timers import standin
from tests.liveserver import Conn, Daphne, room_with_players

pytestmark = [pytest.mark.slow, pytest.mark.redis, pytest.mark.postgres]


def stand_in_moves(url, code, pid):
    """[(at, action)] the log has for the seat, in order (all its stand-in's: Ann never acts)."""
    import psycopg
    with psycopg.connect(url) as db:
        return db.execute(
            "SELECT e.at, e.data FROM rooms_event e JOIN rooms_room r ON r.id = e.room_id "
            "WHERE r.code = %s AND e.seat = %s AND e.type = 'action' ORDER BY e.id", [code, pid]).fetchall()


def said_by(view, pid):
    return [t for who, t in view["game"]["said"] if who == pid]


async def test_two_processes_play_a_dropped_seat_once_per_think_time_and_hand_it_back(
        tmp_path, redis_server, postgres_database):
    env = {"DATABASE_URL": postgres_database, "REDIS_URL": redis_server}
    a = Daphne(tmp_path, env).migrate().start()
    b = Daphne(tmp_path, env).start()
    try:
        room, seats = room_with_players(a.base, ["Ann", "Bob"])
        code, ann_id = room["code"], seats[0]["player_id"]
        tv = await Conn(a.base, code, room["host_token"]).open()
        ann = await Conn(b.base, code, seats[0]["token"]).open()
        bob = await Conn(a.base, code, seats[1]["token"]).open()
        await tv.wait(lambda v: all(p["connected"] for p in v["room"]["players"]))
        await tv.act({"type": "settings", "standin": 1})
        await tv.wait(lambda v: v["room"]["standin"] == 1)
        await tv.act({"type": "start", "game": "count", "options": {"target": 90}})
        await ann.wait(lambda v: v["room"]["phase"] == "playing" and v["game"]["turn"] == ann_id)
        await ann.close()
        # Ann's turn is played for her (her bot adds or says); then she is offered only `say`
        # (Bob's turn), which her stand-in says a think time apart, whichever process says it
        played = await tv.wait(lambda v: v["game"]["turn"] != ann_id and
                               next(p for p in v["room"]["players"] if p["id"] == ann_id)["standin"])
        assert played["game"]["total"] > 0
        await tv.wait(lambda v: len(said_by(v, ann_id)) >= 3, timeout=15)
        moves = stand_in_moves(postgres_database, code, ann_id)
        kinds = [d["type"] for _, d in moves]
        assert kinds.count("add") == 1 and kinds.count("say") >= 3, kinds
        gaps = [b[0] - a[0] for a, b in zip(moves, moves[1:])]
        assert min(gaps) >= standin.THINK_MS, gaps
        again = await Conn(b.base, code, seats[0]["token"]).open()
        back = await tv.wait(lambda v: next(p for p in v["room"]["players"] if p["id"] == ann_id)["connected"])
        assert not next(p for p in back["room"]["players"] if p["id"] == ann_id)["standin"]
        assert again.view["game"]["total"] == back["game"]["total"]
        await bob.close()
        await again.close()
    finally:
        a.kill()
        b.kill()
