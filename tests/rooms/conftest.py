"""The ladder's own tests run against both stores: the database's (sql.py) and the one in
memory (memory.py), as boardgame.io tests its master against an in-memory storage. With the
store in memory the database is blocked: a write that went around the store would fail."""
import pytest

from partyhub.rooms.store import store
from partyhub.rooms.store.memory import MemoryStore


@pytest.fixture(params=["sql", "memory"])
def backend(request, monkeypatch):
    """The store this test writes through (store.BACKEND); each test's cache is its own."""
    monkeypatch.setattr(store, "CACHE", store.RoomCache(store._bound))
    if request.param == "sql":
        yield store.BACKEND
        return
    memory = MemoryStore()
    monkeypatch.setattr(store, "BACKEND", memory)
    with request.getfixturevalue("django_db_blocker").block():
        yield memory


def events(code: str, type_: str | None = None, game_no: int | None = None) -> list:
    """The logged events of the room's game (its current one unless `game_no`), through the store."""
    room = store.load(code, "read")
    found = store.find("events", room, room.game_no if game_no is None else game_no)
    return [e for e in found if type_ is None or e.type == type_]
