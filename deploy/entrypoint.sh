#!/bin/sh
# The web container's start: apply migrations, then serve HTTP and WebSocket with daphne
# (partyhub.serve: daphne with request bodies bounded by path, docs/security.md).
# Under compose a one-shot `migrate` service migrates once before any replica starts, and
# the replicas run with MIGRATE=0. The image run alone migrates its own SQLite database.
set -eu

if [ "${MIGRATE:-1}" = "1" ]; then
    python manage.py migrate --noinput
fi

# daphne on 0.0.0.0:$PORT; --proxy-headers only with TRUST_PROXY=1 (partyhub/serve.py)
exec python -m partyhub.serve --no-banner
