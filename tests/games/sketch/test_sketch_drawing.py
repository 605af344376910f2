"""Drawing: words on boards, the stroke stream relayed to the drawer only, absorbed compactly."""
import json

from partyhub.gamekit import Rejected, Relay

from games.sketch.rules import GAME
from games.sketch.rules.constants import MAX_POINTS_PER_BOARD

from sketch_play import next_round, ok, put, refused, started, stroke


def drawing_state():
    return put(started(), "p1", 0)


def test_drawing_actions_list_every_free_word_for_every_unguessed_board():
    state = started()
    draws = GAME.actions(state, "p1")
    assert len(draws) == 6 * 10
    state = put(state, "p1", 2)
    assert len(GAME.actions(state, "p1")) == 6 * 9
    word = state["boards"]["p1"][2]["word"]
    assert refused(state, "p1", {"type": "draw", "board": 3, "word": word}) == "word_in_use"
    foreign = state["cards"]["p2"][0][0]
    assert refused(state, "p1", {"type": "draw", "board": 3, "word": foreign}) == "bad_word"
    assert refused(state, "p1", {"type": "draw", "board": 6, "word": word}) == "bad_board"
    assert refused(state, "p1", {"type": "draw", "board": True, "word": word}) == "bad_board"


def test_a_stroke_is_relayed_only_to_the_drawers_own_screens_rounded():
    state = drawing_state()
    relay = GAME.stream(state, "p1", stroke(0, [(0.12345, 1.5), (-1, 0.5)]), state["deadline"] - 1)
    assert isinstance(relay, Relay) and relay.to == ("p1",)
    assert relay.frame == {"player": "p1", "board": 0, "points": [[0.123, 1.0], [0.0, 0.5]],
                           "color": "#000", "width": 4, "join": False}


def test_malformed_or_untimely_strokes_are_refused():
    state = drawing_state()
    now = state["deadline"] - 1
    assert GAME.stream(state, "p1", stroke(1), now).code == "no_word"
    assert GAME.stream(state, "p2", stroke(0), now).code == "no_word"
    assert GAME.stream(state, "p1", stroke(0, color="#123"), now).code == "bad_color"
    assert GAME.stream(state, "p1", stroke(0, width=5), now).code == "bad_width"
    assert GAME.stream(state, "p1", stroke(0, points=[]), now).code == "bad_points"
    assert GAME.stream(state, "p1", stroke(0, points=[(0.1, 0.1)] * 201), now).code == "bad_points"
    assert GAME.stream(state, "p1", stroke(0, points=[(0.1, "x")]), now).code == "bad_points"
    assert GAME.stream(state, "p1", stroke(0), state["deadline"]).code == "time_up"
    assert GAME.stream(state, "@table", stroke(0), now).code == "not_a_player"
    guessing = next_round(state)
    assert GAME.stream(guessing, "p1", stroke(0), now).code == "wrong_phase"


def test_absorbing_folds_strokes_joins_batches_and_undo_takes_back_a_whole_line():
    state = drawing_state()
    items = [("p1", stroke(0)), ("p1", stroke(0, points=[(0.5, 0.5)], join=True)),
             ("p1", stroke(0, color="#e4572e")), ("p1", {"type": "undo", "board": 0})]
    new = GAME.absorb(state, items)
    assert new["boards"]["p1"][0]["strokes"] == [
        {"c": "#000", "w": 4, "p": [100, 200, 300, 400, 500, 500]}]
    assert state["boards"]["p1"][0]["strokes"] == [], "absorb never mutates its input"
    assert json.loads(json.dumps(new)) == new
    cleared = GAME.absorb(new, [("p1", {"type": "clear", "board": 0})])
    assert cleared["boards"]["p1"][0]["strokes"] == []


def test_absorb_drops_items_that_are_no_longer_allowed():
    state = drawing_state()
    items = [("p1", stroke(1)), ("p9", stroke(0)), ("p1", {"type": "guess"}),
             ("p1", stroke(0, width=99)), ("p1", "junk")]
    assert GAME.absorb(state, items)["boards"] == state["boards"]
    late = next_round(state)
    assert GAME.absorb(late, [("p1", stroke(0))])["boards"] == late["boards"]


def test_a_full_board_takes_no_more_points():
    state = drawing_state()
    batch = stroke(0, points=[(0.5, 0.5)] * 200)
    state = GAME.absorb(state, [("p1", batch)] * (MAX_POINTS_PER_BOARD // 200 + 2))
    points = sum(len(s["p"]) for s in state["boards"]["p1"][0]["strokes"]) // 2
    assert points == MAX_POINTS_PER_BOARD
    assert GAME.stream(state, "p1", batch, state["deadline"] - 1).code == "board_full"


def test_apply_accepts_a_stream_item_as_an_ordinary_action_too():
    state = ok(drawing_state(), "p1", stroke(0))
    assert len(state["boards"]["p1"][0]["strokes"]) == 1
    assert refused(state, "p1", stroke(3)) == "no_word"


def test_choosing_a_new_word_for_a_board_starts_its_drawing_afresh():
    state = ok(drawing_state(), "p1", stroke(0))
    state = put(state, "p1", 0)
    assert state["boards"]["p1"][0]["strokes"] == []


def test_a_guessed_board_can_no_longer_be_drawn_on():
    state = next_round(drawing_state())
    word = state["boards"]["p1"][0]["word"]
    state = ok(state, "p0", {"type": "guess", "player": "p1", "board": 0, "text": word})
    state = next_round(state)
    assert isinstance(GAME.stream(state, "p1", stroke(0), state["deadline"] - 1), Rejected)
    assert refused(state, "p1", {"type": "draw", "board": 0, "word": "x"}) == "board_guessed"
    assert all(a["board"] != 0 for a in GAME.actions(state, "p1"))
