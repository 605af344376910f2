"""The VIP keeps the crown through a reload (partyhub/rooms/timers/vip.py): a VIP whose phone is away
keeps it for the grace, then the timekeeper passes it to the next connected human player even
if nobody acts, and the TV is told; a VIP who leaves for good passes it at once."""
import json

import pytest

from partyhub.rooms.access import selectors
from partyhub.rooms.core.errors import ServiceError
from partyhub.rooms.live import timekeeper
from partyhub.rooms.models import Room
from partyhub.rooms.timers import standin, vip
from partyhub.rooms.views import viewmodel
from partyhub.rooms.write import services
from tests.rooms.helpers import make_room, tv
from tests.rooms.standinkit import back, drop, fire, row
from tests.rooms.transport.test_consumers import table

GRACE = 60_000


def connected(n=3):
    code, _, seats = make_room(n)
    for s in seats:
        services.seat_connect(code, s.player_id, "ch-" + s.player_id)
    return code, seats


def away(code, seat) -> int:
    services.seat_disconnect(code, seat.player_id, "ch-" + seat.player_id)
    return Room.objects.get(code=code).away[seat.player_id]["since"]


def tv_room(code) -> dict:
    r = selectors.room_read(code)
    return json.loads(viewmodel.viewer_frames(r.room, r.seats, "http://x/j/C")["@table"])["d"]["room"]


@pytest.mark.django_db
def test_the_vip_keeps_the_crown_through_a_reload():
    code, (ann, bob, _) = connected()
    since = away(code, ann)
    r = Room.objects.get(code=code)
    assert r.vip == ann.player_id and r.vip_passed is None
    assert r.deadline_at == since + GRACE, "the timekeeper wakes the room when the grace ends"
    change = services.seat_connect(code, ann.player_id, "ch-again")
    assert change.room.vip == ann.player_id and change.room.deadline_at is None
    assert services.room_tick(code, since + GRACE + 1) is None


@pytest.mark.django_db
def test_after_the_grace_the_crown_passes_to_the_next_connected_human_though_nobody_acts():
    code, (ann, bob, _) = connected()
    since = away(code, ann)
    assert services.room_tick(code, since + GRACE - 1) is None
    assert timekeeper.due_codes(since + GRACE - 1) == []
    assert timekeeper.due_codes(since + GRACE) == [code]
    change = services.room_tick(code, since + GRACE)
    assert change.room.vip == bob.player_id
    assert change.room.vip_passed == {"from": ann.player_id, "name": "P1", "to": bob.player_id,
                                      "why": "away", "at": since + GRACE}
    assert change.room.deadline_at is None, "nothing more is due"
    told = tv_room(code)
    assert told["vip"] == bob.player_id and told["vip_passed"]["name"] == "P1"
    services.seat_connect(code, ann.player_id, "ch-again")
    assert Room.objects.get(code=code).vip == bob.player_id, "back too late: Bob keeps it"


@pytest.mark.django_db
def test_with_nobody_else_connected_the_crown_stays_and_nothing_is_due():
    code, (ann, bob) = connected(2)
    away(code, bob)
    since = away(code, ann)
    r = Room.objects.get(code=code)
    assert r.vip == ann.player_id and r.deadline_at is None
    services.seat_connect(code, bob.player_id, "ch-b2")
    assert Room.objects.get(code=code).deadline_at == since + GRACE
    change = services.room_tick(code, since + GRACE)
    assert change.room.vip == bob.player_id


@pytest.mark.django_db
def test_a_kicked_vip_passes_the_crown_at_once_and_the_tv_is_told_why():
    code, (ann, bob, _) = connected()
    change = services.room_apply(code, tv(), None, {"type": "kick", "player": ann.player_id})
    assert change.room.vip == bob.player_id
    assert change.room.vip_passed["why"] == "left" and change.room.vip_passed["name"] == "P1"


@pytest.mark.django_db
def test_the_host_sets_the_rooms_grace_in_whole_seconds(settings):
    code, (ann, bob, _) = connected()
    services.room_apply(code, tv(), None, {"type": "settings", "vip_grace": 5})
    since = away(code, ann)
    assert Room.objects.get(code=code).deadline_at == since + 5000
    assert tv_room(code)["vip_grace"] == 5
    for bad in (-1, 601, "60", True):
        with pytest.raises(ServiceError) as e:
            services.room_apply(code, tv(), None, {"type": "settings", "vip_grace": bad})
        assert e.value.code == "bad_action"
    settings.PARTYHUB_VIP_GRACE_SECONDS = 30
    assert vip.grace_ms(Room(settings={})) == 30_000, "rooms without their own: the server's"


@pytest.mark.django_db(transaction=True)
async def test_over_the_sockets_a_reload_keeps_the_crown_and_the_tv_hears_when_it_passes():
    code, tvc, phones = await table(3)
    ann, bob = phones[0], phones[1]
    await tvc.until(lambda v: v["room"]["vip"] == ann.seat.player_id)
    await drop(code, tvc, ann)
    ann = await back(code, ann)                     # a reload
    await tvc.until(lambda v: all(p["connected"] for p in v["room"]["players"]))
    assert tvc.view["room"]["vip"] == ann.seat.player_id and tvc.view["room"]["vip_passed"] is None
    since = await drop(code, tvc, ann)               # gone for good this time
    assert tvc.view["room"]["vip"] == ann.seat.player_id
    assert await fire(since + GRACE - 1) == 0
    assert await fire(since + GRACE) == 1
    v = await tvc.until(lambda v: v["room"]["vip"] == bob.seat.player_id)
    assert v["room"]["vip_passed"]["from"] == ann.seat.player_id and v["room"]["vip_passed"]["why"] == "away"
    await bob.until(lambda v: any(a["type"] == "start" for a in v["actions"]))
    assert (await row(code)).deadline_at is None


@pytest.mark.django_db
def test_the_time_a_server_was_down_does_not_count_against_the_vip(monkeypatch):
    code, (ann, bob, _) = connected()
    since = away(code, ann)
    up = since + 30_000           # the server (re)started 30 s after Ann's phone went
    monkeypatch.setattr(standin, "STARTED", up)
    services.seat_connect(code, bob.player_id, "ch-b2")      # any write computes the due time
    assert Room.objects.get(code=code).deadline_at == up + GRACE
    assert services.room_tick(code, since + GRACE) is None
    assert services.room_tick(code, up + GRACE).room.vip == bob.player_id
