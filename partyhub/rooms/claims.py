"""Who may get in: claims of a disconnected seat, and the names of kicked players.

A seat changes hands only with the VIP's or the TV's approval. Two people ask for one:
- a *new browser* that knows the seat's name (a player who lost their browser storage):
  `POST /api/rooms/<code>/claim {"name"}`, in the lobby or during a game;
- a *spectator* (someone who joined while a game ran): `{"type": "take_seat", "player"}`,
  for a disconnected or kicked seat of the game, when the host's `takeover` setting is on.

A claim is a small dict in `room.claims` (the room row), so it is decided, saved and published
like everything else in the room:

    {"id": hex, "player": the claimed seat, "seat": its name, "name": who asks (the name
     typed, or the spectator's name), "by": the asking spectator's player id or None,
     "token_hash": the new browser's token, hashed (new browsers only), "expires": wall ms}

The new browser's token is made when it asks and given to it alone; until the claim is
approved it opens nothing but the audience view (`selectors.actor_for`). Approval makes it the
seat's token (the old one is refused from then on), as a spectator's own token becomes the
seat's token. So no token of the seat is ever handed out, and no token crosses the channel
layer. `public` is what views show: never the token hash.

Whether a claim still stands is one function, `problem`; every write that may change the
answer (a seat connects, a room action, the room's timer: `clock.due_at` includes the first
expiry) calls `prune`, which drops the claims that no longer stand and says whom to tell.
"""
from __future__ import annotations

import secrets

from django.conf import settings

from partyhub.rooms import seating, store
from partyhub.rooms.errors import fail

BARRED_MAX = 32          # the last kicked names kept barred (older ones may join again)
PUBLIC = ("id", "player", "seat", "name", "by", "expires")


def _limit(name: str):
    return settings.PARTYHUB_LIMITS[name]


def pending(room) -> list:
    return list(room.claims or [])


def public(room) -> list:
    """The claims as every view shows them: who asks for which seat, until when."""
    return [{k: c.get(k) for k in PUBLIC} for c in pending(room)]


def actions(room) -> list:
    """The TV's and the VIP's answers to the pending claims."""
    return [{"type": kind, "claim": c["id"]} for c in pending(room)
            for kind in ("approve_claim", "deny_claim")]


def key(claim: dict) -> str:
    """Whom to tell about a claim (the control-message key of its sockets): the spectator's
    seat, or the new browser's socket (`selectors.Actor.key`)."""
    return claim["by"] or browser_key(claim["id"])


def browser_key(claim_id: str) -> str:
    return f"claim:{claim_id}"


def by_token(room, digest: str, now: int) -> dict | None:
    """The pending claim a new browser's token (hashed) stands for, if it has not expired."""
    return next((c for c in pending(room)
                 if c.get("token_hash") == digest and c["expires"] > now), None)


# ---------------------------------------------------------------- whether a claim stands

def problem(room, seats, claim: dict, now: int) -> str | None:
    """None while the claim stands; else why not: "expired", or "dropped" (the owner came
    back, the seat or the spectator is gone, the game it was about has ended). `seats`: the
    room's live seats."""
    if claim["expires"] <= now:
        return "expired"
    by_id = {s.player_id: s for s in seats}
    target = by_id.get(claim["player"])
    if target is not None and target.connected:
        return "dropped"
    if claim["by"] is None:
        return None if target is not None else "dropped"
    asker = by_id.get(claim["by"])
    if asker is None or asker.playing:
        return "dropped"
    if room.phase == "lobby" or claim["player"] not in room.game_seats:
        return "dropped"
    return None


def prune(room, seats, now: int) -> list:
    """Drop the claims that no longer stand; returns the effects that tell their askers."""
    keep, effects = [], []
    for claim in pending(room):
        reason = problem(room, seats, claim, now)
        if reason is None:
            keep.append(claim)
        else:
            effects.append(_ended(claim, reason))
    if len(keep) != len(pending(room)):
        room.claims = keep
    return effects


def _ended(claim: dict, state: str) -> tuple:
    return ("claim_ended", key(claim), claim["id"], state)


# ---------------------------------------------------------------- asking

def ask_by_name(room, seats, name: str, now: int) -> tuple[dict, str]:
    """A new browser asks for the disconnected seat named `name`; returns (claim, token).
    `seats`: every seat of the room, kicked ones too."""
    name_key = seating.name_key(name)
    if is_barred(room, name_key):
        raise fail("name_kicked")
    target = next((s for s in seats if not s.kicked and s.name_key == name_key), None)
    if target is None:
        raise fail("not_claimable")
    if target.connected:
        raise fail("seat_taken")
    token = seating.new_token()
    claim = _add(room, {"player": target.player_id, "seat": target.name, "name": name, "by": None,
                        "token_hash": seating.token_hash(token)}, now)
    return claim, token


def ask_as_spectator(room, seats, me, player_id, now: int) -> dict:
    """A spectator asks for a disconnected (or kicked) seat of the game; a new ask replaces
    its earlier one. `seats`: every seat of the room."""
    if me is None or me.playing:
        raise fail("not_allowed", "Join the room by name first, then ask for a free seat.")
    if not room.settings.get("takeover"):
        raise fail("takeover_off")
    target = next((s for s in seats if s.player_id == player_id), None)
    if target is None or room.phase == "lobby" or player_id not in room.game_seats:
        raise fail("unknown_player")
    if target.connected and not target.kicked:
        raise fail("seat_taken")
    room.claims = [c for c in pending(room) if c["by"] != me.player_id]
    return _add(room, {"player": target.player_id, "seat": target.name, "name": me.name,
                       "by": me.player_id}, now)


def _add(room, claim: dict, now: int) -> dict:
    claims = pending(room)
    if len(claims) >= _limit("claims_per_room"):
        raise fail("claims_full")
    claim = {"id": secrets.token_hex(4), **claim,
             "expires": now + int(_limit("claim_seconds") * 1000)}
    room.claims = claims + [claim]
    store.append(room, "claim_asked", "", {k: claim[k] for k in ("player", "name", "by")}, now)
    return claim


# ---------------------------------------------------------------- answering

def approve(room, claim_id, now: int) -> list:
    """The seat moves to whoever asked; returns the effects (the asker gets the seat's new
    token: its own; the other askers of the seat are told it is gone)."""
    claim = _standing(room, claim_id, now)
    target = next(s for s in store.all_seats(room) if s.player_id == claim["player"])
    if claim["by"] is None:
        target.token_hash = claim["token_hash"]
    else:
        me = next(s for s in store.live_seats(room) if s.player_id == claim["by"])
        target.token_hash, target.name, target.name_key = me.token_hash, me.name, me.name_key
        store.delete_seat(me)
    target.kicked, target.bot, target.connected, target.channel = False, False, False, ""
    store.save_seat(target, ("token_hash", "name", "name_key", "kicked", "bot", "connected", "channel"))
    others = [c for c in pending(room) if c["player"] == claim["player"] and c is not claim]
    room.claims = [c for c in pending(room) if c["player"] != claim["player"]]
    store.append(room, "seat_claimed", "", {"player": target.player_id, "name": target.name}, now)
    seating.ensure_vip(room, store.live_seats(room))
    return [("moved", key(claim), target.player_id)] + [_ended(c, "dropped") for c in others]


def deny(room, claim_id, now: int) -> list:
    claim = _standing(room, claim_id, now)
    room.claims = [c for c in pending(room) if c is not claim]
    store.append(room, "claim_denied", "", {"player": claim["player"], "name": claim["name"]}, now)
    return [_ended(claim, "denied")]


def _standing(room, claim_id, now: int) -> dict:
    claim = next((c for c in pending(room) if c["id"] == claim_id), None)
    if claim is None or problem(room, store.live_seats(room), claim, now) is not None:
        raise fail("unknown_claim")
    return claim


# ---------------------------------------------------------------- kicked names

def is_barred(room, name_key: str) -> bool:
    return any(seating.name_key(n) == name_key for n in room.barred or [])


def bar(room, name: str) -> None:
    """A kicked player's name may not join again until the host lets it back in."""
    if not is_barred(room, seating.name_key(name)):
        room.barred = (list(room.barred or []) + [name])[-BARRED_MAX:]


def unbar(room, name) -> None:
    if not isinstance(name, str) or not is_barred(room, seating.name_key(name)):
        raise fail("unknown_player", "That name is not barred from this room.")
    room.barred = [n for n in room.barred if seating.name_key(n) != seating.name_key(name)]


def unbar_actions(room) -> list:
    return [{"type": "unban", "name": n} for n in room.barred or []]
