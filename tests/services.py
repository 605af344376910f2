"""Real Redis and PostgreSQL for integration tests: skip with a reason, or fail in CI."""
import atexit
import os
import tempfile
import time
import uuid

import pytest

from tests.conftest import need
from tests.liveserver import MIGRATED, run_migrate, server_env

REDIS_URL = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/15")
POSTGRES_URL = os.environ.get("POSTGRES_TEST_URL", "postgres://postgres@127.0.0.1:5432/test")


def redis_url() -> str:
    try:
        import redis
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except Exception as e:
        need(False, f"Redis is not reachable at {REDIS_URL} ({type(e).__name__})")
    return REDIS_URL


@pytest.fixture
def redis_server():
    return redis_url()


@pytest.fixture
def postgres_database():
    """A fresh PostgreSQL database for one test, migrated, dropped afterwards; yields its URL.
    It is a copy (CREATE DATABASE ... TEMPLATE) of one migrated once per test process, so
    `Daphne.migrate()` has nothing to do for it (liveserver.MIGRATED): a copy takes a fraction
    of a second, `manage.py migrate` on PostgreSQL 6 to 20 s on the shared machine."""
    try:
        import psycopg
        admin = psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=3)
    except Exception as e:
        need(False, f"PostgreSQL is not reachable at {POSTGRES_URL} ({type(e).__name__})")
    name = f"partyhub_t{uuid.uuid4().hex[:10]}"
    template = _migrated_template(admin)
    admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    url = f"{BASE}/{name}"
    MIGRATED[url] = MIGRATED[f"{BASE}/{template}"]
    try:
        yield url
    finally:
        MIGRATED.pop(url, None)
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


BASE = POSTGRES_URL.rsplit("/", 1)[0]
_TEMPLATE: list = []        # this process's migrated template database, once made


def _migrated_template(admin) -> str:
    if not _TEMPLATE:
        name = f"partyhub_tpl{uuid.uuid4().hex[:10]}"
        admin.execute(f'CREATE DATABASE "{name}"')
        atexit.register(_drop, name)
        url = f"{BASE}/{name}"
        with tempfile.TemporaryDirectory() as data:
            env = server_env(data, {"DATABASE_URL": url})
            run_migrate(env)
        MIGRATED[url] = env["PARTYHUB_EXTRA_APPS"]
        # the migration's session may outlive its process by a moment; a template in use
        # cannot be copied
        end = time.monotonic() + 10
        while admin.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s",
                            (name,)).fetchone()[0] and time.monotonic() < end:
            time.sleep(0.02)
        _TEMPLATE.append(name)
    return _TEMPLATE[0]


def _drop(name):
    import psycopg
    with psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=3) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
