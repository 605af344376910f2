"""docker-compose.yml, the Dockerfile and the proxy config, checked by reading them.

No Docker engine runs here, so these tests are the only check the deployment files get:
every setting the code reads is wired or safely defaulted, the services find each other,
and health, volumes, start order and WebSocket proxying are in place.
"""
import os
import re
import shlex
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
WEB_PORT = "8000"

# Settings the compose file may leave alone: the code's default is right in a container.
SAFE_DEFAULTS = {
    "PARTYHUB_DATA": "the image sets /data; nothing is kept there with PostgreSQL",
    "INTERNAL_URL": "bots in a web container reach that same container on 127.0.0.1:$PORT",
    "DB_CONN_MAX_AGE": "persistent connections, 60 s",
    "PARTYHUB_FPS": "per-socket frame budget",
    "PARTYHUB_JOINS_PER_MINUTE": "join rate limit per address",
    "PARTYHUB_ROOMS_PER_MINUTE": "room creation rate limit per address",
    "TIMEKEEPER_INTERVAL": "how often due deadlines are checked",
    "PARTYHUB_EXTRA_APPS": "extra Django apps (tests add the test game)",
    "PARTYHUB_DECK_UPLOAD_MB": "the largest deck upload, 200 MiB (docs/security.md)",
    "PARTYHUB_DECK_MEGAPIXELS": "decoded pixels per deck, 600 million (docs/security.md)",
    "PARTYHUB_DECK_SECONDS": "a deck upload's decoding time, 60 s (docs/security.md)",
    "PARTYHUB_LOOKUPS_PER_MINUTE": "failed room lookups per address, 30 a minute (docs/security.md)",
    "PARTYHUB_AUDIENCE_PER_MINUTE": "anonymous sockets per address, 120 a minute (docs/security.md)",
    "PARTYHUB_SOCKETS_PER_ADDRESS": "sockets open per address and process, 300 (docs/security.md)",
    "PARTYHUB_SOCKETS_PER_ROOM": "sockets open per room and process, 300 (docs/security.md)",
    "PARTYHUB_HEADER_SECONDS": "a request's headers, 10 s from its first byte (docs/security.md)",
    "PARTYHUB_BODY_SECONDS": "a request body, 20 s plus time earned by its rate (docs/security.md)",
    "PARTYHUB_BODY_MIN_RATE": "the body rate that earns time, 4 KiB/s (docs/security.md)",
    "PARTYHUB_EMPTY_ROOM_IDLE_SECONDS": "a room nobody joined closes after 30 minutes",
    "PARTYHUB_CODE_ALPHABET": "the letters of room codes (tests use a tiny one)",
}
# Settings compose must set for web: the defaults are for one process on a laptop.
MUST_WIRE = {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS", "PUBLIC_URL", "TRUST_PROXY"}

ENV_READ = re.compile(
    r"""(?:os\.environ\.get|os\.getenv|env_bool|env_list|os\.environ\.setdefault)\(\s*["']([A-Z0-9_]+)["']"""
    r"""|os\.environ\[\s*["']([A-Z0-9_]+)["']\s*\]""")


def env_read_by(path: Path) -> set[str]:
    return {a or b for a, b in ENV_READ.findall(path.read_text())}


def settings_env() -> set[str]:
    names = env_read_by(ROOT / "partyhub" / "settings.py")
    assert {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "PORT"} <= names, "the regex lost track of settings.py"
    return names


def environment(service: dict) -> dict:
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) if "=" in item else (item, None) for item in env)
    return {k: "" if v is None else str(v) for k, v in env.items()}


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


def dockerfile_env() -> dict:
    env = {}
    for instr, args in dockerfile():
        if instr == "ENV":
            for word in shlex.split(args):
                key, _, value = word.partition("=")
                env[key] = value
    return env


def proxy_service() -> tuple[str, dict]:
    found = [(n, s) for n, s in SERVICES.items()
             if str(s.get("image", "")).startswith(("nginx", "caddy"))]
    assert len(found) == 1, "one reverse proxy service (nginx or caddy)"
    return found[0]


def proxy_config() -> str:
    _, proxy = proxy_service()
    mounts = [v.split(":")[0] for v in proxy.get("volumes", []) if v.startswith("./")]
    assert mounts, "the proxy's config is mounted from the repository"
    texts = []
    for m in mounts:
        path = ROOT / m
        assert path.is_file(), f"{m} is mounted into the proxy but missing"
        texts.append(path.read_text())
    return "\n".join(texts)


def depends(service: dict) -> dict:
    dep = service.get("depends_on") or {}
    return {name: None for name in dep} if isinstance(dep, list) else dep


# --- the settings are wired ----------------------------------------------------------------

def test_every_setting_is_wired_for_web_or_safely_defaulted():
    wired = set(environment(SERVICES["web"])) | set(dockerfile_env())
    missing = sorted(n for n in settings_env() if n not in wired and n not in SAFE_DEFAULTS)
    assert not missing, (f"settings.py reads {missing}: set them for web in docker-compose.yml "
                         "or add them to SAFE_DEFAULTS here with the reason the default is right")


def test_the_multi_process_settings_are_set_for_web():
    env = environment(SERVICES["web"])
    assert MUST_WIRE <= set(env), sorted(MUST_WIRE - set(env))
    assert env["TRUST_PROXY"].lower() in ("1", "true", "yes", "on")


def test_secret_key_comes_from_the_environment_and_is_required():
    # Every replica must share one key; a missing one stops `docker compose up` with a message.
    assert re.fullmatch(r"\$\{SECRET_KEY:\?.+\}", environment(SERVICES["web"])["SECRET_KEY"])


def test_database_url_points_at_the_db_service():
    url = urlsplit(environment(SERVICES["web"])["DATABASE_URL"])
    assert url.scheme in ("postgres", "postgresql")
    assert url.hostname == "db" and "db" in SERVICES
    assert (url.port or 5432) == 5432
    db = environment(SERVICES["db"])
    assert url.username == db["POSTGRES_USER"]
    assert url.password == db["POSTGRES_PASSWORD"]
    assert url.path.lstrip("/") == db["POSTGRES_DB"]
    assert str(SERVICES["db"]["image"]).startswith("postgres:")


def test_redis_url_points_at_the_redis_service():
    url = urlsplit(environment(SERVICES["web"])["REDIS_URL"])
    assert url.scheme == "redis" and url.hostname == "redis" and "redis" in SERVICES
    assert (url.port or 6379) == 6379
    assert str(SERVICES["redis"]["image"]).startswith("redis:")


def test_env_example_lists_every_variable_compose_reads():
    compose_text = (ROOT / "docker-compose.yml").read_text()
    used = set(re.findall(r"\$\{([A-Z0-9_]+)", compose_text))
    example = {ln.split("=", 1)[0] for ln in (ROOT / ".env.example").read_text().splitlines()
               if ln and not ln.startswith("#") and "=" in ln}
    assert used <= example, sorted(used - example)


def test_readme_documents_every_setting():
    readme = (ROOT / "README.md").read_text()
    names = settings_env() | env_read_by(ROOT / "partyhub" / "serve.py") | {"HTTP_PORT"}
    undocumented = sorted(n for n in names if f"`{n}`" not in readme and n != "DJANGO_SETTINGS_MODULE")
    assert not undocumented, f"README.md's configuration table lacks {undocumented}"


# --- health, start order, storage ----------------------------------------------------------

@pytest.mark.parametrize("name, probe", [
    ("web", "healthcheck.py"), ("db", "pg_isready"), ("redis", "redis-cli"),
])
def test_service_has_a_healthcheck(name, probe):
    check = SERVICES[name].get("healthcheck") or {}
    test = check.get("test")
    assert test, f"{name} has no healthcheck"
    assert probe in (test if isinstance(test, str) else " ".join(test))


def test_web_healthcheck_asks_healthz():
    script = (ROOT / "deploy" / "healthcheck.py").read_text()
    assert "/healthz" in script and "PORT" in script


def test_web_waits_for_healthy_db_and_redis():
    dep = depends(SERVICES["web"])
    for name in ("db", "redis"):
        assert (dep.get(name) or {}).get("condition") == "service_healthy", name


def test_proxy_waits_for_a_healthy_web():
    _, proxy = proxy_service()
    assert (depends(proxy).get("web") or {}).get("condition") == "service_healthy"


def test_postgres_data_is_on_a_named_volume():
    mounts = [v for v in SERVICES["db"].get("volumes", []) if isinstance(v, str)]
    named = [m.split(":")[0] for m in mounts if m.split(":")[1] == "/var/lib/postgresql/data"]
    assert named, "db keeps /var/lib/postgresql/data on a volume"
    assert not named[0].startswith((".", "/", "~")), "a named volume, not a bind mount"
    assert named[0] in (COMPOSE.get("volumes") or {})


def test_web_can_be_scaled():
    web = SERVICES["web"]
    assert "ports" not in web, "web publishes no host port (the proxy does), so --scale works"
    assert "container_name" not in web
    assert "build" in web


# --- the proxy -----------------------------------------------------------------------------

def test_proxy_publishes_http_port():
    _, proxy = proxy_service()
    assert any(str(p).startswith("${HTTP_PORT:-8080}:") for p in proxy.get("ports", []))


def test_proxy_passes_websocket_upgrades():
    conf = proxy_config()
    assert re.search(r"proxy_http_version\s+1\.1;", conf)
    assert re.search(r"proxy_set_header\s+Upgrade\s+\$http_upgrade;", conf)
    assert re.search(r"proxy_set_header\s+Connection\s+\$connection_upgrade;", conf)
    assert re.search(r"map\s+\$http_upgrade\s+\$connection_upgrade", conf)


def test_proxy_keeps_host_with_port_for_the_origin_check():
    conf = proxy_config()
    assert re.search(r"proxy_set_header\s+Host\s+\$http_host;", conf)
    assert re.search(r"proxy_set_header\s+X-Forwarded-For\s+\$", conf)


def test_proxy_re_resolves_web_so_every_replica_gets_connections():
    conf = proxy_config()
    assert re.search(r"resolver\s+127\.0\.0\.11\b[^;]*valid=", conf), "Docker's DNS, re-asked"
    var = re.search(r"set\s+\$(\w+)\s+\$\{WEB_UPSTREAM\};", conf)
    assert var, "the upstream comes from the environment into a variable"
    assert re.search(rf"proxy_pass\s+http://\${var.group(1)};", conf), "proxy_pass through the variable"


def test_proxy_is_configured_only_through_its_environment():
    name, proxy = proxy_service()
    conf = proxy_config()
    needed = set(re.findall(r"\$\{([A-Z0-9_]+)\}", conf))
    env = environment(proxy)
    assert needed <= set(env), sorted(needed - set(env))
    host, _, port = env["WEB_UPSTREAM"].partition(":")
    assert host == "web" and port == WEB_PORT
    assert environment(SERVICES["web"]).get("PORT", WEB_PORT) == WEB_PORT
    assert any(str(v).endswith(".template:ro") and "/etc/nginx/templates/" in str(v)
               for v in proxy.get("volumes", [])), f"{name} renders its config from a template"


# --- the image -----------------------------------------------------------------------------

def test_dockerfile_is_python_311_slim_and_non_root():
    instructions = dockerfile()
    assert instructions[0] == ("FROM", "python:3.11-slim")
    users = [args for instr, args in instructions if instr == "USER"]
    assert users and users[-1] not in ("root", "0")


def test_dockerfile_installs_the_project_and_collects_static():
    runs = " ".join(args for instr, args in dockerfile() if instr == "RUN")
    assert re.search(r"pip install (--no-deps )?\.", runs)
    assert "collectstatic --noinput" in runs
    assert dockerfile_env().get("PARTYHUB_DATA") == "/data"


def test_dockerfile_exposes_and_uses_port():
    env = dockerfile_env()
    assert env.get("PORT") == WEB_PORT
    exposed = [args for instr, args in dockerfile() if instr == "EXPOSE"]
    assert exposed and exposed[0] in ("${PORT}", "$PORT", WEB_PORT)


def test_dockerfile_has_a_healthcheck():
    checks = [args for instr, args in dockerfile() if instr == "HEALTHCHECK"]
    assert checks and "healthcheck.py" in checks[0]


def test_container_migrates_then_serves_daphne_on_port():
    cmd = [args for instr, args in dockerfile() if instr == "CMD"]
    assert cmd and "deploy/entrypoint.sh" in cmd[-1]
    script = (ROOT / "deploy" / "entrypoint.sh").read_text()
    migrate, serve = script.find("manage.py migrate"), script.find("exec python -m partyhub.edge")
    assert 0 <= migrate < serve
    assert re.search(r'partyhub\.edge -b 0\.0\.0\.0 -p "?\$\{PORT:-8000\}"? --proxy-headers partyhub\.asgi:application',
                     script)


def test_build_context_keeps_what_the_image_needs():
    ignored = {ln.strip() for ln in (ROOT / ".dockerignore").read_text().splitlines()
               if ln.strip() and not ln.startswith("#")}
    for needed in ("deploy", "partyhub", "games", "frontend", "manage.py", "pyproject.toml"):
        assert needed not in ignored
    assert ".env" in ignored and ".git" in ignored and ".venv" in ignored


@pytest.mark.parametrize("script", ["deploy/entrypoint.sh", ".ci/run"])
def test_shell_scripts_parse(script):
    path = ROOT / script
    shell = "bash" if script == ".ci/run" else "sh"
    assert subprocess.run([shell, "-n", str(path)]).returncode == 0


def test_ci_script_is_executable():
    assert os.access(ROOT / ".ci" / "run", os.X_OK)
