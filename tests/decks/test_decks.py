"""Custom decks: upload (pictures and zips, bad files reported by name), storage, serving,
and the decks in the game options of association and jinx. Pictures are tiny, made in memory."""
import dataclasses
import io
import json
import os
import struct
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from partyhub import decks
from partyhub.decks import deckpass, pictures, uploads
from partyhub.rooms.access import selectors
from partyhub.rooms.write import services
from tests.rooms.helpers import make_room, tv

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def data_dir(settings, tmp_path):
    settings.DATA_DIR = settings.MEDIA_ROOT = tmp_path
    return tmp_path


def picture(fmt="PNG", size=(30, 20), color=(200, 40, 40), **save) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, fmt, **save)
    return buf.getvalue()


def bomb_png(width=100_000, height=100_000) -> bytes:
    """A valid-looking PNG of a few bytes that declares a huge picture."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64))
            + chunk(b"IEND", b""))


def zipped(entries: dict) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buf.getvalue()


def f(name, data):
    return SimpleUploadedFile(name, data)


def send(client, code, token, name, files):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(f"/api/rooms/{code}/decks", {"name": name, "files": files}, **headers)


def limit(monkeypatch, **changes):
    """The upload limits with these fields changed (they reach the worker with each job)."""
    made = dataclasses.replace(uploads.limits(), **changes)
    monkeypatch.setattr(uploads, "limits", lambda: made)
    return made


@pytest.fixture
def room():
    code, host, seats = make_room(3)
    return code, host


def test_good_jpeg_png_webp_and_a_zip_make_one_deck_of_clean_600x900_webps(client, room, data_dir):
    code, host = room
    exif = Image.Exif()
    exif[0x010F] = "SecretCam"      # Make
    exif[0x0131] = "GPS-ish"        # Software
    jpeg = picture("JPEG", size=(90, 40), exif=exif.tobytes())
    assert Image.open(io.BytesIO(jpeg)).getexif()   # the input does carry EXIF
    files = [f("photo.jpg", jpeg), f("drawing.png", picture("PNG")), f("x.webp", picture("WEBP")),
             f("more.zip", zipped({"in/a.png": picture("PNG"), "b.jpg": picture("JPEG")}))]
    r = send(client, code, host, "  Our   holiday ", files)
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["name"] == "Our holiday" and body["cards"] == 5 and body["rejected"] == []
    deck_id = body["deck"]
    assert decks.CUSTOM_ID.match(deck_id)
    folder = data_dir / "decks" / deck_id
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["name"] == "Our holiday" and manifest["created"] > 0
    ids = [c["id"] for c in manifest["cards"]]
    assert ids == [f"{deck_id}-{n:03d}" for n in range(1, 6)]
    assert not set(ids) & set(decks.card_ids("default"))
    for card in ids:
        im = Image.open(folder / f"{card}.webp")
        assert (im.format, im.size) == ("WEBP", uploads.limits().size) == ("WEBP", (600, 900))
        assert not im.getexif() and "exif" not in im.info and "xmp" not in im.info
        assert "icc_profile" not in im.info or not im.info["icc_profile"]
    assert b"SecretCam" not in (folder / f"{ids[0]}.webp").read_bytes()
    # listed to its host, offered in the options of both games (with its name), and served
    auth = {"HTTP_AUTHORIZATION": f"Bearer {host}"}
    listed = client.get("/api/decks", **auth).json()["decks"]
    size = sum((folder / f"{card}.webp").stat().st_size for card in ids)
    assert listed == [{"id": deck_id, "name": "Our holiday", "cards": 5, "bytes": size,
                       "mine": True, "share": None}]
    assert manifest["bytes"] == size and manifest["owner"] == selectors.room_get(code).host
    games = {g["id"]: g for g in client.get("/api/games", **auth).json()}
    for game in ("association", "jinx"):
        spec = games[game]["options"]["deck"]
        assert spec["choices"] == ["default", deck_id] and spec["labels"] == {deck_id: "Our holiday"}
    # served to the room that deals it, by the room's pass (tests/decks/test_deck_pass.py)
    services.room_apply(code, tv(), None, {"type": "start", "game": "jinx", "options": {"deck": deck_id}})
    room_now = selectors.room_get(code)
    r = client.get(deckpass.url(room_now, ids[0]))
    assert r.status_code == 200 and r["Content-Type"] == "image/webp"
    assert "max-age=" in r["Cache-Control"]
    assert b"".join(r.streaming_content)[:4] == b"RIFF"
    p = deckpass.room_pass(room_now.pk, deck_id)
    for bad in (f"/r/{code}/cards/{deck_id}-999.webp?p={p}", f"/r/{code}/cards/a001.webp?p={p}",
                f"/r/{code}/cards/u0000000000-001.webp?p={p}", f"/r/{code}/cards/..%2F{ids[0]}.webp?p={p}",
                f"/decks/{deck_id}/{ids[0]}.webp"):
        assert client.get(bad).status_code == 404, bad


def test_bad_files_are_rejected_by_name_and_the_rest_is_kept(client, room):
    code, host = room
    gif = picture("GIF")
    oversized = picture("PNG") + b"\0" * (uploads.limits().image_bytes + 1)
    files = [f("ok.png", picture("PNG")), f("notes.png", b"just some text, not a picture"),
             f("anim.gif", gif), f("huge.png", oversized), f("bomb.png", bomb_png()),
             f("bomb-small.png", bomb_png(9000, 9000)),
             f("evil.zip", zipped({"../escape.png": picture("PNG"), "/abs.png": picture("PNG"),
                                   "inner.zip": zipped({"x.png": picture("PNG")}),
                                   "fine.png": picture("PNG")})),
             f("broken.zip", b"PK\x03\x04 this is no archive")]
    r = send(client, code, host, "Mixed", files)
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["cards"] == 2
    got = {x["file"]: x["code"] for x in body["rejected"]}
    assert got == {"notes.png": "not_an_image", "anim.gif": "unsupported_format",
                   "huge.png": "too_large", "bomb.png": "too_many_pixels",
                   "bomb-small.png": "too_many_pixels",
                   "evil.zip/../escape.png": "unsafe_path", "evil.zip//abs.png": "unsafe_path",
                   "evil.zip/inner.zip": "nested_archive", "broken.zip": "bad_zip"}
    assert all(x["message"] for x in body["rejected"])


def test_nothing_usable_is_a_400_with_a_code_and_the_reasons(client, room, data_dir):
    code, host = room
    r = send(client, code, host, "Empty", [f("a.txt", b"hello"), f("b.gif", picture("GIF"))])
    assert r.status_code == 400 and r.json()["error"]["code"] == "no_images"
    assert [x["file"] for x in r.json()["rejected"]] == ["a.txt", "b.gif"]
    r = send(client, code, host, "Nothing", [])
    assert (r.status_code, r.json()["error"]["code"]) == (400, "no_files")
    r = send(client, code, host, " ", [f("a.png", picture())])
    assert (r.status_code, r.json()["error"]["code"]) == (400, "bad_deck_name")
    assert client.get("/api/decks").json()["decks"] == []
    assert not (data_dir / "decks").exists() or not any((data_dir / "decks").iterdir())


def test_the_host_token_is_required(client, room):
    code, host = room
    for token in (None, "wrong"):
        r = send(client, code, token, "Deck", [f("a.png", picture())])
        assert (r.status_code, r.json()["error"]["code"]) == (401, "unauthorized")
    r = send(client, "ZZZZ", host, "Deck", [f("a.png", picture())])
    assert (r.status_code, r.json()["error"]["code"]) == (404, "room_not_found")


def test_a_deck_holds_at_most_300_pictures(client, room, monkeypatch):
    code, host = room
    limit(monkeypatch, size=(4, 6))     # keep the re-encoding cheap
    tiny = picture("PNG", size=(4, 6))
    entries = {f"p{i:03d}.png": tiny for i in range(pictures.Limits(0).cards + 2)}
    r = send(client, code, host, "Big", [f("all.zip", zipped(entries))])
    assert r.status_code == 201
    body = r.json()
    assert body["cards"] == 300
    assert body["rejected"] == [{"file": f"all.zip/p{i:03d}.png", "code": "deck_full",
                                 "message": "a deck holds at most 300 pictures"} for i in (300, 301)]


def test_a_zip_with_too_many_entries_is_refused_whole(client, room, monkeypatch):
    code, host = room
    limit(monkeypatch, entries=3)
    r = send(client, code, host, "Z", [f("z.zip", zipped({f"{i}.png": picture() for i in range(4)})),
                                       f("one.png", picture())])
    assert r.status_code == 201 and r.json()["cards"] == 1
    assert r.json()["rejected"][0]["file"] == "z.zip"
    assert r.json()["rejected"][0]["code"] == "zip_too_many_entries"


def test_a_zip_that_unpacks_to_too_much_is_cut_off(client, room, monkeypatch):
    code, host = room
    limit(monkeypatch, zip_bytes=3 * len(picture()) // 2)
    r = send(client, code, host, "Z", [f("z.zip", zipped({"a.png": picture(), "b.png": picture()}))])
    assert r.status_code == 201 and r.json()["cards"] == 1
    assert r.json()["rejected"] == [{"file": "z.zip/b.png", "code": "zip_too_large",
                                     "message": "the archive unpacks to too much data"}]


def test_a_deck_survives_a_restart(client, room, data_dir):
    code, host = room
    deck_id = send(client, code, host, "Kept", [f("a.png", picture())]).json()["deck"]
    out = subprocess.run(
        [sys.executable, "-c", "import sys, json; from partyhub import decks as deck;"
         "n = deck.names_for(sys.argv[1]);"
         "print(json.dumps([n, deck.labels(), deck.card_ids(n[-1])]))",
         selectors.room_get(code).host],
        cwd=ROOT, env={**os.environ, "PARTYHUB_DATA": str(data_dir)},
        capture_output=True, text=True, check=True)
    names, labels, ids = json.loads(out.stdout)
    assert names == ["default", deck_id] and labels == {deck_id: "Kept"}
    assert ids == [f"{deck_id}-001"]


def _start(code, game, **options):
    return services.room_apply(code, tv(), None, {"type": "start", "game": game, "options": options})


def test_association_plays_with_the_custom_deck_and_refuses_a_too_small_one(client, room, monkeypatch):
    code, host = room
    limit(monkeypatch, size=(4, 6))
    small = send(client, code, host, "Small", [f(f"{i}.png", picture()) for i in range(20)]).json()
    with pytest.raises(services.ServiceError) as e:
        _start(code, "association", deck=small["deck"])
    assert e.value.code == "bad_options" and "at least 21" in e.value.message
    for unknown in ("u0000000000", "../default", "Small"):   # only deck ids are choices
        with pytest.raises(services.ServiceError) as e:
            _start(code, "association", deck=unknown)
        assert e.value.code == "bad_options"
    deck = send(client, code, host, "Ours", [f(f"{i}.png", picture()) for i in range(21)]).json()
    _start(code, "association", deck=deck["deck"])
    room_now = selectors.room_get(code)
    state = room_now.state
    cards = [c for hand in state["hands"].values() for c in hand] + state["draw"]
    assert sorted(cards) == sorted(decks.card_ids(deck["deck"]))
    from games.association.rules import GAME
    view = GAME.view(state, "@table")
    assert view["deck"] == {"name": deck["deck"], "image": f"/decks/{deck['deck']}/{{id}}.webp"}


def test_jinx_tops_a_small_custom_deck_up_from_the_default(client, room, monkeypatch):
    code, host = room
    limit(monkeypatch, size=(4, 6))
    deck_id = send(client, code, host, "J", [f(f"{i}.png", picture()) for i in range(5)]).json()["deck"]
    from games.jinx.rules.deck import faces
    ids = faces(decks.resolve(deck_id))
    assert len(ids) == 142 and len(set(ids)) == 142
    assert ids[:5] == decks.card_ids(deck_id) and all(i.startswith("a") for i in ids[5:])
    _start(code, "jinx", deck=deck_id)
    state = selectors.room_get(code).state
    assert state["options"]["deck"] == deck_id and "_deck" not in state["options"]
    assert [face for card in state["cards"] for face in card] == ids
