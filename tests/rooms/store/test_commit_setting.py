"""On PostgreSQL a commit does not wait for its WAL to reach the disk (synchronous_commit off,
as SQLite's synchronous=NORMAL): PARTYHUB_DB_SYNCHRONOUS_COMMIT sets it, and options the
DATABASE_URL carries are kept. The write path's statements are prepared (psycopg's
prepare_threshold) unless PARTYHUB_DB_PREPARE is off. Read in a fresh process, as the server
starts."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.services import postgres_database  # noqa: F401 (fixture)

ROOT = Path(__file__).resolve().parents[3]
PG = "postgres://postgres@127.0.0.1:5432/test"


def run(env: dict, code: str):
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DATABASE_URL", "PARTYHUB_DB_SYNCHRONOUS_COMMIT", "PARTYHUB_DB_PREPARE",
                           "DJANGO_SETTINGS_MODULE")}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=60)


def options_of(env: dict) -> dict:
    out = run(env, "import json, partyhub.settings as s; print(json.dumps(s.DATABASES['default'].get('OPTIONS', {})))")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_postgresql_commits_without_waiting_for_the_disk_unless_told_to():
    assert options_of({"DATABASE_URL": PG}) == {"options": "-c synchronous_commit=off", "prepare_threshold": 1}
    assert options_of({"DATABASE_URL": PG, "PARTYHUB_DB_SYNCHRONOUS_COMMIT": "On"}) == \
        {"options": "-c synchronous_commit=on", "prepare_threshold": 1}
    # what the URL asks for is kept, ours after it
    url = PG + "?sslmode=prefer&options=-c%20statement_timeout%3D5000"
    assert options_of({"DATABASE_URL": url}) == {
        "sslmode": "prefer", "options": "-c statement_timeout=5000 -c synchronous_commit=off",
        "prepare_threshold": 1}
    # a connection pooler in transaction mode: nothing prepared
    assert options_of({"DATABASE_URL": PG, "PARTYHUB_DB_PREPARE": "off"}) == {"options": "-c synchronous_commit=off"}
    # SQLite has its own (synchronous=NORMAL), untouched
    assert "synchronous_commit" not in json.dumps(options_of({"DATABASE_URL": "sqlite:////tmp/x.sqlite3"}))
    assert "prepare_threshold" not in json.dumps(options_of({"DATABASE_URL": "sqlite:////tmp/x.sqlite3"}))


def test_a_word_that_is_no_setting_stops_the_start():
    out = run({"DATABASE_URL": PG, "PARTYHUB_DB_SYNCHRONOUS_COMMIT": "sometimes"}, "import partyhub.settings")
    assert out.returncode != 0
    assert "PARTYHUB_DB_SYNCHRONOUS_COMMIT='sometimes': expected one of off, local, on" in out.stderr


@pytest.mark.postgres
def test_the_server_s_connections_run_with_it(postgres_database, tmp_path):  # noqa: F811
    code = ("import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'partyhub.settings'; django.setup()\n"
            "from django.db import connection\n"
            "with connection.cursor() as c:\n"
            "    c.execute('SHOW synchronous_commit'); print(c.fetchone()[0])")
    for value, shown in ((None, "off"), ("on", "on")):
        env = {"DATABASE_URL": postgres_database, "PARTYHUB_DATA": str(tmp_path)}
        if value:
            env["PARTYHUB_DB_SYNCHRONOUS_COMMIT"] = value
        out = run(env, code)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == shown
