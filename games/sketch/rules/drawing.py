"""Drawing rounds: choosing a board's word (`draw`) and the canvas streams (stroke/undo/clear).

Strokes are stored compactly: {"c": colour, "w": width, "p": [x0, y0, x1, y1, ...]} with the
coordinates as integers in thousandths of the board (0..1000). A stroke batch with
"join": true continues the board's last stroke (same colour and width), so `undo` takes back
a whole pen-down-to-pen-up line however many batches carried it.
"""
from __future__ import annotations

from partyhub.gamekit import Accepted, Rejected, Relay, flag, integer, listing, string
from partyhub.strokes import SCALE, parse_stroke

from .constants import MAX_POINTS_PER_BATCH, MAX_POINTS_PER_BOARD
from .state import board_at, card_words, fork, free_words

STREAMS = frozenset({"stroke", "undo", "clear"})
# The fields of each action and their size ceilings (the functions below judge the values;
# the points of a stroke are checked one by one by parse_stroke).
ACTIONS = {
    "draw": {"board": integer(), "word": string(200)},
    "stroke": {"board": integer(), "points": listing(MAX_POINTS_PER_BATCH * 2), "color": string(16),
               "width": integer(), "join": flag()},
    "undo": {"board": integer()}, "clear": {"board": integer()},
}


def drawable(state: dict, seat, index) -> Rejected | None:
    """None when the seat may draw on its board `index` now, else why not."""
    if state["phase"] != "drawing":
        return Rejected("wrong_phase", "You can draw only in a drawing round.")
    board = board_at(state, seat, index)
    if board is None:
        return Rejected("bad_board", "Pick one of your six boards (0 to 5).")
    if board["won_by"]:
        return Rejected("board_guessed", "That drawing has been guessed already.")
    if board["word"] is None:
        return Rejected("no_word", "Choose a word for this board first.")
    return None


def draw(state: dict, seat, action: dict) -> Accepted | Rejected:
    """Put one of the seat's words on a board not yet guessed; its drawing starts afresh."""
    if state["phase"] != "drawing":
        return Rejected("wrong_phase", "You can choose words only in a drawing round.")
    index, word = action.get("board"), action.get("word")
    board = board_at(state, seat, index)
    if board is None:
        return Rejected("bad_board", "Pick one of your six boards (0 to 5).")
    if board["won_by"]:
        return Rejected("board_guessed", "That drawing has been guessed already.")
    if not isinstance(word, str) or word not in card_words(state, seat):
        return Rejected("bad_word", "Choose a word from your own cards.")
    if word not in free_words(state, seat):
        return Rejected("word_in_use", "That word is on one of your boards already.")
    new = fork(state)
    new["boards"][seat][index].update(word=word, strokes=[])
    new["boards"][seat][index].pop("missed", None)     # a new drawing: nobody has tried it yet
    return Accepted(new, [{"type": "board_drawn", "seat": seat, "board": index}])


def draw_actions(state: dict, seat) -> list[dict]:
    words = free_words(state, seat)
    return [{"type": "draw", "board": i, "word": w}
            for i, board in enumerate(state["boards"][seat]) if not board["won_by"]
            for w in words]


def _points(strokes: list) -> int:
    return sum(len(s["p"]) for s in strokes) // 2


def stream(state: dict, seat, action: dict, now: int) -> Relay | Rejected:
    """Check one canvas item against a recent snapshot; relay it to the drawer's own screens.

    During drawing rounds nobody else sees a drawing, so nothing goes to the TV.
    """
    kind = action.get("type") if isinstance(action, dict) and isinstance(action.get("type"), str) else None
    if kind not in STREAMS:
        return Rejected("bad_action", "Unknown drawing action.")
    if seat not in state["seats"]:
        return Rejected("not_a_player", "Only players draw.")
    index = action.get("board")
    why = drawable(state, seat, index)
    if why is not None:
        return why
    if state["deadline"] is not None and now >= state["deadline"]:
        return Rejected("time_up", "The drawing round is over.")
    frame = {"player": seat, "board": index}
    if kind == "stroke":
        stroke = parse_stroke(action)
        if isinstance(stroke, Rejected):
            return stroke
        if _points(state["boards"][seat][index]["strokes"]) >= MAX_POINTS_PER_BOARD:
            return Rejected("board_full", "This board is full: undo or clear to go on.")
        p = stroke["p"]
        frame.update(points=[[p[i] / SCALE, p[i + 1] / SCALE] for i in range(0, len(p), 2)],
                     color=stroke["c"], width=stroke["w"], join=stroke["join"])
    return Relay(frame=frame, to=(seat,))


def stream_many(state: dict, items, now: int) -> list:
    """The verdicts on one tick's items [(seat, action), ...], in order: `stream` for each,
    against the same snapshot (a board filling up within the tick is caught by `absorb`)."""
    return [stream(state, seat, action, now) for seat, action in items]


def _fold(strokes: list, kind: str, action: dict) -> list:
    """The board's stroke list after one item (a new list; old strokes are shared)."""
    if kind == "clear":
        return []
    if kind == "undo":
        return strokes[:-1]
    stroke = parse_stroke(action)
    if isinstance(stroke, Rejected):
        return strokes
    room = MAX_POINTS_PER_BOARD - _points(strokes)
    if room <= 0:
        return strokes
    join = stroke.pop("join")
    stroke["p"] = stroke["p"][:room * 2]
    last = strokes[-1] if strokes else None
    if join and last and (last["c"], last["w"]) == (stroke["c"], stroke["w"]):
        return strokes[:-1] + [{**last, "p": last["p"] + stroke["p"]}]
    return strokes + [stroke]


def absorb(state: dict, items) -> dict:
    """Fold [(seat, action), ...] into the boards; items no longer allowed are dropped."""
    if not items:
        return state
    new = dict(state, boards=dict(state["boards"]))
    copied = set()
    for seat, action in items:
        kind = action.get("type") if isinstance(action, dict) and isinstance(action.get("type"), str) else None
        if kind not in STREAMS or seat not in new["boards"]:
            continue
        index = action.get("board")
        if drawable(new, seat, index) is not None:
            continue
        if seat not in copied:
            new["boards"][seat] = [dict(b) for b in new["boards"][seat]]
            copied.add(seat)
        board = new["boards"][seat][index]
        board["strokes"] = _fold(board["strokes"], kind, action)
    return new
