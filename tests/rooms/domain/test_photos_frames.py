"""Table photos over real sockets (partyhub/rooms/domain/photos.py): every frame of a room that plays
with its photos, recorded, names no photo, deck or pass of another room that has photos too,
and no seat's frame names another seat's own photo list."""
import pytest
from asgiref.sync import sync_to_async

from partyhub.decks import deckpass
from partyhub.rooms.domain import photos
from partyhub.rooms.write import ladder, services
from partyhub.rooms.models import Room
from tests.harness.recorded import play_recorded
from tests.rooms.helpers import make_room, tv
from tests.decks.test_deck_pass import data_dir, webp  # noqa: F401 (data_dir: autouse)

pytestmark = pytest.mark.django_db(transaction=True)


def with_photos(code, seats, n=3):
    services.room_apply(code, tv(), None, {"type": "settings", "photos": True})
    for s in seats:
        photos.add(ladder.room_change, code, s.player_id, [webp((i, 9, 9)) for i in range(n)])


async def test_a_game_with_photos_names_nothing_of_another_rooms_photos():
    other, _, other_seats = await sync_to_async(make_room)(3)
    await sync_to_async(with_photos)(other, other_seats)
    room = await sync_to_async(Room.objects.get)(code=other)
    deck = photos.deck_id(room.pk)
    foreign = [deck, deckpass.room_pass(room.pk, deck)]
    rec = await play_recorded("association", 3, {}, max_steps=40, reconnect_every=9, prepare=with_photos)
    mine = await sync_to_async(Room.objects.get)(code=rec.code)
    own = photos.deck_id(mine.pk)
    assert any(f"{own}-" in text for _, _, text in rec.frames)         # its own photos were dealt
    by_seat = {}                  # each seat's first photo: its own list in its `you` starts there
    for c in photos.cards(mine):
        by_seat.setdefault(c["seat"], c["id"])

    def secrets(state, viewer):
        others = [f'"photos":["{card}"' for seat, card in by_seat.items() if seat != viewer]
        return foreign + (others if viewer in by_seat else [])
    assert rec.check(secrets) > 20


async def test_the_check_catches_a_planted_leak():
    rec = await play_recorded("association", 3, {}, max_steps=5, reconnect_every=0, prepare=with_photos)
    mine = await sync_to_async(Room.objects.get)(code=rec.code)
    with pytest.raises(AssertionError):
        rec.check(lambda state, viewer: [photos.deck_id(mine.pk)])
