"""The VIP: the one human player who runs the room from a phone (start, pause, kick, ...).

The one place for who the VIP is (`is_vip`), who it should be (`ensure`) and when the crown
of a phone that went away passes on (`due`):

- Only a seated human player may be the VIP (seating.may_run_room): never a spectator, never
  a bot. With no human player seated there is none, and the TV runs the room.
- A VIP whose phone is away (a reload, a locked screen, a walk to the kitchen) keeps the crown
  for the room's grace, as Jackbox does: the host's `vip_grace` seconds, else
  PARTYHUB_VIP_GRACE_SECONDS (60). It counts from when the seat's last socket closed
  (`Room.away`, which the stand-in keeps too; after a restart from the restart at the
  earliest, as the stand-in's delay does). Then the crown passes to the next connected human
  player in seat order; at once when the VIP leaves for good (kicked). With no other human
  player connected it stays where it is.
- The grace's end is part of the room's due time (clock.due_at), so the timekeeper passes the
  crown through the write path (services.room_tick) even when nobody acts.
- When the crown passes from a seat that had it, `Room.vip_passed` says from whom, to whom and
  why: the TV says so.
"""
from __future__ import annotations

from django.conf import settings

from partyhub.rooms.core import seating
from partyhub.rooms.timers import standin


def grace_ms(room) -> int:
    """How long the VIP's phone may be away before the crown passes (wall ms)."""
    seconds = (room.settings or {}).get("vip_grace")
    if not valid_seconds(seconds):
        seconds = settings.PARTYHUB_VIP_GRACE_SECONDS
    return max(0, int(seconds)) * 1000


def valid_seconds(value) -> bool:
    """A host's `vip_grace`: whole seconds from 0 (pass at once) to standin.MAX_SECONDS."""
    return standin.valid_seconds(value)


def is_vip(room, seat) -> bool:
    """Whether the seat is the room's VIP (and may be: a seated human player)."""
    return seating.may_run_room(seat) and seat.player_id == room.vip


def present(room, seats) -> bool:
    """Whether the VIP's phone is connected now. While it is not, the TV may also do what only
    the VIP's phone does (pacing.advance)."""
    return any(s.connected and is_vip(room, s) for s in seats)


def _grace_ends(room, seat) -> int | None:
    """When the crown of a VIP whose phone is away passes (wall ms); None when the phone is
    connected, or never was (no away entry: nothing to wait for)."""
    entry = None if seat.connected else (room.away or {}).get(seat.player_id)
    if entry is None:
        return None
    return max(entry["since"], standin.STARTED) + grace_ms(room)


def _others_connected(seats, current) -> bool:
    return any(s.connected and seating.may_run_room(s) for s in seats if s is not current)


def ensure(room, seats, now: int, left=None) -> None:
    """Crown the right seat among `seats` (the room's live seats) at wall time `now`: the VIP
    keeps it while connected, within the grace, or while no other human player is connected;
    else the next connected human player in seat order gets it. `left`: the seat that just
    left the room for good (kicked), for `vip_passed` to name."""
    players = [s for s in seats if seating.may_run_room(s)]
    current = next((s for s in players if s.player_id == room.vip), None)
    if current is not None:
        if current.connected or not _others_connected(players, current):
            return
        ends = _grace_ends(room, current)
        if ends is not None and now < ends:
            return
    start = current.order if current else (left.order if left is not None else -1)
    ring = sorted(players, key=lambda s: (s.order <= start, s.order))
    nxt = next((s for s in ring if s.connected), None) or (ring[0] if ring else None)
    new = nxt.player_id if nxt else ""
    was = current if current is not None else (left if left is not None and left.player_id == room.vip else None)
    if was is not None and new != was.player_id:
        room.vip_passed = {"from": was.player_id, "name": was.name, "to": new or None,
                           "why": "away" if was is current else "left", "at": now}
    room.vip = new


def due(room, seats) -> int | None:
    """When the timekeeper must pass the crown of a VIP whose phone is away (wall ms), or None:
    the VIP is connected, or nobody could take the crown."""
    current = next((s for s in seats if is_vip(room, s)), None)
    if current is None or current.connected or not _others_connected(seats, current):
        return None
    return _grace_ends(room, current)
