"""The story deck's plan: each card's scene family, palette, light, actor, mood and things.

Pure and seeded: `plan(seed)` is the same list on every machine, and the manifest
(partyhub/decks/default.json) is made from it alone. The drawing (stages.py, rooms.py) reads
the plan and never chooses anything the plan names.
"""
from __future__ import annotations

import random

from . import cast

SEED = 20261127
PER_FAMILY = 17
OUTDOOR = ("journey", "sea", "stairs", "doorway", "dwelling", "inside", "bridge", "boatfield",
           "tree", "creature_city", "book_road", "shadow", "clocks")
INDOOR = ("table", "season_window", "theatre", "underwater_room", "mirror")
FAMILIES = OUTDOOR + INDOOR
PALETTE_NAMES = ("night", "aurora", "dawn", "desert", "fog", "underwater", "forest", "snow",
                 "storm", "dusk", "meadow", "rose", "candle", "autumn")
OUTDOOR_PALETTES = tuple(p for p in PALETTE_NAMES if p != "underwater")
INDOOR_PALETTES = ("night", "dawn", "fog", "forest", "snow", "storm", "dusk", "rose", "candle",
                   "autumn", "meadow", "aurora")
DISC_SHARE = 0.3           # of outdoor cards: a sun or moon disc in the sky
# cards drawn again (another roll of their layout, same story) after looking at the deck:
# a280's actor stood in its house's door; the others were layout twins of another card
# (docs/deck.md)
REDRAW = {"a280": 2, "a144": 2, **{card_id: 1 for card_id in ("a031", "a125", "a126", "a186", "a231", "a262", "a263", "a266")}}

# family -> (slot -> the pool it draws from), the share of cards with an actor, the title
SLOTS = {
    "journey": ({"giant": cast.GIANTS}, 1.0, "walking towards a giant {giant_}"),
    "sea": ({"boat": cast.BOATS, "far": cast.SWIMMERS}, 0.85, "adrift in a {boat}, a {far} close by"),
    "stairs": ({"sky": cast.WONDERS}, 1.0, "on a staircase to nowhere, a {sky} above"),
    "doorway": ({"comes": cast.GUESTS}, 1.0, "at a door in the open, a {comes} coming through it"),
    "dwelling": ({"house": cast.DWELLINGS}, 0.8, "at the little door of a giant {house_}"),
    "inside": ({"vessel": cast.CONTAINERS}, 1.0, "inside a {vessel} while the water rises"),
    "bridge": ({"sky": cast.WONDERS}, 1.0, "at the end of a bridge that goes nowhere, a {sky} beyond"),
    "boatfield": ({"boat": cast.BOATS, "ground": cast.GROUNDED}, 1.0,
                  "in a {boat} stranded in a field, by a {ground}"),
    "tree": ({"guest": cast.GUESTS}, 1.0, "on a branch of a tree with rooms, a {guest} at a window"),
    "creature_city": ({"bearer": cast.BEARERS, "town": cast.BUILDINGS, "town2": cast.BUILDINGS}, 0.6,
                      "watching a {bearer} that carries a town of {town} and {town2}"),
    "book_road": ({"far": cast.GIANTS}, 1.0, "on a road out of a giant book, a {far} at its end"),
    "shadow": ({"shadow": cast.SHADOWS}, 1.0, "casting the giant shadow of a {shadow}"),
    "clocks": ({"clock": cast.CLOCKS, "clock2": cast.CLOCKS}, 1.0,
               "crossing a desert of clocks, a {clock} and a {clock2} half sunk"),
    "table": ({"guest": cast.GUESTS, "guest2": cast.GUESTS, "fare": cast.FARE, "fare2": cast.FARE}, 0.7,
              "at a table set for a {guest} and a {guest2}, with a {fare} and a {fare2}"),
    "season_window": ({"furniture": cast.FURNITURE}, 1.0,
                      "by a {furniture} at a window onto another season"),
    "theatre": ({"prop": cast.GROUNDED}, 1.0, "alone on the stage of an empty theatre, by a {prop}"),
    "underwater_room": ({"swimmer": cast.SWIMMERS, "furniture": cast.FURNITURE}, 1.0,
                        "in a drowned room by a {furniture}, a {swimmer} swimming past"),
    "mirror": ({"reflection": cast.GUESTS}, 1.0, "before a mirror that shows a {reflection}"),
}
CARRIES = {"journey", "stairs", "bridge", "book_road", "clocks", "theatre", "boatfield", "doorway",
           "shadow", "tree", "season_window", "mirror"}


def _least(rng: random.Random, names, used: dict, avoid=()) -> str:
    names = [n for n in names if n not in avoid]
    rng.shuffle(names)
    return min(names, key=lambda n: used.get(n, 0))


def _spread(rng: random.Random, items, count: int) -> list:
    """`count` items, each as often as the others (+-1), in a shuffled order."""
    out: list = []
    while len(out) < count:
        batch = list(items)
        rng.shuffle(batch)
        out.extend(batch)
    return out[:count]


def _order(rng: random.Random) -> list[str]:
    """The families, PER_FAMILY each, dealt so that neighbours differ."""
    rounds = []
    for _ in range(PER_FAMILY):
        batch = list(FAMILIES)
        rng.shuffle(batch)
        if rounds and batch[0] == rounds[-1]:
            batch.append(batch.pop(0))
        rounds.extend(batch)
    return rounds


def plan(seed: int = SEED) -> list[dict]:
    """Every card: id, family, palette, light, hero, mood, slots, carry, objects, title."""
    rng = random.Random(f"story-deck:{seed}")
    families = _order(rng)
    palettes = {fam: _spread(rng, INDOOR_PALETTES if fam in INDOOR else OUTDOOR_PALETTES, PER_FAMILY)
                for fam in FAMILIES}
    if "underwater_room" in palettes:     # a drowned room is under water, whatever the light
        palettes["underwater_room"] = ["underwater"] * PER_FAMILY
    moods = _spread(rng, sorted(cast.MOODS), len(families))
    used: dict[str, int] = {}
    seen: set[frozenset] = set()
    cards = []
    for index, family in enumerate(families):
        pools, actor_share, _ = SLOTS[family]
        for _attempt in range(20):
            slots: dict[str, str] = {}
            for slot, pool in pools.items():
                slots[slot] = _least(rng, pool, used, avoid=set(slots.values()))
            hero = None
            if rng.random() < actor_share:
                heroes = [h for h in cast.HEROES if h not in slots.values()
                          and moods[index] in cast.FEELS.get(h, cast.MOODS)]
                if family == "inside":
                    heroes = [h for h in heroes if h not in cast.WIDE]
                hero = _least(rng, heroes, used)
            carry = None
            if hero and family in CARRIES and rng.random() < 0.6:
                carry = _least(rng, cast.CARRY, used, avoid=set(slots.values()) | {hero})
            names = [n for n in (hero, *slots.values(), carry) if n]
            if frozenset(names) not in seen:
                break
        seen.add(frozenset(names))
        for n in names:
            used[n] = used.get(n, 0) + 1
        mood = moods[index] if hero else None
        light = "none"
        if family in OUTDOOR and family != "inside" and rng.random() < DISC_SHARE:
            light = "disc"
        elif family in OUTDOOR:
            light = "glow"
        cards.append({
            "id": f"a{index + 1:03d}", "family": family, "palette": palettes[family].pop(),
            "light": light, "hero": hero, "mood": mood, "carry": carry, "slots": slots,
            "mirror": rng.random() < 0.5, "variant": REDRAW.get(f"a{index + 1:03d}", 0),
            "objects": list(dict.fromkeys(cast.label(n) for n in names)),
            "title": title(family, hero, mood, slots, carry),
        })
    return cards


def a(word: str) -> str:
    if word.endswith("s") and not word.endswith(("ss", "us")):
        return word          # cherries, books: no article (but an octopus, a cactus)
    return ("an " if word[0] in "aeiou" else "a ") + word


def title(family: str, hero, mood, slots: dict, carry) -> str:
    """The card's title in English: who, how they feel, where, and what they carry."""
    words = {k: a(cast.label(v)) for k, v in slots.items()}
    words.update({k + "_": cast.label(v) for k, v in slots.items()})
    scene = SLOTS[family][2].replace("a {", "{").format(**words)
    if not hero:
        scene = scene.replace("watching ", "", 1)
        return scene[0].upper() + scene[1:]
    text = f"{a(cast.label(hero)).capitalize()}, {cast.MOODS[mood][0]}, {scene}"
    if carry:
        text += f", with {a(cast.label(carry))}"
    return text
