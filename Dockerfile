# partyhub web image: daphne serving HTTP + WebSocket (docker-compose.yml runs it behind nginx).
#
# Two stages. `build` has what only the build needs (gettext's msgfmt, pip, the wheels' build
# tools) and makes three things: the dependencies in a virtualenv, the compiled translations
# and the collected static files. The final stage copies those in and runs as a non-root user.
FROM python:3.11-slim AS build

ENV PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN apt-get update \
    && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/*

# Dependencies first, in their own layer: rebuilt only when the lock changes, pinned with
# their hashes. What nothing reads at run time leaves the virtualenv: pip and setuptools,
# Twisted's and Autobahn's own test suites, translation sources (.po: only .mo files are
# read) and the message catalogues of languages partyhub does not offer.
WORKDIR /app
COPY requirements.lock ./
RUN python -m venv /venv \
    && /venv/bin/pip install --require-hashes -r requirements.lock \
    && /venv/bin/pip uninstall -y -q pip setuptools \
    && cd "$(/venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')" \
    && find twisted autobahn -type d -name test -prune -exec rm -rf {} + \
    && find . -name '*.po' -delete \
    && find . -type d -path '*/locale/*/LC_MESSAGES' -not -path '*/locale/en/*' \
           -not -path '*/locale/uk/*' -not -path '*/locale/ru/*' -prune -exec rm -rf {} +

# The code, then what is made from it. PARTYHUB_DATA and SECRET_KEY are throwaways: nothing
# of the build's data folder is kept.
COPY . .
ENV PATH=/venv/bin:$PATH PYTHONPATH=/app PARTYHUB_DATA=/tmp/build-data STATIC_ROOT=/app/static \
    SECRET_KEY=build-only-not-secret
RUN python manage.py compilemessages -v0 \
    && python manage.py collectstatic --noinput -v0


FROM python:3.11-slim

# The code runs from /app (PYTHONPATH): settings find templates, decks and word lists beside it.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/venv/bin:$PATH \
    PYTHONPATH=/app \
    PARTYHUB_DATA=/data \
    STATIC_ROOT=/app/static \
    PORT=8000

# The user first: /data (and /data/decks, where compose mounts the shared `decks` volume)
# belong to it, so a fresh named volume mounted there starts out writable.
RUN useradd --system --uid 1000 --home-dir /app --shell /usr/sbin/nologin partyhub \
    && mkdir -p /data/decks \
    && chown -R partyhub:partyhub /data

COPY --from=build /venv /venv
WORKDIR /app
COPY --from=build /app /app

USER partyhub
EXPOSE ${PORT}
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "/app/deploy/healthcheck.py"]

# migrate (unless MIGRATE=0), then serve: python -m partyhub.serve (daphne on $PORT)
CMD ["sh", "/app/deploy/entrypoint.sh"]
