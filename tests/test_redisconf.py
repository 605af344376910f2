"""Redis by URL or through Sentinel (partyhub/redisconf.py): the settings parsed, the client each
user gets, and, against real `redis-server --sentinel` processes on loopback, every Redis user
of a process (the channel layer, the tallies, the per-address windows, the health probe)
carrying on with the promoted replica after the master is killed."""
import asyncio
import json
import os
import subprocess
import sys
import uuid

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer
from redis.asyncio.sentinel import SentinelConnectionPool as AsyncSentinelPool
from redis.sentinel import SentinelConnectionPool

from partyhub import redisconf
from partyhub.http import limits
from partyhub.rooms.core import tallies
from partyhub.rooms.transport import api
from tests import redis_servers
from tests.conftest import need
from tests.liveserver import ROOT, free_port
from tests.redis_servers import MASTER_NAME

# ---------------------------------------------------------------- the settings parsed


def test_no_setting_is_no_redis():
    assert not redisconf.parse("", "", "")


def test_a_url_alone_is_one_server():
    t = redisconf.parse("redis://cache:6379/3")
    assert t and not t.sentinel and t.url == "redis://cache:6379/3"


def test_sentinels_with_a_master_name():
    t = redisconf.parse("", " s1:26379, [fd00::5]:26380 ,s3", "party")
    assert t.sentinel and t.master == "party"
    assert t.sentinels == (("s1", 26379), ("fd00::5", 26380), ("s3", 26379))
    assert (t.db, t.password) == (0, None)


def test_beside_sentinels_the_url_gives_only_the_password_and_database():
    t = redisconf.parse("redis://:s%40cret@ignored:1/2", "s1:26379", "party")
    assert (t.db, t.password, t.username, t.url) == (2, "s@cret", None, "")
    assert "s@cret" not in repr(t)


@pytest.mark.parametrize("url, sentinels, master, says", [
    ("", "s1:26379", "", "REDIS_SENTINEL_MASTER"),
    ("", "", "party", "REDIS_SENTINELS is not"),
    ("", "s1:port", "party", "not host:port"),
    ("", "s1:70000", "party", "not host:port"),
    ("http://x/0", "s1:26379", "party", "redis://"),
    ("redis://:p@/zero", "s1:26379", "party", "not a number"),
])
def test_contradicting_or_broken_settings_are_refused(url, sentinels, master, says):
    with pytest.raises(redisconf.RedisSettingsError, match=says):
        redisconf.parse(url, sentinels, master)


def test_target_reads_the_settings_as_they_are_now(settings):
    settings.REDIS_URL, settings.REDIS_SENTINELS, settings.REDIS_SENTINEL_MASTER = "", "", ""
    assert not redisconf.target()
    settings.REDIS_SENTINELS, settings.REDIS_SENTINEL_MASTER = "10.0.0.9:26379", "party"
    assert redisconf.target().sentinels == (("10.0.0.9", 26379),)


# ---------------------------------------------------------------- the client each user gets

SENTINELS = redisconf.parse("redis://:pw@/4", "10.0.0.9:26379,10.0.0.10:26379", "party")


def test_a_url_gives_plain_clients_and_an_address_for_the_channel_layer():
    t = redisconf.parse("redis://cache:6379/3")
    assert type(redisconf.client(t).connection_pool).__name__ == "ConnectionPool"
    assert redisconf.client(t).connection_pool.connection_kwargs["db"] == 3
    assert redisconf.channel_host(t, socket_timeout=5) == {"address": "redis://cache:6379/3", "socket_timeout": 5}


def test_sentinels_give_sentinel_managed_clients_of_the_master():
    sync = redisconf.client(SENTINELS, socket_timeout=1)
    pool = sync.connection_pool
    assert isinstance(pool, SentinelConnectionPool) and pool.is_master and pool.service_name == "party"
    assert pool.connection_kwargs["db"] == 4 and pool.connection_kwargs["password"] == "pw"
    manager = pool.sentinel_manager
    assert [(s.connection_pool.connection_kwargs["host"], s.connection_pool.connection_kwargs["port"])
            for s in manager.sentinels] == [("10.0.0.9", 26379), ("10.0.0.10", 26379)]
    # the sentinels get the socket options, never the master's password
    assert manager.sentinel_kwargs == {"socket_timeout": 1}
    assert isinstance(redisconf.async_client(SENTINELS).connection_pool, AsyncSentinelPool)


def test_sentinels_give_the_channel_layer_the_master_name_and_the_sentinels():
    host = redisconf.channel_host(SENTINELS, socket_timeout=5, socket_keepalive=True)
    assert host == {"master_name": "party", "sentinels": [("10.0.0.9", 26379), ("10.0.0.10", 26379)],
                    "sentinel_kwargs": {"socket_timeout": 5, "socket_keepalive": True}, "db": 4, "password": "pw",
                    "socket_timeout": 5, "socket_keepalive": True}


def settings_of(env: dict) -> dict:
    """CHANNEL_LAYERS of partyhub/settings.py read in a fresh process with this environment."""
    code = "import json, partyhub.settings as s; print(json.dumps(s.CHANNEL_LAYERS))"
    clean = {k: v for k, v in os.environ.items() if not k.startswith("REDIS")}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env},
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["default"]


def test_the_settings_choose_the_channel_layer_from_the_environment():
    assert settings_of({})["BACKEND"] == "channels.layers.InMemoryChannelLayer"
    by_url = settings_of({"REDIS_URL": "redis://r:6379/0"})
    assert by_url["CONFIG"]["hosts"][0]["address"] == "redis://r:6379/0"
    by_sentinel = settings_of({"REDIS_SENTINELS": "s1:26379,s2:26379", "REDIS_SENTINEL_MASTER": "party"})
    assert by_sentinel["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    host = by_sentinel["CONFIG"]["hosts"][0]
    assert host["master_name"] == "party" and host["sentinels"] == [["s1", 26379], ["s2", 26379]]


# ---------------------------------------------------------------- a real failover

@pytest.fixture
def sentinel_set(tmp_path):
    """A master, a replica in sync with it and one sentinel watching them, on loopback."""
    need(redis_servers.available(), "redis-server (Debian: apt-get install redis-server)")
    made = []
    try:
        m = redis_servers.master(tmp_path / "master", "127.0.0.1", free_port())
        made.append(m.start())
        r = redis_servers.replica(tmp_path / "replica", "127.0.0.1", free_port(), of=m)
        made.append(r.start())
        redis_servers.wait_until(lambda: redis_servers.replica_in_sync(r), 10, "the replica syncs")
        s = redis_servers.sentinel(tmp_path / "sentinel", "127.0.0.1", free_port(), watched=m)
        made.append(s.start())
        # the sentinel has found the replica (through the master's INFO) before anything fails
        redis_servers.wait_until(lambda: s.client().execute_command(
            "SENTINEL", "replicas", MASTER_NAME), 10, "the sentinel sees the replica")
        yield m, r, s
    finally:
        for p in made:
            p.kill()


@pytest.fixture
def through_sentinel(settings, sentinel_set):
    _, _, s = sentinel_set
    settings.REDIS_URL, settings.REDIS_SENTINELS, settings.REDIS_SENTINEL_MASTER = "", s.address, MASTER_NAME
    tallies.reset()
    yield sentinel_set
    tallies.reset()


def channel_layer() -> RedisPubSubChannelLayer:
    host = redisconf.channel_host(redisconf.target(), socket_timeout=2, socket_connect_timeout=1)
    return RedisPubSubChannelLayer(hosts=[host])


async def send_until_received(a, b, channel, message, seconds=15.0):
    """Send from layer `a` until `b` receives: a frame published while Redis fails over is
    lost (pub/sub is at most once; partyhub's publish.heal repairs that). One receive waits
    all along: a receive cancelled leaves the channel (channels_redis unsubscribes it)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    got = asyncio.ensure_future(b.receive(channel))
    try:
        while not got.done():
            if loop.time() > end:
                raise AssertionError(f"nothing received on {channel} within {seconds} s")
            try:
                await a.send(channel, message)
            except Exception:
                pass            # the master is away: try again
            await asyncio.wait([got], timeout=0.5)
        return got.result()
    finally:
        got.cancel()


@pytest.mark.slow
async def test_every_redis_user_goes_on_with_the_promoted_replica_after_the_master_dies(through_sentinel):
    m, r, s = through_sentinel
    room, name = f"S{uuid.uuid4().hex[:5].upper()}", f"test-{uuid.uuid4().hex[:8]}"
    t = tallies.backend()
    assert isinstance(t, tallies.RedisTallies)
    window = limits.window(name, 100)
    assert isinstance(window, limits.RedisWindow)
    a, b = channel_layer(), channel_layer()       # two processes' layers
    channel = await b.new_channel()
    try:
        assert (await send_until_received(a, b, channel, {"type": "before"}))["type"] == "before"
        assert (await t.avote(room, 1, "t0", "v1", "Zoe", "n", 1)).seq == 1
        assert window.allow("10.0.0.7")
        assert m.client().hexists(f"partyhub:tally:{room}:1:t0", "v1"), "written to the master"
        await api._probe_layer()

        m.kill()
        redis_servers.wait_until(lambda: redis_servers.master_address([s]) == r.address, 20,
                                 "the sentinel promotes the replica")

        got = await send_until_received(a, b, channel, {"type": "after"})
        assert got["type"] == "after", "the same channel layers, reconnected"

        async def vote():   # the event loop's client: one try may meet the dead connection
            for _ in range(20):
                try:
                    return await t.avote(room, 1, "t0", "v2", "Ann", "n", 2)
                except Exception:
                    await asyncio.sleep(0.2)
        assert (await vote()).seq == 2, "the replica had the first vote: nothing lost"
        assert t.close(room, 1, "t0").keys() == {"v1", "v2"}
        redis_servers.wait_until(lambda: window.allow("10.0.0.7") and r.client().exists(
            f"partyhub:limit:{name}:10.0.0.7"), 10, "the window counts in the new master")
        await api._probe_layer()
    finally:
        await a.flush()
        await b.flush()
