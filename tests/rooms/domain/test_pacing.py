"""Host-paced rooms (timers "none", WCAG 2.2.1) through the real write path: no timer is due,
the VIP's phone is offered `advance` where a timer would have ended the phase, and every
other `advance` is refused with a code and changes nothing."""
import json

import pytest

from partyhub.rooms.access import selectors
from partyhub.rooms.core.errors import ServiceError
from partyhub.rooms.gateway import registry
from partyhub.rooms.models import Event
from partyhub.rooms.views import viewmodel
from partyhub.rooms.write import services
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
    services.seat_connect(code, vip.player_id, "ch-vip")        # the VIP's phone is here
    seen = views(code)
    for viewer in ["@table", "@audience"] + [s.player_id for s in others]:
        assert {"type": "advance"} not in seen[viewer]["d"]["actions"], viewer
    assert services.room_tick(code, now=T0 + 10 ** 9) is None, "nothing is ever due"


def test_the_vip_ends_the_round_and_the_log_says_so():
    code, vip, _ = paced_room()
    first = room(code).state["teller"]
    change = act(code, ADVANCE, player(vip), now=T0 + 5)
    assert change.room.state["teller"] != first and change.room.state["phase"] == "tell"
    rows = list(Event.objects.filter(room__code=code).values_list("type", "seat", "data"))
    at = [t for t, _, _ in rows].index("round_advanced")
    assert [t for t, _, _ in rows[at:at + 2]] == ["round_advanced", "storyteller_skipped"]
    # one accept step with a move (roomactions.accept): the entry and the rules' events are the VIP's
    assert rows[at][1:] == (vip.player_id, {"by": vip.player_id})
    assert rows[at + 1][1] == vip.player_id
    assert rows[at + 1][2]["type"] == "storyteller_skipped"


@pytest.mark.parametrize("who", ["tv", "player"])
def test_advance_from_anyone_but_the_vip_is_not_allowed_while_the_vips_phone_is_here(who):
    code, vip, others = paced_room()
    services.seat_connect(code, vip.player_id, "ch-vip")
    assert {"type": "advance"} not in views(code)["@table"]["d"]["actions"]
    assert refused(code, tv() if who == "tv" else player(others[0])) == "not_allowed"


def test_with_no_vips_phone_connected_the_tv_itself_can_end_the_round():
    code, vip, others = paced_room()
    for s in [vip, *others]:
        services.seat_connect(code, s.player_id, "ch-" + s.player_id)
    services.seat_disconnect(code, vip.player_id, "ch-" + vip.player_id)     # away, still the VIP (grace)
    assert room(code).vip == vip.player_id
    seen = views(code)
    assert {"type": "advance"} in seen["@table"]["d"]["actions"]
    assert {"type": "advance"} in seen[vip.player_id]["d"]["actions"]
    assert all({"type": "advance"} not in seen[s.player_id]["d"]["actions"] for s in others)
    first = room(code).state["teller"]
    act(code, ADVANCE, tv(), now=T0 + 5)
    assert room(code).state["teller"] != first
    assert Event.objects.filter(room__code=code, type="round_advanced").last().data == {"by": "tv"}


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


def test_an_advance_whose_rules_raise_is_a_bad_action_and_writes_nothing(monkeypatch):
    def broken(state, now):
        raise RuntimeError("the game's bug")
    code, vip, _ = paced_room()
    monkeypatch.setattr(registry.get("association"), "advance", broken)
    events = Event.objects.filter(room__code=code).count()
    assert refused(code, player(vip)) == "bad_action"
    assert Event.objects.filter(room__code=code).count() == events
