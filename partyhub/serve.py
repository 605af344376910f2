"""Serve with daphne: `make run` (a banner with a terminal QR code first) and the image.

    python -m partyhub.serve              # make run: where to go, then serve
    python -m partyhub.serve --no-banner  # the container: serve only

It is daphne with request bodies bounded by path before they are read (partyhub/edge.py,
docs/security.md). daphne trusts X-Forwarded-For/-Proto only when TRUST_PROXY=1 (behind a proxy that sets them).
Its access log goes through Python logging (logger `partyhub.access`, INFO): one line per
request or socket, without query strings (a socket's token rides in one) and without the
healthchecks.
"""
import logging
import os
import sys

import django
import segno

from partyhub.edge import BoundedCommandLine, BoundedServer
from partyhub.http import net

access = logging.getLogger("partyhub.access")
QUIET_PATHS = {"/healthz"}


def log_action(protocol: str, action: str, details: dict) -> None:
    """daphne's action logger (it calls this for every finished request and socket step)."""
    path = str(details.get("path") or "").split("?", 1)[0]
    if path in QUIET_PATHS or not access.isEnabledFor(logging.INFO):
        return
    client = details.get("client") or "-"
    if protocol == "http" and action == "complete":
        access.info('%s "%s %s" %s %s %.0fms', client, details.get("method"), path,
                    details.get("status"), details.get("size"),
                    1000 * (details.get("time_taken") or 0))
    elif protocol == "websocket" and action in ("connected", "rejected", "disconnected"):
        access.info('%s "WS %s %s"', client, action, path)


def daphne_args(settings) -> list[str]:
    args = ["-b", os.environ.get("HOST", "0.0.0.0"), "-p", str(settings.PORT)]
    if settings.PARTYHUB_TRUST_PROXY:
        args.append("--proxy-headers")
    return args + ["partyhub.asgi:application"]


def serve(settings) -> None:
    """daphne with request bodies bounded by path (partyhub/edge.py) and the quiet access log."""

    class QuietServer(BoundedServer):
        def __init__(self, *args, **kwargs):
            kwargs["action_logger"] = log_action
            super().__init__(*args, **kwargs)

    class Cli(BoundedCommandLine):
        server_class = QuietServer

    Cli().run(daphne_args(settings))


def banner() -> None:
    base = net.public_base()
    print("\n  partyhub is running.\n")
    print(f"  TV:     open {base}/ on the TV (or this laptop) and press New room")
    print(f"  Phones: scan the room's QR code on the TV, or open {base}/j/<CODE>\n")
    segno.make(f"{base}/", error="m").terminal(compact=True, border=2)
    print(f"\n  (the QR code above opens the TV page: {base}/)\n", flush=True)


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "partyhub.settings")
    django.setup()
    from django.conf import settings
    if "--no-banner" not in argv:
        banner()
    serve(settings)


if __name__ == "__main__":
    main(sys.argv[1:])
