"""The parallel workers take the longest work first (tests/schedule.py), by the seconds
`--durations-to` recorded."""
import json
from types import SimpleNamespace

import pytest

from tests import schedule
from tests.schedule import UNKNOWN, DurationsTo, GroupScheduler, longest_first


def test_units_go_longest_first_by_their_tests_seconds_and_unknown_tests_count_as_unknown():
    queue = {"a.py::t": {"a.py::t": False},
             "group:redis": {"r.py::x": False, "r.py::y": False},
             "b.py::new": {"b.py::new": False},
             "c.py::t": {"c.py::t": False}}
    seconds = {"a.py::t": 1.0, "r.py::x": 30.0, "r.py::y": 25.0, "c.py::t": 1.0}
    assert list(longest_first(queue, seconds)) == ["group:redis", "b.py::new", "a.py::t", "c.py::t"]
    assert UNKNOWN > 1.0


class Node:
    """A worker as xdist's scheduler sees it: it records the tests it was sent."""
    shutting_down = False

    def __init__(self, name):
        self.name, self.sent, self.gateway = name, [], SimpleNamespace(id=name)

    def send_runtest_some(self, indexes):
        self.sent.append(indexes)

    def shutdown(self):
        self.shutting_down = True


def test_the_scheduler_hands_the_longest_group_out_first(tmp_path, monkeypatch):
    tests = ["a.py::quick1", "a.py::quick2", "s.py::soak", "r.py::x", "r.py::y", "a.py::quick3"]
    durations = tmp_path / "durations.json"
    durations.write_text(json.dumps({"a.py::quick1": 0.1, "a.py::quick2": 0.1, "a.py::quick3": 0.1,
                                     "s.py::soak": 60.0, "r.py::x": 20.0, "r.py::y": 30.0}))
    groups = tmp_path / "groups.json"
    groups.write_text(json.dumps({"r.py::x": "group:redis", "r.py::y": "group:redis"}))
    monkeypatch.setenv(schedule.GROUPS_FILE, str(groups))
    monkeypatch.setattr(schedule, "DURATIONS", durations)
    config = SimpleNamespace(getvalue=lambda name: ["2*popen"], option=SimpleNamespace(loadscopereorder=True))
    scheduler = GroupScheduler.pytest_xdist_make_scheduler(config, None)
    first, second = Node("gw0"), Node("gw1")
    for node in (first, second):
        scheduler.add_node(node)
        scheduler.add_node_collection(node, tests)
    scheduler.schedule()
    firsts = [[tests[i] for i in node.sent[0]] for node in (first, second)]
    assert firsts == [["s.py::soak"], ["r.py::x", "r.py::y"]]


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "tests").mkdir()
    for name in ("a.py", "b.py"):
        (tmp_path / "tests" / name).write_text("")
    return tmp_path


def report(nodeid, duration):
    return SimpleNamespace(nodeid=nodeid, duration=duration)


def test_a_tests_phases_add_up_and_merge_with_what_the_file_held(tree):
    out = tree / "durations.json"
    out.write_text(json.dumps({"tests/a.py::t_old": 3.0, "tests/b.py::t": 9.0, "tests/gone.py::t": 5.0}))
    plugin = DurationsTo(str(out), tree)
    for r in (report("tests/b.py::t", 0.5), report("tests/b.py::t", 2.25), report("tests/b.py::t", 0.25),
              report("tests/a.py::t_new", 0.125)):
        plugin.pytest_runtest_logreport(r)
    plugin.pytest_sessionfinish()
    assert json.loads(out.read_text()) == {"tests/a.py::t_new": 0.12, "tests/a.py::t_old": 3.0,
                                           "tests/b.py::t": 3.0}


def test_the_file_is_made_when_there_was_none(tree):
    out = tree / "durations.json"
    plugin = DurationsTo(str(out), tree)
    plugin.pytest_runtest_logreport(report("tests/a.py::t", 1.0))
    plugin.pytest_sessionfinish()
    assert json.loads(out.read_text()) == {"tests/a.py::t": 1.0}
