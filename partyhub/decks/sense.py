"""What a bot "sees" on a card of the shipped deck: its tags (the objects drawn, the scene
family, the palette, the actor's mood) and words for them in the room's language, so that association and
jinx bots give clues that fit a card and pick the cards that fit a clue (issue 21).

Only the shipped deck has tags; an uploaded deck's cards have none and bots pick at random
there. The objects' names are English; the scene families and palettes have uk/ru words too.
"""
from __future__ import annotations

import functools
import random

from partyhub import decks

# family / palette / mood -> words for it per language (the first is used as a clue)
SCENES = {
    "doorway": {"en": ["door", "doorway", "threshold"], "uk": ["двері", "поріг"], "ru": ["дверь", "порог"]},
    "dwelling": {"en": ["home", "house"], "uk": ["дім", "оселя"], "ru": ["дом", "жилище"]},
    "landscape": {"en": ["far away", "landscape", "hills"], "uk": ["далечінь", "пагорби"], "ru": ["даль", "холмы"]},
    "room": {"en": ["inside", "room", "window"], "uk": ["кімната", "вікно"], "ru": ["комната", "окно"]},
    "sea": {"en": ["sea", "reflection", "water"], "uk": ["море", "відображення"], "ru": ["море", "отражение"]},
    "stairs": {"en": ["stairs", "climb", "ladder"], "uk": ["сходи", "підйом"], "ru": ["лестница", "подъём"]},
    "aurora": {"en": ["northern lights", "aurora"], "uk": ["сяйво", "північ"], "ru": ["сияние", "север"]},
    "dawn": {"en": ["dawn", "morning"], "uk": ["світанок", "ранок"], "ru": ["рассвет", "утро"]},
    "desert": {"en": ["desert", "heat"], "uk": ["пустеля", "спека"], "ru": ["пустыня", "жара"]},
    "dusk": {"en": ["dusk", "evening"], "uk": ["сутінки", "вечір"], "ru": ["сумерки", "вечер"]},
    "fog": {"en": ["fog", "mist"], "uk": ["туман", "імла"], "ru": ["туман", "мгла"]},
    "forest": {"en": ["forest", "green"], "uk": ["ліс", "зелень"], "ru": ["лес", "зелень"]},
    "meadow": {"en": ["meadow", "summer"], "uk": ["луг", "літо"], "ru": ["луг", "лето"]},
    "night": {"en": ["night", "moon"], "uk": ["ніч", "місяць"], "ru": ["ночь", "луна"]},
    "rose": {"en": ["pink", "tenderness"], "uk": ["ніжність", "рожевий"], "ru": ["нежность", "розовый"]},
    "snow": {"en": ["snow", "winter"], "uk": ["сніг", "зима"], "ru": ["снег", "зима"]},
    "storm": {"en": ["storm", "thunder"], "uk": ["буря", "гроза"], "ru": ["буря", "гроза"]},
    "underwater": {"en": ["deep", "underwater"], "uk": ["глибина", "під водою"], "ru": ["глубина", "под водой"]},
    "journey": {"en": ["journey", "the long road"], "uk": ["мандрівка", "далека дорога"], "ru": ["путешествие", "дальняя дорога"]},
    "inside": {"en": ["shelter", "flood"], "uk": ["сховок", "повінь"], "ru": ["укрытие", "наводнение"]},
    "bridge": {"en": ["nowhere", "bridge"], "uk": ["у нікуди", "міст"], "ru": ["в никуда", "мост"]},
    "boatfield": {"en": ["stranded", "dry land"], "uk": ["на мілині", "суходіл"], "ru": ["на мели", "суша"]},
    "tree": {"en": ["tree house", "nest"], "uk": ["дім на дереві", "гніздо"], "ru": ["дом на дереве", "гнездо"]},
    "creature_city": {"en": ["wandering town", "burden"], "uk": ["мандрівне місто", "ноша"], "ru": ["бродячий город", "ноша"]},
    "book_road": {"en": ["fairy tale", "story"], "uk": ["казка", "історія"], "ru": ["сказка", "история"]},
    "shadow": {"en": ["shadow", "the giant inside"], "uk": ["тінь", "велетень усередині"], "ru": ["тень", "великан внутри"]},
    "clocks": {"en": ["time", "waiting"], "uk": ["час", "чекання"], "ru": ["время", "ожидание"]},
    "table": {"en": ["feast", "guests"], "uk": ["бенкет", "гості"], "ru": ["пир", "гости"]},
    "season_window": {"en": ["elsewhere", "longing"], "uk": ["деінде", "туга"], "ru": ["где-то там", "тоска"]},
    "theatre": {"en": ["stage", "spotlight"], "uk": ["сцена", "у світлі рампи"], "ru": ["сцена", "в свете рампы"]},
    "underwater_room": {"en": ["drowned", "sunken"], "uk": ["затоплене", "на дні"], "ru": ["затопленное", "на дне"]},
    "mirror": {"en": ["mirror", "who am I"], "uk": ["дзеркало", "хто я"], "ru": ["зеркало", "кто я"]},
    "candle": {"en": ["candlelight", "warmth"], "uk": ["свічка", "тепло"], "ru": ["свеча", "тепло"]},
    "autumn": {"en": ["autumn", "falling leaves"], "uk": ["осінь", "листопад"], "ru": ["осень", "листопад"]},
    "asleep": {"en": ["dreams", "sleep"], "uk": ["сни", "сон"], "ru": ["сны", "сон"]},
    "afraid": {"en": ["fear", "trembling"], "uk": ["страх", "тремтіння"], "ru": ["страх", "дрожь"]},
    "joyful": {"en": ["joy", "celebration"], "uk": ["радість", "свято"], "ru": ["радость", "праздник"]},
    "curious": {"en": ["curiosity", "discovery"], "uk": ["цікавість", "відкриття"], "ru": ["любопытство", "открытие"]},
    "sad": {"en": ["sorrow", "a bad day"], "uk": ["смуток", "поганий день"], "ru": ["грусть", "плохой день"]},
    "hopeful": {"en": ["hope", "a warm heart"], "uk": ["надія", "тепле серце"], "ru": ["надежда", "тёплое сердце"]},
    "lonely": {"en": ["loneliness", "on my own"], "uk": ["самотність", "наодинці"], "ru": ["одиночество", "в одиночку"]},
    "brave": {"en": ["courage", "against the wind"], "uk": ["сміливість", "проти вітру"], "ru": ["смелость", "против ветра"]},
}


@functools.lru_cache(maxsize=1)
def _table() -> dict[str, frozenset]:
    try:
        return {c["id"]: frozenset([*c["objects"], c["family"], c["palette"], c["mood"]]) - {""}
                for c in decks.cards(decks.DEFAULT)}
    except (OSError, ValueError, KeyError):       # no deck installed: no sense, only chance
        return {}


def tags(card) -> frozenset:
    """The card's tags (empty for a card we know nothing about)."""
    return _table().get(card, frozenset()) if isinstance(card, str) else frozenset()


def words(tag: str, language: str) -> list[str]:
    """Words for a tag in a language: a scene's words, else (objects) the English name."""
    if tag in SCENES:
        return SCENES[tag].get(language) or SCENES[tag]["en"]
    return [tag] if language == "en" else []


def clue_tags(clue) -> set:
    """The tags a clue names (in any language), read back from its words."""
    text = (clue or "").strip().lower()
    if not text:
        return set()
    found = {tag for tag, by in SCENES.items() for ws in by.values() for w in ws if w == text}
    found |= {tag for ts in _table().values() for tag in ts if tag == text}
    return found


def clue_for(card, language: str, rnd: random.Random, avoid=()) -> tuple[str, str] | None:
    """A (clue, tag) that fits the card, preferring a tag the `avoid` cards share (an
    ambiguous clue fools somebody: that scores for the storyteller) when there is one."""
    own = [t for t in sorted(tags(card)) if words(t, language)]
    if not own:
        return None
    shared = [t for t in own if any(t in tags(c) for c in avoid)]
    tag = rnd.choice(shared if shared and rnd.random() < 0.6 else own)
    return rnd.choice(words(tag, language)), tag


def best(cards, clue, rnd: random.Random):
    """The card that fits the clue best (most of its tags named), ties by chance; None when
    no card fits (the caller then picks at random)."""
    named = clue_tags(clue)
    if not named:
        return None
    scored = [(len(named & tags(c)), c) for c in cards]
    top = max((s for s, _ in scored), default=0)
    if top == 0:
        return None
    return rnd.choice([c for s, c in scored if s == top])
