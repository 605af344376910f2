"""kill -9 daphne in each game's busiest phase (see crash_games.py), restart Redis under two
daphne processes, and kill one of two processes (crash_cluster.py): nothing acknowledged is
lost, every seat comes back to its hand and score, a missed timer fires once."""
import json

import pytest

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
