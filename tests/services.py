"""Real Redis and PostgreSQL for integration tests: skip with a reason, or fail in CI."""
import os
import uuid

import pytest

from tests.conftest import need

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
    """A fresh PostgreSQL database for one test, dropped afterwards; yields its URL."""
    try:
        import psycopg
        admin = psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=3)
    except Exception as e:
        need(False, f"PostgreSQL is not reachable at {POSTGRES_URL} ({type(e).__name__})")
    name = f"partyhub_t{uuid.uuid4().hex[:10]}"
    admin.execute(f'CREATE DATABASE "{name}"')
    base = POSTGRES_URL.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
