"""The default deck's plan: which scene, palette and objects each card gets (pure, seeded)."""
from __future__ import annotations

import itertools
import random

from . import pool

SEED = 20250611
COUNT = 160
FAMILIES = ("landscape", "sea", "room", "doorway", "stairs", "dwelling")
PALETTE_NAMES = ("night", "aurora", "dawn", "desert", "fog", "underwater", "forest", "snow",
                 "storm", "dusk", "meadow", "rose")
# what each family asks for: slot name -> role letters (any of them)
SLOTS = {
    "landscape": [("giant", "G"), ("ground", "F"), ("sky", "ST")],
    "sea": [("giant", "WG"), ("ground", "F"), ("sky", "S")],
    "room": [("giant", "G"), ("door", "F"), ("window", "S")],
    "doorway": [("door", "F"), ("sky", "ST"), ("giant", "G")],
    "stairs": [("top", "GF"), ("ground", "F"), ("sky", "S")],
    "dwelling": [("house", "D"), ("ground", "F"), ("sky", "ST")],
}
OPTIONAL = {"landscape": ("perched", "F"), "stairs": None, "sea": None, "room": None,
            "doorway": None, "dwelling": None}


def combos(rng: random.Random) -> list[tuple[str, str]]:
    """Family/palette pairs, evenly spread over the deck."""
    pairs = [(fam, pal) for fam in FAMILIES for pal in PALETTE_NAMES
             if not (fam == "sea" and pal == "underwater")]
    rng.shuffle(pairs)
    out = []
    while len(out) < COUNT:
        out.extend(pairs)
    return out[:COUNT]


def _pick(rng, role: str, used: dict, pairs: set, chosen: list) -> str | None:
    names = [n for n in pool.OBJECTS if set(role) & set(pool.OBJECTS[n]) and n not in chosen]
    rng.shuffle(names)
    names.sort(key=lambda n: used.get(n, 0))
    for name in names:
        if all(frozenset((name, c)) not in pairs for c in chosen):
            return name
    return None


def plan(seed: int = SEED, count: int = COUNT) -> list[dict]:
    """Every card of the default deck: id, family, palette, slots (slot -> object), objects."""
    rng = random.Random(f"association-deck:{seed}")
    used: dict[str, int] = {}
    pairs: set[frozenset] = set()
    sets: set[frozenset] = set()
    cards = []
    for index, (family, palette) in enumerate(combos(rng)[:count]):
        slots = list(SLOTS[family])
        extra = OPTIONAL[family]
        if family == "doorway" and rng.random() < 0.25:
            slots = slots[:2]
        if family == "dwelling" and rng.random() < 0.2:
            slots = slots[:2]
        if extra and rng.random() < 0.3:
            slots.append(extra)
        chosen: list[str] = []
        slot_map: dict[str, str] = {}
        for slot, role in slots:
            name = _pick(rng, role, used, pairs, chosen)
            if name is None:
                continue
            chosen.append(name)
            slot_map[slot] = name
        key = frozenset(chosen)
        if len(chosen) < 2 or key in sets:
            raise RuntimeError(f"card {index}: could not find distinct objects")
        sets.add(key)
        pairs.update(frozenset(p) for p in itertools.combinations(chosen, 2))
        for name in chosen:
            used[name] = used.get(name, 0) + 1
        cards.append({"id": f"a{index + 1:03d}", "family": family, "palette": palette,
                      "slots": slot_map, "objects": [label(n) for n in chosen]})
    return cards


def label(name: str) -> str:
    return name.lower().replace("black ", "").replace(" face", "").replace(
        " with flowing sand", "").replace(" without handle", "").replace(" without snow", "")
