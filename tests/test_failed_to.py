"""`--failed-to` (tests/conftest.py): the ids of the tests that failed, for make test's second
run of them (Makefile: ROUND)."""
from types import SimpleNamespace

from tests.conftest import FailedTo


def report(nodeid, failed, when="call"):
    return SimpleNamespace(nodeid=nodeid, failed=failed, when=when)


def test_each_failed_test_once_in_the_order_it_failed_setup_and_teardown_too(tmp_path):
    out = tmp_path / "failed"
    out.write_text("tests/stale.py::test_old\n")           # a file from an earlier run
    plugin = FailedTo(str(out))
    for r in (report("tests/a.py::test_ok", False), report("tests/b.py::test_x[a b]", True),
              report("tests/b.py::test_x[a b]", True, "teardown"),
              report("tests/c.py::test_fixture", True, "setup"), report("tests/a.py::test_more", False)):
        plugin.pytest_runtest_logreport(r)
    plugin.pytest_sessionfinish()
    assert out.read_text().splitlines() == ["tests/b.py::test_x[a b]", "tests/c.py::test_fixture"]


def test_a_run_without_failures_leaves_the_file_empty(tmp_path):
    out = tmp_path / "failed"
    out.write_text("tests/stale.py::test_old\n")
    plugin = FailedTo(str(out))
    plugin.pytest_runtest_logreport(report("tests/a.py::test_ok", False))
    plugin.pytest_sessionfinish()
    assert out.read_text() == ""
