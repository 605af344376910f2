#!/bin/sh
# The web container's start: apply migrations, then serve HTTP and WebSocket with daphne
# (partyhub.edge: daphne with request bodies bounded by path, docs/security.md).
# With `docker compose up --scale web=N` several replicas migrate at once on a fresh
# database; the losers of that race fail one migration and simply try again.
set -eu

tries=0
until python manage.py migrate --noinput; do
    tries=$((tries + 1))
    if [ "$tries" -ge 5 ]; then
        echo "entrypoint: migrate failed $tries times, giving up" >&2
        exit 1
    fi
    echo "entrypoint: migrate failed (another replica may be migrating); retrying in 3s" >&2
    sleep 3
done

exec python -m partyhub.edge -b 0.0.0.0 -p "${PORT:-8000}" --proxy-headers partyhub.asgi:application
