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
from partyhub.family.redact import HIDDEN_MAX, PLACEHOLDER, hidden_keys, redact, shown  # noqa: F401 (used here and by callers)
from partyhub.rooms.access import portraits
from partyhub.rooms.core import pending, seating
from partyhub.rooms.core.errors import fail
from partyhub.rooms.gateway import registry
from partyhub.rooms.store import store

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
    the room, and is a hidden text from now on, as the audience's tallies and results may
    hold it) or a text (kept out of every view from now on: PLACEHOLDER), or a player's
    portrait (gone from every view; the seat may take a ready-made face only: portraits.py)."""
    if actor.role != "tv":
        raise fail("not_allowed", "Only the TV (the host) can do that.")
    player, text, face = d.get("player"), d.get("text"), d.get("portrait")
    if sum(x is not None for x in (player, text, face)) != 1:
        raise fail("bad_action", "hide takes a player, a text or a portrait")
    if face is not None:
        seat = next((s for s in seats if s.player_id == face), None)
        if seat is None:
            raise fail("unknown_player")
        portraits.hide(seat)
        pending.append(room, "portrait_hidden", "", {"player": seat.player_id}, now)
        return []
    if player is not None:
        seat = next((s for s in seats if s.player_id == player), None)
        if seat is None:
            raise fail("unknown_player")
        was = shown(seat.name)
        _rename(room, seats, seat)
        hidden = list((room.settings or {}).get("hidden") or [])
        if not hidden_keys([was]) & hidden_keys(hidden) and len(hidden) < HIDDEN_MAX:  # the old name, kept by audience votes
            room.settings = {**room.settings, "hidden": hidden + [was]}
        pending.append(room, "name_hidden", "", {"player": seat.player_id}, now)
        return []
    hidden = list((room.settings or {}).get("hidden") or [])
    text = shown(text)
    if not text:
        raise fail("bad_action", "hide: the text is empty")
    if not hidden_keys([text]) & hidden_keys(hidden):
        if len(hidden) >= HIDDEN_MAX:
            raise fail("bad_action", f"at most {HIDDEN_MAX} texts can be hidden in a room")
        hidden.append(text)
    room.settings = {**room.settings, "hidden": hidden}
    pending.append(room, "text_hidden", "", {}, now)
    return []


def _rename(room, seats, seat) -> None:
    label = PLAYER_LABEL.get(room.language, PLAYER_LABEL["en"])
    taken = [s.name for s in seats if s.pk != seat.pk]
    n = seat.order + 1
    while any(seating.same_name(f"{label} {n}", t) for t in taken):
        n += 1
    seat.name = f"{label} {n}"
    seat.name_key = seating.name_key(seat.name)
    store.put("seat", seat, ("name", "name_key"))


def hidden(room) -> frozenset:
    """The keys of the texts the host hid (redact compares with them)."""
    return hidden_keys((room.settings or {}).get("hidden") or ())
