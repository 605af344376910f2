"""The store in memory: the same backend verbs as sql.py over plain dicts, for the ladder's own
tests (tests/rooms/write), which run against both (as boardgame.io tests its master against
an in-memory storage). One process, one thread: a room's "lock" is the transaction itself,
and a transaction (`atomic`) that raises puts every row back as it found it."""
from __future__ import annotations

import copy
import itertools
from contextlib import contextmanager
from datetime import datetime, timezone

from partyhub.rooms.core.wall import wall_ms
from partyhub.rooms.models import Event, Keepsake, Room, Seat
from partyhub.rooms.store.sql import DUE_BATCH, KEEPSAKES, Named


def _values(instance) -> dict:
    return copy.deepcopy({f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields})


def _instance(model, values: dict):
    values = copy.deepcopy(values)
    return model.from_db("default", list(values), list(values.values()))


class MemoryStore(Named):
    """Rooms, seats, events, stream items and keepsakes as dicts of column values."""

    def __init__(self):
        self.rooms: dict = {}        # pk -> {attname: value}
        self.seat_rows: dict = {}    # pk -> {attname: value}
        self.events: list = []       # {attname: value}, in order
        self.items: list = []        # (id, room pk, game no, seat, data), in order
        self.keepsakes: dict = {}    # (room pk, game no) -> {"game", "at", "data"}
        self.links: dict = {}        # room pk -> key hash
        self.pictures: dict = {}     # (room pk, game no, n, kind) -> bytes
        self._ids = itertools.count(1)
        self._depth, self._after = 0, []     # open transactions; what waits for their commit

    # ------------------------------------------------------------ transactions

    def _state(self) -> tuple:
        return (self.rooms, self.seat_rows, self.events, self.items, self.keepsakes, self.links,
                self.pictures)

    @contextmanager
    def atomic(self):
        saved, after = copy.deepcopy(self._state()), len(self._after)
        self._depth += 1
        try:
            yield
        except BaseException:
            (self.rooms, self.seat_rows, self.events, self.items, self.keepsakes, self.links,
             self.pictures) = saved
            del self._after[after:]        # what this block asked for after a commit: never
            raise
        finally:
            self._depth -= 1
        if self._depth == 0:               # the outermost block committed
            done, self._after = self._after, []
            for fn in done:
                fn()

    def on_commit(self, fn) -> None:
        """As Django's: after the outermost transaction commits; at once outside one."""
        if self._depth:
            self._after.append(fn)
        else:
            fn()

    def unlocked_writes(self) -> bool:
        return False

    def fits(self, frozen) -> bool:
        return False        # rows of another process never reach a store in memory

    def thaw(self, frozen) -> Room:
        raise ValueError("a store in memory keeps no frozen rows (no unlocked writes)")

    # ------------------------------------------------------------ rooms

    def _pk(self, code: str):
        return next((pk for pk, r in self.rooms.items() if r["code"] == code), None)

    def load(self, code: str, how: str) -> Room | None:
        pk = self._pk(code)
        if pk is None:
            return None
        room = _instance(Room, self.rooms[pk])
        room.streams_pending = any(i[1] == pk and i[2] == room.game_no for i in self.items)
        return room

    def create(self, room: Room) -> bool:
        if self._pk(room.code) is not None:
            return False
        room.pk = next(self._ids)
        room.created_at = room.updated_at = datetime.now(timezone.utc)
        room._state.adding, room._state.db = False, "default"
        self.rooms[room.pk] = _values(room)
        return True

    def save(self, room: Room, events: list, expected: int | None):
        if expected is not None:
            raise ValueError("a conditional write needs PostgreSQL")
        room.updated_at = datetime.now(timezone.utc)
        self.rooms[room.pk] = _values(room)
        self.events += [copy.deepcopy({"id": next(self._ids), "room_id": room.pk, **ev}) for ev in events]
        return (room.version,)

    def keep(self, room: Room, keepsake: tuple) -> None:
        data, at = keepsake
        self.keepsakes[(room.pk, room.game_no)] = {"game": room.game_id, "at": at, "data": copy.deepcopy(data)}
        mine = sorted((k for k in self.keepsakes if k[0] == room.pk), key=lambda k: -k[1])
        for old in mine[KEEPSAKES:]:
            del self.keepsakes[old]
            self.pictures = {k: v for k, v in self.pictures.items() if k[:2] != old}

    def drop_items(self, room: Room, up_to: int) -> None:
        self.items = [i for i in self.items if not (i[1] == room.pk and i[0] <= up_to)]

    def add_items(self, items: list) -> None:
        self.items += [(next(self._ids), *copy.deepcopy(item)) for item in items]

    def p_touch(self, codes, now: int | None = None) -> int:
        now = wall_ms() if now is None else now
        touched = [r for r in self.rooms.values() if r["code"] in set(codes) and r["closed_at"] is None]
        for r in touched:
            r["active_at"] = now
        return len(touched)

    # ------------------------------------------------------------ seats

    def seats(self, room: Room, kicked: bool) -> list:
        rows = sorted((s for s in self.seat_rows.values()
                       if s["room_id"] == room.pk and (kicked or not s["kicked"])), key=lambda s: s["order"])
        found = [_instance(Seat, s) for s in rows]
        for seat in found:
            Seat._meta.get_field("room").set_cached_value(seat, room)
        return found

    def p_seat(self, seat: Seat, names: tuple = (), delete: bool = False) -> None:
        if delete:
            self.seat_rows.pop(seat.pk, None)
            return
        if seat.pk is None:
            if any(s["room_id"] == seat.room_id and s["player_id"] == seat.player_id
                   for s in self.seat_rows.values()):
                raise ValueError("seat_player_unique")
            seat.pk = next(self._ids)
            seat._state.adding, seat._state.db = False, "default"
            self.seat_rows[seat.pk] = _values(seat)
            return
        row = self.seat_rows[seat.pk]
        for name in names:
            row[Seat._meta.get_field(name).attname] = copy.deepcopy(getattr(seat, Seat._meta.get_field(name).attname))

    # ------------------------------------------------------------ the named reads (find)

    def q_held(self, codes) -> set:
        return {r["code"] for r in self.rooms.values()} & set(codes)

    def q_versions(self, codes) -> dict:
        return {r["code"]: r["version"] for r in self.rooms.values() if r["code"] in set(codes)}

    def q_stream_items(self, room: Room) -> list:
        return [(i[0], i[3], copy.deepcopy(i[4])) for i in self.items
                if i[1] == room.pk and i[2] == room.game_no]

    def q_events(self, room: Room, game_no: int) -> list:
        return [_instance(Event, e) for e in self.events if e["room_id"] == room.pk and e["game_no"] == game_no]

    def q_host(self, token_hash: str) -> str | None:
        row = next((r for r in self.rooms.values() if r["host_token_hash"] == token_hash), None)
        return None if row is None else _instance(Room, row).host

    def q_live(self) -> dict:
        live = {}
        for pk, r in self.rooms.items():
            if any(s["room_id"] == pk and s["connected"] for s in self.seat_rows.values()):
                live[(r["phase"], r["game_id"])] = live.get((r["phase"], r["game_id"]), 0) + 1
        return live

    def q_due(self, now: int) -> list:
        return [r["code"] for r in self.rooms.values()
                if r["closed_at"] is None and r["deadline_at"] is not None and r["deadline_at"] <= now][:DUE_BATCH]

    def _seated(self, pk, live: bool) -> bool:
        return any(s["room_id"] == pk and not (live and s["kicked"]) for s in self.seat_rows.values())

    def q_idle(self, before: int, empty_before: int, limit: int | None) -> list:
        found = sorted((r for pk, r in self.rooms.items() if r["closed_at"] is None
                        and r["active_at"] < empty_before
                        and (r["active_at"] < before or not self._seated(pk, True))),
                       key=lambda r: r["active_at"])
        return [r["code"] for r in found][:limit]

    def q_closed(self, before: int, empty_before: int, limit: int | None) -> list:
        found = sorted((pk for pk, r in self.rooms.items() if r["closed_at"] is not None
                        and r["closed_at"] < empty_before
                        and (r["closed_at"] < before or not self._seated(pk, False))),
                       key=lambda pk: self.rooms[pk]["closed_at"])
        return found[:limit]

    def q_held_rows(self, room_id: int) -> tuple:
        return (sum(s["room_id"] == room_id for s in self.seat_rows.values()),
                sum(e["room_id"] == room_id for e in self.events),
                sum(i[1] == room_id for i in self.items),
                sum(k[0] == room_id for k in self.keepsakes))

    def q_keepsakes(self, room: Room) -> list:
        return [Keepsake(room_id=pk, game_no=no, **copy.deepcopy(k))
                for (pk, no), k in sorted(self.keepsakes.items(), key=lambda e: -e[0][1]) if pk == room.pk]

    def q_link(self, room: Room) -> str | None:
        return self.links.get(room.pk)

    def q_picture(self, room: Room, game_no: int, n: int, kind: str) -> bytes | None:
        return self.pictures.get((room.pk, game_no, n, kind))

    # ------------------------------------------------------------ the named writes (put)

    def p_link(self, room: Room, key_hash: str | None, at: int) -> int:
        if key_hash is None:
            return 1 if self.links.pop(room.pk, None) is not None else 0
        self.links[room.pk] = key_hash
        return 1

    def p_picture(self, keepsake: Keepsake, n: int, kind: str, data: bytes, bound: int) -> bool:
        key = (keepsake.room_id, keepsake.game_no, n, kind)
        held = sum(len(v) for k, v in self.pictures.items() if k[0] == keepsake.room_id)
        if held + len(data) > bound or key in self.pictures or key[:2] not in self.keepsakes:
            return False
        self.pictures[key] = bytes(data)
        return True

    # ------------------------------------------------------------ purging

    def p_wipe(self, room_id: int, may) -> tuple | None:
        row = self.rooms.get(room_id)
        if row is None:
            return None
        connected = any(s["room_id"] == room_id and s["connected"] for s in self.seat_rows.values())
        if not may(_instance(Room, row), self._seated(room_id, False), connected):
            return None
        gone = (row["code"],) + self.q_held_rows(room_id)
        self.seat_rows = {pk: s for pk, s in self.seat_rows.items() if s["room_id"] != room_id}
        self.events = [e for e in self.events if e["room_id"] != room_id]
        self.items = [i for i in self.items if i[1] != room_id]
        self.keepsakes = {k: v for k, v in self.keepsakes.items() if k[0] != room_id}
        self.pictures = {k: v for k, v in self.pictures.items() if k[0] != room_id}
        self.links.pop(room_id, None)
        del self.rooms[room_id]
        return gone
