"""Sketch bots draw their word from a library of line drawings kept as data (games/sketch/drawings.json)."""
import json
from pathlib import Path

from partyhub import bots

from games.sketch import bot
from games.sketch.rules.constants import MAX_POINTS_PER_BATCH, MAX_POINTS_PER_BOARD
from games.sketch.rules.matcher import normalise

from sketch_play import ok, put, started

WORDS = Path(bot.__file__).parent / "words"


def test_every_drawing_is_accepted_by_the_game_on_a_board():
    for key, strokes in bot.library()["drawings"].items():
        state = put(started(), "p1", 0)
        for action in bot.strokes_for(0, key if key != bot.FALLBACK else "no such word"):
            state = ok(state, "p1", action)
        kept = state["boards"]["p1"][0]["strokes"]
        assert len(kept) == len(strokes), key
        assert sum(len(s["p"]) for s in kept) == sum(len(s["p"]) for s in strokes), key


def test_the_library_covers_words_of_the_built_in_lists_in_each_language():
    data = json.loads((Path(bot.__file__).with_name("drawings.json")).read_text(encoding="utf-8"))
    lists = {lang: {normalise(w) for w in (WORDS / f"{lang}-easy.txt").read_text(encoding="utf-8").splitlines()}
             for lang in ("en", "uk", "ru")}
    by_key = {}
    for word, key in data["words"].items():
        assert key in data["drawings"], word
        assert any(normalise(word) in words for words in lists.values()), word
        by_key.setdefault(key, set()).add(word)
    assert len(by_key) >= 20
    for key, names in by_key.items():            # each drawing is named in en, uk and ru
        for lang, words in lists.items():
            assert any(normalise(n) in words for n in names), (key, lang)


def test_a_word_without_a_drawing_gets_the_generic_doodle_and_spellings_are_normalised():
    assert bot.drawing_for("quantum entanglement")[0] == bot.FALLBACK
    assert bot.drawing_for("М’ЯЧ")[0] == "ball"
    assert bot.drawing_for("Солнце")[0] == "sun"
    assert bot.drawing_for("")[0] == bot.FALLBACK


def test_long_lines_go_in_joined_batches_within_the_stream_limits():
    long = {"c": "#000", "w": 4, "p": [i % 1000 for i in range(2 * 450)]}
    lib = bot.library()
    lib["drawings"]["zz-test"] = [long]
    lib["words"]["zzz"] = "zz-test"
    try:
        actions = bot.strokes_for(3, "zzz")
    finally:
        del lib["drawings"]["zz-test"], lib["words"]["zzz"]
    assert [len(a["points"]) for a in actions] == [MAX_POINTS_PER_BATCH, MAX_POINTS_PER_BATCH, 50]
    assert [a.get("join", False) for a in actions] == [False, True, True]
    assert all(a["board"] == 3 and 0 <= x <= 1 and 0 <= y <= 1 for a in actions for x, y in a["points"])
    total = sum(len(s["p"]) // 2 for s in lib["drawings"]["*"])
    assert total <= MAX_POINTS_PER_BOARD


def view(phase="drawing", boards=None, drawable=(0, 1)):
    boards = boards or [{"board": i, "word": None, "strokes": [], "won_by": []} for i in range(6)]
    return {"room": {"game": "sketch", "game_no": 1},
            "game": {"phase": phase, "you": {"boards": boards, "drawable": list(drawable)}}}


def test_the_bot_hook_draws_the_first_worded_empty_board_in_a_drawing_round_only():
    v = view()
    assert bots.stream_moves(v) == []                  # no word yet: it picks one first
    v["game"]["you"]["boards"][1]["word"] = "house"
    moves = bots.stream_moves(v)
    assert moves == bot.strokes_for(1, "house") and moves
    v["game"]["you"]["boards"][1]["strokes"] = [{"c": "#000", "w": 4, "p": [1, 2, 3, 4]}]
    assert bots.stream_moves(v) == []                  # drawn already
    v["game"]["you"]["boards"][1]["strokes"] = []
    v["game"]["phase"] = "guessing"
    assert bots.stream_moves(v) == []
    assert bots.stream_moves({"room": {"game": "count"}, "game": {}}) == []
    assert bots.stream_moves({"room": {"game": "../x"}}) == []


def test_a_bot_never_trades_the_word_of_a_board_it_has_worded():
    v = view()
    v["game"]["you"]["boards"][2]["word"] = "cat"
    v["actions"] = [{"type": "draw", "board": 2, "word": "dog"}, {"type": "draw", "board": 3, "word": "dog"},
                    {"type": "guess", "player": "x", "board": 0, "text": None}]
    assert bots.offered_actions(v) == v["actions"][1:]
    assert bots.offered_actions({"room": {"game": "count"}, "actions": [1]}) == [1]
