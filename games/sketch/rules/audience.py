"""The audience guesses the drawings (issue 22): for fun and glory, never for a board or a point.

One ballot per guessing round ("r<round>"). A board is named by one number, its place on the
table: seat index * 6 + board (0..59 for 10 players). Every drawn board of the round can be
guessed, also one a player has won already (the audience keeps reading the drawings on the TV).

Nobody is told before the round is over whether a guess is right (issue 31: a tokenless
socket guessing word lists must not hand a player the answer). A guess is only recorded: the
voter's entry for a board is the list of its guesses there (at most AUDIENCE_GUESSES, each at
most guess_words words, no repeats), the reply says "recorded" and how many are left, the
TV's live summary counts who is guessing each drawing, whatever they typed. The close judges
them with the players' own matcher (matcher.is_correct).

Closed ballots fold into state["audience"]: "voters" (named voters only; anonymous voters
take part but win no award), each voter's right drawings as (owner, board, word), so a board
guessed again in a later round (or after its word changed, then it is a new drawing) counts
once per drawing; and "last", the round's public result: per drawing a player has won (every
drawing once the game is over), how many named voters got it and the first names, never a
word. A drawing still in play keeps it to itself: a result of this round would tell a
voter (perhaps a player's second phone) the word for the next guessing round. Views read
only "last".
"""
from __future__ import annotations

from partyhub.gamekit import Ballot, Rejected, integer, text

from .constants import AUDIENCE_GUESSES, BOARDS, MAX_GUESS_CHARS
from .guessing import too_many_words
from .matcher import is_correct, normalise

GUESS_CHARS = 60
NAMES_SHOWN = 8           # per board in a round's result (the count says how many in all)
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
    """A guess recorded under its board: Ballot("<n>", [the voter's guesses there, this one
    last], {"board", "recorded": True, "left"}). Nothing in the verdict depends on whether
    the guess is right."""
    if ballot(state) is None:
        return Rejected("no_ballot", "Guess while a guessing round runs.")
    if not isinstance(action, dict) or action.get("type") != "audience_guess":
        return Rejected("bad_action", "The audience guesses a drawing: audience_guess.")
    n = action.get("board")
    found = place(state, n)
    if found is None:
        return Rejected("bad_board", "Pick a drawing on the table.")
    if found[2]["word"] is None:
        return Rejected("not_drawn", "Nothing is drawn on that board.")
    guess = action.get("text")
    if not isinstance(guess, str) or not normalise(guess):
        return Rejected("empty_guess", "Type a guess.")
    if len(guess) > GUESS_CHARS:
        return Rejected("long_guess", f"A guess is at most {GUESS_CHARS} characters.")
    refused = too_many_words(state, guess)
    if refused is not None:
        return refused
    made = _guesses((mine or {}).get(str(n)))
    if len(made) >= AUDIENCE_GUESSES:
        return Rejected("out_of_guesses",
                        f"You have had your {AUDIENCE_GUESSES} guesses on that drawing this round.")
    if normalise(guess) in {normalise(g) for g in made}:
        return Rejected("repeated_guess", "You have tried that already.")
    made = made + [" ".join(guess.split())]
    return Ballot(str(n), made, {"board": n, "recorded": True,
                                 "left": AUDIENCE_GUESSES - len(made)})


def _guesses(value) -> list[str]:
    """A voter's guesses on one board as recorded (a list of texts; anything else: none)."""
    return [g for g in value if isinstance(g, str)] if isinstance(value, list) else []


def _boards(state: dict, entries: dict):
    """(number, owner, index, board) of every board some voter guessed, in table order."""
    keys = {k for e in entries.values() for k in (e.get("votes") or {}) if k.isdigit()}
    for n in sorted(int(k) for k in keys):
        found = place(state, n)
        if found is not None and found[2]["word"] is not None:
            yield (n, *found)


def summary(state: dict, entries: dict) -> dict:
    """{"boards": [{"player", "board", "n"}]}: per drawing, how many in the audience have
    guessed it so far. Blind to the guesses' texts: it tells no one whether one is right."""
    out = []
    for n, owner, index, _ in _boards(state, entries):
        count = sum(1 for e in entries.values() if _guesses((e.get("votes") or {}).get(str(n))))
        if count:
            out.append({"player": owner, "board": index, "n": count})
    return {"boards": out}


def close(state: dict, key: str, entries: dict) -> dict:
    """The round's guesses judged and folded in (a new state; `state` is never changed).
    Judged against the boards as they are now: a board only changes its word in a drawing
    round, so the words are those the round was played with. Only named voters get credit;
    the public result names them only on drawings no longer in play."""
    old = state.get("audience") or {"voters": {}}
    voters = {v: dict(e) for v, e in old["voters"].items()}
    right: dict = {}                                    # board number -> [names]
    for n, owner, index, board in _boards(state, entries):
        for voter, entry in entries.items():
            name = entry.get("name")
            said = _guesses((entry.get("votes") or {}).get(str(n)))
            if name is None or not any(is_correct(board["word"], g) for g in said):
                continue
            right.setdefault(n, []).append(name)
            was = voters.get(voter) or {"name": name, "got": []}
            drawing = [owner, index, board["word"]]
            got = [list(g) for g in was["got"]]
            if drawing not in got:
                got.append(drawing)
            voters[voter] = {"name": name, "got": got}
    last = {"ballot": key, "boards": []}
    for n in sorted(right):
        owner, index, board = place(state, n)
        if not board["won_by"] and state["phase"] != "over":
            continue        # still in play: who got it would tell a later round's guessers
        names = sorted(right[n], key=str.casefold)
        last["boards"].append({"player": owner, "board": index, "n": len(names),
                               "names": names[:NAMES_SHOWN]})
    return dict(state, audience={"voters": voters, "last": last})


def results(state: dict) -> dict:
    """{"best": the named voters with the most drawings guessed (at least one; ties
    together), as [{"name", "right"}]}."""
    voters = (state.get("audience") or {"voters": {}})["voters"].values()
    top = max((len(e["got"]) for e in voters), default=0)
    return {"best": sorted(({"name": e["name"], "right": top} for e in voters
                            if top and len(e["got"]) == top), key=lambda e: e["name"].casefold())}
