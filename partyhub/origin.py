"""WebSocket Origin check: a browser may open a socket only from this site's own pages.

Allowed: no Origin header (bots, load generators: not a browser, nothing to forge), an
Origin whose host and port equal the request's Host, the PUBLIC_URL's origin, and any
origin listed in ALLOWED_ORIGINS. Anything else is refused before the consumer runs.
"""
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings


def _origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower() if parts.scheme and parts.netloc else ""


def origin_allowed(origin: str | None, host: str | None) -> bool:
    if origin is None:
        return True
    origin = origin.strip().lower()
    parts = urlsplit(origin)
    if not parts.netloc:
        return False
    if host and parts.netloc == host.strip().lower():
        return True
    allowed = {_origin_of(o) for o in settings.ALLOWED_ORIGINS}
    if settings.PUBLIC_URL:
        allowed.add(_origin_of(settings.PUBLIC_URL))
    return origin in allowed


class SameOriginValidator:
    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        headers = dict(scope.get("headers") or [])
        origin = headers.get(b"origin")
        host = headers.get(b"x-forwarded-host") or headers.get(b"host")
        if not origin_allowed(origin.decode("latin-1") if origin else None,
                              host.decode("latin-1") if host else None):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
