"""What each screen sees: words stay with their drawer until guessed or the game ends."""
import json

from games.sketch.rules import GAME

from sketch_checks import check_secrecy
from sketch_play import next_round, ok, put, started, stroke, word_on


def text_of(state, viewer):
    return json.dumps(GAME.view(state, viewer), ensure_ascii=False)


def drawn_game():
    state = put(started(3, language="uk"), "p1", 0)
    return ok(state, "p1", stroke(0))


def test_the_tv_never_shows_a_word_or_a_drawing_while_players_draw():
    state = drawn_game()
    word = word_on(state, "p1", 0)
    for viewer in ("@table", "@audience", "p0", "p2"):
        assert f'"{word}"' not in text_of(state, viewer)
        board = GAME.view(state, viewer)["boards"][6]
        assert board == {"player": "p1", "board": 0, "status": "drawn"}, "won_by: once won"
    assert GAME.view(state, "p1")["you"]["boards"][0]["strokes"], "the drawer keeps their lines"
    check_secrecy(state)


def test_in_a_guessing_round_everyone_sees_the_drawings_but_only_the_drawer_the_word():
    state = next_round(drawn_game())
    word = word_on(state, "p1", 0)
    for viewer in ("@table", "@audience", "p0", "p2"):
        board = GAME.view(state, viewer)["boards"][6]
        assert board["strokes"] == [{"c": "#000", "w": 4, "p": [100, 200, 300, 400]}]
        assert f'"{word}"' not in text_of(state, viewer)
    assert GAME.view(state, "p1")["you"]["boards"][0]["word"] == word
    check_secrecy(state)


def test_a_player_never_sees_another_players_word_cards():
    state = drawn_game()
    view = GAME.view(state, "p0")
    assert view["you"]["cards"] == state["cards"]["p0"]
    others = [w for s in ("p1", "p2") for card in state["cards"][s] for w in card]
    assert not [w for w in others if f'"{w}"' in text_of(state, "p0")]
    assert "you" not in GAME.view(state, "@table")


def test_a_won_board_shows_its_word_to_its_winner_only_until_the_gallery():
    state = next_round(drawn_game())
    word = word_on(state, "p1", 0)
    state = ok(state, "p0", {"type": "guess", "player": "p1", "board": 0, "text": word})
    assert GAME.view(state, "p0")["you"]["won"] == [{"player": "p1", "board": 0, "word": word}]
    assert GAME.view(state, "p1")["you"]["asked"][-1]["correct"] is True
    for viewer in ("@table", "p2"):
        assert f'"{word}"' not in text_of(state, viewer)
        assert GAME.view(state, viewer)["boards"][6]["won_by"] == ["p0"]
    check_secrecy(state)


def test_the_drawer_sees_wrong_guesses_live_and_others_do_not():
    state = next_round(drawn_game())
    state = ok(state, "p0", {"type": "guess", "player": "p1", "board": 0, "text": "гарбузик"})
    gid = state["guesses"][-1]["id"]
    # owner (you) and round (this one) go without saying; correct when true; feedback once given
    assert GAME.view(state, "p1")["you"]["asked"] == [
        {"id": gid, "player": "p0", "board": 0, "text": "гарбузик"}]
    answered = ok(state, "p1", {"type": "feedback", "guess": gid, "value": "far"})
    assert GAME.view(answered, "p1")["you"]["asked"][0]["feedback"] == "far"
    assert GAME.view(answered, "p0")["you"]["guesses"][0]["feedback"] == "far"
    assert "гарбузик" in text_of(state, "p0")
    assert "гарбузик" not in text_of(state, "p2") and "гарбузик" not in text_of(state, "@table")


def test_the_gallery_at_the_end_shows_every_drawing_with_its_word_and_who_guessed_it():
    state = next_round(drawn_game())
    word = word_on(state, "p1", 0)
    state = ok(state, "p2", {"type": "guess", "player": "p1", "board": 0, "text": word})
    while GAME.outcome(state) is None:
        state = next_round(state)
    gallery = [b for b in GAME.view(state, "@table")["boards"] if b["status"] != "blank"]
    lines = [{"c": "#000", "w": 4, "p": [100, 200, 300, 400]}]
    assert gallery == [{"player": "p1", "board": 0, "status": "won", "won_by": ["p2"],
                        "word": word, "strokes": lines}]
    assert GAME.view(state, "@table")["winners"] == GAME.outcome(state)["winners"]
    undrawn = [w for card in state["cards"]["p0"] for w in card]
    assert not [w for w in undrawn if f'"{w}"' in text_of(state, "@table")]
    check_secrecy(state)


def test_events_never_carry_a_word():
    state = started()
    result = GAME.apply(state, "p1", GAME.actions(state, "p1")[0], state["deadline"] - 1)
    word = word_on(result.state, "p1", 0)
    assert result.events == [{"type": "board_drawn", "seat": "p1", "board": 0}]
    state = next_round(result.state)
    guessed = GAME.apply(state, "p0", {"type": "guess", "player": "p1", "board": 0, "text": word},
                         state["deadline"] - 1)
    assert word not in json.dumps(guessed.events, ensure_ascii=False)
