"""How an association bot plays with some sense (partyhub/bots.py's per-game hook): the
storyteller names something on its card (an object, or the scene or its light in uk/ru),
the others put down and vote for the card that fits the clue best. When nothing fits (an
uploaded deck has no tags) it returns None and the bot picks at random."""
from partyhub.decks import sense


def prefer(view, actions, language, rnd):
    game = view.get("game") or {}
    tell = [a for a in actions if a.get("type") == "tell"]
    if tell:
        order = list(tell)
        rnd.shuffle(order)
        for a in order:
            got = sense.clue_for(a["card"], language, rnd)
            if got:
                return {**a, "clue": got[0]}
        return None
    for kind in ("submit", "vote"):
        offered = [a for a in actions if a.get("type") == kind]
        if offered:
            card = sense.best([a["card"] for a in offered], game.get("clue"), rnd)
            return next((a for a in offered if a["card"] == card), None) if card else None
    return None
