"""The Dockerfile, the container's start and `partyhub.serve`, checked by reading and calling
them (tests/deploy/test_stack.py builds and runs the image on a Docker engine)."""
import logging
import os
import shlex
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from partyhub import serve

ROOT = Path(__file__).resolve().parents[2]
WEB_PORT = "8000"


def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    lines, current = [], ""
    for raw in (ROOT / "Dockerfile").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        lines.append(current + line)
        current = ""
    return [(ln.split(None, 1)[0].upper(), ln.split(None, 1)[1] if " " in ln else "") for ln in lines]


def stages() -> list[list[tuple[str, str]]]:
    found = []
    for instr, args in dockerfile():
        if instr == "FROM":
            found.append([])
        found[-1].append((instr, args))
    return found


def dockerfile_env(stage=-1) -> dict:
    """ENV of the final stage (what the running container has)."""
    env = {}
    for instr, args in stages()[stage]:
        if instr == "ENV":
            for word in shlex.split(args):
                key, _, value = word.partition("=")
                env[key] = value
    return env


def runs(stage) -> str:
    return " ".join(args for instr, args in stages()[stage] if instr == "RUN")


def test_the_image_builds_in_a_stage_and_runs_python_311_slim_as_a_user():
    build, final = stages()
    assert build[0] == ("FROM", "python:3.11-slim AS build") and final[0] == ("FROM", "python:3.11-slim")
    users = [args for instr, args in final if instr == "USER"]
    assert users and users[-1] not in ("root", "0")


def test_what_only_the_build_needs_stays_in_the_build_stage():
    assert "gettext" in runs(0) and "gettext" not in runs(-1)
    assert "pip install" in runs(0) and "pip" not in runs(-1)
    assert "compilemessages" in runs(0) and "collectstatic --noinput" in runs(0)
    copied = [args for instr, args in stages()[-1] if instr == "COPY"]
    assert copied == ["--from=build /venv /venv", "--from=build /app /app"]


def test_the_dependency_layer_comes_before_the_code():
    build = [(i, a) for i, a in stages()[0]]
    deps = next(n for n, (i, a) in enumerate(build) if i == "RUN" and "pip install" in a)
    assert build[deps - 1] == ("COPY", "requirements.lock ./")   # pinned with hashes
    code = build.index(("COPY", ". ."))
    assert deps < code


def test_the_running_image_reads_data_and_static_files_where_the_build_put_them():
    env, build_env = dockerfile_env(), dockerfile_env(0)
    assert env["PARTYHUB_DATA"] == "/data" and env["STATIC_ROOT"] == build_env["STATIC_ROOT"]
    assert env["PATH"].startswith("/venv/bin:") and env["PYTHONPATH"] == "/app"
    assert "chown -R partyhub:partyhub /data" in runs(-1) and "/data/decks" in runs(-1)


def test_dockerfile_exposes_and_uses_port():
    assert dockerfile_env().get("PORT") == WEB_PORT
    exposed = [args for instr, args in dockerfile() if instr == "EXPOSE"]
    assert exposed and exposed[0] in ("${PORT}", "$PORT", WEB_PORT)


def test_dockerfile_has_a_healthcheck():
    checks = [args for instr, args in dockerfile() if instr == "HEALTHCHECK"]
    assert checks and "healthcheck.py" in checks[0]


def test_the_container_migrates_unless_told_not_to_then_serves():
    cmd = [args for instr, args in dockerfile() if instr == "CMD"]
    assert cmd and "deploy/entrypoint.sh" in cmd[-1]
    script = (ROOT / "deploy" / "entrypoint.sh").read_text()
    guard, migrate = script.find('"${MIGRATE:-1}" = "1"'), script.find("python manage.py migrate")
    serve_at = script.find("exec python -m partyhub.serve --no-banner")
    assert 0 <= guard < migrate < serve_at


def test_settings_import_makes_no_folder(tmp_path):
    """collectstatic runs as a user that may not write where settings point (the old build
    failed so): importing settings with a database URL creates nothing."""
    data = tmp_path / "data"
    env = {**os.environ, "PARTYHUB_DATA": str(data), "SECRET_KEY": "x", "STATIC_ROOT": str(tmp_path / "s"),
           "DATABASE_URL": "postgres://u:p@127.0.0.1:1/db", "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-c", "import partyhub.settings"], env=env, check=True, cwd=ROOT)
    assert list(tmp_path.iterdir()) == []


# --- partyhub.serve: daphne's arguments and its access log -------------------------------------

@pytest.mark.parametrize("trust, proxy_headers", [(False, False), (True, True)])
def test_daphne_reads_forwarded_headers_only_behind_a_trusted_proxy(trust, proxy_headers):
    args = serve.daphne_args(SimpleNamespace(PORT=8123, PARTYHUB_TRUST_PROXY=trust))
    assert ("--proxy-headers" in args) == proxy_headers
    assert args[args.index("-p") + 1] == "8123" and args[-1] == "partyhub.asgi:application"


def test_the_access_log_skips_healthchecks_and_query_strings(caplog):
    with caplog.at_level(logging.INFO, logger="partyhub.access"):
        serve.log_action("http", "complete", {"path": "/healthz", "method": "GET", "status": 200,
                                              "client": "10.0.0.2:0", "size": 30, "time_taken": 0.01})
        serve.log_action("http", "complete", {"path": "/api/rooms/ABCD?token=s3cret", "method": "GET",
                                              "status": 200, "client": "10.0.0.2:0", "size": 9,
                                              "time_taken": 0.002})
        serve.log_action("websocket", "connected", {"path": "/ws/rooms/ABCD", "client": "10.0.0.3:0"})
    lines = [r.getMessage() for r in caplog.records]
    assert lines == ['10.0.0.2:0 "GET /api/rooms/ABCD" 200 9 2ms', '10.0.0.3:0 "WS connected /ws/rooms/ABCD"']


def test_log_lines_carry_time_level_and_logger_and_json_on_request(tmp_path):
    code = ("import logging, django; django.setup(); "
            "logging.getLogger('partyhub.test').warning('hello %s', 'there')")
    base = {**os.environ, "DJANGO_SETTINGS_MODULE": "partyhub.settings", "SECRET_KEY": "x",
            "PARTYHUB_DATA": str(tmp_path), "PYTHONPATH": str(ROOT)}
    text = subprocess.run([sys.executable, "-c", code], env=base, capture_output=True, text=True,
                          check=True, cwd=ROOT).stderr.strip()
    date, clock, level, logger, message = text.split(" ", 4)
    assert len(date) == 10 and clock.count(":") == 2 and (level, logger, message) == (
        "WARNING", "partyhub.test", "hello there")
    import json
    line = subprocess.run([sys.executable, "-c", code], env={**base, "LOG_FORMAT": "json"},
                          capture_output=True, text=True, check=True, cwd=ROOT).stderr.strip()
    record = json.loads(line)
    assert record["level"] == "WARNING" and record["logger"] == "partyhub.test"
    assert record["message"] == "hello there" and record["time"].startswith(date)
