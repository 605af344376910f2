"""The parallel workers take the longest work first (tests/schedule.py), by the seconds
`--durations-to` recorded."""
import json
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest

from tests import schedule
from tests.schedule import UNKNOWN, DurationsTo, GroupScheduler, ProcessTree, TreeCpu, choose, longest_first, rate, units


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


def test_a_tests_cpu_is_kept_beside_its_seconds_and_read_back(tree):
    out = tree / "durations.json"
    out.write_text(json.dumps({"tests/a.py::t_old": 3.0, "tests/b.py::t": [9.0, 1.0]}))
    plugin = DurationsTo(str(out), tree)
    teardown = SimpleNamespace(nodeid="tests/b.py::t", duration=0.5, user_properties=[(TreeCpu.PROPERTY, 0.375)])
    for r in (report("tests/b.py::t", 2.0), teardown):
        plugin.pytest_runtest_logreport(r)
    plugin.pytest_sessionfinish()
    assert json.loads(out.read_text()) == {"tests/a.py::t_old": 3.0, "tests/b.py::t": [2.5, 0.38]}
    assert out.read_text().count("\n") == 4            # one test a line
    assert schedule.load(out) == {"tests/a.py::t_old": 3.0, "tests/b.py::t": 2.5}
    assert schedule.load_cpu(out) == {"tests/b.py::t": 0.38}


def test_the_cpu_of_a_process_tree_counts_children_that_ended_unreaped_by_it():
    """Chromium's renderers end without their time reaching a parent: the tree counts what it
    read of them while they ran."""
    burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.4: pass\n"
    tree = ProcessTree()
    # the grandchild burns, its parent does not wait for it (it is reparented, never reaped here)
    child = subprocess.Popen([sys.executable, "-c", "import subprocess, sys; subprocess.Popen([sys.executable, '-c', "
                              + repr(burn + "import sys; sys.stdin.read()") + "], stdin=subprocess.PIPE)"
                              "; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        for _ in range(100):
            if tree.read() >= 0.4:
                break
            time.sleep(0.05)
        alive = tree.read()
    finally:
        child.communicate(b"")
    assert 0.4 <= alive < 1.5 and tree.read() >= alive, alive
    assert ProcessTree(child.pid).read() == 0.0          # gone: nothing


def pick_order(queue, workers, cores=2, running_for=None):
    """The units choose() sends, one worker after another, each worker holding one unit,
    every unit running for the whole of it (as at a round's start)."""
    queue, held, out = dict(queue), [], []
    while queue and len(held) < workers:
        unit = choose(queue, [rate(f) for f in held], cores, workers)
        out.append(unit)
        held.append(queue.pop(unit))
    return out


def test_without_cpu_figures_the_units_still_go_longest_first():
    queue = units({"long": ["l"], "mid": ["m"], "short": ["s"]}, {"l": 30.0, "m": 20.0, "s": 10.0}, {})
    assert pick_order(queue, 3) == ["long", "mid", "short"]


def test_units_that_wait_run_beside_busy_ones_as_many_at_once_as_the_round_needs():
    # the browser round's start: whole games at a bot's pace (a sixth of a core each) and many
    # busy units; longest first, the three games started together and the cores idled
    games = {"jinx": (240.0, 40.0), "axe": (170.0, 30.0), "announce": (130.0, 20.0)}
    busy = {f"busy{i}": (40.0 - i, 36.0 - i) for i in range(20)}
    queue = dict(sorted({**games, **busy}.items(), key=lambda kv: -kv[1][0]))
    assert pick_order(queue, 3) == ["jinx", "busy0", "busy1"]
    # one at a time while their seconds left are under 1.5 workers' shares of all, two at once after
    assert choose(queue, [0.9, 40 / 240], 2, 3) == "busy0"
    more = {**{f"game{i}": (60.0, 10.0) for i in range(4)}, **{f"busy{i}": (20.0, 18.0) for i in range(10)}}
    assert choose(more, [0.9, 1 / 6], 2, 3) == "game0"
    assert choose(more, [1 / 6, 1 / 6], 2, 3) == "busy0"
    # with nothing busy left, what waits goes out
    assert choose({"announce": games["announce"]}, [1 / 6, 1 / 6], 2, 3) == "announce"
    # a unit too long to wait goes out at once, whatever it leaves of the cores
    late = {"soak": (100.0, 90.0), **{f"b{i}": (10.0, 1.0) for i in range(5)}}
    assert choose(late, [0.1, 0.1], 2, 3) == "soak"
