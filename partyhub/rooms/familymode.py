"""Family mode in a room (docs/decisions.md, "Family mode"): the room setting `family` (on
for new rooms) refuses names, clues, guesses and custom words that hit the deny lists
(partyhub/family) with `not_family_friendly`; and the host's `hide` hides a player's name
or a text from every view, whatever the setting.

Which fields are free text comes from the actions' declarations (a `text` field, gamekit)
and the games' options (`Option(text=True)`), so a new game is covered without code here.
"""
from __future__ import annotations

from django.conf import settings

from partyhub import family
from partyhub.family.redact import HIDDEN_MAX, PLACEHOLDER, key, redact  # noqa: F401 (used here and by callers)
from partyhub.rooms import registry, seating, store
from partyhub.rooms.errors import fail

PLAYER_LABEL = {"en": "Player", "uk": "Гравець", "ru": "Игрок"}


def on(room) -> bool:
    return bool((room.settings or {}).get("family"))


def check(room, text) -> None:
    """Refuse `text` (not_family_friendly) when the room is in family mode and it is not fit."""
    if on(room) and isinstance(text, str) and family.refused(text, settings.PARTYHUB_DENY_WORDS_FILE):
        raise fail(family.ERROR)


def check_action(room, d: dict) -> None:
    """Every free-text field of a game action (declared `text`)."""
    if not on(room):
        return
    fields = registry.declared(d.get("type")) or {}
    for name, f in fields.items():
        if f.kind == "text":
            check(room, d.get(name))


def check_options(room, game, options: dict) -> None:
    """Every free-text option of a game (a custom word list), one line at a time."""
    if not on(room):
        return
    for name, opt in game.options.items():
        if opt.text and isinstance(options.get(name), str):
            check(room, options[name])


# ---------------------------------------------------------------- hide

def hide(room, seats, actor, d, now):
    """The host hides a player's name (the seat is renamed "Player n": its name is gone from
    the room) or a text (kept out of every view from now on: PLACEHOLDER)."""
    if actor.role != "tv":
        raise fail("not_allowed", "Only the TV (the host) can do that.")
    player, text = d.get("player"), d.get("text")
    if (player is None) == (text is None):
        raise fail("bad_action", "hide takes a player or a text")
    if player is not None:
        seat = next((s for s in seats if s.player_id == player), None)
        if seat is None:
            raise fail("unknown_player")
        _rename(room, seats, seat)
        store.append(room, "name_hidden", "", {"player": seat.player_id}, now)
        return []
    hidden = list((room.settings or {}).get("hidden") or [])
    if not key(text):
        raise fail("bad_action", "hide: the text is empty")
    if key(text) not in hidden:
        if len(hidden) >= HIDDEN_MAX:
            raise fail("bad_action", f"at most {HIDDEN_MAX} texts can be hidden in a room")
        hidden.append(key(text))
    room.settings = {**room.settings, "hidden": hidden}
    store.append(room, "text_hidden", "", {}, now)
    return []


def _rename(room, seats, seat) -> None:
    label = PLAYER_LABEL.get(room.language, PLAYER_LABEL["en"])
    taken = {s.name_key for s in seats if s.pk != seat.pk}
    n = seat.order + 1
    while seating.name_key(f"{label} {n}") in taken:
        n += 1
    seat.name = f"{label} {n}"
    seat.name_key = seating.name_key(seat.name)
    store.save_seat(seat, ("name", "name_key"))


def hidden(room) -> frozenset:
    return frozenset((room.settings or {}).get("hidden") or ())
