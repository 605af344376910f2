"""The room's scoreboard across the games it has played: how many, the wins of each player,
and the last few games. Bounded: a room that plays thousands of games in a night keeps the
same few hundred bytes (the scoreboard is in every view, in the snapshot the store keeps and
in the committed row), where a list of every game grew by an entry per game.

Shape (stored on the room and sent in the view as `room.scoreboard`):
  {"played": <games finished>, "wins": {<player id>: <games won>},
   "recent": [{"game", "game_no", "scores", "winners"}, ...]  (the last RECENT, oldest first)}
"""
from __future__ import annotations

RECENT = 6          # the results screen lists the last six games
MAX_WINNERS = 64    # more winners than any table seats: the fewest wins are forgotten first


def empty() -> dict:
    return {"played": 0, "wins": {}, "recent": []}


def normalized(board) -> dict:
    """Any stored scoreboard in the current shape. Rows written before it was bounded hold a
    list with an entry for every game played: they are folded into the counts."""
    if isinstance(board, dict):
        return {"played": int(board.get("played", 0)), "wins": dict(board.get("wins") or {}),
                "recent": list(board.get("recent") or [])[-RECENT:]}
    folded = empty()
    for entry in board or []:
        folded = recorded(folded, entry)
    return folded


def recorded(board, entry: dict) -> dict:
    """The scoreboard with one more finished game: `entry` is {"game", "game_no", "scores",
    "winners"}. Returns a new dict (the old one may be shared with a snapshot)."""
    board = normalized(board)
    wins = board["wins"]
    for winner in entry.get("winners") or []:
        wins[winner] = wins.get(winner, 0) + 1
    if len(wins) > MAX_WINNERS:
        keep = sorted(wins.items(), key=lambda kv: -kv[1])[:MAX_WINNERS]
        wins = dict(keep)
    return {"played": board["played"] + 1, "wins": wins,
            "recent": (board["recent"] + [entry])[-RECENT:]}
