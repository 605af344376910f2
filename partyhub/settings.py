"""Settings from the environment (12-factor). Every variable has a default that runs locally."""
import os
import socket
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url

from partyhub import redisconf
from partyhub.http.net import own_hosts

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("PARTYHUB_DATA", BASE_DIR / "data"))


def env_bool(name, default=False):
    """1, true, yes, on: True; any other word: False; unset or empty: the default."""
    value = os.environ.get(name, "").strip().lower()
    return value in ("1", "true", "yes", "on") if value else default


def env_choice(name, default, choices):
    """One of `choices` (any case); unset or empty: the default; another word stops the start."""
    value = os.environ.get(name, "").strip().lower() or default
    if value not in choices:
        raise ValueError(f"{name}={value!r}: expected one of {', '.join(choices)}")
    return value


def env_list(name, default=""):
    return [x.strip() for x in os.environ.get(name, default).split(",") if x.strip()]


def key_from_file(key_file: Path) -> str:
    """A stable per-installation key, made once and kept beside the database, readable by its
    owner only (0600). The file appears whole or not at all (written aside, then linked), so
    processes starting together share one key; an older, wider file is tightened."""
    import secrets
    import tempfile
    key_file.parent.mkdir(parents=True, exist_ok=True)
    if not key_file.exists():
        fd, aside = tempfile.mkstemp(dir=key_file.parent, prefix=".secret_key.")   # mode 0600
        try:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_urlsafe(50))
            os.link(aside, key_file)
        except FileExistsError:
            pass
        finally:
            os.unlink(aside)
    if key_file.stat().st_mode & 0o077:
        try:
            os.chmod(key_file, 0o600)
        except OSError as e:    # another user's file: say so, and still serve
            import warnings
            warnings.warn(f"{key_file} is readable by others and cannot be made private: {e}")
    return key_file.read_text().strip()


SECRET_KEY = os.environ.get("SECRET_KEY", "") or key_from_file(DATA_DIR / "secret_key")

DEBUG = env_bool("DEBUG", False)
PORT = int(os.environ.get("PORT", "8000"))
PUBLIC_URL = os.environ.get("PUBLIC_URL", "").rstrip("/")
# The hosts this server answers (any other Host: 400, sockets refused; partyhub/origin.py,
# docs/security.md "Hosts and origins"). The names: by default those it is really reached by
# (partyhub/http/net.py: own_hosts); a list given replaces them; "*" answers any name and
# leaves DNS rebinding open. Besides the names, any IP address literal with any port, unless
# PARTYHUB_ALLOW_IP_HOSTS=0: rebinding needs a name, and in a container the address the TV
# opens (the Docker host's) is none of the machine's own.
PARTYHUB_ALLOWED_HOSTS = env_list("ALLOWED_HOSTS") or own_hosts(PUBLIC_URL)
PARTYHUB_ALLOW_IP_HOSTS = env_bool("PARTYHUB_ALLOW_IP_HOSTS", True)
# Django's own Host check has no pattern for "an IP literal": it then answers any host, and
# partyhub.origin.HostCheck (MIDDLEWARE) applies the policy above before anything reads it.
ALLOWED_HOSTS = ["*"] if PARTYHUB_ALLOW_IP_HOSTS else PARTYHUB_ALLOWED_HOSTS
# Origins allowed to act (sockets, API POSTs) besides the allowed hosts' pages and PUBLIC_URL
# (comma-separated, with scheme).
ALLOWED_ORIGINS = env_list("ALLOWED_ORIGINS")
# Where in-process bots reach this server.
INTERNAL_URL = os.environ.get("INTERNAL_URL", f"http://127.0.0.1:{PORT}").rstrip("/")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "partyhub.rooms",
    "games.association",
    "games.jinx",
    "games.klepka",
    "games.sketch",
] + env_list("PARTYHUB_EXTRA_APPS")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "partyhub.headers.SecurityHeaders",
    # Refuses a Host that is not allowed (400), before anything below reads the host; the two
    # above read none and put the security headers on that answer too.
    "partyhub.origin.HostCheck",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: our views are sync, so the whole stack runs in the request's worker thread
    # (partyhub/middleware.py).
    "partyhub.middleware.SyncStack",
]

# Pages run only the site's own script files: no inline script, no inline style attribute
# (styles are set through the CSSOM), no eval, no plugins, no framing, sockets to this site.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' blob:",
    "font-src 'self'", "connect-src 'self'", "media-src 'self'", "object-src 'none'",
    "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
])
# What the pages use (the TV keeps its screen on, may go full screen and play sounds); the
# rest is off, for this site and anything it could embed.
PERMISSIONS_POLICY = ", ".join(
    [f"{feature}=(self)" for feature in ("screen-wake-lock", "fullscreen", "autoplay")]
    + [f"{feature}=()" for feature in (
        "camera", "microphone", "geolocation", "payment", "usb", "serial", "hid", "midi",
        "accelerometer", "gyroscope", "magnetometer", "display-capture", "encrypted-media",
        "picture-in-picture", "publickey-credentials-get", "xr-spatial-tracking")])
# No address of this site (a room code in /tv/ABCD or /j/ABCD) goes to another site.
SECURE_REFERRER_POLICY = "same-origin"
# Cross-Origin-Opener-Policy only where browsers honour it, on secure requests
# (partyhub/headers.py); Django's would go on plain HTTP too, where Chromium logs it as ignored.
SECURE_CROSS_ORIGIN_OPENER_POLICY = None
PARTYHUB_COOP = "same-origin"

ROOT_URLCONF = "partyhub.urls"
ASGI_APPLICATION = "partyhub.asgi.application"

TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [BASE_DIR / "frontend" / "templates"],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
        "django.template.context_processors.i18n",
    ]},
}]

DATABASES = {"default": dj_database_url.parse(
    os.environ.get("DATABASE_URL", f"sqlite:///{DATA_DIR / 'partyhub.sqlite3'}"),
    conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
)}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATA_DIR.mkdir(parents=True, exist_ok=True)   # SQLite's folder; nothing else is made at import
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;",
    }
elif DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # As SQLite's synchronous=NORMAL above: a commit does not wait for its WAL to reach the
    # disk (PostgreSQL writes it within 200 ms). A crash of the app or a restart of PostgreSQL
    # loses nothing; a crash of PostgreSQL's machine may lose the last moves before it. The
    # wait was a game action's largest cost and its worst stalls (docs/decisions.md).
    DATABASES["default"]["OPTIONS"] = options = DATABASES["default"].get("OPTIONS", {})
    options["options"] = " ".join(filter(None, (
        options.get("options"), "-c synchronous_commit=" + env_choice(
            "PARTYHUB_DB_SYNCHRONOUS_COMMIT", "off", ("off", "local", "on", "remote_write", "remote_apply")))))
    # The write path's hot statements (partyhub/rooms/store/rows.py) as prepared statements
    # with their values bound on the server; off for a connection pooler in transaction mode,
    # where a prepared statement does not outlive its transaction. Django's own cursors bind
    # on the client and never prepare, whatever the threshold (psycopg's None: never).
    if env_bool("PARTYHUB_DB_PREPARE", True):
        options.setdefault("prepare_threshold", 1)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
# Redis Sentinel: "host:port,host:port" and the master's name; REDIS_URL then gives only the
# password and database number (partyhub/redisconf.py).
REDIS_SENTINELS = os.environ.get("REDIS_SENTINELS", "")
REDIS_SENTINEL_MASTER = os.environ.get("REDIS_SENTINEL_MASTER", "")
_redis = redisconf.parse(REDIS_URL, REDIS_SENTINELS, REDIS_SENTINEL_MASTER)
if _redis:
    CHANNEL_LAYERS = {"default": {
        # Pub/sub: a group_send is one PUBLISH that Redis pushes to each subscribed process,
        # where the core layer's is several round trips and a blocking pop on the far side
        # (docs/performance.md, scenario 2). Pub/sub delivers at most once; what a process
        # misses while Redis is away is repaired by publish.heal() (docs/decisions.md).
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [redisconf.channel_host(_redis, socket_timeout=5, socket_connect_timeout=2,
                                                    socket_keepalive=True)]},
    }}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer",
                                  "CONFIG": {"capacity": 1500}}}

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("uk", "Українська"), ("ru", "Русский")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

STATIC_URL = "/static/"
# The image collects the static files at build time into STATIC_ROOT (/app/static) and serves
# them from there; unset (make run), WhiteNoise serves them from the source folders.
STATIC_ROOT = os.environ.get("STATIC_ROOT") or None
STATICFILES_DIRS = [BASE_DIR / "frontend" / "static"]
# Uploaded decks go through default_storage into MEDIA_ROOT/decks/ (partyhub/decks/custom.py);
# compose keeps that folder in the `decks` volume that every web replica mounts.
MEDIA_ROOT = DATA_DIR
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = STATIC_ROOT is None
WHITENOISE_AUTOREFRESH = DEBUG
# Custom decks (partyhub/decks/custom.py): up to 300 pictures may come as separate files.
DATA_UPLOAD_MAX_NUMBER_FILES = 400

# Limits (one place for each): see docs/protocol.md.
PARTYHUB_LIMITS = {
    "frame_bytes": 64 * 1024,
    "frames_per_second": float(os.environ.get("PARTYHUB_FPS", "30")),
    "frames_burst": 60,
    "stream_per_second": 60.0,
    "stream_burst": 120,
    # The audience's actions (votes, predictions, guesses: partyhub/rooms/relay/audience.py), per socket.
    "audience_per_second": 5.0,
    "audience_burst": 10,
    # Voters in one ballot (anonymous, passes and spectator seats): a new one past it is
    # refused `ballot_full`; and how long an audience pass opens its room (audiencepass.py).
    "voters_per_ballot": int(os.environ.get("PARTYHUB_VOTERS_PER_BALLOT", "500")),
    "audience_pass_seconds": int(os.environ.get("PARTYHUB_AUDIENCE_PASS_SECONDS", str(12 * 3600))),
    "strikes_before_close": 3,
    "joins_per_minute": int(os.environ.get("PARTYHUB_JOINS_PER_MINUTE", "30")),
    "max_seats": 16,
    # Requests for a seat (partyhub/rooms/access/claims.py): pending at once per room (besides one
    # per seat and one per address), and how long one waits for the TV's answer.
    "claims_per_room": 4,
    "claim_seconds": float(os.environ.get("PARTYHUB_CLAIM_SECONDS", "120")),
    "rooms_per_minute": int(os.environ.get("PARTYHUB_ROOMS_PER_MINUTE", "30")),
    # The doors (partyhub/http/limits.py; docs/security.md): failed room lookups (an unknown
    # or ended code, over HTTP, a page or a socket) and anonymous sockets opened, per address
    # per minute; sockets open at once per address and per room (per process).
    "lookups_per_minute": int(os.environ.get("PARTYHUB_LOOKUPS_PER_MINUTE", "30")),
    "audience_per_minute": int(os.environ.get("PARTYHUB_AUDIENCE_PER_MINUTE", "120")),
    "sockets_per_address": int(os.environ.get("PARTYHUB_SOCKETS_PER_ADDRESS", "300")),
    "sockets_per_room": int(os.environ.get("PARTYHUB_SOCKETS_PER_ROOM", "300")),
    # Slow requests (partyhub/edge.py): a request's line and headers must be in this many
    # seconds after its first byte; its body within body_seconds plus one second for every
    # body_min_rate bytes received.
    "header_seconds": float(os.environ.get("PARTYHUB_HEADER_SECONDS", "10")),
    "body_seconds": float(os.environ.get("PARTYHUB_BODY_SECONDS", "20")),
    "body_min_rate": int(os.environ.get("PARTYHUB_BODY_MIN_RATE", "4096")),
    # Request bodies, by path (partyhub/edge.py; docs/security.md): every path but the upload.
    "body_bytes": 64 * 1024,
    # Deck uploads (partyhub/decks/uploads.py): one request's body; the decoded pixels of one
    # deck; the wall-clock time and address space of the worker that decodes them; workers at
    # once in this process (one upload at a time per room in any case).
    "deck_body_bytes": int(os.environ.get("PARTYHUB_DECK_UPLOAD_MB", "200")) * 1024 * 1024,
    "deck_pixels": int(os.environ.get("PARTYHUB_DECK_MEGAPIXELS", "600")) * 1_000_000,
    "deck_seconds": float(os.environ.get("PARTYHUB_DECK_SECONDS", "60")),
    "deck_worker_bytes": 1024 * 1024 * 1024,
    "deck_workers": 1,
    # Each host's uploaded decks (partyhub/decks/custom.py; docs/decisions.md "Decks belong to
    # whoever uploaded them"): how many, and their stored pictures' total size.
    "decks_per_host": int(os.environ.get("PARTYHUB_DECKS_PER_HOST", "20")),
    "deck_bytes_per_host": int(os.environ.get("PARTYHUB_DECK_MB_PER_HOST", "200")) * 1024 * 1024,
    # The gallery's drawings made into pictures (partyhub/keepsakes/renders.py): pictures made
    # per address per minute (a picture already made costs nothing), and the bytes of made
    # pictures a room keeps with its keepsakes (past them a picture is made for each request).
    "renders_per_minute": int(os.environ.get("PARTYHUB_RENDERS_PER_MINUTE", "60")),
    "keepsake_picture_bytes": int(os.environ.get("PARTYHUB_KEEPSAKE_PICTURE_MB", "32")) * 1024 * 1024,
}
TIMEKEEPER_INTERVAL = float(os.environ.get("TIMEKEEPER_INTERVAL", "0.2"))

# The room lifecycle (partyhub/rooms/write/lifecycle.py, docs/decisions.md): a room with no socket
# open and no action for the idle time is closed; closed rooms are deleted after the
# retention days. Per-process caches of rooms (partyhub/rooms/store/store.py) forget a room with no
# socket in the process after the cache idle time, and hold at most the cache maximum.
# Family mode's deny list: a server's own words, one a line, added to the shipped lists
# (partyhub/family/words/README.md for the format); re-read when the file changes.
PARTYHUB_DENY_WORDS_FILE = os.environ.get("PARTYHUB_DENY_WORDS_FILE", "")
PARTYHUB_ROOM_IDLE_SECONDS = float(os.environ.get("PARTYHUB_ROOM_IDLE_SECONDS", str(12 * 3600)))
# A room nobody has joined (no seat) and with no socket open closes after the shorter time.
PARTYHUB_EMPTY_ROOM_IDLE_SECONDS = float(os.environ.get("PARTYHUB_EMPTY_ROOM_IDLE_SECONDS", "1800"))
PARTYHUB_ROOM_RETENTION_DAYS = float(os.environ.get("PARTYHUB_ROOM_RETENTION_DAYS", "7"))
PARTYHUB_ROOM_CACHE_IDLE_SECONDS = float(os.environ.get("PARTYHUB_ROOM_CACHE_IDLE_SECONDS", "60"))
PARTYHUB_ROOM_CACHE_MAX = int(os.environ.get("PARTYHUB_ROOM_CACHE_MAX", "2000"))
# The VIP keeps the crown while their phone is away for up to this many seconds (a reload, a
# locked screen); then it passes to the next connected human player (partyhub/rooms/timers/vip.py).
# A room's host may set its own (the `settings` action's `vip_grace`, 0 to 600).
PARTYHUB_VIP_GRACE_SECONDS = int(os.environ.get("PARTYHUB_VIP_GRACE_SECONDS", "60"))

# Room codes (partyhub/rooms/core/codes.py): the letters they are made of. Tests use a tiny
# alphabet to fill the 4-letter space; codes grow to 5 letters and more as it fills.
PARTYHUB_CODE_ALPHABET = os.environ.get("PARTYHUB_CODE_ALPHABET", "ABCDEFGHJKMNPQRSTUVWXYZ")

# One line per record with time, level and logger; LOG_FORMAT=json: one JSON object per line.
_LINE = "%(asctime)s %(levelname)s %(name)s %(message)s"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"format": _LINE},
        "json": {"()": "pythonjsonlogger.json.JsonFormatter", "fmt": _LINE,
                 "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"}},
    },
    "filters": {"one_line": {"()": "partyhub.origin.OneLineRefusal"}},
    "handlers": {"console": {"class": "logging.StreamHandler",
                             "formatter": "json" if os.environ.get("LOG_FORMAT") == "json" else "text"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # a Host that is not allowed: one warning line, not a traceback (partyhub/origin.py)
    "loggers": {"django.security.DisallowedHost": {"filters": ["one_line"]}},
}

# Behind a reverse proxy (compose's nginx or Caddy): the client address comes from
# X-Forwarded-For and the scheme from X-Forwarded-Proto. Never without one: a client could
# then pick its own address for the per-address limits.
PARTYHUB_TRUST_PROXY = env_bool("TRUST_PROXY", False)
if PARTYHUB_TRUST_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# HTTPS is on when PUBLIC_URL says so: cookies are then sent over HTTPS only, and
# SecurityMiddleware adds HSTS to answers given over HTTPS (never over plain HTTP).
HTTPS = PUBLIC_URL.startswith("https://")
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", "31536000")) if HTTPS else 0
# The admin's forms post from PUBLIC_URL (and ALLOWED_ORIGINS) through the proxy.
CSRF_TRUSTED_ORIGINS = [f"{u.scheme}://{u.netloc}" for u in map(urlsplit, [PUBLIC_URL, *ALLOWED_ORIGINS])
                        if u.scheme in ("http", "https") and u.netloc]

# The name every answer carries in X-Partyhub-Replica (partyhub/http/replica.py): this
# replica's, the machine's (a container's) host name unless set.
PARTYHUB_REPLICA = os.environ.get("PARTYHUB_REPLICA", "").strip() or socket.gethostname()

# GET /metrics (partyhub/metrics.py) answers only `Authorization: Bearer <METRICS_TOKEN>`.
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
