"""How long a game of 4 takes with the default options (issue 27, "Defaults that end").

    .venv/bin/python -m bench.lengths [--games 20] [--players 4]

Plays whole games with the rules and the bots' own strategies (partyhub/bots.py: every seat a
bot, a move chosen from the seat's own view), on a game clock that moves by the time a person
would take for each move (PACE below: a table of people, not bots) and by the game's own
timers (a timer that falls due before the next move ends the phase, as at a real table). A
move everyone makes at once (association's cards and votes, jinx's picks) costs its time once
per phase. Prints the number of turns and the minutes per game (median, 10th and 90th
percentile), which docs/games/<game>.md quote and each game's `minutes` states.

Sketch needs no simulation: six rounds of `round_seconds`, whatever the players do.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics

# Seconds a person takes for a move, by game and action type (a table of people who know the
# game; the first turns are slower, the last faster). `None`: the move only paces the table
# (a reveal), which a person taps after looking at it, unless its timer comes first.
PACE = {
    "association": {"tell": 40, "submit": 25, "vote": 25, "next": 15},
    "jinx": {"clue": 20, "pick": 8},
    "klepka": {"flip": 4, "word": 25, "words_done": 3},
}
AT_ONCE = {"association": {"submit", "vote"}, "jinx": {"pick"}}
SETUP_SECONDS = 60       # reading the options, the results screen at the end


def _setup_django():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "partyhub.settings")
    import django
    django.setup()


def defaults(game) -> dict:
    """The options a game is dealt with the host changing nothing (decks resolved as data)."""
    from partyhub.decks import options as deck_options
    from partyhub.gamekit import clean_options
    chosen = clean_options(game.options, {})
    return {**chosen, **deck_options.resolved(game.options, chosen)}


def seat_view(game_id, language, game, state, pid) -> dict:
    return {"room": {"game": game_id, "language": language, "game_no": 1},
            "you": {"role": "player", "id": pid},
            "game": game.view(state, pid), "actions": list(game.actions(state, pid))}


def play(game, players: int, seed: int, language: str = "en", max_moves: int = 20000) -> dict:
    """One whole game; returns {"seconds", "turns", "moves", "outcome"}."""
    from partyhub import bots
    seats = [f"p{i}" for i in range(players)]
    state = game.setup(seats, defaults(game), seed)
    now = 1_000_000    # game-clock ms
    if hasattr(game, "begin"):
        state = game.begin(state, now)
    pace, at_once = PACE[game.id], AT_ONCE.get(game.id, set())
    rnd, memory = random.Random(seed), {pid: {} for pid in seats}
    charged: set = set()       # the (turn, phase) whose simultaneous move was paid for
    moves = 0
    while game.outcome(state) is None and moves < max_moves:
        move = None
        for pid in seats:
            d = bots.next_action(seat_view(game.id, language, game, state, pid), rnd, (), memory[pid])
            if d is not None:
                move = (pid, d)
                break
        if move is None:
            paced = [a for pid in seats for a in game.actions(state, pid)
                     if a["type"] in getattr(game, "pacing", ())]
            if paced and pace.get(paced[0]["type"]):
                move = (next(p for p in seats if game.actions(state, p)), paced[0])
        due = game.deadline(state)
        cost = 0
        if move is not None:
            kind = move[1]["type"]
            key = (_turn(state), str(state.get("phase")), kind)
            cost = 0 if kind in at_once and key in charged else pace.get(kind, 5) * 1000
            charged.add(key)
        if due is not None and (move is None or due <= now + cost):
            now = max(now, due)
            state = game.on_deadline(state, now).state
            continue
        if move is None:
            raise RuntimeError(f"{game.id}: nobody moves and no timer runs")
        now += cost
        result = game.apply(state, move[0], move[1], now)
        if hasattr(result, "code"):
            raise RuntimeError(f"{game.id}: a bot's move was refused: {result.code}")
        state, moves = result.state, moves + 1
    return {"seconds": (now - 1_000_000) / 1000 + SETUP_SECONDS, "turns": _turn(state), "moves": moves,
            "outcome": game.outcome(state)}


def _turn(state) -> int:
    """The turn number (klepka's `turn` is the seat whose turn it is, `turn_no` the count)."""
    return state["turn_no"] if "turn_no" in state else state.get("turn", 0)


def measure(game_id: str, players: int = 4, games: int = 20, language: str = "en") -> dict:
    from partyhub.rooms.gateway import registry
    game = registry.get(game_id)
    if game_id == "sketch":
        seconds = 6 * defaults(game)["round_seconds"] + SETUP_SECONDS
        runs = [{"seconds": seconds, "turns": 6, "moves": 0}]
    else:
        runs = [play(game, players, seed, language) for seed in range(games)]
    minutes = sorted(r["seconds"] / 60 for r in runs)
    turns = sorted(r["turns"] for r in runs)
    pick = lambda xs, q: xs[min(len(xs) - 1, int(q * len(xs)))]   # noqa: E731
    return {"game": game_id, "players": players, "games": len(runs),
            "minutes": round(statistics.median(minutes), 1),
            "p10": round(pick(minutes, 0.1), 1), "p90": round(pick(minutes, 0.9), 1),
            "turns": statistics.median(turns), "declared": getattr(game, "minutes", None)}


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.lengths", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--only", action="append")
    args = p.parse_args(argv)
    _setup_django()
    for game_id in args.only or ("association", "jinx", "klepka", "sketch"):
        language = "uk" if game_id == "klepka" else "en"
        r = measure(game_id, args.players, args.games, language)
        print(f"{r['game']:12} {r['players']} players, {r['games']} games: median {r['minutes']} min "
              f"(10%: {r['p10']}, 90%: {r['p90']}), {r['turns']} turns; the game says {r['declared']}")


if __name__ == "__main__":
    main()
