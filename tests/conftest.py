"""Test setup: the test-only game is registered; service-backed tests skip (or fail in CI)."""
import os
import shutil

import pytest

from partyhub.rooms import registry
from tests.testgame.rules import GAME

registry.register(GAME)

REQUIRE = os.environ.get("PARTYHUB_REQUIRE_SERVICES") == "1"


def pytest_addoption(parser):
    parser.addoption("--long", action="store_true", help="run the long variants too")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--long"):
        return
    skip = pytest.mark.skip(reason="long variant: run with --long (make test-long)")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)


def need(ok: bool, reason: str):
    """Skip with a clear reason when a service is absent; in CI (.ci/run) fail instead."""
    if ok:
        return
    if REQUIRE:
        pytest.fail(f"required service missing: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session", autouse=True)
def testserver_is_an_allowed_host(django_test_environment):
    """Django's test client asks for `testserver`, which Django's test set-up adds to its own
    ALLOWED_HOSTS; the server's host check (partyhub/origin.py) reads the named hosts."""
    from django.conf import settings
    settings.PARTYHUB_ALLOWED_HOSTS = [*settings.PARTYHUB_ALLOWED_HOSTS, "testserver"]


@pytest.fixture(autouse=True)
def fresh_doors():
    """Each test starts with the doors' per-address counts empty (in-process sockets and
    requests all come from one address), read from the settings as they are then."""
    from partyhub.rooms import limits
    limits.reset()
    yield
    limits.reset()


@pytest.fixture
def chromium_path():
    path = "/usr/bin/chromium"
    need(os.path.exists(path) or shutil.which("chromium") is not None,
         "Debian chromium is not installed (apt-get install chromium)")
    return path


# Fixtures for real Redis and PostgreSQL, for every test module (after `need` is defined).
from tests.services import postgres_database, redis_server  # noqa: E402,F401
