"""The write path's hot statements, as prepared SQL instead of ORM queries.

Every action runs the same few statements: lock and read the room row, look for stream
items, append events, update the room. Building them through the ORM costs about 0.4 ms of
Python per statement on this kind of machine, several times what SQLite or PostgreSQL take
to run them (docs/performance.md). Here the SQL text is built once per model and backend,
and values pass through the same field conversions the ORM uses (JSON, datetimes, auto_now),
so the rows read and written are the ones `Room.objects` would read and write.

Only sql.py (the store's database backend) calls this module; it runs inside the write
path's transactions.
"""
from __future__ import annotations

import json
from datetime import datetime
from functools import lru_cache

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from psycopg.types.json import Jsonb

from partyhub.rooms.models import Event, Room, Seat, StreamItem


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _db():
    """This thread's database connection itself: `connection` is a proxy that looks it up
    again on every attribute (an asgiref Local), some forty times in one write's parameters."""
    return connections[DEFAULT_DB_ALIAS]


class _Prepared(psycopg.Cursor):
    """A psycopg cursor that binds its parameters on the server and runs a prepared
    statement: PostgreSQL parses and plans each of these statements once per connection,
    and the parameters (a room's JSON, ~3 KB) travel as values instead of being quoted into
    the SQL text in Python. Django's own cursors bind on the client and never prepare."""

    def execute(self, query, params=None, *, prepare=None, binary=None):
        super().execute(query, params, prepare=True if prepare is None else prepare, binary=binary)
        self._query = _Logged(self.connection, query, params)
        return self


class _Logged:
    """What Django's query log (DEBUG, CaptureQueriesContext) reads of a client-binding cursor,
    `cursor._query.query`: the statement with its values, composed only when it is read."""
    __slots__ = ("conn", "sql", "params")

    def __init__(self, conn, sql, params):
        self.conn, self.sql, self.params = conn, sql, params

    @property
    def query(self) -> bytes:
        return psycopg.ClientCursor(self.conn).mogrify(self.sql, self.params).encode()


def _cursor():
    """A cursor for the hot statements below: on PostgreSQL, where the connection allows
    prepared statements (settings.py: PARTYHUB_DB_PREPARE), a `_Prepared` one, wrapped as
    Django wraps its own (the query log, the execute wrappers, the errors)."""
    db = _db()
    if db.vendor != "postgresql":
        return db.cursor()
    db.close_if_health_check_failed()
    db.ensure_connection()
    if db.connection.prepare_threshold is None:
        return db.cursor()
    with db.wrap_database_errors:
        return db._prepare_cursor(_Prepared(db.connection))


@lru_cache(maxsize=64)
def _room_sql(vendor: str, for_update: bool, skip_locked: bool) -> tuple[str, tuple]:
    fields = tuple(Room._meta.concrete_fields)
    room, item = Room._meta, StreamItem._meta
    cols = ", ".join(f"r.{_q(f.column)}" for f in fields)
    pending = (f"EXISTS (SELECT 1 FROM {_q(item.db_table)} s "
               f"WHERE s.{_q(item.get_field('room').column)} = r.{_q('id')} "
               f"AND s.{_q(item.get_field('game_no').column)} = r.{_q('game_no')})")
    sql = f"SELECT {cols}, {pending} FROM {_q(room.db_table)} r WHERE r.{_q('code')} = %s"
    if for_update:
        sql += " FOR UPDATE OF r" + (" SKIP LOCKED" if skip_locked else "")
    return sql, fields


@lru_cache(maxsize=64)
def _converters(vendor: str, fields: tuple) -> tuple:
    """Per field: (column expression, the backend's and the field's own converters), which is
    what the ORM applies to each value it reads."""
    out = []
    for f in fields:
        col = f.get_col(f.model._meta.db_table)
        out.append((col, tuple(connection.ops.get_db_converters(col)) + tuple(col.get_db_converters(connection))))
    return tuple(out)


def _convert(fields: tuple, row) -> list:
    values, db = [], _db()
    for (col, convs), value in zip(_converters(db.vendor, fields), row):
        for conv in convs:
            value = conv(value, col, db)
        values.append(value)
    return values


def lock_room(code: str, skip_locked: bool = False) -> Room | None:
    """The room row (locked FOR UPDATE where the database has it; SQLite's write lock is
    taken at BEGIN IMMEDIATE), as a Room instance; None when there is no such room, or with
    `skip_locked` on PostgreSQL, when another transaction holds it.

    The same statement says whether the room's current game has stored stream items
    (`room.streams_pending`), so the common case needs no second query for them."""
    return _room(code, connection.features.has_select_for_update, skip_locked)


def read_room(code: str) -> Room | None:
    """The committed room row without a lock (reads, and the unlocked write of
    `save_room(expected=...)`); `streams_pending` as in lock_room."""
    return _room(code, False, False)


def _room(code: str, for_update: bool, skip_locked: bool) -> Room | None:
    sql, fields = _room_sql(connection.vendor, for_update, skip_locked)
    with _cursor() as cur:
        cur.execute(sql, [code])
        row = cur.fetchone()
    if row is None:
        return None
    room = Room.from_db(connection.alias, [f.attname for f in fields], _convert(fields, row[:-1]))
    room.streams_pending = bool(row[-1])
    return room


def _room_values(room: Room) -> tuple[list, tuple]:
    """For the room's write: the UPDATE's parameters (every column but the key, as
    Model.save() prepares them, auto_now included) and the frozen row (every column as
    `read_room` would return it after the write, as plain values: JSON as text, datetimes in
    ISO form). Each JSON value is dumped once, for both."""
    params, values, db = [], [], _db()
    for f in Room._meta.concrete_fields:
        v = f.pre_save(room, False)
        if v is not None and isinstance(f, models.JSONField):
            text = json.dumps(f.get_prep_value(v), cls=f.encoder)
            param = Jsonb(text, dumps=_as_is) if db.vendor == "postgresql" else text
            values.append(text)
        else:
            param = f.get_db_prep_save(v, db)
            values.append(v.isoformat() if v is not None and isinstance(f, models.DateTimeField) else v)
        if not f.primary_key:
            params.append(param)
    return params + [room.pk], tuple(values)


def _as_is(text: str) -> str:
    return text


@lru_cache(maxsize=64)
def row_shape() -> int:
    """A fingerprint of the room row's columns: a frozen row from a process whose model
    differs (a rolling upgrade) does not fit this one's (`fits`)."""
    import zlib
    names = ",".join(f"{f.attname}:{f.get_internal_type()}" for f in Room._meta.concrete_fields)
    return zlib.crc32(names.encode())


def fits(frozen) -> bool:
    """Whether a frozen row (from this process or another) has this process's columns."""
    return len(frozen) == 3 and frozen[2] == row_shape() and len(frozen[1]) == len(Room._meta.concrete_fields)


def thaw(frozen) -> Room:
    """A new Room from a frozen row (what `save_room` returns): what `read_room` returns for
    that row, JSON parsed again, so the caller may change it; `streams_pending` is False.
    The frozen row is plain values, so the channel layer carries it to other processes."""
    fields = Room._meta.concrete_fields
    values = []
    for f, v in zip(fields, frozen[1]):
        if v is not None:
            if isinstance(f, models.JSONField):
                v = json.loads(v, cls=f.decoder)
            elif isinstance(f, models.DateTimeField):
                v = datetime.fromisoformat(v)
        values.append(v)
    room = Room.from_db(connection.alias, [f.attname for f in fields], values)
    room.streams_pending = False
    return room


@lru_cache(maxsize=64)
def _update_sql(vendor: str) -> tuple[str, tuple]:
    fields = tuple(f for f in Room._meta.concrete_fields if not f.primary_key)
    sets = ", ".join(f"{_q(f.column)} = %s" for f in fields)
    return f"UPDATE {_q(Room._meta.db_table)} SET {sets} WHERE {_q('id')} = %s", fields


def unlocked_writes() -> bool:
    """Whether `save_room(expected=...)` works here: PostgreSQL, where a data-modifying WITH
    makes the conditional update and the events one statement."""
    return connection.vendor == "postgresql"


def save_room(room: Room, events=(), expected: int | None = None) -> tuple | None:
    """UPDATE every column of the room row, as Model.save() would (auto_now included), and
    append `events` (unsaved Event instances, or any objects with their columns' attributes). On PostgreSQL both go in one statement (a
    data-modifying WITH), so one round trip; SQLite runs them as two.

    With `expected` (PostgreSQL only, outside a transaction): only if the stored version is
    still `expected` and no stream items of the room's game are stored, in one statement, so
    the update and its events are written together or not at all.

    Returns the row written, frozen: (version, values, row_shape()), for `thaw`; None when
    the conditional write did not land."""
    sql, _ = _update_sql(connection.vendor)
    params, values = _room_values(room)
    frozen = (room.version, values, row_shape())
    with _cursor() as cur:
        if expected is not None:
            if not unlocked_writes() or not events:
                raise ValueError("a conditional write needs PostgreSQL and at least one event")
            cur.execute(_conditional_sql(connection.vendor, len(events)),
                        params + [expected, room.pk, room.game_no] + _event_params(events))
            return frozen if cur.rowcount == len(events) else None
        if events and connection.vendor == "postgresql":
            cur.execute(f"WITH ev AS ({_insert_sql(connection.vendor, len(events))}) {sql}",
                        _event_params(events) + params)
            return frozen
        if events:
            cur.execute(_insert_sql(connection.vendor, len(events)), _event_params(events))
        cur.execute(sql, params)
    return frozen


@lru_cache(maxsize=64)
def _conditional_sql(vendor: str, rows: int) -> str:
    """UPDATE the room if its version is still the one read and no stream items of its game
    are stored (they are absorbed on the locked path), and insert the events only if it did
    (they select from the update's RETURNING)."""
    update, _ = _update_sql(vendor)
    cols = _event_cols()
    item = StreamItem._meta
    no_items = (f"NOT EXISTS (SELECT 1 FROM {_q(item.db_table)} s "
                f"WHERE s.{_q(item.get_field('room').column)} = %s "
                f"AND s.{_q(item.get_field('game_no').column)} = %s)")
    return (f"WITH up AS ({update} AND {_q('version')} = %s AND {no_items} RETURNING 1) "
            f"INSERT INTO {_q(Event._meta.db_table)} ({cols}) "
            f"SELECT v.* FROM ({_event_values(rows)}) AS v({cols}) "
            f"WHERE EXISTS (SELECT 1 FROM up)")


_EVENT_FIELDS = tuple(Event._meta.get_field(n) for n in ("room", "version", "game_no", "at", "seat", "type", "data"))


def _event_cols() -> str:
    return ", ".join(_q(f.column) for f in _EVENT_FIELDS)


def _event_values(rows: int) -> str:
    """VALUES with a row of placeholders per event (the parameters of `_event_params`)."""
    one = "(" + ", ".join(["%s"] * len(_EVENT_FIELDS)) + ")"
    return "VALUES " + ", ".join([one] * rows)


@lru_cache(maxsize=64)
def _insert_sql(vendor: str, rows: int) -> str:
    return f"INSERT INTO {_q(Event._meta.db_table)} ({_event_cols()}) {_event_values(rows)}"


def _event_params(events) -> list:
    db = _db()
    return [f.get_db_prep_save(getattr(ev, f.attname), db) for ev in events for f in _EVENT_FIELDS]


@lru_cache(maxsize=64)
def _due_sql(vendor: str) -> str:
    t = Room._meta
    return (f"SELECT {_q(t.get_field('code').column)} FROM {_q(t.db_table)} "
            f"WHERE {_q(t.get_field('deadline_at').column)} <= %s "
            f"AND {_q(t.get_field('closed_at').column)} IS NULL LIMIT %s")


def due_codes(now: int, limit: int) -> list:
    """The codes of up to `limit` open rooms whose deadline is due at `now` (wall ms): the
    timekeeper asks every TIMEKEEPER_INTERVAL in every process, on the database thread that
    the game actions wait for."""
    with _cursor() as cur:
        cur.execute(_due_sql(connection.vendor), [now, limit])
        return [row[0] for row in cur.fetchall()]


_ITEM_FIELDS = tuple(StreamItem._meta.get_field(n) for n in ("id", "seat", "data"))


@lru_cache(maxsize=64)
def _select_sql(vendor: str, fields: tuple, where: tuple, order: str) -> str:
    """SELECT these fields of their model WHERE each of `where` = %s ORDER BY `order`."""
    t = fields[0].model._meta
    cols = ", ".join(_q(f.column) for f in fields)
    conds = " AND ".join(f"{_q(t.get_field(n).column)} = %s" for n in where)
    return f"SELECT {cols} FROM {_q(t.db_table)} WHERE {conds} ORDER BY {_q(t.get_field(order).column)}"


def _select(fields: tuple, where: tuple, order: str, params: list) -> list:
    with _cursor() as cur:
        cur.execute(_select_sql(connection.vendor, fields, where, order), params)
        return [_convert(fields, row) for row in cur.fetchall()]


def stream_items(room: Room) -> list:
    """[(id, seat, data)] of the room's stored stream items of the current game, in order."""
    return [tuple(values) for values in
            _select(_ITEM_FIELDS, ("room", "game_no"), "id", [room.pk, room.game_no])]


_SEAT_FIELDS = tuple(Seat._meta.concrete_fields)


def live_seats(room: Room) -> list:
    """The room's seats that are not kicked, in seat order, as Seat instances (what
    `room.seats.filter(kicked=False)` returns, with `seat.room` already this room)."""
    return _seats(room, ("room", "kicked"), [room.pk, False])


def all_seats(room: Room) -> list:
    """Every seat the room ever had, kicked ones too (`room.seats.all()`), in seat order."""
    return _seats(room, ("room",), [room.pk])


def _seats(room: Room, where: tuple, params: list) -> list:
    names = [f.attname for f in _SEAT_FIELDS]
    room_field = Seat._meta.get_field("room")
    seats = []
    for values in _select(_SEAT_FIELDS, where, "order", params):
        seat = Seat.from_db(connection.alias, names, values)
        room_field.set_cached_value(seat, room)
        seats.append(seat)
    return seats


@lru_cache(maxsize=64)
def _insert_seat_sql(vendor: str) -> tuple[str, tuple]:
    fields = tuple(f for f in _SEAT_FIELDS if not f.primary_key)
    cols = ", ".join(_q(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    return (f"INSERT INTO {_q(Seat._meta.db_table)} ({cols}) VALUES ({marks}) "
            f"RETURNING {_q(Seat._meta.pk.column)}"), fields


def insert_seat(seat: Seat) -> None:
    """INSERT a new seat (Model.save() of an unsaved instance without the ORM) and set its pk.
    Both backends here answer INSERT ... RETURNING (SQLite from 3.35, PostgreSQL always);
    where the database cannot, the ORM inserts it."""
    if not connection.features.can_return_columns_from_insert:
        seat.save(force_insert=True)
        return
    sql, fields = _insert_seat_sql(connection.vendor)
    params = [f.get_db_prep_save(f.pre_save(seat, True), connection) for f in fields]
    with _cursor() as cur:
        cur.execute(sql, params)
        seat.pk = cur.fetchone()[0]
    seat._state.adding, seat._state.db = False, connection.alias


def save_seat(seat: Seat, names: tuple) -> None:
    """UPDATE these fields of one seat (Model.save(update_fields=names) without the ORM)."""
    fields = [Seat._meta.get_field(n) for n in names]
    sets = ", ".join(f"{_q(f.column)} = %s" for f in fields)
    params = [f.get_db_prep_save(getattr(seat, f.attname), connection) for f in fields]
    with _cursor() as cur:
        cur.execute(f"UPDATE {_q(Seat._meta.db_table)} SET {sets} WHERE {_q('id')} = %s",
                    params + [seat.pk])


_NEW_ITEM_FIELDS = tuple(StreamItem._meta.get_field(n) for n in ("room", "game_no", "seat", "data"))
ITEMS_PER_INSERT = 500


@lru_cache(maxsize=64)
def _items_sql(vendor: str, rows: int) -> str:
    t = StreamItem._meta
    one = "(" + ", ".join(["%s"] * len(_NEW_ITEM_FIELDS)) + ")"
    return (f"INSERT INTO {_q(t.db_table)} ({', '.join(_q(f.column) for f in _NEW_ITEM_FIELDS)}) "
            f"VALUES {', '.join([one] * rows)}")


def insert_stream_items(items: list) -> None:
    """[(room pk, game no, seat, data)] as StreamItem rows, in order, one INSERT per
    ITEMS_PER_INSERT rows (what bulk_create does, without a model instance per row)."""
    data = StreamItem._meta.get_field("data")
    with connection.cursor() as cur:
        for k in range(0, len(items), ITEMS_PER_INSERT):
            chunk = items[k:k + ITEMS_PER_INSERT]
            params = []
            for room, game_no, seat, d in chunk:
                params += [room, game_no, seat, data.get_db_prep_save(d, connection)]
            cur.execute(_items_sql(connection.vendor, len(chunk)), params)
