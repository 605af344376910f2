"""The scoring cases of a turn, played out at a 4-player table (ann is the active player)."""
from jinx_helpers import GAME, active, card_of, clued, face, guessers, new_game, ok, refused, wrong_slots

T = 5_000   # 5 s into the game
REVEAL = 8_000   # the default reveal: long enough for the table to see it (issue 27)


def test_finder_takes_the_target_and_the_active_player_takes_the_cards_picked_wrongly_before():
    s = clued(new_game(4), slot=4)
    bob, cat, dan = guessers(s)
    grid = list(s["grid"])
    s = ok(s, bob, {"type": "pick", "slot": 0})
    s = ok(s, cat, {"type": "pick", "slot": 1})
    assert s["phase"] == "race"
    s = ok(s, dan, {"type": "pick", "slot": 4}, T)
    assert s["phase"] == "reveal"
    assert s["won"] == [[grid[0], grid[1]], [], [], [grid[4]]]
    assert GAME.scores(s) == {"ann": 2, "bob": 0, "cat": 0, "dan": 1}
    assert [s["grid"][i] for i in (0, 1, 4)] == [None, None, None]
    assert s["discard"] == []
    last = s["last"]
    assert last["target"] == 4 and last["finder"] == "dan" and last["grid"] == grid
    assert [m["to"] for m in last["moves"]] == ["ann", "ann", "dan"]
    assert s["deadline"] == T + REVEAL


def test_a_card_found_at_once_gives_the_active_player_nothing():
    s = clued(new_game(4), slot=7)
    target = face(s, 7)
    s = ok(s, "cat", {"type": "pick", "slot": 7})
    assert s["phase"] == "reveal"
    assert GAME.scores(s) == {"ann": 0, "bob": 0, "cat": 1, "dan": 0}
    assert s["won"][2] == [target]


def test_picks_after_the_card_is_found_do_not_count():
    s = clued(new_game(4), slot=2)
    s = ok(s, "bob", {"type": "pick", "slot": 2})
    assert refused(s, "cat", {"type": "pick", "slot": 3}) == "wrong_phase"


def test_nobody_finds_it_and_the_active_player_returns_a_card_to_the_bottom_of_the_deck():
    s = new_game(4)
    kept = s["box"].pop()                       # ann won this card in an earlier turn
    s["won"][0] = [s["cards"][kept][1]]
    s = clued(s, slot=8)
    grid, deck = list(s["grid"]), list(s["deck"])
    for player, slot in zip(guessers(s), wrong_slots(s, 3)):
        s = ok(s, player, {"type": "pick", "slot": slot})
    assert s["phase"] == "reveal" and s["last"]["finder"] is None
    assert s["won"][0] == []
    assert s["deck"] == deck + [kept]
    assert sorted(s["discard"]) == sorted(card_of(s, grid[i]) for i in (0, 1, 2, 8))
    assert s["last"]["moves"][-1] == {"face": s["cards"][kept][1], "from": "ann", "to": "deck"}


def test_nobody_finds_it_and_an_active_player_without_cards_returns_nothing():
    s = clued(new_game(3), slot=0)
    deck = list(s["deck"])
    s = ok(s, "bob", {"type": "pick", "slot": 1})
    s = ok(s, "cat", {"type": "pick", "slot": 2})
    assert s["phase"] == "reveal"
    assert GAME.scores(s) == {"ann": 0, "bob": 0, "cat": 0}
    assert s["deck"] == deck and len(s["discard"]) == 3
    assert [m["to"] for m in s["last"]["moves"]] == ["discard"] * 3


def test_when_the_pick_time_runs_out_everyone_still_in_is_out():
    s = clued(new_game(4, pick_seconds=20), slot=5, now=T)
    assert GAME.deadline(s) == T + 20_000
    s = ok(s, "bob", {"type": "pick", "slot": 0}, T + 1_000)
    assert GAME.on_deadline(s, T + 19_999).state is s          # not due yet: nothing happens
    s = GAME.on_deadline(s, T + 90_000).state                  # called late: still right
    assert s["phase"] == "reveal" and s["last"]["timed_out"] and s["last"]["finder"] is None
    assert len(s["discard"]) == 2 and GAME.scores(s)["ann"] == 0
    assert s["deadline"] == T + 90_000 + REVEAL


def test_after_the_reveal_the_grid_is_refilled_and_the_player_to_the_left_is_active():
    s = clued(new_game(4), slot=4)
    s = ok(s, "bob", {"type": "pick", "slot": 3})
    s = ok(s, "cat", {"type": "pick", "slot": 4}, T)
    deck = len(s["deck"])
    s = GAME.on_deadline(s, T + REVEAL - 1).state
    assert s["phase"] == "reveal"
    s = GAME.on_deadline(s, T + REVEAL).state
    assert s["phase"] == "clue" and s["turn"] == 2 and active(s) == "bob"
    assert None not in s["grid"] and len(s["deck"]) == deck - 2
    assert s["last"]["finder"] == "cat"          # the reveal stays readable in the next turn


def test_the_turn_passes_round_the_table_back_to_the_first_seat():
    s = new_game(3)
    for expected in ["ann", "bob", "cat", "ann"]:
        assert active(s) == expected
        s = clued(s, slot=0)
        s = ok(s, guessers(s)[0], {"type": "pick", "slot": 0})
        s = GAME.on_deadline(s, GAME.deadline(s)).state
