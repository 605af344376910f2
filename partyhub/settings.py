"""Settings from the environment (12-factor). Every variable has a default that runs locally."""
import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("PARTYHUB_DATA", BASE_DIR / "data"))


def env_bool(name, default=False):
    return os.environ.get(name, str(default)).strip().lower() in ("1", "true", "yes", "on")


def env_list(name, default=""):
    return [x.strip() for x in os.environ.get(name, default).split(",") if x.strip()]


SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    # A stable per-installation key, made once and kept beside the database.
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    key_file = DATA_DIR / "secret_key"
    if not key_file.exists():
        import secrets
        key_file.write_text(secrets.token_urlsafe(50))
    SECRET_KEY = key_file.read_text().strip()

DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "*")
PORT = int(os.environ.get("PORT", "8000"))
PUBLIC_URL = os.environ.get("PUBLIC_URL", "").rstrip("/")
# Origins allowed to open sockets besides the page's own host (comma-separated, with scheme).
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

DATA_DIR.mkdir(parents=True, exist_ok=True)
DATABASES = {"default": dj_database_url.parse(
    os.environ.get("DATABASE_URL", f"sqlite:///{DATA_DIR / 'partyhub.sqlite3'}"),
    conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
)}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {"default": {
        # Pub/sub: a group_send is one PUBLISH that Redis pushes to each subscribed process,
        # where the core layer's is several round trips and a blocking pop on the far side
        # (docs/performance.md, scenario 2). Pub/sub delivers at most once; what a process
        # misses while Redis is away is repaired by publish.heal() (docs/decisions.md).
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 5, "socket_connect_timeout": 2,
                             "socket_keepalive": True}]},
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
STATIC_ROOT = DATA_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "frontend" / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG
# Custom decks (partyhub/rooms/decks.py): up to 300 pictures may come as separate files.
DATA_UPLOAD_MAX_NUMBER_FILES = 400

# Limits (one place for each): see docs/protocol.md.
PARTYHUB_LIMITS = {
    "frame_bytes": 64 * 1024,
    "frames_per_second": float(os.environ.get("PARTYHUB_FPS", "30")),
    "frames_burst": 60,
    "stream_per_second": 60.0,
    "stream_burst": 120,
    "strikes_before_close": 3,
    "joins_per_minute": int(os.environ.get("PARTYHUB_JOINS_PER_MINUTE", "30")),
    "max_seats": 16,
    # Requests for a disconnected seat (partyhub/rooms/claims.py): pending at once per room,
    # and how long one waits for the VIP's or the TV's answer.
    "claims_per_room": 4,
    "claim_seconds": float(os.environ.get("PARTYHUB_CLAIM_SECONDS", "120")),
    "rooms_per_minute": int(os.environ.get("PARTYHUB_ROOMS_PER_MINUTE", "30")),
    # Request bodies, by path (partyhub/edge.py; docs/security.md): every path but the upload.
    "body_bytes": 64 * 1024,
    # Deck uploads (partyhub/rooms/uploads.py): one request's body; the decoded pixels of one
    # deck; the wall-clock time and address space of the worker that decodes them; workers at
    # once in this process (one upload at a time per room in any case).
    "deck_body_bytes": int(os.environ.get("PARTYHUB_DECK_UPLOAD_MB", "200")) * 1024 * 1024,
    "deck_pixels": int(os.environ.get("PARTYHUB_DECK_MEGAPIXELS", "600")) * 1_000_000,
    "deck_seconds": float(os.environ.get("PARTYHUB_DECK_SECONDS", "60")),
    "deck_worker_bytes": 1024 * 1024 * 1024,
    "deck_workers": 1,
}
TIMEKEEPER_INTERVAL = float(os.environ.get("TIMEKEEPER_INTERVAL", "0.2"))

# The room lifecycle (partyhub/rooms/lifecycle.py, docs/decisions.md): a room with no socket
# open and no action for the idle time is closed; closed rooms are deleted after the
# retention days. Per-process caches of rooms (partyhub/rooms/store.py) forget a room with no
# socket in the process after the cache idle time, and hold at most the cache maximum.
PARTYHUB_ROOM_IDLE_SECONDS = float(os.environ.get("PARTYHUB_ROOM_IDLE_SECONDS", str(12 * 3600)))
PARTYHUB_ROOM_RETENTION_DAYS = float(os.environ.get("PARTYHUB_ROOM_RETENTION_DAYS", "7"))
PARTYHUB_ROOM_CACHE_IDLE_SECONDS = float(os.environ.get("PARTYHUB_ROOM_CACHE_IDLE_SECONDS", "60"))
PARTYHUB_ROOM_CACHE_MAX = int(os.environ.get("PARTYHUB_ROOM_CACHE_MAX", "2000"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
# Behind the compose reverse proxy the client address comes from X-Forwarded-For.
PARTYHUB_TRUST_PROXY = env_bool("TRUST_PROXY", False)
