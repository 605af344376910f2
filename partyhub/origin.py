"""The hosts and origins this server answers (docs/security.md, "DNS rebinding").

A page on another site, or on this server's own address reached under another name (DNS
rebinding: `evil.example` made to resolve to the party machine), must not drive the server.

- Host: a request must name one of ALLOWED_HOSTS. Django refuses other HTTP requests with
  400; `HostOriginValidator` refuses such sockets before the consumer runs.
- Origin: none (not a browser: bots, load generators, nothing to forge), or an origin whose
  host is one of ALLOWED_HOSTS (any port and scheme: rebinding is about the name), or
  PUBLIC_URL's origin, or one listed in ALLOWED_ORIGINS. Sockets and every state-changing
  API request are checked (partyhub/rooms/api.py). With ALLOWED_HOSTS=* (unsafe) the
  Origin must equal the request's own Host instead, as before the hosts were named.
"""
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host


def _origin_of(url: str) -> str:
    parts = urlsplit(url.strip().lower())
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def host_allowed(host: str | None) -> bool:
    """Whether a Host header (name and optional port) names one of ALLOWED_HOSTS."""
    domain, _ = split_domain_port((host or "").strip().lower())
    return bool(domain) and validate_host(domain, settings.ALLOWED_HOSTS)


def origin_allowed(origin: str | None, host: str | None) -> bool:
    """Whether a request with this Origin header (None: none sent) to this Host may act."""
    if origin is None:
        return True
    origin = origin.strip().lower()
    try:
        parts = urlsplit(origin)
        name = parts.hostname
    except ValueError:          # a broken IPv6 literal
        return False
    if parts.scheme not in ("http", "https") or not name:
        return False
    if origin in {_origin_of(o) for o in [*settings.ALLOWED_ORIGINS, settings.PUBLIC_URL] if o}:
        return True
    named = [h for h in settings.ALLOWED_HOSTS if h != "*"]
    if validate_host(f"[{name}]" if ":" in name else name, named):
        return True
    return "*" in settings.ALLOWED_HOSTS and bool(host) and parts.netloc == host.strip().lower()


class HostOriginValidator:
    """Refuses a socket (HTTP 403 on the upgrade) whose Host or Origin is not allowed."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        headers = dict(scope.get("headers") or [])
        origin, host = headers.get(b"origin"), headers.get(b"host")
        host = host.decode("latin-1") if host else None
        if not host_allowed(host) or not origin_allowed(
                origin.decode("latin-1") if origin is not None else None, host):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
