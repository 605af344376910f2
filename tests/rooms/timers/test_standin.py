"""The stand-in that keeps a dropped seat warm (partyhub/rooms/timers/standin.py), on the write path
with the count game: when it plays, when it does not (off, paused, the phone back, nothing it
may do), that its moves are the seat's own, and that its count survives a restart."""
import json

import pytest

from partyhub.bots import choice
from partyhub.rooms.core.errors import ServiceError
from partyhub.rooms.live import timekeeper
from partyhub.rooms.models import Event, Room
from partyhub.rooms.store import store
from partyhub.rooms.timers import clock, standin
from partyhub.rooms.views import viewmodel
from partyhub.rooms.views.viewmodel import room_part
from partyhub.rooms.write import services
from tests.rooms.helpers import make_room, player, start_count, tv

pytestmark = pytest.mark.django_db
DELAY = standin.DEFAULT_SECONDS * 1000


def row(code) -> Room:
    return Room.objects.get(code=code)


def away(code, seat) -> int:
    """The seat's phone connects and goes again; returns when it went."""
    services.seat_connect(code, seat.player_id, "ch-" + seat.player_id)
    services.seat_disconnect(code, seat.player_id, "ch-" + seat.player_id)
    return row(code).away[seat.player_id]["since"]


def moves(code, seat) -> list:
    return list(Event.objects.filter(room=row(code), seat=seat.player_id, type="action")
                .values_list("data", flat=True))


def marked(code) -> dict:
    r = row(code)
    return {p["id"]: p["standin"] for p in room_part(r, store.seats(r, fresh=True), "")["players"]}


def playing(n=2, **options):
    code, _, seats = make_room(n)
    for s in seats[1:]:
        services.seat_connect(code, s.player_id, "ch-" + s.player_id)
    start_count(code, target=60, **options)
    return code, seats


def test_new_rooms_have_a_stand_in_after_twenty_seconds_and_older_rooms_have_none():
    code, _, _ = make_room(1)
    assert row(code).settings["standin"] == 20 and standin.delay_ms(row(code)) == 20_000
    r = row(code)
    r.settings = {k: v for k, v in r.settings.items() if k != "standin"}
    assert standin.delay_ms(r) is None


def test_a_seat_away_for_the_delay_is_played_for_as_its_own_move_and_the_view_marks_it():
    code, seats = playing()
    ann = seats[0]          # first in seat order: the count waits on her
    since = away(code, ann)
    assert row(code).deadline_at == since + DELAY
    assert services.room_tick(code, since + DELAY - 1) is None
    assert marked(code)[ann.player_id] is False
    change = services.room_tick(code, since + DELAY)
    assert change is not None
    done = moves(code, ann)
    assert len(done) == 1 and done[0]["type"] in ("add", "say")
    assert marked(code) == {ann.player_id: True, seats[1].player_id: False}
    # it keeps playing her seat, a bot's think time apart
    assert row(code).deadline_at == since + DELAY + standin.THINK_MS


def test_the_stand_in_stops_at_once_when_the_phone_is_back_and_the_seat_keeps_what_it_won():
    code, seats = playing()
    ann = seats[0]
    since = away(code, ann)
    services.room_tick(code, since + DELAY)
    won = row(code).state["scores"][ann.player_id]
    services.seat_connect(code, ann.player_id, "ch-back")
    assert ann.player_id not in row(code).away and marked(code)[ann.player_id] is False
    assert row(code).deadline_at is None
    assert services.room_tick(code, since + DELAY * 10) is None
    assert len(moves(code, ann)) == 1
    assert row(code).state["scores"][ann.player_id] == won
    services.room_apply(code, player(ann), None, {"type": "say", "text": "back"})   # hers again


def test_no_stand_in_plays_when_the_host_turned_it_off():
    code, seats = playing()
    services.room_apply(code, tv(), None, {"type": "settings", "standin": 0})
    assert room_part(row(code), [], "")["standin"] == 0
    since = away(code, seats[0])
    assert row(code).deadline_at is None
    assert services.room_tick(code, since + DELAY * 10) is None
    assert timekeeper.fire_due(since + DELAY * 10) == []
    assert moves(code, seats[0]) == []


def test_pause_waits_for_everyone_and_the_stand_in_goes_on_after_resume():
    code, seats = playing()
    since = away(code, seats[0])
    services.room_apply(code, tv(), None, {"type": "pause"})
    assert row(code).deadline_at is None
    assert services.room_tick(code, since + DELAY * 10) is None
    assert moves(code, seats[0]) == []
    services.room_apply(code, tv(), None, {"type": "resume"})
    assert row(code).deadline_at == since + DELAY
    assert services.room_tick(code, since + DELAY) is not None
    assert len(moves(code, seats[0])) == 1


def test_a_seat_offered_only_what_its_bot_never_plays_is_not_waited_on():
    class Klepka:       # the rules' actions for a seat off its turn, and on it
        offered = [{"type": "exchange", "card": "c1", "give": "c2", "take": "c3"}]

        def actions(self, state, viewer):
            return self.offered

    r = Room(game_id="klepka", state={"x": 1}, phase="playing")
    assert not standin.waits_on(r, Klepka(), "p1")
    Klepka.offered = Klepka.offered + [{"type": "flip", "card": "t3"}]
    assert standin.waits_on(r, Klepka(), "p1")


def test_the_count_survives_a_restart_in_the_room_row():
    code, seats = playing()
    since = away(code, seats[0])
    store.forget(code)                       # a new process: nothing in memory
    assert row(code).away == {seats[0].player_id: {"since": since}}
    assert [c.room.code for c in timekeeper.fire_due(since + DELAY)] == [code]
    assert len(moves(code, seats[0])) == 1


def test_the_time_a_server_was_down_is_nobodys_absence(monkeypatch):
    code, seats = playing()
    since = away(code, seats[0])
    assert row(code).deadline_at == since + DELAY     # due, as the row says, when it went down
    up = since + 60_000                               # the server is back a minute later
    monkeypatch.setattr(standin, "STARTED", up)
    timekeeper.fire_due(up)
    assert moves(code, seats[0]) == [] and row(code).deadline_at == up + DELAY
    timekeeper.fire_due(up + DELAY)
    assert len(moves(code, seats[0])) == 1


def test_a_stand_in_with_nothing_it_may_do_rests_until_the_room_changes(monkeypatch):
    code, seats = playing()
    monkeypatch.setattr(choice, "next_action", lambda view, rnd, failed=(), memory=None: {"type": "add", "n": 7})
    since = away(code, seats[0])
    before = row(code).version
    services.room_tick(code, since + DELAY)
    assert moves(code, seats[0]) == [] and row(code).version == before + 1
    assert row(code).deadline_at is None        # no write per tick while nothing changes
    assert services.room_tick(code, since + DELAY * 10) is None
    services.room_apply(code, player(seats[1]), None, {"type": "say", "text": "hello"})
    assert row(code).deadline_at is not None    # the room changed: it looks again


@pytest.mark.parametrize("value", [-1, standin.MAX_SECONDS + 1, True, "20", 2.5])
def test_the_delay_is_whole_seconds_from_zero_to_the_maximum(value):
    code, _, _ = make_room(1)
    with pytest.raises(ServiceError) as e:
        services.room_apply(code, tv(), None, {"type": "settings", "standin": value})
    assert e.value.code == "bad_action"
    services.room_apply(code, tv(), None, {"type": "settings", "standin": 30})
    assert row(code).settings["standin"] == 30


def test_only_the_host_sets_the_delay():
    code, _, seats = make_room(1)
    with pytest.raises(ServiceError) as e:
        services.room_apply(code, player(seats[0]), None, {"type": "settings", "standin": 0})
    assert e.value.code == "not_allowed"


def test_a_kicked_seat_has_no_stand_in():
    code, seats = playing(3)
    since = away(code, seats[0])
    services.room_apply(code, tv(), None, {"type": "kick", "player": seats[0].player_id})
    assert seats[0].player_id not in row(code).away
    assert row(code).deadline_at is None and clock.due_at(row(code)) is None
    assert timekeeper.fire_due(since + DELAY * 10) == []
    assert moves(code, seats[0]) == []


def frames(code) -> dict:
    r = row(code)
    return {k: json.loads(v)["d"] for k, v in viewmodel.viewer_frames(r, store.seats(r, fresh=True), "").items()}


def adds_two(view, rnd, failed=(), memory=None):
    """A stand-in that adds 2 when it may (else says something)."""
    offered = view["actions"]
    return {"type": "add", "n": 2} if {"type": "add", "n": 2} in offered else {"type": "say", "text": "hm"}


def test_the_returning_phone_is_told_what_its_stand_in_did_and_no_other_viewer_is(monkeypatch):
    monkeypatch.setattr(choice, "next_action", adds_two)
    code, seats = playing()
    ann, bob = seats
    before = row(code).state["scores"][ann.player_id]
    since = away(code, ann)
    services.room_tick(code, since + DELAY)
    gained = row(code).state["scores"][ann.player_id] - before
    assert gained == 2 and "standin" not in frames(code)[ann.player_id]["you"], "not while away"
    services.seat_connect(code, ann.player_id, "ch-back")
    seen = frames(code)
    assert seen[ann.player_id]["you"]["standin"] == {"turns": 1, "points": 2}
    assert all("standin" not in v["you"] for k, v in seen.items() if k != ann.player_id)
    services.room_apply(code, player(bob), None, {"type": "say", "text": "hi"})
    assert frames(code)[ann.player_id]["you"]["standin"]["turns"] == 1, "kept until she moves"
    services.room_apply(code, player(ann), None, {"type": "say", "text": "back"})
    assert "standin" not in frames(code)[ann.player_id]["you"], "her own move: she has seen it"


def test_the_note_adds_up_two_absences_of_one_game_and_forgets_an_earlier_game(monkeypatch):
    monkeypatch.setattr(choice, "next_action", adds_two)   # a move that passes the turn, every time
    code, seats = playing()
    ann, bob = seats
    since = away(code, ann)
    services.room_tick(code, since + DELAY)
    services.seat_connect(code, ann.player_id, "ch-back")
    first = frames(code)[ann.player_id]["you"]["standin"]
    services.room_apply(code, player(bob), None, {"type": "add", "n": 1})    # her turn again
    since = away(code, ann)
    services.room_tick(code, since + DELAY)
    services.seat_connect(code, ann.player_id, "ch-back2")
    assert frames(code)[ann.player_id]["you"]["standin"]["turns"] == first["turns"] + 1
    services.room_apply(code, tv(), None, {"type": "again"})
    assert "standin" not in frames(code)[ann.player_id]["you"], "a new game: nothing to tell"


def test_the_stand_in_plays_from_the_view_its_phone_is_sent(monkeypatch):
    """The view model builds the seat's view (viewmodel.seat_view), not the stand-in by hand:
    the same room part, game view, deadline and actions as the seat's phone."""
    code, seats = playing()
    ann = seats[1]
    services.room_apply(code, player(seats[0]), None, {"type": "add", "n": 1})   # now ann's turn
    since = away(code, ann)
    seen = []
    monkeypatch.setattr(choice, "next_action", lambda view, rnd, failed=(), memory=None:
                        seen.append(view) or {"type": "add", "n": 1})
    phone = frames(code)[ann.player_id]
    assert services.room_tick(code, since + DELAY) is not None
    assert seen == [phone] and phone["you"] == {"role": "player", "id": ann.player_id, "language": "en"}
