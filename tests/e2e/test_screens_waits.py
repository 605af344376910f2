"""`make screens` (tests/e2e/screens.py) shoots a TV at the moment it is named for (issue 27):
a TV that lags behind the table's view under load is waited for, not shot on the screen before
nor dropped, and a shot is kept only while that TV itself is still at that moment.
A fake page stands in for chromium: these check the script's waiting, not a browser."""
import time

import pytest

from tests.e2e import screens


class Page:
    """A TV page whose view reaches `moments` one poll after another (the last one stays)."""

    def __init__(self, moments):
        self.moments, self.shots = list(moments), []

    async def evaluate(self, expression, arg=None):
        if expression == screens.VIEW:
            phase = self.moments.pop(0) if len(self.moments) > 1 else self.moments[0]
            return {"room": {"phase": "playing"}, "game": {"phase": phase, "turn": 1}}
        return None            # settled(): nothing is animating

    async def wait_for_function(self, *a, **k):
        return None

    async def screenshot(self, path):
        self.shots.append(path)
        with open(path, "wb") as f:
            f.write(b"png")


NOW = screens.moment({"room": {"phase": "playing"}, "game": {"phase": "race", "turn": 1}})


@pytest.mark.asyncio
async def test_a_tv_that_lags_behind_is_shot_once_it_shows_the_moment(tmp_path):
    # the 1280 TV still shows the clue for a few polls while the 1920 one shows the race
    small = Page(["clue", "clue", "clue", "race"])
    shots = []
    assert await screens.tv_shot(small, "tv1280 race", NOW, tmp_path, shots, timeout=5)
    assert [name for name, _ in shots] == ["tv1280 race"] and len(small.shots) == 1
    assert not small.moments[1:], "shot before the page had reached the race"


@pytest.mark.asyncio
async def test_a_tv_that_never_shows_the_moment_is_not_shot(tmp_path):
    stuck = Page(["clue"])
    shots = []
    assert not await screens.tv_shot(stuck, "tv1280 race", NOW, tmp_path, shots, timeout=0.5)
    assert shots == [] and stuck.shots == []


@pytest.mark.asyncio
async def test_a_shot_is_dropped_when_that_tv_moved_on_meanwhile(tmp_path):
    # at the race when asked, at the reveal by the time the shot is taken: its own view counts
    gone = Page(["race", "race", "reveal"])
    shots = []
    assert not await screens.tv_shot(gone, "tv1280 race", NOW, tmp_path, shots, timeout=5)
    assert shots == [] and list(tmp_path.glob("*.png")) == []



def test_jinx_race_is_held_long_enough_to_be_shot():
    """Jinx's race ended at the first right tap of a fast seat, before the TVs were shot (each
    settles up to 2.5 s, after the phones' new screens): every seat, simulated or in chromium,
    waits in it until both TVs have been shot there, and only in it."""
    race = {"room": {"phase": "playing"}, "game": {"phase": "race", "turn": 1}}
    clue = {"room": {"phase": "playing"}, "game": {"phase": "clue", "turn": 1}}
    seen = set()
    assert screens.think_of("jinx", seen)(race)[0] >= 8
    assert screens.think_of("jinx", seen)(clue) == screens.think_of("association", seen)(race) == screens.THINK
    now = time.monotonic()
    assert screens.held("jinx", race, now, seen) and not screens.held("jinx", race, now - 20, seen)
    assert not screens.held("jinx", clue, now, seen)
    seen |= {"tv1920 race", "tv1280 race"}      # shot: the table plays on at its pace
    assert screens.think_of("jinx", seen)(race) == screens.THINK and not screens.held("jinx", race, now, seen)
