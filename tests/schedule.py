"""How make test's parallel workers share the suite (pytest-xdist, `--dist loadgroup`):
each test's group reaches the scheduler, and the longest work goes out first.

xdist hands out work units (a group, or one test) in the order they were collected, so a
one-minute test collected last started when the others were done and the round waited for
it alone (make test-fast: one worker ran 58 s after the other two had finished). Here the
units go out longest first, by the seconds `tests/durations.json` holds for each test
(set-up, call and tear-down, from an earlier run; `make durations` writes them again): the
classic longest-processing-time rule, which keeps the last unit short. A test the file does
not know counts as UNKNOWN seconds. Only the order changes: what runs, and with whom, does not.
"""
import json
import os
from pathlib import Path

DURATIONS = Path(__file__).with_name("durations.json")
UNKNOWN = 2.0

# pytest-xdist 3.8's loadgroup tells the controller a test's group by renaming the test, which
# pytest 9.2 no longer lets it do (pytest-xdist issue 1386): the groups would be ignored. So
# the workers write each test's group into a file the controller named, and its scheduler
# (below) reads them from there.
GROUPS_FILE = "PARTYHUB_XDIST_GROUPS"


def load(path=None) -> dict[str, float]:
    try:
        with open(path or DURATIONS) as f:
            return json.load(f)
    except FileNotFoundError:
        return {}


def longest_first(workqueue: dict, seconds: dict[str, float]) -> dict:
    """The work units (unit -> its tests' ids) by their expected seconds, longest first;
    units of equal length keep their order."""
    def cost(item):
        return -sum(seconds.get(nodeid, UNKNOWN) for nodeid in item[1])
    return dict(sorted(workqueue.items(), key=cost))


class GroupScheduler:
    @staticmethod
    def pytest_xdist_make_scheduler(config, log):
        from xdist.scheduler import LoadGroupScheduling

        class Grouped(LoadGroupScheduling):
            groups = None
            ordered = False

            def _split_scope(self, nodeid):
                if self.groups is None:     # read once every worker has collected
                    with open(os.environ[GROUPS_FILE]) as f:
                        self.groups = json.load(f)
                return self.groups.get(nodeid) or nodeid

            def _assign_work_unit(self, node):
                if not self.ordered:        # the queue is whole at the first assignment
                    self.ordered = True
                    queue = longest_first(self.workqueue, load())
                    self.workqueue.clear()
                    self.workqueue.update(queue)
                super()._assign_work_unit(node)

        return Grouped(config, log)


class DurationsTo:
    """--durations-to=FILE: each test's seconds (set-up + call + tear-down) merged into FILE
    when the session ends, by the process that reports (xdist's controller). Tests that did
    not run keep their figure, unless their file is gone."""

    def __init__(self, path, root: Path):
        self.path, self.root, self.seconds = path, root, {}

    def pytest_runtest_logreport(self, report):
        self.seconds[report.nodeid] = self.seconds.get(report.nodeid, 0.0) + report.duration

    def pytest_sessionfinish(self):
        kept = {nodeid: s for nodeid, s in load(self.path).items()
                if (self.root / nodeid.split("::")[0]).exists()}
        kept.update({nodeid: round(s, 2) for nodeid, s in self.seconds.items()})
        with open(self.path, "w") as f:
            json.dump(dict(sorted(kept.items())), f, indent=0)
            f.write("\n")
