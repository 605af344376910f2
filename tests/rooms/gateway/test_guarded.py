"""A game that raises in any hook is logged and refused through the gateway (gateway/calls.py):
the room keeps working for the other players, the TV gets its frames, a clear error comes
back, nothing is written."""
import json
import logging

import pytest

from partyhub.gamekit import AUDIENCE, TABLE
from partyhub.rooms.core.errors import ServiceError
from partyhub.rooms.gateway import calls, registry
from partyhub.rooms.models import Event, Room, StreamItem
from partyhub.rooms.relay import audience, progress
from partyhub.rooms.store import store
from partyhub.rooms.views import viewmodel
from partyhub.rooms.write import services
from tests.rooms.helpers import make_room, player, room, start_count

pytestmark = pytest.mark.django_db


def _raise(*_a, **_k):
    raise RuntimeError("the game's bug")


def _broken_for(monkeypatch, hook, who):
    """The count game's `hook` raises when its seat/viewer argument is `who`."""
    game = registry.get("count")
    real = getattr(game, hook)
    monkeypatch.setattr(game, hook, lambda state, viewer, *a: _raise() if viewer == who else real(state, viewer, *a))


def _written(code):
    r = Room.objects.get(code=code)
    return r.version, r.state, Event.objects.filter(room__code=code).count()


def _frames(code):
    r = room(code)
    return {k: json.loads(v)["d"] for k, v in viewmodel.viewer_frames(r, store.seats(r, fresh=True), "").items()}


def test_apply_that_raises_is_refused_and_the_others_play_on(monkeypatch, caplog):
    code, _, seats = make_room(2)
    start_count(code)
    first = seats[0].player_id
    _broken_for(monkeypatch, "apply", first)
    before = _written(code)
    with caplog.at_level(logging.WARNING), pytest.raises(ServiceError) as e:
        services.room_apply(code, player(seats[0]), "a1", {"type": "add", "n": 1})
    assert e.value.code == "bad_action"
    assert _written(code) == before
    assert "game rules raised: count.apply" in caplog.text
    services.room_apply(code, player(seats[1]), "b1", {"type": "say", "text": "hi"})
    assert _written(code)[0] == before[0] + 1


@pytest.mark.parametrize("hook", ["view", "actions"])
def test_a_view_or_actions_that_raise_leave_every_other_frame(monkeypatch, hook):
    code, _, seats = make_room(2)
    start_count(code)
    broken, fine = seats[0].player_id, seats[1].player_id
    whole = _frames(code)
    _broken_for(monkeypatch, hook, broken)
    before = _written(code)
    frames = _frames(code)
    assert frames[TABLE] == whole[TABLE] and frames[fine] == whole[fine]
    if hook == "view":
        assert frames[broken]["game"] is None and whole[broken]["game"] is not None
    else:       # its room actions stay (the VIP's), the game's are gone
        game_acts = lambda f: [a for a in f["actions"] if a["type"] in ("add", "say")]  # noqa: E731
        assert game_acts(whole[broken]) and not game_acts(frames[broken])
    assert frames[broken]["room"] == whole[broken]["room"]
    assert _written(code) == before


def test_on_deadline_that_raises_writes_nothing_of_the_game_and_the_room_plays_on(monkeypatch):
    code, _, seats = make_room(2)
    start_count(code, turn_seconds=5)
    monkeypatch.setattr(registry.get("count"), "on_deadline", _raise)
    version, state, events = _written(code)
    due = Room.objects.get(code=code).deadline_at
    assert services.room_tick(code, due + 1) is not None
    assert _written(code)[1:] == (state, events)
    services.room_apply(code, player(seats[0]), "a1", {"type": "add", "n": 1})
    assert _written(code)[2] > events


def test_progress_that_raises_sends_none(monkeypatch):
    code, _, _ = make_room(2)
    start_count(code)
    monkeypatch.setattr(registry.get("count"), "progress", _raise, raising=False)
    assert progress.summary(code) is None


def test_audience_hooks_that_raise_leave_the_audience_watching(monkeypatch):
    code, _, seats = make_room(2)
    start_count(code)
    game = registry.get("count")
    for hook in ("audience_actions", "audience_ballot", "audience_summary"):
        monkeypatch.setattr(game, hook, _raise)
    r = room(code)
    assert audience.actions(r, game) == [] and audience.ballot(game, r.state) is None
    frames = _frames(code)
    assert frames[AUDIENCE]["actions"] == [] and frames[TABLE]["room"]["audience_ballot"] is None


def test_audience_check_that_raises_is_a_bad_action(monkeypatch):
    game = registry.get("count")
    monkeypatch.setattr(game, "audience_check", _raise)
    code, _, _ = make_room(1)
    start_count(code)
    verdict = calls.rules_call(game, "audience_check", room(code).state, {"type": "predict", "n": 1}, {})
    assert verdict.code == "bad_action"


def test_audience_close_that_raises_keeps_the_move(monkeypatch):
    code, _, seats = make_room(2)
    start_count(code)
    monkeypatch.setattr(registry.get("count"), "audience_close", _raise)
    version, _, events = _written(code)
    services.room_apply(code, player(seats[0]), "a1", {"type": "add", "n": 2})    # closes ballot t0
    after = _written(code)
    assert after[0] == version + 1 and after[1]["total"] == 2
    types = list(Event.objects.filter(room__code=code).order_by("id").values_list("type", flat=True))
    assert "audience_closed" not in types[events:]


@pytest.mark.parametrize("hook", ["scores", "deadline", "can_advance"])
def test_a_read_every_view_makes_that_raises_leaves_every_frame(monkeypatch, hook):
    code, _, seats = make_room(2)
    start_count(code, turn_seconds=5)
    whole = _frames(code)
    monkeypatch.setattr(registry.get("count"), hook, _raise, raising=False)
    frames = _frames(code)
    assert set(frames) == set(whole)
    assert frames[seats[1].player_id]["game"] == whole[seats[1].player_id]["game"]
    services.room_apply(code, player(seats[0]), "a1", {"type": "add", "n": 1})    # and the room plays on


@pytest.mark.parametrize("hook", ["setup", "begin", "check"])
def test_a_deal_whose_rules_raise_is_refused_and_the_room_stays_in_the_lobby(monkeypatch, hook):
    code, _, _ = make_room(2)
    monkeypatch.setattr(registry.get("count"), hook, _raise, raising=False)
    before = _written(code)
    with pytest.raises(ServiceError) as e:
        start_count(code)
    assert e.value.code == "bad_action"
    assert _written(code) == before and Room.objects.get(code=code).phase == "lobby"


def test_an_outcome_that_raises_refuses_the_move(monkeypatch):
    code, _, seats = make_room(2)
    start_count(code)
    monkeypatch.setattr(registry.get("count"), "outcome", _raise)
    before = _written(code)
    with pytest.raises(ServiceError) as e:
        services.room_apply(code, player(seats[0]), "a1", {"type": "add", "n": 1})
    assert e.value.code == "bad_action" and _written(code) == before


def test_an_absorb_that_raises_leaves_the_items_waiting_and_the_room_playing(monkeypatch):
    code, _, seats = make_room(2)
    start_count(code)
    r = Room.objects.get(code=code)
    StreamItem.objects.create(room=r, game_no=r.game_no, seat=seats[0].player_id,
                              data={"type": "doodle", "points": [[1, 1]]})
    monkeypatch.setattr(registry.get("count"), "absorb", _raise)
    services.room_apply(code, player(seats[0]), "a1", {"type": "add", "n": 1})
    assert _written(code)[1]["total"] == 1 and _written(code)[1]["doodles"] == 0
    assert StreamItem.objects.filter(room=r).count() == 1       # they wait for rules that absorb
    monkeypatch.undo()
    services.room_apply(code, player(seats[1]), "b1", {"type": "add", "n": 1})
    assert _written(code)[1]["doodles"] == 1 and not StreamItem.objects.filter(room=r).exists()
