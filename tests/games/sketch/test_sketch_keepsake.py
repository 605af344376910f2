"""What a finished game of sketch leaves in the room's gallery: every drawn board with its
word, its drawer, who guessed it and its strokes; nothing before the end."""
from sketch_play import next_round, ok, put, started, stroke

from games.sketch.rules import GAME


def test_the_keepsake_is_every_drawing_with_its_word_drawer_and_guessers():
    s = started(3)
    s = put(s, "p0", 0)
    s = put(s, "p1", 2)
    s = GAME.absorb(s, [("p0", stroke(0, ((0.1, 0.1), (0.9, 0.9)))),
                        ("p1", stroke(2, ((0.5, 0.1), (0.5, 0.9)), color="#e4572e"))])
    assert GAME.keepsake(s) is None
    s = next_round(s)                                   # guessing
    word = s["boards"]["p0"][0]["word"]
    s = ok(s, "p2", {"type": "guess", "player": "p0", "board": 0, "text": word})
    assert GAME.keepsake(s) is None
    while s["phase"] != "over":
        s = next_round(s)
    kept = GAME.keepsake(s)["drawings"]
    assert [(d["player"], d["board"], d["word"]) for d in kept] == \
        [("p0", 0, word), ("p1", 2, s["boards"]["p1"][2]["word"])]
    assert kept[0]["won_by"] == ["p2"] and kept[1]["won_by"] == []
    assert kept[0]["strokes"][0]["p"] == [100, 100, 900, 900]
    assert kept[1]["strokes"][0]["c"] == "#e4572e"
