"""The room's scoreboard stays the same size however many games a room plays: counts, the
wins of each player and the last few games (partyhub/rooms/scoreboard.py)."""
import pytest
from hypothesis import given, settings, strategies as st

from partyhub.rooms import scoreboard
from partyhub.rooms.write import services
from tests.rooms.helpers import make_room, player, room, start_count, tv

PLAYERS = ["p1", "p2", "p3", "p4"]
games = st.lists(st.lists(st.sampled_from(PLAYERS), unique=True, max_size=3), max_size=60)


def entry(n, winners):
    return {"game": "count", "game_no": n, "scores": {}, "winners": winners}


@given(games)
@settings(max_examples=200, deadline=None)
def test_the_scoreboard_counts_every_game_and_keeps_only_the_last_few(winners_per_game):
    board = scoreboard.empty()
    for n, winners in enumerate(winners_per_game, 1):
        before = board
        board = scoreboard.recorded(board, entry(n, winners))
        assert before is not board
    assert board["played"] == len(winners_per_game)
    assert board["wins"] == {p: c for p in PLAYERS
                             if (c := sum(p in w for w in winners_per_game))}
    assert [e["game_no"] for e in board["recent"]] == \
        list(range(1, len(winners_per_game) + 1))[-scoreboard.RECENT:]


def test_a_list_written_before_the_bound_is_folded_into_the_counts():
    old = [entry(n, ["p1"] if n % 3 else ["p2", "p3"]) for n in range(1, 11)]
    board = scoreboard.normalized(old)
    assert board["played"] == 10 and board["wins"] == {"p1": 7, "p2": 3, "p3": 3}
    assert [e["game_no"] for e in board["recent"]] == [5, 6, 7, 8, 9, 10]
    assert scoreboard.normalized(None) == scoreboard.empty()


def test_the_wins_forget_the_fewest_first_beyond_any_table():
    board = scoreboard.empty()
    for n in range(scoreboard.MAX_WINNERS + 10):
        board = scoreboard.recorded(board, entry(n, [f"x{n}"] + (["champ"] if n % 2 else [])))
    assert len(board["wins"]) == scoreboard.MAX_WINNERS
    assert board["wins"]["champ"] == (scoreboard.MAX_WINNERS + 10) // 2


@pytest.mark.django_db
def test_a_room_that_plays_many_games_keeps_a_scoreboard_of_the_same_size():
    code, _, seats = make_room(2)
    start_count(code, target=3)
    sizes = []
    for n in range(1, 13):      # odd games: the first player adds 3; even: 1, then the second 2
        if n % 2:
            services.room_apply(code, player(seats[0]), None, {"type": "add", "n": 3})
        else:
            services.room_apply(code, player(seats[0]), None, {"type": "add", "n": 1})
            services.room_apply(code, player(seats[1]), None, {"type": "add", "n": 2})
        board = room(code).scoreboard
        assert board["played"] == n
        sizes.append(len(board["recent"]))
        services.room_apply(code, tv(), None, {"type": "again"})
    assert sizes[-1] == scoreboard.RECENT and sizes[-6:] == [scoreboard.RECENT] * 6
    wins = room(code).scoreboard["wins"]
    assert wins == {seats[0].player_id: 6, seats[1].player_id: 6}


@pytest.mark.django_db(transaction=True)
def test_the_migration_folds_a_stored_list_into_the_bounded_scoreboard():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor
    before, after = [("rooms", "0007_room_host_key")], [("rooms", "0008_bounded_scoreboard")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    Room = executor.loader.project_state(before).apps.get_model("rooms", "Room")
    old = [entry(n, ["p1"]) for n in range(1, 9)]
    Room.objects.create(code="OLDB", host_token_hash="x", scoreboard=old)
    Room.objects.create(code="NEWB", host_token_hash="y", scoreboard=[])
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    Room = executor.loader.project_state(after).apps.get_model("rooms", "Room")
    board = Room.objects.get(code="OLDB").scoreboard
    assert board["played"] == 8 and board["wins"] == {"p1": 8} and len(board["recent"]) == 6
    assert Room.objects.get(code="NEWB").scoreboard == scoreboard.empty()
    executor = MigrationExecutor(connection)       # back to the newest schema for what follows
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
