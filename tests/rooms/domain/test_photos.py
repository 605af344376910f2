"""Table photos (partyhub/rooms/domain/photos.py): a phone adds up to 5 of its own pictures to its
room's deck, through the deck uploads' limits and worker; they are dealt with association and
jinx in that room only, opened by that room's pass, and purged with the room."""
import json

import pytest
from PIL import Image

from partyhub.gamekit import AUDIENCE, TABLE
from partyhub.decks import deckpass
from partyhub.rooms.domain import photos
from partyhub.rooms.views import viewmodel
from partyhub.rooms.write import lifecycle, services
from partyhub.rooms.models import Room
from tests.rooms.helpers import make_room, tv
from tests.decks.test_deck_pass import data_dir, frames  # noqa: F401 (data_dir: autouse)
from tests.decks.test_decks import bomb_png, f, picture, zipped

pytestmark = pytest.mark.django_db(transaction=True)


def table(n=3, on=True):
    code, host, seats = make_room(n)
    if on:
        services.room_apply(code, tv(), None, {"type": "settings", "photos": True})
    return code, host, seats


def send(client, code, token, files):
    return client.post(f"/api/rooms/{code}/photos", {"files": files},
                       HTTP_AUTHORIZATION=f"Bearer {token}")


def test_a_phone_adds_photos_sees_its_own_and_the_tv_sees_how_many(client, data_dir):
    code, host, seats = table()
    r = send(client, code, seats[0].token, [f("beach.jpg", picture("JPEG", (400, 300))),
                                            f("cat.png", picture("PNG"))])
    assert r.status_code == 201, r.content
    mine = r.json()["photos"]
    assert len(mine) == 2 and r.json()["rejected"] == []
    seen = frames(code)
    assert seen[seats[0].player_id]["you"]["photos"] == mine
    assert seen[seats[1].player_id]["you"]["photos"] == []
    assert seen[TABLE]["you"]["photos"] == mine
    assert {v: seen[v]["room"]["photos"]["count"] for v in seen} == {v: 2 for v in seen}
    deck = photos.deck_id(Room.objects.get(code=code).pk)
    stored = sorted(p.name for p in (data_dir / "decks" / deck).iterdir())
    assert stored == [f"{c}.webp" for c in mine]
    with Image.open(data_dir / "decks" / deck / stored[0]) as im:       # the deck's re-encode
        assert (im.format, im.size) == ("WEBP", (600, 900)) and "exif" not in im.info
    url = f"/r/{code}/cards/{mine[0]}.webp?p={seen[AUDIENCE]['room']['photos']['pass']}"
    assert client.get(url).status_code == 200
    assert not (data_dir / "decks" / deck / "manifest.json").exists()   # never offered as a deck
    assert client.get("/api/decks", HTTP_X_HOST_KEY="k" * 20).json()["decks"] == []


def test_photos_are_refused_with_codes_while_off_too_many_or_not_pictures(client):
    code, host, seats = table(on=False)
    r = send(client, code, seats[0].token, [f("a.png", picture())])
    assert (r.status_code, r.json()["error"]["code"]) == (403, "photos_off")
    services.room_apply(code, tv(), None, {"type": "settings", "photos": True})
    r = send(client, code, seats[0].token, [f(f"{i}.png", picture()) for i in range(6)])
    assert (r.status_code, r.json()["error"]["code"]) == (413, "too_many_photos")
    r = send(client, code, seats[0].token, [f("notes.png", b"not a picture"),
                                            f("bomb.png", bomb_png())])
    assert (r.status_code, r.json()["error"]["code"]) == (400, "no_images")
    assert {x["file"]: x["code"] for x in r.json()["rejected"]} == {
        "notes.png": "not_an_image", "bomb.png": "too_many_pixels"}
    r = send(client, code, seats[0].token, [f(f"{i}.png", picture()) for i in range(4)]
             + [f("huge.png", picture() + b"\0" * (10 * 1024 * 1024 + 1))])
    assert r.status_code == 201 and [x["code"] for x in r.json()["rejected"]] == ["too_large"]
    r = send(client, code, seats[0].token, [f("5.png", picture()), f("6.png", picture())])
    assert (r.status_code, r.json()["error"]["code"]) == (413, "too_many_photos")
    assert len(send(client, code, seats[0].token, [f("5.png", picture())]).json()["photos"]) == 5
    r = send(client, code, seats[1].token, [f("six.zip", zipped({f"{i}.png": picture() for i in range(6)}))])
    assert r.status_code == 201 and len(r.json()["photos"]) == 5        # a zip's pictures count too
    assert [x["code"] for x in r.json()["rejected"]] == ["deck_full"]
    r = send(client, code, host, [f("a.png", picture())])              # the TV is no phone
    assert r.status_code == 401
    r = send(client, code, "nonsense", [f("a.png", picture())])
    assert r.status_code == 401
    assert frames(code)[TABLE]["room"]["photos"]["count"] == 10


def test_a_phone_removes_its_own_photo_and_the_tv_hides_any(client, data_dir):
    code, host, seats = table()
    a = send(client, code, seats[0].token, [f("a.png", picture()), f("b.png", picture())]).json()["photos"]
    b = send(client, code, seats[1].token, [f("c.png", picture())]).json()["photos"]
    r = client.delete(f"/api/rooms/{code}/photos/{b[0]}", HTTP_AUTHORIZATION=f"Bearer {seats[0].token}")
    assert (r.status_code, r.json()["error"]["code"]) == (404, "photo_not_found")
    r = client.delete(f"/api/rooms/{code}/photos/{a[0]}", HTTP_AUTHORIZATION=f"Bearer {seats[0].token}")
    assert r.status_code == 200 and r.json()["photos"]["count"] == 2
    r = client.delete(f"/api/rooms/{code}/photos/{b[0]}", HTTP_AUTHORIZATION=f"Bearer {host}")
    assert r.status_code == 200 and r.json()["photos"]["count"] == 1
    seen = frames(code)
    assert seen[seats[0].player_id]["you"]["photos"] == a[1:]
    assert seen[seats[1].player_id]["you"]["photos"] == []
    deck = photos.deck_id(Room.objects.get(code=code).pk)
    assert sorted(p.name for p in (data_dir / "decks" / deck).iterdir()) == [f"{a[1]}.webp"]


@pytest.mark.parametrize("game", ["association", "jinx"])
def test_the_photos_are_dealt_in_their_room_only_and_no_frame_of_another_room_names_them(client, game):
    code, host, seats = table(4)
    other, other_host, other_seats = table(4)
    mine = send(client, code, seats[0].token, [f(f"{i}.png", picture()) for i in range(5)]).json()["photos"]
    theirs = send(client, other, other_seats[0].token, [f("x.png", picture())]).json()["photos"]
    for c in (code, other):
        services.room_apply(c, tv(), None, {"type": "start", "game": game, "options": {}})
    state = json.dumps(Room.objects.get(code=code).state)
    assert all(card in state for card in mine) and theirs[0] not in state
    assert theirs[0] in json.dumps(Room.objects.get(code=other).state)
    mine_deck, their_deck = (photos.deck_id(Room.objects.get(code=c).pk) for c in (code, other))
    for text in viewmodel.viewer_frames(Room.objects.get(code=code),
                                        list(Room.objects.get(code=code).seats.all()), "").values():
        assert their_deck not in text
    room, theirs_room = Room.objects.get(code=code), Room.objects.get(code=other)
    their_pass = deckpass.room_pass(theirs_room.pk, their_deck)
    assert client.get(f"/r/{code}/cards/{theirs[0]}.webp?p={their_pass}").status_code == 404
    assert client.get(f"/r/{code}/cards/{mine[0]}.webp?p={their_pass}").status_code == 404
    assert client.get(f"/r/{other}/cards/{mine[0]}.webp?p={deckpass.room_pass(room.pk, mine_deck)}").status_code == 404
    assert client.get(deckpass.url(room, mine[0])).status_code == 200
    r = send(client, code, seats[1].token, [f("late.png", picture())])    # the lobby's, not the game's
    assert (r.status_code, r.json()["error"]["code"]) == (409, "game_running")


def test_with_photos_off_the_deal_has_none_of_them(client):
    code, host, seats = table(4)
    mine = send(client, code, seats[0].token, [f("a.png", picture())]).json()["photos"]
    services.room_apply(code, tv(), None, {"type": "settings", "photos": False})
    r = send(client, code, seats[0].token, [f("b.png", picture())])
    assert (r.status_code, r.json()["error"]["code"]) == (403, "photos_off")
    assert frames(code)[seats[0].player_id]["you"]["photos"] == mine     # still its own
    services.room_apply(code, tv(), None, {"type": "start", "game": "association", "options": {}})
    assert mine[0] not in json.dumps(Room.objects.get(code=code).state)
    services.room_apply(code, tv(), None, {"type": "end"})
    r = client.delete(f"/api/rooms/{code}/photos/{mine[0]}", HTTP_AUTHORIZATION=f"Bearer {seats[0].token}")
    assert r.status_code == 200 and r.json()["photos"]["count"] == 0     # taken away while off


def test_the_photos_are_purged_with_the_room(client, data_dir, settings):
    code, host, seats = table()
    send(client, code, seats[0].token, [f("a.png", picture())])
    room = Room.objects.get(code=code)
    folder = data_dir / "decks" / photos.deck_id(room.pk)
    assert folder.exists()
    room.seats.update(connected=False)
    Room.objects.filter(pk=room.pk).update(closed_at=1)
    assert lifecycle.purge(10 ** 15).rooms == 1
    assert not folder.exists()
