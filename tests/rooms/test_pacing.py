"""Host-paced rooms (timers "none", WCAG 2.2.1) through the real write path: no timer is due,
the VIP's phone is offered `advance` where a timer would have ended the phase, and every
other `advance` is refused with a code and changes nothing."""
import json

import pytest

from partyhub.rooms import selectors, services, viewmodel
from partyhub.rooms.errors import ServiceError
from partyhub.rooms.models import Event
from tests.rooms.helpers import make_room, player, room, tv

pytestmark = pytest.mark.django_db
T0 = 1_700_000_000_000
ADVANCE = {"type": "advance"}


def act(code, d, actor=None, now=T0):
    return services.room_apply(code, actor or tv(), None, d, now=now)


def paced_room(game="association", timers="none", n=3, **options):
    code, _, seats = make_room(n)
    act(code, {"type": "settings", "timers": timers})
    act(code, {"type": "start", "game": game, "options": options})
    vip = next(s for s in seats if s.player_id == room(code).vip)
    return code, vip, [s for s in seats if s is not vip]


def views(code):
    r = selectors.room_read(code)
    return {k: json.loads(v) for k, v in viewmodel.viewer_frames(r.room, r.seats, "http://x/j/C").items()}


def refused(code, actor, d=ADVANCE):
    before = room(code)
    with pytest.raises(ServiceError) as e:
        act(code, d, actor, now=T0 + 5)
    after = room(code)
    assert (after.version, after.state, after.phase) == (before.version, before.state, before.phase)
    return e.value.code


def test_a_paced_room_runs_no_timer_and_only_the_vip_is_offered_advance():
    code, vip, others = paced_room(tell_seconds=30, submit_seconds=30)
    r = room(code)
    assert r.deadline_at is None and r.state["options"]["_paced"] is True
    seen = views(code)
    assert all(v["d"]["deadline"] is None and v["d"]["room"]["paced"] for v in seen.values())
    assert {"type": "advance"} in seen[vip.player_id]["d"]["actions"]
    for viewer in ["@table", "@audience"] + [s.player_id for s in others]:
        assert {"type": "advance"} not in seen[viewer]["d"]["actions"], viewer
    assert services.room_tick(code, now=T0 + 10 ** 9) is None, "nothing is ever due"


def test_the_vip_ends_the_round_and_the_log_says_so():
    code, vip, _ = paced_room()
    first = room(code).state["teller"]
    change = act(code, ADVANCE, player(vip), now=T0 + 5)
    assert change.room.state["teller"] != first and change.room.state["phase"] == "tell"
    types = list(Event.objects.filter(room__code=code).values_list("type", flat=True))
    assert types[types.index("round_advanced"):][:2] == ["round_advanced", "storyteller_skipped"]


@pytest.mark.parametrize("who", ["tv", "player"])
def test_advance_from_anyone_but_the_vip_is_not_allowed(who):
    code, _, others = paced_room()
    assert refused(code, tv() if who == "tv" else player(others[0])) == "not_allowed"


def test_advance_in_a_timed_room_is_not_paced():
    code, vip, _ = paced_room(timers="normal", tell_seconds=30)
    assert {"type": "advance"} not in views(code)[vip.player_id]["d"]["actions"]
    assert refused(code, player(vip)) == "not_paced"


def test_advance_in_a_phase_no_timer_would_end_is_a_wrong_phase():
    code, vip, _ = paced_room(game="jinx")          # the clue: the active player is waited for
    assert room(code).state["phase"] == "clue"
    assert {"type": "advance"} not in views(code)[vip.player_id]["d"]["actions"]
    assert refused(code, player(vip)) == "wrong_phase"


def test_advance_while_paused_or_without_a_game_is_refused():
    code, vip, _ = paced_room()
    act(code, {"type": "pause"})
    assert {"type": "advance"} not in views(code)[vip.player_id]["d"]["actions"]
    assert refused(code, player(vip)) == "paused"
    act(code, {"type": "end"})
    assert refused(code, player(vip)) == "no_game_running"


def test_again_deals_host_paced_again_and_a_new_setting_takes_the_next_deal():
    code, vip, _ = paced_room(game="sketch", round_seconds=30)
    assert room(code).deadline_at is None
    act(code, {"type": "settings", "timers": "normal"})
    assert views(code)[vip.player_id]["d"]["room"]["paced"], "the running game stays paced"
    act(code, ADVANCE, player(vip))               # still the VIP's to end
    act(code, {"type": "settings", "timers": "none"})
    r = act(code, {"type": "again"}, now=T0 + 9).room
    assert r.deadline_at is None and r.options == {**r.options, "round_seconds": 30}
    act(code, {"type": "settings", "timers": "normal"})
    r = act(code, {"type": "again"}, now=T0 + 10).room
    assert r.deadline_at == T0 + 10 + 30_000 and not views(code)["@table"]["d"]["room"]["paced"]
