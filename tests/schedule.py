"""How make test's parallel workers share the suite (pytest-xdist, `--dist loadgroup`):
each test's group reaches the scheduler, the longest work goes out first, and busy work runs
beside work that waits.

xdist hands out work units (a group, or one test) in the order they were collected, so a
one-minute test collected last started when the others were done and the round waited for
it alone (make test-fast: one worker ran 58 s after the other two had finished). Here the
units go out longest first, by the seconds `tests/durations.json` holds for each test
(set-up, call and tear-down, from an earlier run; `make durations` writes them again): the
classic longest-processing-time rule, which keeps the last unit short. A test the file does
not know counts as UNKNOWN seconds. Only the order changes: what runs, and with whom, does not
(the groups).
"""
import json
import os
import threading
from pathlib import Path

import pytest

DURATIONS = Path(__file__).with_name("durations.json")
UNKNOWN = 2.0

# pytest-xdist 3.8's loadgroup tells the controller a test's group by renaming the test, which
# pytest 9.2 no longer lets it do (pytest-xdist issue 1386): the groups would be ignored. So
# the workers write each test's group into a file the controller named, and its scheduler
# (below) reads them from there.
GROUPS_FILE = "PARTYHUB_XDIST_GROUPS"


def load(path=None) -> dict[str, float]:
    """Each test's seconds."""
    return {nodeid: figures[0] for nodeid, figures in _figures(path).items()}


def load_cpu(path=None) -> dict[str, float]:
    """Each test's CPU seconds (its worker's process tree: servers, browsers), where measured."""
    return {nodeid: figures[1] for nodeid, figures in _figures(path).items() if len(figures) > 1}


def _figures(path) -> dict[str, list]:
    """nodeid -> [seconds] or [seconds, CPU seconds] (a bare number: seconds)."""
    try:
        with open(path or DURATIONS) as f:
            held = json.load(f)
    except FileNotFoundError:
        return {}
    return {nodeid: v if isinstance(v, list) else [v] for nodeid, v in held.items()}


def longest_first(workqueue: dict, seconds: dict[str, float]) -> dict:
    """The work units (unit -> its tests' ids) by their expected seconds, longest first;
    units of equal length keep their order."""
    def cost(item):
        return -sum(seconds.get(nodeid, UNKNOWN) for nodeid in item[1])
    return dict(sorted(workqueue.items(), key=cost))


# Running beside each other (issue 29: the browser round, 2026-12-03). Sent out longest first
# alone, the three workers of the browser round began with its three whole games at a bot's
# pace, which wait on the games' timers: the two cores were 37-48% busy for its first three
# minutes, 96-99% after. So each unit also has a rate, the CPU its tests cost (their process
# trees: TreeCpu) over their seconds, and a unit whose rate is under WAITS of a worker's share
# of the cores waits more than it works. Such units run beside busy ones, as many at once as it
# takes to finish them with the round: a worker gets the longest waiting unit while fewer of
# them run on the others than their seconds left over a worker's share of all the seconds left
# (one at least), else the longest busy unit. A unit whose seconds are LATE or more of a
# worker's share goes out first, whatever it is (the rule above, which keeps the last unit short).
WAITS = 0.5
LATE = 0.75


def units(workqueue: dict, seconds: dict[str, float], cpu: dict[str, float]) -> dict:
    """The work units -> (seconds, CPU seconds) by the tests' figures; a test with no CPU
    figure counts one core for its seconds (so that with none, the rule is longest first)."""
    out = {}
    for unit, nodeids in workqueue.items():
        s = [seconds.get(n, UNKNOWN) for n in nodeids]
        out[unit] = (sum(s), sum(cpu.get(n, x) for n, x in zip(nodeids, s)))
    return out


def rate(figures) -> float:
    seconds, cpu = figures
    return cpu / seconds if seconds > 0 else 1.0


def choose(queue: dict, running: list[float], cores: int, workers: int):
    """The unit to send a worker: queue is unit -> (seconds, CPU seconds), longest first;
    running, the rates of the units the other workers run."""
    first = next(iter(queue))
    share = sum(s for s, _ in queue.values()) / workers
    if share <= 0 or queue[first][0] >= LATE * share:
        return first
    waits = WAITS * cores / workers
    waiting, busy = [], []
    for unit, figures in queue.items():
        (waiting if rate(figures) < waits else busy).append(unit)
    at_once = max(1, round(sum(queue[u][0] for u in waiting) / share))
    if waiting and (not busy or sum(r < waits for r in running) < at_once):
        return waiting[0]
    return busy[0]


class GroupScheduler:
    @staticmethod
    def pytest_xdist_make_scheduler(config, log):
        from xdist.scheduler import LoadGroupScheduling

        class Grouped(LoadGroupScheduling):
            groups = None
            figures = None
            cores = len(os.sched_getaffinity(0))

            def _split_scope(self, nodeid):
                if self.groups is None:     # read once every worker has collected
                    with open(os.environ[GROUPS_FILE]) as f:
                        self.groups = json.load(f)
                return self.groups.get(nodeid) or nodeid

            def _assign_work_unit(self, node):
                if self.figures is None:    # the queue is whole at the first assignment
                    seconds = load()
                    queue = longest_first(self.workqueue, seconds)
                    self.workqueue.clear()
                    self.workqueue.update(queue)
                    self.figures = units(queue, seconds, load_cpu())
                queue = {unit: self.figures[unit] for unit in self.workqueue}
                unit = choose(queue, self._running(node), self.cores, len(self.nodes))
                self.workqueue.move_to_end(unit, last=False)
                super()._assign_work_unit(node)

            def _running(self, node):
                """The rates of the units the other workers run now (each one's first unit
                with a test not done)."""
                out = []
                for other, assigned in self.assigned_work.items():
                    unit = next((u for u, tests in assigned.items() if not all(tests.values())), None)
                    if other is not node and unit is not None:
                        out.append(rate(self.figures[unit]))
                return out

        return Grouped(config, log)


class DurationsTo:
    """--durations-to=FILE: each test's seconds (set-up + call + tear-down) and the CPU it cost
    (TreeCpu) merged into FILE when the session ends, by the process that reports (xdist's
    controller). Tests that did not run keep their figures, unless their file is gone."""

    def __init__(self, path, root: Path):
        self.path, self.root, self.seconds, self.cpu = path, root, {}, {}

    def pytest_runtest_logreport(self, report):
        self.seconds[report.nodeid] = self.seconds.get(report.nodeid, 0.0) + report.duration
        for name, value in getattr(report, "user_properties", ()):
            if name == TreeCpu.PROPERTY:
                self.cpu[report.nodeid] = value

    def pytest_sessionfinish(self):
        kept = {nodeid: figures for nodeid, figures in _figures(self.path).items()
                if (self.root / nodeid.split("::")[0]).exists()}
        for nodeid, s in self.seconds.items():
            kept[nodeid] = [round(s, 2)] + ([round(self.cpu[nodeid], 2)] if nodeid in self.cpu else [])
        lines = [f"{json.dumps(nodeid)}: {json.dumps(v[0] if len(v) == 1 else v)}"
                 for nodeid, v in sorted(kept.items())]
        with open(self.path, "w") as f:
            f.write("{\n" + ",\n".join(lines) + "\n}\n")


class TreeCpu:
    """With --durations-to, in the process that runs the tests: the CPU each test cost its
    process tree (the worker, and the servers, fork server, Playwright and chromium it started),
    from before its set-up to after its tear-down. It goes to the controller with the tear-down's
    report. A test that waits (on a game's timers, a bot's pace) costs less CPU than its seconds:
    the scheduler runs such tests beside busy ones (GroupScheduler).

    The tree is read every EVERY seconds (ProcessTree): chromium's renderers end without their
    time reaching a parent's, and half of a browser test's CPU was in renderers that lived
    within it (tests/e2e/test_claim_browser.py: 24 s of the machine's 46 s read at its ends)."""
    PROPERTY = "partyhub_cpu"
    EVERY = 0.2

    def __init__(self):
        self.tree, self.start = ProcessTree(), 0.0
        self.stop = threading.Event()
        threading.Thread(target=self._watch, name="partyhub-tree-cpu", daemon=True).start()

    def _watch(self):
        while not self.stop.wait(self.EVERY):
            self.tree.read()

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_protocol(self, item, nextitem):
        self.start = self.tree.read()
        return (yield)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item, call):
        report = yield
        if call.when == "teardown":
            report.user_properties.append((self.PROPERTY, self.tree.read() - self.start))
        return report

    def pytest_unconfigure(self):
        self.stop.set()


class ProcessTree:
    """The CPU seconds (user and system) a process (`root`: this one) and its descendants have
    used since this was made, read from /proc/<pid>/stat: each read adds what each process of
    the tree used since the read before (a process that ended meanwhile loses that part)."""

    def __init__(self, root: int | None = None):
        self.root, self.lock, self.used, self.last = root or os.getpid(), threading.Lock(), 0, {}
        self.tick = os.sysconf("SC_CLK_TCK")
        self.read()
        self.used = 0

    def read(self) -> float:
        with self.lock:
            now = {}
            for key, ticks in _tree(self.root).items():
                self.used += ticks - self.last.get(key, 0)
                now[key] = ticks
            self.last = now
            return self.used / self.tick


def _tree(root: int) -> dict:
    """(pid, start time) -> user + system ticks, of `root` and its descendants now."""
    children, ticks = {}, {}
    try:
        entries = os.scandir("/proc")
    except OSError:
        return {}
    with entries:
        for entry in entries:
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
            except OSError:          # ended meanwhile
                continue
            pid = int(entry.name)
            children.setdefault(int(fields[1]), []).append(pid)
            ticks[pid] = ((pid, fields[19]), int(fields[11]) + int(fields[12]))
    out, todo = {}, [root]
    while todo:
        pid = todo.pop()
        if pid in ticks:
            key, n = ticks[pid]
            out[key] = n
        todo += children.get(pid, ())
    return out
