"""The write path's prepared statements read and write what the ORM would, on SQLite and on
PostgreSQL (there in a subprocess with DATABASE_URL set, as the server runs)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.rooms import rows_check

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("check", [c for c in rows_check.CHECKS if c not in rows_check.PG_ONLY],
                         ids=lambda c: c.__name__)
def test_on_sqlite(check):
    check()


@pytest.mark.slow
@pytest.mark.postgres
def test_on_postgresql(postgres_database, tmp_path):
    env = {**os.environ, "DATABASE_URL": postgres_database, "PARTYHUB_DATA": str(tmp_path),
           "PYTHONPATH": str(ROOT)}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    out = subprocess.run([sys.executable, "-m", "tests.rooms.rows_check"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.split() == [w for c in rows_check.CHECKS for w in ("ok", c.__name__)]


def test_the_rows_kept_per_room_are_bounded_newest_last(settings):
    from partyhub.rooms.store import rows, store
    from partyhub.rooms.models import Room

    settings.PARTYHUB_ROOM_CACHE_MAX = 3
    store.CACHE = cache = store.RoomCache(store._bound)

    def row(version):
        return (version, (None,) * len(Room._meta.concrete_fields), rows.row_shape())
    try:
        for i, code in enumerate("ABCDE"):
            store.keep(code, "committed", row(i + 1))
        assert cache.codes() == ["C", "D", "E"]
        store.keep("C", "committed", row(9))              # a newer row of C: now the newest kept
        store.keep("D", "committed", row(2))              # an older one of D changes nothing
        assert cache.codes() == ["D", "E", "C"]
        assert cache.get("D", "committed")[0] == 4     # a read is a use: D is the newest now
        store.keep("F", "committed", row(1))
        assert cache.codes() == ["C", "D", "F"]
    finally:
        store.CACHE = store.RoomCache(store._bound)