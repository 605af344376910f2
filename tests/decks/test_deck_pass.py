"""An uploaded deck's pictures are served only to the people of a room that uses the deck, by
the room's pass (partyhub/decks/deckpass.py, docs/security.md "Deck pictures"): a deck id,
which every frame of the room carries, opens nothing by itself."""
import io
import json

import pytest
from PIL import Image

from partyhub.decks import custom as upload
from partyhub.decks import deckpass
from partyhub.gamekit import AUDIENCE, TABLE
from partyhub.http import limits
from partyhub.rooms.access import selectors
from partyhub.rooms.models import Keepsake, Room
from partyhub.rooms.views import viewmodel
from partyhub.rooms.write import lifecycle, services
from tests.rooms.helpers import make_room, tv

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def data_dir(settings, tmp_path):
    settings.DATA_DIR = settings.MEDIA_ROOT = tmp_path
    limits.reset()
    yield tmp_path
    limits.reset()


def webp(color=(200, 0, 0)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (6, 9), color).save(out, "WEBP")
    return out.getvalue()


def room_with_deck(n_cards=3):
    """A room and an uploaded deck of its host (not dealt yet)."""
    code, host, seats = make_room(3)
    deck = upload.store("Ours", [webp((i, 0, 0)) for i in range(n_cards)], selectors.room_get(code).host)["deck"]
    return code, deck


def deal(code, deck, game="jinx"):
    services.room_apply(code, tv(), None, {"type": "start", "game": game, "options": {"deck": deck}})


def frames(code) -> dict:
    room = Room.objects.get(code=code)
    out = viewmodel.viewer_frames(room, list(room.seats.all()), "")
    return {k: json.loads(v)["d"] for k, v in out.items()}


def served(client, url) -> int:
    r = client.get(url)
    if r.status_code == 200:
        assert b"".join(r.streaming_content)[:4] == b"RIFF"
    return r.status_code


def test_the_deck_id_alone_opens_no_picture(client):
    code, deck = room_with_deck()
    deal(code, deck)
    assert frames(code)[AUDIENCE]["room"]["options"]["deck"] == deck    # every watcher has the id
    assert client.get(f"/decks/{deck}/{deck}-001.webp").status_code == 404
    assert client.get(f"/r/{code}/cards/{deck}-001.webp").status_code == 404
    assert client.get(f"/r/{code}/cards/{deck}-001.webp?p=AAAAAAAAAAAAAAAA").status_code == 404


def test_every_viewer_of_the_room_gets_the_pass_and_the_pictures_it_opens(client):
    code, deck = room_with_deck()
    assert served(client, deckpass.url(Room.objects.get(code=code), f"{deck}-001")) == 404   # not dealt yet
    deal(code, deck)
    seen = frames(code)
    passes = {seen[v]["room"].get("deck_pass") for v in seen}
    assert len(passes) == 1 and None not in passes        # the TV, the audience and every seat
    p = passes.pop()
    url = f"/r/{code}/cards/{deck}-002.webp?p={p}"
    assert url == deckpass.url(Room.objects.get(code=code), f"{deck}-002")
    r = client.get(url)
    assert r.status_code == 200 and r["Content-Type"] == "image/webp"
    assert r["Cache-Control"].startswith("private") and "max-age" in r["Cache-Control"]
    assert b"".join(r.streaming_content) == webp((1, 0, 0))
    assert served(client, f"/r/{code}/cards/{deck}-009.webp?p={p}") == 404       # no such card
    assert served(client, f"/r/{code.lower()}/cards/{deck}-001.webp?p={p}") == 200


def test_a_pass_opens_only_its_room_while_the_room_uses_the_deck(client):
    code, deck = room_with_deck()
    deal(code, deck)
    p = frames(code)[TABLE]["room"]["deck_pass"]
    other, _, _ = make_room(2)
    # another room: its own pass does not open a deck it does not use, nor does the first one's
    assert served(client, deckpass.url(Room.objects.get(code=other), f"{deck}-001")) == 404
    assert served(client, f"/r/{other}/cards/{deck}-001.webp?p={p}") == 404
    # the room ends its game and deals one with the default deck: the deck is not used any more
    services.room_apply(code, tv(), None, {"type": "end"})
    deal(code, "default")
    assert "deck_pass" not in frames(code)[TABLE]["room"]       # no bytes for a shipped deck
    assert served(client, f"/r/{code}/cards/{deck}-001.webp?p={p}") == 404


def test_a_wrong_pass_counts_as_a_failed_lookup(client, settings):
    settings.PARTYHUB_LIMITS = {**settings.PARTYHUB_LIMITS, "lookups_per_minute": 3}
    limits.reset()
    code, deck = room_with_deck()
    deal(code, deck)
    good = deckpass.url(Room.objects.get(code=code), f"{deck}-001")
    for _ in range(3):
        assert served(client, f"/r/{code}/cards/{deck}-001.webp?p=BBBBBBBBBBBBBBBB") == 404
    assert client.get(good).status_code == 429      # the address has spent its lookups


def test_the_gallery_shows_a_kept_games_cards_until_the_room_is_purged(client):
    code, deck = room_with_deck()
    room = Room.objects.get(code=code)
    Keepsake.objects.create(room=room, game_no=1, game="jinx", at=1, data={
        "scores": {}, "winners": [], "cards": {"p1": [f"{deck}-003", "a001"]}})
    url = deckpass.url(room, f"{deck}-003")
    assert served(client, url) == 200                 # no game with it now; a keepsake shows it
    Room.objects.filter(pk=room.pk).update(closed_at=1)
    lifecycle.purge_one(room.pk, now=10 ** 15)
    assert served(client, url) == 404                 # the room gone: its pass too
    again, _, _ = make_room(1)                        # a later room (maybe the same code)
    assert served(client, url.replace(code, again)) == 404
