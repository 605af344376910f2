"""Per-address windows: one count in Redis for every process when REDIS_URL is set."""
import uuid

import pytest

from partyhub.http import limits

pytestmark = pytest.mark.redis


def test_without_redis_the_window_counts_in_this_process(settings):
    settings.REDIS_URL = ""
    assert type(limits.window("joins", 3)) is limits.Window


def test_two_processes_share_one_count_in_redis(settings, redis_server):
    settings.REDIS_URL = redis_server
    name = f"test-{uuid.uuid4().hex[:8]}"
    a, b = limits.window(name, 5), limits.window(name, 5)   # as two web processes would
    assert isinstance(a, limits.RedisWindow)
    allowed = [w.allow("10.0.0.7") for w in (a, b, a, b, a, b, a)]
    assert allowed == [True] * 5 + [False] * 2
    assert a.allow("10.0.0.8") and b.allow("10.0.0.8")     # per address
    assert a.client.pttl(f"partyhub:limit:{name}:10.0.0.7") <= 60_000   # forgotten after the window


def test_the_window_slides(settings, redis_server):
    settings.REDIS_URL = redis_server
    w = limits.window(f"test-{uuid.uuid4().hex[:8]}", 2, seconds=0.3)
    assert w.allow("x") and w.allow("x") and not w.allow("x")
    import time
    time.sleep(0.35)
    assert w.allow("x")


def test_while_redis_is_away_the_count_falls_back_to_this_process(settings, caplog):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"   # nothing listens there
    w = limits.window("down", 2)
    assert [w.allow("x") for _ in range(3)] == [True, True, False]
    assert "Redis is unreachable" in caplog.text


def test_full_reads_the_shared_count_without_adding_to_it(settings, redis_server):
    settings.REDIS_URL = redis_server
    name = f"test-{uuid.uuid4().hex[:8]}"
    a, b = limits.window(name, 2), limits.window(name, 2)
    assert not a.full("x") and not b.full("x")        # looking counts nothing
    assert a.allow("x") and not b.full("x") and b.allow("x")
    assert a.full("x") and b.full("x") and not a.allow("x")
