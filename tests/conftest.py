"""Test setup: the test-only game is registered; service-backed tests skip (or fail in CI)."""
import json
import os
import shutil
import tempfile

import pytest

from partyhub.rooms.gateway import registry
from tests.schedule import GROUPS_FILE, DurationsTo, GroupScheduler, TreeCpu
from tests.testgame.rules import GAME

registry.register(GAME)

REQUIRE = os.environ.get("PARTYHUB_REQUIRE_SERVICES") == "1"


def pytest_addoption(parser):
    parser.addoption("--long", action="store_true", help="run the long variants too")
    parser.addoption("--failed-to", metavar="FILE",
                     help="write the ids of the tests that failed (or errored) to FILE, one a line "
                          "(make test runs them once more: Makefile, docs/testing.md)")
    parser.addoption("--durations-to", metavar="FILE",
                     help="merge each test's seconds and CPU into FILE (tests/durations.json: the parallel "
                          "workers take the longest work first; tests/schedule.py)")


class FailedTo:
    """--failed-to: the ids of the tests whose call, set-up or tear-down failed, written by
    the process that reports (xdist's controller) when the session ends, even when empty."""

    def __init__(self, path):
        self.path, self.ids = path, []

    def pytest_runtest_logreport(self, report):
        if report.failed and report.nodeid not in self.ids:
            self.ids.append(report.nodeid)

    def pytest_sessionfinish(self):
        with open(self.path, "w") as f:
            f.writelines(i + "\n" for i in self.ids)


def xdist_group(item) -> str | None:
    """The group a test runs in when the suite runs in parallel (pytest-xdist with
    `--dist loadgroup`, as `make test` does): a group's tests run on one worker, one after
    another. By rule, so that new tests fall in by their marks and fixtures:
    - docker: the compose stacks and images (tests/deploy) must not overlap;
    - webkit: one WebKit session (Xvfb, its driver and browser) for them all;
    - redis: servers on db 15 share its keys (one per-address count for 127.0.0.1);
    - a module's tests that use a fixture of module scope (a server, a stack, a browser made
      once for the module) run together, so that it is made once.
    A test's own xdist_group mark wins. Anything else runs wherever a worker is free."""
    if item.get_closest_marker("xdist_group"):
        return None
    for mark in ("docker", "webkit"):
        if item.get_closest_marker(mark):
            return mark
    if item.get_closest_marker("redis") or "redis_server" in item.fixturenames:
        return "redis"
    defs = getattr(item, "_fixtureinfo", None)
    for name in item.fixturenames:
        fixturedefs = defs.name2fixturedefs.get(name) if defs else None
        if fixturedefs and fixturedefs[-1].scope == "module":
            return item.getparent(pytest.Module).nodeid
    return None


def pytest_configure(config):
    # A password checked in a test process hashes with MD5, not the 1,000,000 rounds of
    # PBKDF2 the product keeps (Django's "speeding up the tests"): each failed admin login
    # hashed for 0.3 s of CPU, 8 s in tests/security/test_headers_and_files.py alone.
    # Servers started as processes keep partyhub.settings' hashers.
    from django.conf import settings
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    if config.getoption("failed_to") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(FailedTo(config.getoption("failed_to")), "partyhub-failed-to")
    if config.getoption("durations_to"):
        config.pluginmanager.register(TreeCpu(), "partyhub-tree-cpu")     # where tests run
        if not hasattr(config, "workerinput"):
            config.pluginmanager.register(DurationsTo(config.getoption("durations_to"), config.rootpath),
                                          "partyhub-durations-to")
    if config.pluginmanager.hasplugin("xdist") and config.getoption("dist") == "loadgroup" \
            and not hasattr(config, "workerinput"):
        fd, path = tempfile.mkstemp(prefix="partyhub-xdist-groups-", suffix=".json")
        os.close(fd)
        os.environ[GROUPS_FILE] = path      # the workers, started later, inherit it
        config.add_cleanup(lambda: os.unlink(path))
        config.pluginmanager.register(GroupScheduler(), "partyhub-xdist-groups")


@pytest.hookimpl(tryfirst=True)     # before xdist reads the marks
def pytest_collection_modifyitems(config, items):
    groups = {}
    for item in items:
        group = xdist_group(item)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))
        mark = item.get_closest_marker("xdist_group")
        if mark:
            groups[item.nodeid] = "group:" + str(mark.args[0] if mark.args else mark.kwargs.get("name"))
    path = os.environ.get(GROUPS_FILE)
    if path and hasattr(config, "workerinput"):      # each worker collects the same tests
        fd, aside = tempfile.mkstemp(dir=os.path.dirname(path))
        with os.fdopen(fd, "w") as f:
            json.dump(groups, f)
        os.replace(aside, path)
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
    from partyhub.http import limits
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
