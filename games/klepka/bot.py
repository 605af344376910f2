"""How a klepka bot plays: from its own view only, like a phone (partyhub.bots calls `choose`).

- Words phase: the dictionary search (`dictionary.find`) over the letters in `mine` (and a
  polysemy card), the best-scoring word of those found; when none is found (or the server
  refused the word in this view) it says `words_done`.
- Flips: it remembers the letters it has seen face up at each table position (cleared by
  chaos, which re-deals the table), and flips a remembered match when it can, else an unseen
  card, like a player with a good memory.
- Exchange and chaos are kept (each held card still counts 1 point at the end).
"""
from __future__ import annotations

# Kinds of action the bot never plays (`choose` keeps them): a seat offered only these is not
# one the game waits on, so a stand-in (partyhub/rooms/timers/standin.py) does not wake up for them.
NEVER = frozenset({"exchange", "chaos"})
WORD_TEMPLATE = '{"cards": null, "type": "word", "wild": null}'
CANDIDATES = 40


def remember(game: dict, memory: dict) -> None:
    """Note the letters face up now; forget everything when chaos re-dealt the table."""
    if memory.get("chaos_no") != game.get("chaos_no"):
        memory.clear()
        memory["chaos_no"] = game.get("chaos_no")
    seen = memory.setdefault("seen", {})
    for cell in game.get("table", []):
        if cell is None:
            continue
        if not cell["down"] and cell["card"].get("kind") == "letter":
            seen[cell["ref"]] = cell["card"]["letter"]
    on_table = {c["ref"] for c in game.get("table", []) if c is not None}
    for ref in list(seen):
        if ref not in on_table:
            del seen[ref]


def choose(view: dict, offered: list, rnd, failed=(), memory=None, words=None) -> dict | None:
    """The bot's next game action (None: nothing to do now)."""
    game = view.get("game") or {}
    memory = {} if memory is None else memory
    remember(game, memory)
    kinds = {a.get("type") for a in offered}
    if "word" in kinds:
        if WORD_TEMPLATE not in failed:
            word = best_word(game, words)
            if word is not None:
                return word
        if "words_done" in kinds:
            return {"type": "words_done"}
    flips = [a["card"] for a in offered if a.get("type") == "flip"]
    if flips:
        return {"type": "flip", "card": pick_flip(game, flips, memory.get("seen", {}), rnd)}
    return None


def pick_flip(game: dict, can: list, seen: dict, rnd) -> str:
    can_set = set(can)
    pending = [r for r in ((game.get("flips") or {}).get("pending") or []) if r]
    known = {r: letter for r, letter in seen.items() if r in can_set}
    unseen = [r for r in can if r not in seen]
    if pending:
        letter = seen.get(pending[0])
        match = [r for r, l in known.items() if l == letter and r != pending[0]]
        if match:
            return match[0]
        return rnd.choice(unseen or can)
    by_letter: dict[str, list] = {}
    for r, letter in known.items():
        by_letter.setdefault(letter, []).append(r)
    pairs = [rs for rs in by_letter.values() if len(rs) >= 2]
    if pairs:
        return pairs[0][0]
    return rnd.choice(unseen or can)


def best_word(game: dict, words=None) -> dict | None:
    """A concrete `word` action from the cards in `mine`: the best-scoring word found."""
    mine = game.get("mine") or []
    letters = [c for c in mine if c.get("kind") == "letter"]
    wild = next((c for c in mine if c.get("kind") == "polysemy"), None)
    if not letters:
        return None
    if words is None:
        from games.klepka import dictionary

        words = dictionary.get()
    opts = game.get("options") or {}
    exclude = frozenset(w["word"] for w in game.get("words", [])) if opts.get("no_repeat") else frozenset()
    found = words.find([c["letter"] for c in letters], wild is not None,
                       nouns_only=bool(opts.get("nouns_only")), exclude=exclude,
                       min_letters=int(opts.get("min_letters", 2)), limit=CANDIDATES)
    best, best_points = None, -1
    for word, wild_letter in found:
        action = _cards_for(word, wild_letter, letters, wild)
        if action is None:
            continue
        points = _points(action, {c["id"]: c for c in letters}, opts)
        if points > best_points:
            best, best_points = action, points
    return best


def _cards_for(word: str, wild_letter, letters: list, wild) -> dict | None:
    free: dict[str, list] = {}
    for c in sorted(letters, key=lambda c: -c.get("points", 0)):
        free.setdefault(c["letter"], []).append(c["id"])
    cards, used_wild = [], False
    for ch in word:
        if free.get(ch):
            cards.append(free[ch].pop(0))
        elif wild is not None and ch == wild_letter:
            cards.append(wild["id"])
            used_wild = True
        else:
            return None
    if not any(c != (wild or {}).get("id") for c in cards):
        return None
    return {"type": "word", "cards": cards,
            "wild": {"card": wild["id"], "letter": wild_letter} if used_wild else None}


def _points(action: dict, by_id: dict, opts: dict) -> int:
    cards = [by_id[c] for c in action["cards"] if c in by_id]
    total = sum(c.get("points", 0) for c in cards)
    colours = {c.get("colour") for c in cards}
    if opts.get("one_colour_x2", True) and action["wild"] is None and len(cards) >= 2 and len(colours) == 1:
        total *= 2
    return total
