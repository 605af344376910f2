"""Seats change hands only with the VIP's or the TV's approval; kicked names stay out.

Claims of a disconnected seat (a new browser by name, a spectator by `take_seat`), their
guards and races, the VIP who is always a seated player, and barred names."""
import json

import pytest

from partyhub.rooms import clock, services, viewmodel
from partyhub.rooms import selectors
from partyhub.rooms.errors import ServiceError
from tests.rooms.helpers import make_room, player, room, start_count, tv

pytestmark = pytest.mark.django_db

MINUTE = 60_000


def refused(code_expected, fn, *args, **kwargs):
    with pytest.raises(ServiceError) as e:
        fn(*args, **kwargs)
    assert e.value.code == code_expected, e.value.code
    return e.value


def connected(code, seats):
    for s in seats:
        services.seat_connect(code, s.player_id, f"ch-{s.player_id}")


def leave(code, seat):
    return services.seat_disconnect(code, seat.player_id, f"ch-{seat.player_id}")


def act(code, actor, d, now=None):
    return services.room_apply(code, actor, None, d, now=now)


def approve(code, claim, actor=None, now=None):
    return act(code, actor or tv(), {"type": "approve_claim", "claim": claim["id"]}, now)


def deny(code, claim, actor=None):
    return act(code, actor or tv(), {"type": "deny_claim", "claim": claim["id"]})


def all_frames(code):
    r = selectors.room_read(code)
    return viewmodel.viewer_frames(r.room, r.seats, "http://x/j/" + code)


# ---------------------------------------------------------------- a new browser, by name

def test_a_name_of_a_disconnected_seat_is_taken_but_claimable_and_a_connected_one_is_not():
    code, _, seats = make_room(2)
    connected(code, seats)
    assert refused("name_taken", services.seat_join, code, "p1").extra == {"claimable": False}
    leave(code, seats[1])
    e = refused("name_taken", services.seat_join, code, " P2 ")
    assert e.extra == {"claimable": True} and e.status == 409


def test_a_locked_or_full_room_still_says_the_name_is_claimable(settings):
    code, _, seats = make_room(2)
    act(code, tv(), {"type": "lock"})
    assert refused("name_taken", services.seat_join, code, "P2").extra == {"claimable": True}
    settings.PARTYHUB_LIMITS = {**settings.PARTYHUB_LIMITS, "max_seats": 2}
    act(code, tv(), {"type": "unlock"})
    assert refused("name_taken", services.seat_join, code, "P2").extra == {"claimable": True}
    services.seat_claim(code, "P2")     # a claim adds no seat


def test_a_new_browser_gets_its_seat_back_in_the_lobby_only_when_the_tv_approves():
    code, _, seats = make_room(2)
    connected(code, seats)
    leave(code, seats[1])
    change, claim, token = services.seat_claim(code, "p2")
    assert claim["player"] == seats[1].player_id and change.room.claims[0]["id"] == claim["id"]
    waiting = selectors.actor_for(code, token)
    assert (waiting.role, waiting.seat, waiting.claim) == ("audience", None, claim["id"])
    assert selectors.actor_for(code, seats[1].token).seat.player_id == seats[1].player_id   # not yet moved
    refused("no_game_running", act, code, waiting, {"type": "add", "n": 1})
    refused("not_allowed", approve, code, claim, waiting)      # it cannot answer itself
    change = approve(code, claim)
    assert change.effects == [("moved", f"claim:{claim['id']}", seats[1].player_id)]
    assert change.room.claims == []
    back = selectors.actor_for(code, token)
    assert back.seat.player_id == seats[1].player_id and back.seat.name == "P2"
    refused("unauthorized", selectors.actor_for, code, seats[1].token)      # the old token
    assert [e["type"] for e in _events(code)][-2:] == ["claim_asked", "seat_claimed"]


def test_a_new_browser_gets_its_seat_back_during_a_game_with_its_score():
    code, _, seats = make_room(2)
    connected(code, seats)
    start_count(code)
    act(code, player(seats[0]), {"type": "add", "n": 1})
    act(code, player(seats[1]), {"type": "add", "n": 2})
    leave(code, seats[1])
    _, claim, token = services.seat_claim(code, "P2")
    refused("not_a_player", act, code, selectors.actor_for(code, token), {"type": "add", "n": 1})
    approve(code, claim, player(seats[0]))                  # the VIP
    back = selectors.actor_for(code, token)
    assert back.seat.player_id == seats[1].player_id and back.seat.playing
    assert room(code).state["scores"][seats[1].player_id] == 2
    services.seat_connect(code, seats[1].player_id, "new-browser")
    act(code, player(seats[0]), {"type": "add", "n": 1})
    act(code, back, {"type": "add", "n": 1})                # it plays on


def test_claims_are_refused_for_unknown_connected_or_bad_names():
    code, _, seats = make_room(2)
    connected(code, seats)
    refused("not_claimable", services.seat_claim, code, "Nobody")
    refused("seat_taken", services.seat_claim, code, "P1")
    refused("bad_name", services.seat_claim, code, "")
    refused("room_not_found", services.seat_claim, "ZZZZ", "P1")
    assert room(code).claims == []


def test_no_view_shows_a_claims_token_or_its_hash():
    code, _, seats = make_room(2)
    leave(code, seats[1])
    _, claim, token = services.seat_claim(code, "P2")
    full = room(code).claims[0]
    frames = all_frames(code)
    for text in frames.values():
        assert claim["id"] in text and token not in text and full["token_hash"] not in text
        assert "token_hash" not in text
    assert set(json.loads(frames["@audience"][frames["@audience"].index('"d":') + 4:-1])["room"]["claims"][0]) == \
        {"id", "player", "seat", "name", "by", "expires"}


# ---------------------------------------------------------------- who answers

def test_only_the_tv_or_the_seated_vip_may_answer_a_claim():
    code, _, seats = make_room(3)
    leave(code, seats[2])
    _, claim, _ = services.seat_claim(code, "P3")
    refused("not_allowed", approve, code, claim, player(seats[1]))       # a player, not the VIP
    refused("not_allowed", deny, code, claim, selectors.Actor("audience"))
    actions = lambda viewer: json.loads(all_frames(code)[viewer].rsplit('"actions":', 1)[1][:-2])
    answers = [{"type": "approve_claim", "claim": claim["id"]}, {"type": "deny_claim", "claim": claim["id"]}]
    for viewer in ("@table", seats[0].player_id):
        assert all(a in actions(viewer) for a in answers)
    for viewer in ("@audience", seats[1].player_id):
        assert not any(a["type"].endswith("_claim") for a in actions(viewer))
    approve(code, claim, player(seats[0]))


def test_a_denied_claim_tells_its_asker_and_its_token_opens_nothing():
    code, _, seats = make_room(2)
    leave(code, seats[1])
    _, claim, token = services.seat_claim(code, "P2")
    change = deny(code, claim)
    assert change.effects == [("claim_ended", f"claim:{claim['id']}", claim["id"], "denied")]
    refused("unauthorized", selectors.actor_for, code, token)
    refused("unknown_claim", approve, code, claim)
    assert selectors.actor_for(code, seats[1].token).seat.player_id == seats[1].player_id


# ---------------------------------------------------------------- races

def test_a_claim_is_dropped_when_the_seats_owner_reconnects_meanwhile():
    code, _, seats = make_room(2)
    leave(code, seats[1])
    _, claim, token = services.seat_claim(code, "P2")
    change = services.seat_connect(code, seats[1].player_id, "owner-again")
    assert ("claim_ended", f"claim:{claim['id']}", claim["id"], "dropped") in change.effects
    assert change.room.claims == []
    refused("unknown_claim", approve, code, claim)
    refused("unauthorized", selectors.actor_for, code, token)


def test_two_claims_of_one_seat_the_first_approved_wins_and_the_other_is_told():
    code, _, seats = make_room(2)
    leave(code, seats[1])
    _, first, token1 = services.seat_claim(code, "P2")
    _, second, token2 = services.seat_claim(code, "p2")
    change = approve(code, second)
    assert ("claim_ended", f"claim:{first['id']}", first["id"], "dropped") in change.effects
    assert selectors.actor_for(code, token2).seat.player_id == seats[1].player_id
    refused("unauthorized", selectors.actor_for, code, token1)
    refused("unknown_claim", approve, code, first)


def test_a_claim_expires_by_the_rooms_timer_and_cannot_be_approved_after():
    code, _, seats = make_room(2)
    leave(code, seats[1])
    t0 = clock.wall_ms()
    _, claim, token = services.seat_claim(code, "P2", now=t0)
    assert room(code).deadline_at == claim["expires"] == t0 + 2 * MINUTE
    assert services.room_tick(code, now=t0 + MINUTE) is None
    refused("unknown_claim", approve, code, claim, now=claim["expires"])     # due, not yet swept
    change = services.room_tick(code, now=claim["expires"])
    assert change.effects == [("claim_ended", f"claim:{claim['id']}", claim["id"], "expired")]
    assert change.room.claims == [] and change.room.deadline_at is None
    refused("unauthorized", selectors.actor_for, code, token)


def test_a_claim_expires_while_the_game_is_paused_and_the_game_timer_waits():
    code, _, seats = make_room(2)
    start_count(code, turn_seconds=120)
    act(code, tv(), {"type": "pause"})
    t0 = clock.wall_ms()
    _, claim, _ = services.seat_claim(code, "P2", now=t0)
    assert room(code).deadline_at == claim["expires"]
    state = room(code).state
    change = services.room_tick(code, now=claim["expires"] + 1)
    assert change.effects[0][3] == "expired" and change.room.state == state


def test_claims_per_room_are_bounded():
    code, _, seats = make_room(1)
    for _ in range(4):
        services.seat_claim(code, "P1")
    refused("claims_full", services.seat_claim, code, "P1")
    assert len(room(code).claims) == 4


# ---------------------------------------------------------------- spectators

def test_a_spectators_take_seat_is_a_claim_and_a_new_ask_replaces_the_old_one():
    code, _, seats = make_room(3)
    connected(code, seats)
    start_count(code)
    leave(code, seats[1])
    leave(code, seats[2])
    _, late, token = services.seat_join(code, "Late")
    act(code, player(late), {"type": "take_seat", "player": seats[1].player_id})
    change = act(code, player(late), {"type": "take_seat", "player": seats[2].player_id})
    assert [(c["player"], c["by"], c["name"]) for c in change.room.claims] == [
        (seats[2].player_id, late.player_id, "Late")]
    assert selectors.actor_for(code, seats[2].token).seat.player_id == seats[2].player_id
    change = approve(code, change.room.claims[0], player(seats[0]))
    assert change.effects == [("moved", late.player_id, seats[2].player_id)]
    moved = selectors.actor_for(code, token).seat
    assert (moved.player_id, moved.name, moved.playing) == (seats[2].player_id, "Late", True)


def test_a_spectator_may_not_ask_when_takeover_is_off():
    code, _, seats = make_room(2)
    start_count(code)
    act(code, tv(), {"type": "settings", "takeover": False})
    _, late, _ = services.seat_join(code, "Late")
    refused("takeover_off", act, code, player(late), {"type": "take_seat", "player": seats[0].player_id})
    refused("not_allowed", act, code, player(seats[1]), {"type": "take_seat", "player": seats[0].player_id})


def test_a_spectators_claim_is_dropped_when_the_game_ends_and_it_becomes_a_player():
    code, _, seats = make_room(2)
    start_count(code)
    _, late, _ = services.seat_join(code, "Late")
    act(code, player(late), {"type": "take_seat", "player": seats[1].player_id})
    change = act(code, tv(), {"type": "end"})
    assert change.room.claims == [] and change.effects[0][1:] == (late.player_id, change.effects[0][2], "dropped")


# ---------------------------------------------------------------- the VIP

def test_the_vip_never_passes_to_a_spectator_when_the_players_phones_disconnect():
    code, _, seats = make_room(2)
    connected(code, seats)
    start_count(code)
    _, late, _ = services.seat_join(code, "Late")
    services.seat_connect(code, late.player_id, "ch-late")
    leave(code, seats[0])
    assert room(code).vip == seats[1].player_id
    change = leave(code, seats[1])
    assert change.room.vip in (seats[0].player_id, seats[1].player_id)
    for d in ({"type": "kick", "player": seats[0].player_id}, {"type": "end"}, {"type": "pause"},
              {"type": "approve_claim", "claim": "x"}, {"type": "unban", "name": "x"}):
        refused("not_allowed", act, code, player(late), d)


def test_room_actions_from_a_spectator_who_is_somehow_vip_are_refused():
    code, _, seats = make_room(2)
    start_count(code)
    _, late, _ = services.seat_join(code, "Late")
    from partyhub.rooms.models import Room
    Room.objects.filter(code=code).update(vip=late.player_id)      # an old row, before this rule
    refused("not_allowed", act, code, player(late), {"type": "end"})
    frames = all_frames(code)
    assert '"type":"end"' not in frames[late.player_id]
    change = services.seat_connect(code, seats[0].player_id, "c0")
    assert change.room.vip == seats[0].player_id


def test_a_bot_is_never_the_vip_while_a_human_plays():
    room_, _ = services.room_create()
    services.seat_join(room_.code, "Robo", bot=True)
    assert room(room_.code).vip == ""
    _, ann, _ = services.seat_join(room_.code, "Ann")
    assert room(room_.code).vip == ann.player_id


# ---------------------------------------------------------------- kicked names

def test_a_kicked_name_cannot_rejoin_until_the_host_lets_it_back_in():
    code, _, seats = make_room(3)
    act(code, tv(), {"type": "kick", "player": seats[2].player_id})
    e = refused("name_kicked", services.seat_join, code, "p3")
    assert e.status == 403
    refused("name_kicked", services.seat_claim, code, "P3")
    assert room(code).barred == ["P3"]
    assert {"type": "unban", "name": "P3"} in json.loads(all_frames(code)["@table"].rsplit('"actions":', 1)[1][:-2])
    refused("not_allowed", act, code, player(seats[1]), {"type": "unban", "name": "P3"})
    refused("unknown_player", act, code, tv(), {"type": "unban", "name": "Nobody"})
    act(code, player(seats[0]), {"type": "unban", "name": "P3"})      # the VIP
    assert room(code).barred == []
    _, again, _ = services.seat_join(code, "P3")
    assert again.player_id != seats[2].player_id


def test_barred_names_are_bounded():
    code, _, seats = make_room(1)
    for i in range(40):
        _, s, _ = services.seat_join(code, f"K{i}")
        act(code, tv(), {"type": "kick", "player": s.player_id})
    barred = room(code).barred
    assert len(barred) == 32 and barred[-1] == "K39"
    services.seat_join(code, "K0")          # the oldest may join again


def _events(code):
    from partyhub.rooms.models import Event
    return list(Event.objects.filter(room__code=code).values("type", "data"))


def test_every_room_action_declares_its_fields():
    """A room action the registry does not know is refused as bad_action before its handler
    runs (the claims' actions were, once): every handler has its schema."""
    from partyhub.rooms import roomactions
    assert set(roomactions.HANDLERS) == set(roomactions.SCHEMA)
