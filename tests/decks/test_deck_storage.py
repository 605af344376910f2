"""Decks are written and served through Django's storage API (default_storage): cards, then
the manifest; a failure part-way leaves nothing behind."""
import io

import pytest
from django.core.files.storage import default_storage
from PIL import Image

from partyhub import decks
from partyhub.decks import custom as upload
from partyhub.decks import deckpass
from partyhub.rooms.models import Room
from tests.rooms.helpers import make_room

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def data_dir(settings, tmp_path):
    settings.DATA_DIR = settings.MEDIA_ROOT = tmp_path
    return tmp_path


def webp(color) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (6, 9), color).save(out, "WEBP")
    return out.getvalue()


def test_a_stored_deck_is_in_default_storage_and_served_from_it(client, tmp_path):
    made = upload.store("Beach", [webp((200, 0, 0)), webp((0, 200, 0))])
    deck = made["deck"]
    assert default_storage.exists(f"decks/{deck}/{decks.MANIFEST}")
    assert decks.card_ids(deck) == [f"{deck}-001", f"{deck}-002"] and decks.labels()[deck] == "Beach"
    code, _, _ = make_room(1)
    Room.objects.filter(code=code).update(options={"deck": deck})    # a room dealt with it
    room = Room.objects.get(code=code)
    r = client.get(deckpass.url(room, f"{deck}-002"))
    assert r.status_code == 200 and b"".join(r.streaming_content) == webp((0, 200, 0))
    assert client.get(deckpass.url(room, f"{deck}-003")).json()["error"]["code"] == "deck_not_found"


def test_a_failure_part_way_removes_the_cards_already_written(monkeypatch, tmp_path):
    real_save, calls = default_storage.save, []

    def save(name, content, **kw):
        calls.append(name)
        if len(calls) == 3:
            raise OSError("disk full")
        return real_save(name, content, **kw)
    monkeypatch.setattr(default_storage, "save", save)
    with pytest.raises(OSError):
        upload.store("Half", [webp((1, 2, 3))] * 4)
    assert len(calls) == 3
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]
    assert decks.custom_ids() == []
