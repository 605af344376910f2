"""The audience guesses the drawings (issue 22): for fun and glory, never for a board or a point.

One ballot per guessing round ("r<round>"). A board is named by one number, its place on the
table: seat index * 6 + board (0..59 for 10 players). A guess is judged by the players' own
matcher (matcher.is_correct); a right one is recorded (key: the board as text, value True),
a wrong one records nothing. Every drawn board of the round can be guessed, also one a player
has won already (the audience keeps reading the drawings on the TV). The live summary names,
per board, the audience members who got it, never a word; a right reply repeats the word the
voter has just guessed, nothing else.

Closed ballots fold into state["audience"]["voters"] (named voters only; anonymous voters
take part but win no award): each voter's right drawings as (owner, board, word), so a board
guessed again in a later round (or after its word changed, then it is a new drawing) counts
once per drawing. Words in the state are never shown: views do not read state["audience"].
"""
from __future__ import annotations

from partyhub.gamekit import Ballot, Rejected, integer, text

from .constants import BOARDS, MAX_GUESS_CHARS
from .matcher import is_correct, normalise

GUESS_CHARS = 60
NAMES_SHOWN = 8           # per board in the live summary (the count says how many in all)
SCHEMA = {"audience_guess": {"board": integer(), "text": text(GUESS_CHARS)}}
assert GUESS_CHARS <= MAX_GUESS_CHARS


def ballot(state: dict) -> str | None:
    return f"r{state['round']}" if state["phase"] == "guessing" else None


def place(state: dict, n) -> tuple | None:
    """(owner, index, board) of the board numbered n, or None."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        return None
    seat, index = divmod(n, BOARDS)
    if seat >= len(state["seats"]):
        return None
    owner = state["seats"][seat]
    return owner, index, state["boards"][owner][index]


def _drawn(state: dict) -> list[int]:
    return [s * BOARDS + i for s, owner in enumerate(state["seats"])
            for i, b in enumerate(state["boards"][owner]) if b["word"] is not None]


def actions(state: dict) -> list[dict]:
    if ballot(state) is None:
        return []
    return [{"type": "audience_guess", "board": n, "text": None} for n in _drawn(state)]


def check(state: dict, action: dict, mine: dict) -> Ballot | Rejected:
    if ballot(state) is None:
        return Rejected("no_ballot", "Guess while a guessing round runs.")
    if not isinstance(action, dict) or action.get("type") != "audience_guess":
        return Rejected("bad_action", "The audience guesses a drawing: audience_guess.")
    n = action.get("board")
    found = place(state, n)
    if found is None:
        return Rejected("bad_board", "Pick a drawing on the table.")
    owner, index, board = found
    if board["word"] is None:
        return Rejected("not_drawn", "Nothing is drawn on that board.")
    if str(n) in (mine or {}):
        return Rejected("already_guessed", "You have guessed that one already.")
    guess = action.get("text")
    if not isinstance(guess, str) or not normalise(guess):
        return Rejected("empty_guess", "Type a guess.")
    if len(guess) > GUESS_CHARS:
        return Rejected("long_guess", f"A guess is at most {GUESS_CHARS} characters.")
    if is_correct(board["word"], guess):
        return Ballot(str(n), True, {"board": n, "right": True, "word": board["word"]})
    return Ballot(None, None, {"board": n, "right": False})


def summary(state: dict, entries: dict) -> dict:
    """{"boards": [{"player", "board", "n", "names"}]}: per board got right by anyone in the
    audience, how many and the first NAMES_SHOWN names (alphabetical; anonymous voters only
    count)."""
    got: dict = {}
    for entry in entries.values():
        for key, value in (entry.get("votes") or {}).items():
            if value is True:
                got.setdefault(key, []).append(entry.get("name"))
    out = []
    for key in sorted(got, key=lambda k: int(k) if k.isdigit() else -1):
        found = place(state, int(key)) if key.isdigit() else None
        if found is None:
            continue
        names = sorted((x for x in got[key] if x), key=str.casefold)
        out.append({"player": found[0], "board": found[1], "n": len(got[key]),
                    "names": names[:NAMES_SHOWN]})
    return {"boards": out}


def close(state: dict, key: str, entries: dict) -> dict:
    """The round's right guesses folded in (a new state; `state` is never changed). Judged
    again against the boards as they are now: a board only changes its word in a drawing
    round, so the words are those the round was played with."""
    old = state.get("audience") or {"voters": {}}
    voters = {v: dict(e) for v, e in old["voters"].items()}
    for voter, entry in entries.items():
        name = entry.get("name")
        if name is None:
            continue
        was = voters.get(voter) or {"name": name, "got": []}
        got = [list(g) for g in was["got"]]
        for k, value in (entry.get("votes") or {}).items():
            found = place(state, int(k)) if value is True and k.isdigit() else None
            if found is None or found[2]["word"] is None:
                continue
            drawing = [found[0], found[1], found[2]["word"]]
            if drawing not in got:
                got.append(drawing)
        voters[voter] = {"name": name, "got": got}
    return dict(state, audience={"voters": voters})


def results(state: dict) -> dict:
    """{"best": the named voters with the most drawings guessed (at least one; ties
    together), as [{"name", "right"}]}."""
    voters = (state.get("audience") or {"voters": {}})["voters"].values()
    top = max((len(e["got"]) for e in voters), default=0)
    return {"best": sorted(({"name": e["name"], "right": top} for e in voters
                            if top and len(e["got"]) == top), key=lambda e: e["name"].casefold())}
