"""Room settings x game options x room actions, through the real write path.

The bug that started it: with extended timers on, "play again" was refused, because the room
stored the doubled options and `again` checked them once more (association, tell_seconds 400:
800 > 600, `bad_options`); below the bound each `again` doubled the timer once more. The
room now keeps the options as chosen and the timer factor is applied once, when a game is
dealt (`roomactions.timer_factor`, `gamekit.timed`).
"""
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from partyhub.gamekit import Option, timed
from partyhub.rooms.gateway import registry
from partyhub.rooms.models import Event
from partyhub.rooms.write import services
from tests.rooms.helpers import make_room, room, tv
from tests.rooms.optiongen import documented_anywhere, room_action_codes
from tests.rooms.tablerun import STEPS, T0, Table

# one worker runs the file in order: its last test reads what the drawn sequences saw (SEEN)
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("settings_options_actions")]
GAMES = ["association", "count", "jinx", "klepka", "sketch"]


def act(code, d, now, actor=None):
    return services.room_apply(code, actor or tv(), None, d, now=now)


def started_events(code):
    return [e.data for e in Event.objects.filter(room__code=code, type="game_started")]


# ---------------------------------------------------------------- the bug report

def test_again_with_extended_timers_is_accepted_and_runs_each_timer_twice_as_long_once():
    code, _, _ = make_room(3)
    act(code, {"type": "settings", "extended": True}, T0)
    act(code, {"type": "start", "game": "association", "options": {"tell_seconds": 400}}, T0)
    assert room(code).deadline_at == T0 + 800_000
    for n in range(1, 4):
        now = T0 + n * 60_000
        change = act(code, {"type": "again"}, now)
        assert change.room.options["tell_seconds"] == 400
        assert change.room.deadline_at == now + 800_000, f"again #{n}"
    assert [e["options"]["tell_seconds"] for e in started_events(code)] == [400] * 4
    assert [e["timer_factor"] for e in started_events(code)] == [2] * 4


def test_the_next_deal_takes_the_extended_setting_of_that_moment():
    code, _, _ = make_room(3)
    act(code, {"type": "start", "game": "association", "options": {"tell_seconds": 400}}, T0)
    act(code, {"type": "settings", "extended": True}, T0 + 1)
    assert room(code).deadline_at == T0 + 400_000, "the running game keeps its timers"
    assert act(code, {"type": "again"}, T0 + 2).room.deadline_at == T0 + 2 + 800_000
    act(code, {"type": "settings", "extended": False}, T0 + 3)
    assert act(code, {"type": "again"}, T0 + 4).room.deadline_at == T0 + 4 + 400_000
    assert [e["timer_factor"] for e in started_events(code)] == [1, 2, 1]


def test_again_deals_the_language_the_last_game_was_started_with():
    code, _, _ = make_room(3, language="uk")
    act(code, {"type": "start", "game": "sketch", "options": {}}, T0)
    act(code, {"type": "settings", "language": "ru"}, T0 + 1)
    assert act(code, {"type": "again"}, T0 + 2).room.options["language"] == "uk"
    act(code, {"type": "end"}, T0 + 3)
    assert act(code, {"type": "start", "game": "sketch", "options": {}}, T0 + 4).room.options["language"] == "ru"
    act(code, {"type": "end"}, T0 + 5)
    chosen = act(code, {"type": "start", "game": "sketch", "options": {"language": "en"}}, T0 + 6)
    assert chosen.room.options["language"] == "en"


def test_an_internal_looking_option_cannot_set_the_timer_factor():
    code, _, _ = make_room(3)
    change = act(code, {"type": "start", "game": "sketch",
                        "options": {"round_seconds": 30, "_timer_factor": 10}}, T0)
    assert "_timer_factor" not in change.room.options
    assert change.room.deadline_at == T0 + 30_000


def test_timed_scales_only_timer_lengths_and_leaves_the_chosen_options_alone():
    options = {"wait": Option(0, min=0, max=9, seconds=True), "n": Option(3, min=0, max=9),
               "fast": Option(False)}
    chosen = {"wait": 7, "n": 3, "fast": True}
    assert timed(options, chosen, 2) == {"wait": 14, "n": 3, "fast": True}
    assert timed(options, chosen, 1) == chosen and chosen == {"wait": 7, "n": 3, "fast": True}


def test_the_sketch_view_carries_the_round_length_as_dealt():
    code, _, _ = make_room(3)
    act(code, {"type": "settings", "extended": True}, T0)
    r = act(code, {"type": "start", "game": "sketch", "options": {"round_seconds": 45}}, T0).room
    assert registry.get("sketch").view(r.state, "@table")["round_seconds"] == 90
    assert r.options["round_seconds"] == 45


# ---------------------------------------------------------------- drawn sequences

def test_every_registered_game_is_drawn_and_every_refusal_here_is_documented():
    assert sorted(g.id for g in registry.listed()) == GAMES
    codes = room_action_codes()
    assert {"start", "again", "pause", "resume", "end", "kick", "add_bot", "settings"} <= set(codes)
    assert documented_anywhere("unauthorized")
    assert {"player_count", "bad_options"} <= codes["again"]


SEEN: dict = {}


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=50, deadline=None, derandomize=True, database=None,
          phases=[Phase.explicit, Phase.generate, Phase.shrink],   # no explain: it traces Django
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_settings_options_and_room_actions_in_any_order(game, data):
    table = Table(data, game)
    for _ in range(data.draw(st.integers(6, 18))):
        table.step(data.draw(STEPS))
    SEEN.setdefault(game, set()).update(table.seen)


def test_the_drawn_sequences_reached_again_accepted_and_refused():
    if len(SEEN) < len(GAMES):
        pytest.skip("runs after the drawn sequences (the whole file)")
    seen = set().union(*SEEN.values())
    outcomes = {(step, code) for step, _, code in seen}
    for wanted in [("again", "ok"), ("again", "no_game_running"), ("again", "player_count"),
                   ("start", "ok"), ("start", "bad_options"), ("start", "not_allowed"),
                   ("kick", "ok"), ("settings", "ok"), ("add_bot", "ok"),
                   ("choose", "ok"), ("choose", "bad_options"), ("choose", "not_allowed")]:
        assert wanted in outcomes, wanted


def test_relaxed_timers_run_four_times_as_long_and_the_extended_flag_still_works():
    code, _, _ = make_room(3)
    act(code, {"type": "settings", "timers": "relaxed"}, T0)
    assert act(code, {"type": "start", "game": "association",
                      "options": {"tell_seconds": 100}}, T0).room.deadline_at == T0 + 400_000
    act(code, {"type": "settings", "extended": True}, T0 + 1)      # an old client's toggle
    assert room(code).settings["timers"] == "extended"
    assert act(code, {"type": "again"}, T0 + 2).room.deadline_at == T0 + 2 + 200_000
    act(code, {"type": "settings", "extended": False}, T0 + 3)
    assert act(code, {"type": "again"}, T0 + 4).room.deadline_at == T0 + 4 + 100_000
    assert [e["timer_factor"] for e in started_events(code)] == [4, 2, 1]


def test_a_room_from_before_the_timers_setting_keeps_its_extended_flag():
    from partyhub.rooms.domain import roomactions
    assert roomactions.timers({"extended": True}) == "extended"
    assert roomactions.timer_factor({"extended": True}) == 2
    assert roomactions.timer_factor({}) == 1


@pytest.mark.parametrize("bad", ["x8", "", "RELAXED"])
def test_an_unknown_timer_setting_is_refused_and_changes_nothing(bad):
    from partyhub.rooms.core.errors import ServiceError
    code, _, _ = make_room(3)
    act(code, {"type": "settings", "timers": "relaxed"}, T0)
    with pytest.raises(ServiceError) as e:
        act(code, {"type": "settings", "timers": bad}, T0)
    assert e.value.code == "bad_action"
    assert room(code).settings["timers"] == "relaxed"
