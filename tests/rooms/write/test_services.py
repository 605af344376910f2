"""The room service: the one write path, its guard ladder and its errors."""
import pytest

from partyhub.rooms.access import selectors
from partyhub.rooms.core.errors import ServiceError
from partyhub.rooms.write import services
from tests.rooms.helpers import make_room, player, room, start_count, tv
from tests.rooms.conftest import events as logged

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("backend")]


def refused(code_expected, fn, *args, **kwargs):
    with pytest.raises(ServiceError) as e:
        fn(*args, **kwargs)
    assert e.value.code == code_expected, e.value.code
    return e.value


def test_a_new_room_has_a_four_letter_code_without_ambiguous_letters():
    for _ in range(20):
        r, token = services.room_create("uk")
        assert len(r.code) == 4 and r.code.isalpha() and not set(r.code) & set("ILO")
        assert r.language == "uk" and len(token) >= 24 and r.host_token_hash != token


def test_the_first_player_is_the_vip_and_seats_get_distinct_colours_and_symbols():
    code, _, seats = make_room(5)
    r = room(code)
    assert r.vip == seats[0].player_id
    assert len({s.color for s in seats}) == 5 and len({s.symbol for s in seats}) == 5


@pytest.mark.parametrize("name", ["", "   ", "x" * 33, None, 42, "\u200b\u202e\u0000"])
def test_a_bad_name_is_refused(name):
    code, _, _ = make_room(0)
    refused("bad_name", services.seat_join, code, name)


def test_names_are_trimmed_and_unique_ignoring_case():
    code, _, _ = make_room(0)
    _, seat, _ = services.seat_join(code, "  Ann   Lee ")
    assert seat.name == "Ann Lee"
    refused("name_taken", services.seat_join, code, "ann lee")


def test_an_unknown_room_is_not_found():
    refused("room_not_found", services.seat_join, "ZZZZ", "Ann")


def test_a_locked_room_refuses_joins_and_changes_nothing():
    code, _, _ = make_room(2)
    services.room_apply(code, tv(), None, {"type": "lock"})
    before = room(code).version
    refused("room_locked", services.seat_join, code, "Late")
    assert room(code).version == before


def test_a_full_room_refuses_joins(settings):
    settings.PARTYHUB_LIMITS = {**settings.PARTYHUB_LIMITS, "max_seats": 2}
    code, _, _ = make_room(2)
    refused("room_full", services.seat_join, code, "Third")


def test_a_wrong_token_opens_nothing_and_no_token_opens_the_audience():
    code, host, seats = make_room(1)
    refused("unauthorized", selectors.actor_for, code, "forged")
    assert selectors.actor_for(code, None).role == "audience"
    assert selectors.actor_for(code, host).role == "tv"
    assert selectors.actor_for(code, seats[0].token).seat.player_id == seats[0].player_id


def test_only_the_host_or_the_vip_may_start_and_the_game_deals():
    code, _, seats = make_room(3)
    refused("not_allowed", start_count, code, player(seats[1]))
    change = start_count(code, player(seats[0]), target=5)
    assert change.room.phase == "playing" and change.room.game_seats == [s.player_id for s in seats]
    assert change.room.options == {"target": 5, "turn_seconds": 0}


def test_bad_options_and_unknown_games_are_refused_without_a_change():
    code, _, _ = make_room(3)
    v = room(code).version
    refused("bad_options", start_count, code, target=1)
    refused("bad_options", start_count, code, nope=1)
    refused("unknown_game", services.room_apply, code, tv(), None, {"type": "start", "game": "chess"})
    assert room(code).version == v and room(code).phase == "lobby"


def test_a_game_action_out_of_turn_is_refused_and_changes_nothing():
    code, _, seats = make_room(3)
    start_count(code)
    r = room(code)
    e = refused("not_your_turn", services.room_apply, code, player(seats[1]), "a1", {"type": "add", "n": 1})
    assert e.message
    after = room(code)
    assert (after.version, after.state) == (r.version, r.state)


def test_a_repeated_action_id_is_applied_once():
    code, _, seats = make_room(2)
    start_count(code)
    services.room_apply(code, player(seats[0]), "same", {"type": "say", "text": "hi"})
    refused("duplicate_action", services.room_apply, code, player(seats[0]), "same",
            {"type": "say", "text": "hi"})
    assert room(code).state["said"] == [[seats[0].player_id, "hi"]]


def test_malformed_and_unknown_actions_are_refused():
    code, _, seats = make_room(2)
    start_count(code)
    refused("bad_action", services.room_apply, code, player(seats[0]), None, {"no": "type"})
    refused("bad_action", services.room_apply, code, player(seats[0]), None, "text")
    refused("bad_action", services.room_apply, code, player(seats[0]), None, {"type": "fly"})


def test_game_actions_need_a_running_game_and_a_player():
    code, _, seats = make_room(2)
    refused("no_game_running", services.room_apply, code, player(seats[0]), None, {"type": "add", "n": 1})
    start_count(code)
    refused("not_a_player", services.room_apply, code, tv(), None, {"type": "add", "n": 1})


def test_playing_to_the_target_ends_the_game_with_results_and_a_scoreboard_line():
    code, _, seats = make_room(2)
    start_count(code, target=3)
    services.room_apply(code, player(seats[0]), None, {"type": "add", "n": 1})
    change = services.room_apply(code, player(seats[1]), None, {"type": "add", "n": 2})
    r = change.room
    assert r.phase == "over"
    assert r.results["winners"] == [seats[1].player_id]
    assert r.scoreboard["recent"][-1]["game"] == "count" and r.scoreboard["played"] == 1
    assert r.scoreboard["wins"] == {seats[1].player_id: 1}
    refused("game_over", services.room_apply, code, player(seats[0]), None, {"type": "add", "n": 1})


def test_play_again_deals_a_new_game_with_the_same_players():
    code, _, seats = make_room(2)
    start_count(code, target=3)
    services.room_apply(code, player(seats[0]), None, {"type": "add", "n": 3})
    change = services.room_apply(code, tv(), None, {"type": "again"})
    assert change.room.phase == "playing" and change.room.game_no == 2
    assert change.room.state["total"] == 0 and change.room.options["target"] == 3


def test_pause_freezes_the_game_clock_and_resume_shifts_the_deadline():
    code, _, seats = make_room(2)
    start_count(code, turn_seconds=10)
    r = room(code)
    due = r.deadline_at
    services.room_apply(code, tv(), None, {"type": "pause"}, now=due - 5000)
    assert room(code).deadline_at is None
    refused("paused", services.room_apply, code, player(seats[0]), None, {"type": "add", "n": 1})
    assert services.room_tick(code, now=due + 60000) is None
    services.room_apply(code, tv(), None, {"type": "resume"}, now=due + 60000)
    assert room(code).deadline_at == due + 65000


def test_a_due_deadline_fires_once_through_the_write_path():
    code, _, seats = make_room(2)
    start_count(code, turn_seconds=5)
    due = room(code).deadline_at
    assert services.room_tick(code, now=due - 1) is None
    change = services.room_tick(code, now=due)
    assert change.room.state["total"] == 1
    assert change.room.deadline_at > due
    assert services.room_tick(code, now=due) is None
    assert len(logged(code, "timed_out")) == 1


def test_extended_timers_double_the_timer_armed_and_keep_the_option_as_chosen():
    code, _, _ = make_room(2)
    services.room_apply(code, tv(), None, {"type": "settings", "extended": True})
    now = 1_700_000_000_000
    change = services.room_apply(code, tv(), None, {"type": "start", "game": "count",
                                                    "options": {"turn_seconds": 10}}, now=now)
    assert change.room.options["turn_seconds"] == 10
    assert change.room.deadline_at == now + 20_000


def test_a_kicked_player_cannot_come_back_and_the_vip_passes_on():
    code, _, seats = make_room(3)
    for s in seats:
        services.seat_connect(code, s.player_id, f"ch-{s.player_id}")
    change = services.room_apply(code, tv(), None, {"type": "kick", "player": seats[0].player_id})
    assert change.room.vip == seats[1].player_id
    assert ("kick", seats[0].player_id, f"ch-{seats[0].player_id}") in change.effects
    refused("unauthorized", selectors.actor_for, code, seats[0].token)
    assert [s.player_id for s in change.seats] == [seats[1].player_id, seats[2].player_id]


def test_a_second_connection_replaces_the_first():
    code, _, seats = make_room(1)
    services.seat_connect(code, seats[0].player_id, "old")
    change = services.seat_connect(code, seats[0].player_id, "new")
    assert change.effects == [("replace", seats[0].player_id, "new")]
    assert services.seat_disconnect(code, seats[0].player_id, "old") is None   # stale socket


def test_a_player_who_joins_mid_game_watches_and_may_take_a_disconnected_seat_once_approved():
    code, _, seats = make_room(2)
    start_count(code)
    services.room_apply(code, player(seats[0]), None, {"type": "add", "n": 2})
    _, late, token = services.seat_join(code, "Late")
    assert not late.playing
    refused("not_a_player", services.room_apply, code, player(late), None, {"type": "add", "n": 1})
    change = services.room_apply(code, player(late), None, {"type": "take_seat", "player": seats[0].player_id})
    assert change.effects == [] and selectors.actor_for(code, token).seat.player_id == late.player_id
    claim = change.room.claims[0]["id"]
    change = services.room_apply(code, tv(), None, {"type": "approve_claim", "claim": claim})
    assert ("moved", late.player_id, seats[0].player_id) in change.effects
    actor = selectors.actor_for(code, token)
    assert actor.seat.player_id == seats[0].player_id and actor.seat.name == "Late"
    assert room(code).state["scores"][seats[0].player_id] == 2
    refused("seat_handed", selectors.actor_for, code, seats[0].token)     # told, may ask it back


def test_a_connected_seat_cannot_be_taken():
    code, _, seats = make_room(2)
    start_count(code)
    services.seat_connect(code, seats[0].player_id, "c")
    _, late, _ = services.seat_join(code, "Late")
    refused("seat_taken", services.room_apply, code, player(late), None,
            {"type": "take_seat", "player": seats[0].player_id})


def test_the_event_log_appends_every_accepted_action_in_version_order():
    code, _, seats = make_room(2)
    start_count(code, target=3)
    services.room_apply(code, player(seats[0]), None, {"type": "add", "n": 3})
    events = logged(code, game_no=1)
    # the add closed its turn's audience ballot: the fold is logged right after the move
    assert [e.type for e in events] == ["game_started", "action", "audience_closed", "counted"]
    assert [e.version for e in events] == sorted(e.version for e in events)


def test_end_returns_to_the_lobby_and_joiners_become_players():
    code, _, seats = make_room(2)
    start_count(code)
    _, late, _ = services.seat_join(code, "Late")
    change = services.room_apply(code, tv(), None, {"type": "end"})
    assert change.room.phase == "lobby"
    assert all(s.playing for s in change.seats)


def test_host_settings_change_language_and_modes_only_from_the_tv():
    code, _, seats = make_room(2)
    refused("not_allowed", services.room_apply, code, player(seats[0]), None,
            {"type": "settings", "language": "ru"})
    change = services.room_apply(code, tv(), None, {"type": "settings", "language": "ru", "streamer": True})
    assert change.room.language == "ru" and change.room.settings["streamer"] is True
    refused("bad_action", services.room_apply, code, tv(), None, {"type": "settings", "language": "de"})
