"""The gallery's pictures are made once and kept with their keepsake (partyhub/keepsakes/renders.py):
a stranger with the share link cannot make the server draw a picture again and again; making
new ones is limited per address; a room's kept pictures are bounded and go with the keepsake
and the room."""
import pytest

from partyhub.http import limits
from partyhub.keepsakes import drawings
from partyhub.rooms.models import Keepsake, KeepsakePicture, Room
from partyhub.rooms.store import store
from partyhub.rooms.write import lifecycle
from tests.keepsakes.test_access import bearer, played
from tests.rooms.helpers import make_room

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_limits():
    limits.reset()
    yield
    limits.reset()


@pytest.fixture
def made(monkeypatch):
    """The pictures drawn, by kind (drawings.png and drawings.replay counted)."""
    count = {"png": 0, "gif": 0}
    png, replay = drawings.png, drawings.replay

    def counting(kind, make):
        def run(*args, **kw):
            count[kind] += 1
            return make(*args, **kw)
        return run
    monkeypatch.setattr(drawings, "png", counting("png", png))
    monkeypatch.setattr(drawings, "replay", counting("gif", replay))
    return count


def sketch_room(client, boards=3, game_no=1):
    """A room with a finished sketch game of `boards` drawings; (code, the share link's pass)."""
    code, host, _ = make_room(2)
    room = Room.objects.get(code=code)
    strokes = lambda i: [{"c": "#000", "w": 4, "p": [10 * i, 0, 900, 10 * i]}]   # noqa: E731
    Keepsake.objects.create(room=room, game_no=game_no, game="sketch", at=1, data={
        "scores": {}, "winners": [], "drawings": [
            {"player": "p1", "board": i, "word": f"w{i}", "won_by": [], "strokes": strokes(i)}
            for i in range(boards)]})
    share = client.post(f"/api/rooms/{code}/keepsakes/share", data="{}", content_type="application/json",
                        **bearer(host)).json()["url"]
    return code, share.split("?k=")[1]


def url(code, key, n, kind="gif", game_no=1):
    return f"/r/{code}/keepsakes/{game_no}/drawing/{n}.{kind}?k={key}"


def test_a_stranger_asking_again_and_again_gets_each_picture_made_once(client, made):
    code, key = sketch_room(client, boards=40)
    first = client.get(url(code, key, 0)).content
    for _ in range(2):            # more pictures than a small cache would hold, twice over
        for n in range(40):
            r = client.get(url(code, key, n))
            assert r.status_code == 200 and r["Content-Type"] == "image/gif"
    assert made["gif"] == 40 and made["png"] == 0
    assert client.get(url(code, key, 0)).content == first
    assert KeepsakePicture.objects.filter(keepsake__room__code=code).count() == 40


def test_making_pictures_is_limited_per_address_and_kept_ones_are_served_all_the_same(client, made, settings):
    settings.PARTYHUB_LIMITS = {**settings.PARTYHUB_LIMITS, "renders_per_minute": 3}
    limits.reset()
    code, key = sketch_room(client, boards=5)
    for n in range(3):
        assert client.get(url(code, key, n, "png")).status_code == 200
    r = client.get(url(code, key, 3, "png"))
    assert (r.status_code, r.content.decode()) == (429, "Too many attempts: wait a moment.")
    for n in range(3):            # made already: nothing to make, nothing counted
        assert client.get(url(code, key, n, "png")).status_code == 200
    assert made["png"] == 3
    other = client.get(url(code, key, 3, "png"), REMOTE_ADDR="10.0.0.9")   # another address
    assert other.status_code == 200


def test_a_rooms_kept_pictures_are_bounded(client, made, settings):
    code, key = sketch_room(client, boards=4)
    one = len(client.get(url(code, key, 0, "png")).content)
    settings.PARTYHUB_LIMITS = {**settings.PARTYHUB_LIMITS, "keepsake_picture_bytes": 2 * one + one // 2}
    for n in (1, 2):
        assert client.get(url(code, key, n, "png")).status_code == 200
    assert KeepsakePicture.objects.filter(keepsake__room__code=code).count() == 2   # the third did not fit
    assert client.get(url(code, key, 2, "png")).status_code == 200                  # made again
    assert made["png"] == 4


def test_kept_pictures_go_with_their_keepsake_and_their_room(client):
    code, key = sketch_room(client, boards=2)
    for kind in ("png", "gif"):
        assert client.get(url(code, key, 0, kind)).status_code == 200
    room = Room.objects.get(code=code)
    assert KeepsakePicture.objects.filter(keepsake__room=room).count() == 2
    # the room keeps its last KEEPSAKES games: the first one's pictures go with it
    for game_no in range(2, store.KEEPSAKES + 2):
        Keepsake.objects.create(room=room, game_no=game_no, game="count", at=game_no, data={})
    room.game_no, room.game_id = store.KEEPSAKES + 2, "count"
    store.BACKEND.keep(room, ({}, 1))
    assert not Keepsake.objects.filter(room=room, game_no=1).exists()
    assert not KeepsakePicture.objects.exists()
    # and a purged room takes its pictures along
    code2, key2 = sketch_room(client, boards=1)
    assert client.get(url(code2, key2, 0, "png")).status_code == 200
    room2 = Room.objects.get(code=code2)
    Room.objects.filter(pk=room2.pk).update(closed_at=1)
    gone = lifecycle.purge_one(room2.pk, now=10 ** 15)
    assert gone.keepsakes == 1 and not KeepsakePicture.objects.exists()


def test_a_played_game_without_drawings_has_no_pictures(client):
    code, host, seats = played()
    share = client.post(f"/api/rooms/{code}/keepsakes/share", data="{}", content_type="application/json",
                        **bearer(host)).json()["url"]
    key = share.split("?k=")[1]
    assert client.get(url(code, key, 0, "png")).status_code == 404
    assert client.get(url(code, key, 0, "svg")).status_code == 404
