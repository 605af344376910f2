"""A drawing of a finished sketch game, as the gallery serves it: a PNG made on the server from
the stored strokes, and an animated GIF that replays them. The pixels on a stroke are its ink,
the others the white paper (partyhub/keepsakes/drawings.py)."""
import io

import pytest
from PIL import Image

from games.sketch.rules import GAME as SKETCH
from partyhub.keepsakes import drawings
from partyhub.rooms.models import Keepsake, Room, StreamItem
from partyhub.rooms.write import services
from tests.keepsakes.test_access import gallery_url
from tests.rooms.helpers import make_room, player, tv

DIAGONAL = {"c": "#000", "w": 8, "p": [100, 100, 900, 900]}
ACROSS = {"c": "#2e86de", "w": 4, "p": [100, 800, 500, 800, 900, 800]}


def at(img, x, y):
    """The colour at (x, y) in thousandths of the board."""
    w, h = img.size
    return img.convert("RGB").getpixel((round(x / 1000 * (w - 1)), round(y / 1000 * (h - 1))))


def dark(rgb):
    return sum(rgb) < 100


def test_the_png_shows_the_strokes_in_their_colours_on_white_paper():
    img = Image.open(io.BytesIO(drawings.png([DIAGONAL, ACROSS])))
    assert img.format == "PNG" and img.size == (drawings.PNG_SIZE, drawings.PNG_SIZE)
    assert dark(at(img, 500, 500)) and dark(at(img, 150, 150))      # on the diagonal
    assert at(img, 300, 800) == (46, 134, 222)                       # on the blue line
    assert at(img, 800, 200) == (255, 255, 255) and at(img, 20, 980) == (255, 255, 255)


def test_the_replay_draws_the_strokes_in_order_and_ends_on_the_whole_drawing():
    img = Image.open(io.BytesIO(drawings.replay([DIAGONAL, ACROSS])))
    assert img.format == "GIF" and img.is_animated and img.info.get("loop") == 0
    frames = []
    for n in range(img.n_frames):
        img.seek(n)
        frames.append(img.convert("RGB"))
    assert 2 <= len(frames) <= drawings.REPLAY_FRAMES
    first, last = frames[0], frames[-1]
    assert dark(at(first, 100, 100)) and not dark(at(first, 500, 500))   # the diagonal's first point
    assert dark(at(frames[1], 500, 500)) and at(frames[1], 300, 800) == (255, 255, 255)
    assert at(frames[2], 100, 800) == (46, 134, 222) and at(frames[2], 300, 800) == (255, 255, 255)
    assert dark(at(last, 850, 850)) and at(last, 300, 800) == (46, 134, 222)
    assert at(last, 800, 200) == (255, 255, 255)


def test_a_drawing_is_bounded_whatever_its_strokes_hold():
    huge = [{"c": "#000", "w": 8, "p": [i % 1000, (i * 7) % 1000] * 500} for i in range(50)]
    junk = [{"c": "not-a-colour", "w": "x", "p": ["a", 5, None]}, "junk", {"p": 3}]
    for made in (drawings.png(huge + junk), drawings.replay(huge + junk)):
        img = Image.open(io.BytesIO(made))
        assert max(img.size) <= drawings.PNG_SIZE
        assert getattr(img, "n_frames", 1) <= drawings.REPLAY_FRAMES
    blank = Image.open(io.BytesIO(drawings.png([])))
    assert blank.convert("RGB").getcolors() == [(drawings.PNG_SIZE ** 2, (255, 255, 255))]


def played_sketch():
    """A room's game of sketch to its end: P1 draws the diagonal, P2 guesses it."""
    code, host, seats = make_room(3)
    services.room_apply(code, tv(), None, {"type": "start", "game": "sketch",
                                           "options": {"round_seconds": 5}})
    room = Room.objects.get(code=code)
    p1 = seats[0].player_id
    word = next(a["word"] for a in SKETCH.actions(room.state, p1) if a["type"] == "draw")
    services.room_apply(code, player(seats[0]), None, {"type": "draw", "board": 0, "word": word})
    StreamItem.objects.create(room=room, game_no=room.game_no, seat=p1, data={
        "type": "stroke", "board": 0, "points": [[0.1, 0.1], [0.9, 0.9]], "color": "#000", "width": 8})
    services.room_tick(code, now=Room.objects.get(code=code).deadline_at)      # guessing
    services.room_apply(code, player(seats[1]), None,
                        {"type": "guess", "player": p1, "board": 0, "text": word})
    while Room.objects.get(code=code).phase == "playing":
        services.room_tick(code, now=Room.objects.get(code=code).deadline_at)
    return code, host, seats, word


@pytest.mark.django_db
def test_a_finished_sketch_game_serves_its_drawing_as_png_and_replay(client):
    code, host, seats, word = played_sketch()
    kept = Keepsake.objects.get(room__code=code)
    assert [(d["word"], d["won_by"]) for d in kept.data["drawings"]] == [(word, [seats[1].player_id])]
    url = gallery_url(client, code, seats[2].token)
    page = client.get(url).content.decode()
    key = url.split("?k=")[1]
    png_url = f"/r/{code}/keepsakes/{kept.game_no}/drawing/0.png?k={key}"
    assert word in page and png_url.replace("&", "&amp;") in page and "P2" in page
    r = client.get(png_url)
    assert r.status_code == 200 and r["Content-Type"] == "image/png"
    assert "private" in r["Cache-Control"]
    img = Image.open(io.BytesIO(r.content))
    assert dark(at(img, 500, 500)) and at(img, 800, 200) == (255, 255, 255)
    r = client.get(f"/r/{code}/keepsakes/{kept.game_no}/drawing/0.gif?k={key}")
    assert r.status_code == 200 and r["Content-Type"] == "image/gif"
    gif = Image.open(io.BytesIO(r.content))
    gif.seek(gif.n_frames - 1)
    assert dark(at(gif, 500, 500)) and at(gif, 800, 200) == (255, 255, 255)
    # a stranger, another drawing, another kind of file: nothing
    assert client.get(f"/r/{code}/keepsakes/{kept.game_no}/drawing/0.png").status_code == 403
    assert client.get(f"/r/{code}/keepsakes/{kept.game_no}/drawing/1.png?k={key}").status_code == 404
    assert client.get(f"/r/{code}/keepsakes/{kept.game_no}/drawing/0.svg?k={key}").status_code == 404
