# partyhub web image: daphne serving HTTP + WebSocket (docker-compose.yml runs it behind nginx).
FROM python:3.11-slim

# The code runs from /app (PYTHONPATH): settings find templates, static files, decks and
# word lists beside it, and the installed wheel carries only the Python modules.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONPATH=/app \
    PARTYHUB_DATA=/data \
    PORT=8000

WORKDIR /app

# msgfmt, for compiling the translations at build time.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/*

# Dependencies first (their own layer: rebuilt only when the lock changes), pinned with hashes.
COPY requirements.lock ./
RUN pip install --require-hashes -r requirements.lock

COPY . .
# The throwaway SECRET_KEY keeps settings from writing a key file into the image.
RUN pip install --no-deps . \
    && if find . -name '*.po' | grep -q .; then \
           SECRET_KEY=build-only-not-secret python manage.py compilemessages -v0; fi \
    && useradd --system --uid 1000 --home-dir /app --shell /usr/sbin/nologin partyhub \
    && mkdir -p /data \
    && chown partyhub:partyhub /data

USER partyhub

# Static files into $PARTYHUB_DATA/static (STATIC_ROOT), at build time.
RUN SECRET_KEY=build-only-not-secret python manage.py collectstatic --noinput -v0

EXPOSE ${PORT}
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "/app/deploy/healthcheck.py"]

# migrate, then: python -m partyhub.edge (daphne) -b 0.0.0.0 -p ${PORT:-8000} --proxy-headers partyhub.asgi:application
CMD ["sh", "/app/deploy/entrypoint.sh"]
