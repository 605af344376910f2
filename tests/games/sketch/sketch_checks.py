"""Invariants every sketch state and view must keep (used by the random-game tests)."""
import json

from games.sketch.rules import GAME
from games.sketch.rules.constants import BOARDS

VIEWERS_EXTRA = ("@table", "@audience")


def check_boards(state):
    """Each board is with its drawer (won_by empty) or with the guessers who won it."""
    seats = state["seats"]
    total = 0
    for owner, boards in state["boards"].items():
        assert len(boards) == BOARDS
        words = [b["word"] for b in boards if b["word"] is not None]
        assert len(words) == len(set(words))
        cards = {w for card in state["cards"][owner] for w in card}
        assert set(words) <= cards
        for b in boards:
            assert len(b["won_by"]) == len(set(b["won_by"]))
            assert owner not in b["won_by"] and set(b["won_by"]) <= set(seats)
            assert b["word"] is not None or not b["won_by"]
            total += 1
    assert total == BOARDS * len(seats)
    # the live score counts what is decided: a drawing's penalty once a guessing round ended
    # without it (and nobody won it since); at the end every own board still held
    over = state["phase"] == "over"
    held = {s: sum(1 for b in state["boards"][s] if not b["won_by"] and (over or b.get("missed")))
            for s in seats}
    won = {s: sum(s in b["won_by"] for o in seats for b in state["boards"][o]) for s in seats}
    assert GAME.scores(state) == {s: won[s] - held[s] for s in seats}
    if state["round"] <= 2 and not over:
        assert min(GAME.scores(state).values()) >= 0, "negative before any guessing round ended"


def revealed(state, viewer, owner, board):
    return state["phase"] == "over" or viewer == owner or viewer in board["won_by"]


def check_secrecy(state):
    """No view holds a word its viewer may not know; drawings hide in drawing rounds."""
    for viewer in list(state["seats"]) + list(VIEWERS_EXTRA):
        text = json.dumps(GAME.view(state, viewer), ensure_ascii=False)
        on_boards = {}
        for owner, boards in state["boards"].items():
            for b in boards:
                if b["word"] is not None:
                    on_boards[b["word"]] = revealed(state, viewer, owner, b)
        for owner, cards in state["cards"].items():
            if owner == viewer:
                continue
            for word in (w for card in cards for w in card):
                if not on_boards.get(word, False):
                    assert f'"{word}"' not in text, (viewer, word)
        if state["phase"] == "drawing":
            shown = [b for b in GAME.view(state, viewer)["boards"] if "strokes" in b]
            assert shown == [], "drawings are hidden during drawing rounds"
