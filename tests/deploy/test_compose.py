"""docker-compose.yml and the proxy configs, checked by reading them (test_image.py reads the
Dockerfile; test_stack.py runs it all on a Docker engine): every setting the code reads is
wired or safely defaulted, the services find each other, and health, volumes, start order,
replicas, WebSocket proxying and quiet logs are in place.
"""
import os
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from tests.deploy.test_image import dockerfile_env

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
WEB_PORT = "8000"

# Settings the compose file may leave alone: the code's default is right in a container.
SAFE_DEFAULTS = {
    "PARTYHUB_DATA": "the image sets /data; nothing is kept there with PostgreSQL",
    "INTERNAL_URL": "bots in a web container reach that same container on 127.0.0.1:$PORT",
    "DB_CONN_MAX_AGE": "persistent connections, 60 s",
    "PARTYHUB_DB_PREPARE": "on: compose and the chart talk to PostgreSQL directly, with no pooler in transaction mode",
    "PARTYHUB_FPS": "per-socket frame budget",
    "PARTYHUB_JOINS_PER_MINUTE": "join rate limit per address",
    "PARTYHUB_ROOMS_PER_MINUTE": "room creation rate limit per address",
    "TIMEKEEPER_INTERVAL": "how often due deadlines are checked",
    "PARTYHUB_EXTRA_APPS": "extra Django apps (tests add the test game)",
    "PARTYHUB_DECK_UPLOAD_MB": "the largest deck upload, 200 MiB (docs/security.md)",
    "PARTYHUB_DECK_MEGAPIXELS": "decoded pixels per deck, 600 million (docs/security.md)",
    "PARTYHUB_DECK_SECONDS": "a deck upload's decoding time, 60 s (docs/security.md)",
    "PARTYHUB_AUDIENCE_PASS_SECONDS": "an audience pass lasts 12 hours (docs/security.md)",
    "PARTYHUB_VOTERS_PER_BALLOT": "500 audience voters per ballot (docs/security.md)",
    "PARTYHUB_RENDERS_PER_MINUTE": "gallery pictures made per address, 60 a minute, in Redis across replicas",
    "PARTYHUB_KEEPSAKE_PICTURE_MB": "gallery pictures kept per room, 32 MiB (docs/security.md)",
    "HSTS_SECONDS": "a year, sent only over HTTPS (PUBLIC_URL https://)",
    "STATIC_ROOT": "the image sets /app/static, collected at build time",
    "PARTYHUB_ROOM_IDLE_SECONDS": "rooms nobody used for 12 hours close (docs/decisions.md)",
    "PARTYHUB_ROOM_RETENTION_DAYS": "closed rooms are deleted after 7 days",
    "PARTYHUB_ROOM_CACHE_IDLE_SECONDS": "a process forgets an unused room after 60 s",
    "PARTYHUB_ROOM_CACHE_MAX": "at most 2,000 rooms kept in memory per process",
    "PARTYHUB_LOOKUPS_PER_MINUTE": "failed room lookups per address, 30 a minute (docs/security.md)",
    "PARTYHUB_AUDIENCE_PER_MINUTE": "anonymous sockets per address, 120 a minute (docs/security.md)",
    "PARTYHUB_SOCKETS_PER_ADDRESS": "sockets open per address and process, 300 (docs/security.md)",
    "PARTYHUB_SOCKETS_PER_ROOM": "sockets open per room and process, 300 (docs/security.md)",
    "PARTYHUB_HEADER_SECONDS": "a request's headers, 10 s from its first byte (docs/security.md)",
    "PARTYHUB_BODY_SECONDS": "a request body, 20 s plus time earned by its rate (docs/security.md)",
    "PARTYHUB_BODY_MIN_RATE": "the body rate that earns time, 4 KiB/s (docs/security.md)",
    "PARTYHUB_EMPTY_ROOM_IDLE_SECONDS": "a room nobody joined closes after 30 minutes",
    "PARTYHUB_CODE_ALPHABET": "the letters of room codes (tests use a tiny one)",
    "REDIS_SENTINELS": "compose runs one Redis on one machine; Sentinel is for many (README)",
    "REDIS_SENTINEL_MASTER": "goes with REDIS_SENTINELS",
    "PARTYHUB_CLAIM_SECONDS": "a request for a seat waits 2 minutes for the host (docs/security.md)",
    "PARTYHUB_VIP_GRACE_SECONDS": "the VIP keeps the role through 60 s away, as Jackbox does (docs/decisions.md)",
    "PARTYHUB_DECKS_PER_HOST": "uploaded decks one host may own, 20 (docs/protocol.md)",
    "PARTYHUB_DECK_MB_PER_HOST": "bytes of decks one host may own, 200 MiB (docs/protocol.md)",
    "PARTYHUB_DENY_WORDS_FILE": "family mode's shipped deny lists serve; a server adds words by choice",
    "PARTYHUB_REPLICA": "X-Partyhub-Replica names the container's host name: its short id, as docker ps shows",
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


def proxy_service() -> tuple[str, dict]:
    found = [(n, s) for n, s in SERVICES.items() if str(s.get("image", "")).startswith("nginx")]
    assert len(found) == 1, "one nginx proxy service"
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


def test_proxy_routes_every_room_to_one_replica_by_its_code():
    """deploy/nginx: a consistent hash of the room's code over one server per replica, which
    upstream.sh writes and keeps current (test_proxy.py runs it)."""
    conf = (ROOT / "deploy" / "nginx" / "default.conf.template").read_text()
    upstream = re.search(r"upstream\s+partyhub_web\s*\{([^}]*)\}", conf)
    assert upstream and re.search(r"hash\s+\$partyhub_room\s+consistent;", upstream.group(1))
    assert re.search(r"zone\s+partyhub_web\s", upstream.group(1)), "failures shared by the workers"
    servers = re.search(r"include\s+(\S+);", upstream.group(1)).group(1)
    script = (ROOT / "deploy" / "nginx" / "upstream.sh").read_text()
    assert f"out=${{PARTYHUB_SERVERS:-{servers}}}" in script
    passes = re.findall(r"proxy_pass\s+([^;]+);", conf)
    assert passes and set(passes) == {"http://partyhub_web"}, passes
    room = re.search(r'map\s+\$uri\s+\$partyhub_room\s*\{\s*"~\^/\(\?:([^)]*)\)/', conf)
    assert room and set(room.group(1).split("|")) == {"ws/rooms", "api/rooms", "j", "tv", "r"}
    for n in range(1, 9):   # each letter of the code upper-cased, as the app reads it
        assert re.search(rf"map\s+\$room_l{n}\s+\$room_u{n}\s*\{{\s*a A;.* z Z; \}}", conf), n


def test_proxy_runs_upstream_sh_before_nginx_starts():
    _, proxy = proxy_service()
    assert "./deploy/nginx/upstream.sh:/docker-entrypoint.d/40-partyhub-upstream.sh:ro" in proxy["volumes"]
    assert os.access(ROOT / "deploy" / "nginx" / "upstream.sh", os.X_OK), "the image runs only executable scripts"


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


def test_build_context_keeps_what_the_image_needs():
    ignored = {ln.strip() for ln in (ROOT / ".dockerignore").read_text().splitlines()
               if ln.strip() and not ln.startswith("#")}
    for needed in ("deploy", "partyhub", "games", "frontend", "manage.py", "pyproject.toml"):
        assert needed not in ignored
    assert ".env" in ignored and ".git" in ignored and ".venv" in ignored


@pytest.mark.parametrize("script", ["deploy/entrypoint.sh", "deploy/nginx/upstream.sh", ".ci/run"])
def test_shell_scripts_parse(script):
    path = ROOT / script
    shell = "bash" if script == ".ci/run" else "sh"
    assert subprocess.run([shell, "-n", str(path)]).returncode == 0


def test_ci_script_is_executable():
    assert os.access(ROOT / ".ci" / "run", os.X_OK)


# --- migrations, replicas, decks, logs, limits, HTTPS ---------------------------------------

def test_a_one_shot_service_migrates_before_any_web_replica_starts():
    migrate, web = SERVICES["migrate"], SERVICES["web"]
    assert migrate["command"][-2:] == ["migrate", "--noinput"] and migrate["restart"] == "no"
    assert migrate["image"] == web["image"] and migrate.get("pull_policy") == "never"
    assert environment(migrate)["DATABASE_URL"] == environment(web)["DATABASE_URL"]
    assert depends(web)["migrate"]["condition"] == "service_completed_successfully"
    assert environment(web)["MIGRATE"] == "0"


def test_the_replica_count_is_in_the_compose_file_so_a_rebuild_keeps_it():
    assert SERVICES["web"]["deploy"]["replicas"] == "${WEB_REPLICAS:-1}"


def test_every_replica_shares_the_decks_volume():
    assert "decks:/data/decks" in SERVICES["web"]["volumes"] and "decks" in COMPOSE["volumes"]


def test_env_is_ignored_by_git():
    assert ".env" in (ROOT / ".gitignore").read_text().split()


def test_the_proxy_logs_paths_without_query_strings_and_sockets_quietly():
    conf = proxy_config()
    fmt = re.search(r"log_format\s+(\w+)\s+([^;]+);", conf)
    assert fmt and "$uri" in fmt.group(2) and "$request " not in fmt.group(2) + " "
    assert "$args" not in fmt.group(2) and "$request_uri" not in fmt.group(2)
    assert re.search(rf"access_log\s+\S+\s+{fmt.group(1)};", conf)
    ws = re.search(r"location\s+/ws/\s*\{([^}]*)\}", conf)
    assert ws and re.search(r"error_log\s+\S+\s+crit;", ws.group(1))


@pytest.mark.parametrize("door", ["decks", "photos"])
def test_the_proxy_allows_big_bodies_on_the_deck_and_photo_uploads_only(door):
    from django.conf import settings
    conf = proxy_config()
    assert re.search(r"^\s*client_max_body_size\s+1m;", conf, re.M)
    upload = re.search(r"location\s+~\s+\^/api/rooms/\[\^/\]\+/" + door + r"\$\s*\{([^}]*)\}", conf)
    size = re.search(r"client_max_body_size\s+(\d+)m;", upload.group(1))
    assert int(size.group(1)) * 1024 * 1024 == settings.PARTYHUB_LIMITS["deck_body_bytes"]


def test_https_is_an_optional_caddy_profile_in_front_of_every_replica():
    caddy = SERVICES["caddy"]
    assert caddy["profiles"] == ["https"] and str(caddy["image"]).startswith("caddy:")
    env = environment(caddy)
    assert env["SITE"].startswith("${PUBLIC_URL:-") and env["CADDY_TLS"].startswith("${CADDY_TLS:-")
    assert {"80:80", "443:443"} <= set(caddy["ports"])
    assert "./deploy/caddy/Caddyfile:/etc/caddy/Caddyfile:ro" in caddy["volumes"]
    conf = (ROOT / "deploy" / "caddy" / "Caddyfile").read_text()
    assert "{$SITE} {" in conf and "tls {$CADDY_TLS}" in conf
    assert re.search(r"dynamic a web 8000", conf)
    from django.conf import settings
    mib = settings.PARTYHUB_LIMITS["deck_body_bytes"] // (1024 * 1024)
    assert re.search(rf"max_size {mib}MiB", conf) and re.search(r"max_size 1MiB", conf)
    assert not re.search(r"^\s*log\b", conf, re.M), "no access log: tokens ride in query strings"


def test_the_compose_file_is_valid_with_and_without_the_https_profile(tmp_path):
    docker = shutil.which("docker")
    if docker is None or subprocess.run([docker, "compose", "version"], capture_output=True).returncode:
        pytest.skip("docker compose is not installed")
    (tmp_path / ".env").write_text("SECRET_KEY=x\n")
    for profile in ([], ["--profile", "https"]):
        done = subprocess.run([docker, "compose", "--project-directory", str(ROOT), "--env-file",
                               str(tmp_path / ".env"), *profile, "config", "--services"],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert ("caddy" in done.stdout.split()) == bool(profile)


def test_caddy_reads_the_caddyfile_with_the_limits_of_the_api():
    """Where Debian's caddy is installed (apt-get install caddy): the Caddyfile adapts, and the
    upload path gets exactly the API's limit."""
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("caddy is not installed (optional: apt-get install caddy)")
    from django.conf import settings
    env = {**os.environ, "SITE": "https://partyhub.lan", "CADDY_TLS": "internal"}
    done = subprocess.run([caddy, "adapt", "--config", str(ROOT / "deploy" / "caddy" / "Caddyfile"),
                           "--adapter", "caddyfile"], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    sizes = sorted(int(n) for n in re.findall(r'"max_size":(\d+)', done.stdout))
    assert sizes == [1024 * 1024, settings.PARTYHUB_LIMITS["deck_body_bytes"]]
    assert '"source":"a"' in done.stdout and '"name":"web"' in done.stdout
