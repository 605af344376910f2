"""Bots play games back to back in five rooms (every game plus the test game) on one daphne
over PostgreSQL and Redis: memory stays flat (under 5% growth after the warm-up) and the
database connections stay bounded. The short variant (60 s) always runs; the hour behind --long.
See soak_run.py for the warm-up and how growth is measured."""
import json

import pytest

from tests.reliability.crash_cluster import PrivateRedis
from tests.reliability.soak_run import soak
from tests.services import POSTGRES_URL, postgres_database  # noqa: F401 (fixture)

pytestmark = [pytest.mark.slow, pytest.mark.postgres]
# The join burst of the warm-up (16 bots over HTTP, Django's sync threads) may open a dozen;
# afterwards a steady few, never growing.
PEAK_DB_CONNECTIONS, STEADY_DB_CONNECTIONS = 20, 8


def _check(f):
    print("SOAK", json.dumps(f))
    assert sum(f["games_finished"].values()) >= 2, f["games_finished"]
    assert f["growth"] < 0.05, f"RSS grew {f['growth']:.1%} after the warm-up"
    assert f["db_connections_max"] <= PEAK_DB_CONNECTIONS
    assert max(f["db_connections_after_warmup"]) <= STEADY_DB_CONNECTIONS
    assert max(f["db_connections_after_warmup"]) - min(f["db_connections_after_warmup"]) <= 2


async def test_a_one_minute_bot_soak_keeps_memory_flat_and_connections_bounded(tmp_path, postgres_database):
    redis = PrivateRedis(tmp_path).start()
    try:
        _check(await soak(tmp_path, postgres_database, POSTGRES_URL, redis.url,
                          seconds=60, warmup=20, window=10))
    finally:
        redis.kill()


@pytest.mark.long
@pytest.mark.timeout(4200)
async def test_an_hour_long_bot_soak_keeps_memory_flat_and_connections_bounded(tmp_path, postgres_database):
    redis = PrivateRedis(tmp_path).start()
    try:
        _check(await soak(tmp_path, postgres_database, POSTGRES_URL, redis.url,
                          seconds=3600, warmup=300, window=120, every=10))
    finally:
        redis.kill()
