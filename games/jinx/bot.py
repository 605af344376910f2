"""How a jinx bot plays with some sense (partyhub/bots.py's per-game hook): the active
player names something on the target card, preferably something another card in the square
shows too (a clue that makes somebody pick wrong scores for the clue giver); a guesser
touches the card that fits the clue best. When nothing fits it returns None and the bot
picks at random."""
from partyhub.decks import sense


def prefer(view, actions, language, rnd):
    game = view.get("game") or {}
    grid = game.get("grid") or []
    clue = [a for a in actions if a.get("type") == "clue"]
    if clue:
        target = game.get("target")
        if not isinstance(target, int) or not 0 <= target < len(grid) or not grid[target]:
            return None
        others = [f for i, f in enumerate(grid) if f and i != target]
        got = sense.clue_for(grid[target], language, rnd, avoid=others)
        return {**clue[0], "text": got[0]} if got else None
    picks = [a for a in actions if a.get("type") == "pick" and isinstance(a.get("slot"), int)
             and 0 <= a["slot"] < len(grid) and grid[a["slot"]]]
    if picks:
        face = sense.best([grid[a["slot"]] for a in picks], game.get("clue"), rnd)
        return next((a for a in picks if grid[a["slot"]] == face), None) if face else None
    return None
