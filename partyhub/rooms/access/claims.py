"""Who may get in: claims of a seat, hand-overs, and the names of kicked players.

A seat changes hands only on the TV, where everyone sees it (docs/decisions.md, "A seat
changes hands only where everyone can see it"). Three people ask for one:
- a *new browser* that knows the seat's name (a player who lost their browser storage):
  `POST /api/rooms/<code>/claim {"name"}`, for a disconnected seat, in the lobby or a game;
- a *spectator* (someone who joined while a game ran): `{"type": "take_seat", "player"}`,
  for a disconnected or kicked seat of the game, when the host's `takeover` setting is on;
- the *phone that lost the seat* to a hand-over: `POST /claim {"token": its old token}`,
  whether the seat's new phone is connected or not (`back`): the TV decides again.
Only the TV answers (`approve_claim`, `deny_claim`); no phone does, not even the VIP's: a VIP
who approved from their seat a claim they made from a second browser would hold a sleeping
player's seat and hand. With no TV connected a claim waits until it expires.

A claim is a small dict in `room.claims` (the room row), so it is decided, saved and published
like everything else in the room:

    {"id": hex, "player": the claimed seat, "seat": its name, "name": who asks (the name
     typed, or the spectator's name), "by": the asking spectator's player id or None,
     "token_hash": the asker's new token, hashed (not a spectator's), "addr": the asking
     address's key (asked over HTTP), "back": true for the phone that lost the seat,
     "expires": wall ms}

At most one claim waits per seat and one per address (`claim_pending_seat`,
`claim_pending_address`), and `claims_per_room` in all (`claims_full`).

The new token is made when it asks and given to the asker alone; until the claim is approved
it opens nothing but the audience view (`selectors.actor_for`). Approval makes it the seat's
token (the old one is refused from then on), as a spectator's own token becomes the seat's
token. So no token of the seat is ever handed out, and no token crosses the channel layer.
`public` is what views show: never the token hash or the address.

Every approval is a hand-over, kept in `room.handed` (the last HANDED_MAX), written to the
event log (`seat_claimed`, with `"approved": "tv"`) and shown in every view
(`room.handovers`: the TV announces it): {"hash": the token hash of the phone that lost the
seat ("" for a kicked seat's), "player", "seat": its name before, "name": its name now,
"kind": "new_phone" | "spectator" | "old_phone", "at": wall ms}. The phone that lost it is
told (`handed` frame) now if connected, else when its token comes back.

Whether a claim still stands is one function, `problem`; every write that may change the
answer (a seat connects, a room action, the room's timer: `clock.due_at` includes the first
expiry) calls `prune`, which drops the claims that no longer stand and says whom to tell.
"""
from __future__ import annotations

import secrets

from django.conf import settings
from django.utils.crypto import salted_hmac

from partyhub.rooms.core import seating
from partyhub.rooms.core.errors import fail
from partyhub.rooms.core.pending import append
from partyhub.rooms.store import store
from partyhub.rooms.timers import vip

BARRED_MAX = 32          # the last kicked names kept barred (older ones may join again)
HANDED_MAX = 16          # the last hand-overs kept (their phones may ask back; older ones not)
HANDOVERS_SHOWN = 3      # the newest hand-overs every view shows
PUBLIC = ("id", "player", "seat", "name", "by", "expires")
HANDOVER = ("player", "seat", "name", "kind", "at")
APPROVED = "tv"          # who approves a hand-over: the TV, where everyone sees it


def _limit(name: str):
    return settings.PARTYHUB_LIMITS[name]


def pending(room) -> list:
    return list(room.claims or [])


def public(room) -> list:
    """The claims as every view shows them: who asks for which seat, until when, and whether
    it is the phone that lost the seat asking it back."""
    return [{**{k: c.get(k) for k in PUBLIC}, "back": bool(c.get("back"))} for c in pending(room)]


def handovers(room) -> list:
    """The newest hand-overs as every view shows them (never the token hash)."""
    return [handover(h) for h in (room.handed or [])[-HANDOVERS_SHOWN:]]


def handover(record: dict) -> dict:
    return {**{k: record.get(k) for k in HANDOVER}, "approved": APPROVED}


def handed_from(room, digest: str) -> dict | None:
    """The newest hand-over that took a seat from the phone of this token (hashed), if any."""
    return next((h for h in reversed(room.handed or []) if h.get("hash") == digest), None)


def actions(room) -> list:
    """The TV's answers to the pending claims (no phone answers one)."""
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
    if target is not None and target.connected and not claim.get("back"):
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

def ask_by_name(room, seats, name: str, now: int, address: str | None = None) -> tuple[dict, str]:
    """A new browser asks for the disconnected seat named `name`; returns (claim, token).
    `seats`: every seat of the room, kicked ones too; `address`: where it asks from."""
    if is_barred(room, name):
        raise fail("name_kicked")
    target = next((s for s in seats if not s.kicked and seating.same_name(s.name, name)), None)
    if target is None:
        raise fail("not_claimable")
    if target.connected:
        raise fail("seat_taken")
    token = seating.new_token()
    claim = _add(room, {"player": target.player_id, "seat": target.name, "name": name, "by": None,
                        "token_hash": seating.token_hash(token)}, now, address)
    return claim, token


def ask_back(room, seats, digest: str, now: int, address: str | None = None) -> tuple[dict, str]:
    """The phone that lost its seat to a hand-over (its old token, hashed) asks for it back;
    returns (claim, token). The seat may be connected: its new phone keeps it unless the TV
    approves. `seats`: the room's live seats."""
    record = handed_from(room, digest)
    target = next((s for s in seats if record and s.player_id == record["player"]), None)
    if target is None:
        raise fail("not_claimable", "That phone lost no seat in this room, or the seat is gone.")
    token = seating.new_token()
    claim = _add(room, {"player": target.player_id, "seat": target.name, "name": record["seat"],
                        "by": None, "token_hash": seating.token_hash(token), "back": True},
                 now, address)
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


def _add(room, claim: dict, now: int, address: str | None = None) -> dict:
    """A new claim, unless one waits for its seat already, or one asked from its address
    (`address`: None for a spectator, who asks from a seat of its own), or the room has its
    fill of them."""
    claims = pending(room)
    addr = address_key(address) if address is not None else None
    if any(c["player"] == claim["player"] for c in claims):
        raise fail("claim_pending_seat")
    if addr is not None and any(c.get("addr") == addr for c in claims):
        raise fail("claim_pending_address")
    if len(claims) >= _limit("claims_per_room"):
        raise fail("claims_full")
    claim = {"id": secrets.token_hex(4), **claim, **({"addr": addr} if addr else {}),
             "expires": now + int(_limit("claim_seconds") * 1000)}
    room.claims = claims + [claim]
    append(room, "claim_asked", "", {k: claim[k] for k in ("player", "name", "by")}, now)
    return claim


def address_key(address: str) -> str:
    """What a claim keeps of the address it was asked from: a keyed hash (the room row holds
    no address)."""
    return salted_hmac("partyhub.rooms.access.claims", address).hexdigest()[:20]


# ---------------------------------------------------------------- answering

def approve(room, claim_id, now: int) -> list:
    """The seat moves to whoever asked (the TV approved); returns the effects: the phone that
    had the seat is told it was handed (`handed`), the asker gets the seat's new token (its
    own), the other askers of the seat are told it is gone."""
    claim = _standing(room, claim_id, now)
    target = next(s for s in store.seats(room, kicked=True) if s.player_id == claim["player"])
    was, old_hash, kicked = target.name, target.token_hash, target.kicked
    if claim["by"] is None:
        target.token_hash = claim["token_hash"]
    else:
        me = next(s for s in store.seats(room, fresh=True) if s.player_id == claim["by"])
        target.token_hash, target.name, target.name_key = me.token_hash, me.name, me.name_key
        store.put("seat", me, delete=True)
    target.kicked, target.bot, target.connected, target.channel = False, False, False, ""
    store.put("seat", target, ("token_hash", "name", "name_key", "kicked", "bot", "connected", "channel"))
    others = [c for c in pending(room) if c["player"] == claim["player"] and c is not claim]
    room.claims = [c for c in pending(room) if c["player"] != claim["player"]]
    kind = "spectator" if claim["by"] else "old_phone" if claim.get("back") else "new_phone"
    record = {"hash": "" if kicked else old_hash, "player": target.player_id, "seat": was,
              "name": target.name, "kind": kind, "at": now}
    room.handed = (list(room.handed or []) + [record])[-HANDED_MAX:]
    append(room, "seat_claimed", "", {"player": target.player_id, "name": target.name,
                                            "seat": was, "kind": kind, "approved": APPROVED}, now)
    vip.ensure(room, store.seats(room, fresh=True), now)
    told = [] if kicked else [("handed", target.player_id, handover(record))]
    return told + [("moved", key(claim), target.player_id)] + [_ended(c, "dropped") for c in others]


def deny(room, claim_id, now: int) -> list:
    claim = _standing(room, claim_id, now)
    room.claims = [c for c in pending(room) if c is not claim]
    append(room, "claim_denied", "", {"player": claim["player"], "name": claim["name"]}, now)
    return [_ended(claim, "denied")]


def _standing(room, claim_id, now: int) -> dict:
    claim = next((c for c in pending(room) if c["id"] == claim_id), None)
    if claim is None or problem(room, store.seats(room, fresh=True), claim, now) is not None:
        raise fail("unknown_claim")
    return claim


# ---------------------------------------------------------------- kicked names

def is_barred(room, name: str) -> bool:
    return any(seating.same_name(n, name) for n in room.barred or [])


def bar(room, name: str) -> None:
    """A kicked player's name may not join again until the host lets it back in."""
    if not is_barred(room, name):
        room.barred = (list(room.barred or []) + [name])[-BARRED_MAX:]


def unbar(room, name) -> None:
    if not isinstance(name, str) or not is_barred(room, name):
        raise fail("unknown_player", "That name is not barred from this room.")
    room.barred = [n for n in room.barred if not seating.same_name(n, name)]


def unbar_actions(room) -> list:
    return [{"type": "unban", "name": n} for n in room.barred or []]


def check_name(room, live, name: str) -> None:
    """A kicked name is refused (until the host lets it back in); a name in use is taken, and
    `claimable` when its seat is disconnected (POST /claim asks for it). Names that look the
    same are one name (seating.same_name)."""
    if is_barred(room, name):
        raise fail("name_kicked")
    seat = next((s for s in live if seating.same_name(s.name, name)), None)
    if seat is not None:
        raise fail("name_taken", claimable=not seat.connected)
