"""The store on the database (SQLite or PostgreSQL): the backend of store.py's verbs, its hot
statements in rows.py. Only store.py calls it (through store.BACKEND)."""
from __future__ import annotations

from types import SimpleNamespace

from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, OuterRef, Q, Sum

from partyhub.rooms.core.wall import wall_ms
from partyhub.rooms.models import (Event, Keepsake, KeepsakeLink, KeepsakePicture, Room, Seat,
                                   StreamItem)
from partyhub.rooms.store import rows

DUE_BATCH = 200     # due rooms fired per timekeeper pass
KEEPSAKES = 8   # a room's gallery keeps its last eight finished games (partyhub/keepsakes/)


class Named:
    """The backends' named reads (`find` -> `q_<query>`) and writes (`put` -> `p_<what>`)."""

    def find(self, query: str, *args):
        return getattr(self, "q_" + query)(*args)

    def put(self, what: str, *args, **kw):
        return getattr(self, "p_" + what)(*args, **kw)


class SqlStore(Named):
    """Rows in the database; a decision's room is locked until its transaction (`atomic`) ends."""

    def atomic(self):
        return transaction.atomic()

    def on_commit(self, fn) -> None:
        transaction.on_commit(fn)

    def unlocked_writes(self) -> bool:
        return rows.unlocked_writes()

    def load(self, code: str, how: str) -> Room | None:
        if how == "read":
            return rows.read_room(code)
        return rows.lock_room(code, skip_locked=how == "skip")

    def thaw(self, frozen) -> Room:
        return rows.thaw(frozen)

    def fits(self, frozen) -> bool:
        return rows.fits(frozen)

    def create(self, room: Room) -> bool:
        try:
            with transaction.atomic():
                room.save(force_insert=True)
        except IntegrityError:
            return False
        return True

    def save(self, room: Room, events: list, expected: int | None):
        """The row and its events: the frozen row written, or None (a conditional write lost).
        An event goes to the statement as its columns' values (no Event instance to build)."""
        return rows.save_room(room, [SimpleNamespace(room_id=room.pk, **ev) for ev in events], expected)

    def keep(self, room: Room, keepsake: tuple) -> None:
        data, at = keepsake
        Keepsake.objects.update_or_create(room_id=room.pk, game_no=room.game_no,
                                          defaults={"game": room.game_id, "at": at, "data": data})
        old = list(Keepsake.objects.filter(room_id=room.pk).order_by("-game_no")
                   .values_list("pk", flat=True)[KEEPSAKES:])
        if old:
            Keepsake.objects.filter(pk__in=old).delete()

    def drop_items(self, room: Room, up_to: int) -> None:
        StreamItem.objects.filter(room=room, id__lte=up_to).delete()

    def add_items(self, items: list) -> None:
        rows.insert_stream_items(items)

    def seats(self, room: Room, kicked: bool) -> list:
        return rows.all_seats(room) if kicked else rows.live_seats(room)

    def p_seat(self, seat: Seat, names: tuple = (), delete: bool = False) -> None:
        if delete:
            Seat.objects.filter(pk=seat.pk).delete()
        elif seat.pk is None:
            rows.insert_seat(seat)
        else:
            rows.save_seat(seat, tuple(names))

    def p_touch(self, codes, now: int | None = None) -> int:
        now = wall_ms() if now is None else now
        return Room.objects.filter(code__in=list(codes), closed_at__isnull=True).update(active_at=now)

    # ------------------------------------------------------------ the named reads (find)

    def q_held(self, codes) -> set:
        return set(Room.objects.filter(code__in=list(codes)).values_list("code", flat=True))

    def q_versions(self, codes) -> dict:
        return dict(Room.objects.filter(code__in=list(codes)).values_list("code", "version"))

    def q_stream_items(self, room: Room) -> list:
        return rows.stream_items(room)

    def q_events(self, room: Room, game_no: int) -> list:
        return list(Event.objects.filter(room=room, game_no=game_no).order_by("id"))

    def q_host(self, token_hash: str) -> str | None:
        room = (Room.objects.filter(host_token_hash=token_hash)
                .only("host_key_hash", "host_token_hash").first())
        return None if room is None else room.host

    def q_live(self) -> dict:
        rows = (Room.objects.filter(seats__connected=True).values("phase", "game_id")
                .annotate(n=Count("id", distinct=True)).order_by())
        return {(row["phase"], row["game_id"]): row["n"] for row in rows}

    def q_due(self, now: int) -> list:
        return rows.due_codes(now, DUE_BATCH)

    def q_idle(self, before: int, empty_before: int, limit: int | None) -> list:
        seated = Seat.objects.filter(room=OuterRef("pk"), kicked=False)
        qs = (Room.objects.filter(closed_at__isnull=True, active_at__lt=empty_before)
              .filter(Q(active_at__lt=before) | ~Exists(seated))
              .order_by("active_at").values_list("code", flat=True))
        return list(qs if limit is None else qs[:limit])

    def q_closed(self, before: int, empty_before: int, limit: int | None) -> list:
        ever_seated = Seat.objects.filter(room=OuterRef("pk"))
        qs = (Room.objects.filter(closed_at__lt=empty_before)
              .filter(Q(closed_at__lt=before) | ~Exists(ever_seated))
              .order_by("closed_at").values_list("id", flat=True))
        return list(qs if limit is None else qs[:limit])

    def q_held_rows(self, room_id: int) -> tuple:
        """(seats, events, stream items, keepsakes) a room holds."""
        return tuple(model.objects.filter(room_id=room_id).count()
                     for model in (Seat, Event, StreamItem, Keepsake))

    def q_keepsakes(self, room: Room) -> list:
        return list(Keepsake.objects.filter(room=room).order_by("-game_no"))

    def q_link(self, room: Room) -> str | None:
        return KeepsakeLink.objects.filter(room=room).values_list("key_hash", flat=True).first()

    def q_picture(self, room: Room, game_no: int, n: int, kind: str) -> bytes | None:
        row = (KeepsakePicture.objects.filter(keepsake__room=room, keepsake__game_no=game_no, n=n, kind=kind)
               .values_list("data", flat=True).first())
        return None if row is None else bytes(row)

    # ------------------------------------------------------------ the named writes (put)

    def p_link(self, room: Room, key_hash: str | None, at: int) -> int:
        if key_hash is None:
            return KeepsakeLink.objects.filter(room=room).delete()[0]
        KeepsakeLink.objects.update_or_create(room=room, defaults={"key_hash": key_hash, "created_at": at})
        return 1

    def p_picture(self, keepsake: Keepsake, n: int, kind: str, data: bytes, bound: int) -> bool:
        held = (KeepsakePicture.objects.filter(keepsake__room_id=keepsake.room_id)
                .aggregate(total=Sum("size"))["total"] or 0)
        if held + len(data) > bound:
            return False
        try:
            with transaction.atomic():
                KeepsakePicture.objects.create(keepsake=keepsake, n=n, kind=kind, size=len(data), data=data)
        except IntegrityError:      # another process kept it first, or the keepsake went meanwhile
            return False
        return True

    # ------------------------------------------------------------ purging

    def p_wipe(self, room_id: int, may) -> tuple | None:
        """Delete a room and everything of it in one transaction, if `may(room, seated,
        connected)` says so under its lock: (code, seats, events, stream items, keepsakes)
        deleted; None when it may not, or another transaction holds it."""
        with transaction.atomic():
            room = Room.objects.select_for_update(skip_locked=True).filter(pk=room_id).first()
            if room is None:
                return None
            seated = Seat.objects.filter(room_id=room_id).exists()
            if not may(room, seated, Seat.objects.filter(room_id=room_id, connected=True).exists()):
                return None
            KeepsakePicture.objects.filter(keepsake__room_id=room_id).delete()   # counted with none
            gone = tuple(model.objects.filter(room_id=room_id).delete()[0]
                         for model in (Seat, Event, StreamItem, Keepsake))
            KeepsakeLink.objects.filter(room_id=room_id).delete()
            Room.objects.filter(pk=room_id).delete()
        return (room.code,) + gone
