"""The hosts and origins this server answers (docs/security.md, "Hosts and origins").

A page on another site, or on this server's own address reached under another name (DNS
rebinding: `evil.example` made to resolve to the party machine), must not drive the server.

- Host: a request must name one of PARTYHUB_ALLOWED_HOSTS (the `ALLOWED_HOSTS` variable), or
  be an IP address literal, with any port, while PARTYHUB_ALLOW_IP_HOSTS is on: rebinding
  needs a name, so a browser on a rebound page always sends that name, never an address.
  `HostCheck` refuses other HTTP requests with Django's 400; `HostOriginValidator` refuses
  such sockets before the consumer runs. One function, `host_allowed`, decides for both.
- Origin: none (not a browser: bots, load generators, nothing to forge), or an origin whose
  host is one of the named hosts (any port and scheme: rebinding is about the name), or
  PUBLIC_URL's origin, or one listed in ALLOWED_ORIGINS, or the request's own Host when that
  is an IP literal (the page came from this very address). Any other IP-literal origin is
  another machine's page. Sockets and every state-changing API request are checked
  (partyhub/rooms/transport/api.py). With ALLOWED_HOSTS=* (unsafe) the Origin must equal the
  request's own Host instead, as before the hosts were named.
"""
import ipaddress
import logging
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http.request import split_domain_port, validate_host

from partyhub.http.limits import client_address


def _origin_of(url: str) -> str:
    parts = urlsplit(url.strip().lower())
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def ip_literal(domain: str) -> bool:
    """Whether a host without its port is an IPv4 address or a bracketed IPv6 address."""
    bracketed = domain.startswith("[") and domain.endswith("]")
    try:
        address = ipaddress.ip_address(domain[1:-1] if bracketed else domain)
    except ValueError:
        return False
    return address.version == (6 if bracketed else 4)


def _domain(host: str | None) -> str:
    """A Host header's name or address, lower case, without its port; "" when malformed."""
    return split_domain_port((host or "").strip().lower())[0]


def host_allowed(host: str | None) -> bool:
    """Whether a Host header (name or address, optional port) is one this server answers."""
    domain = _domain(host)
    if not domain:
        return False
    if settings.PARTYHUB_ALLOW_IP_HOSTS and ip_literal(domain):
        return True
    return validate_host(domain, settings.PARTYHUB_ALLOWED_HOSTS)


def _own_page_suffices(host: str) -> bool:
    """Whether a page of the request's own Host may act for that alone: the Host is an
    allowed IP literal (no rebinding without a name), or any name is answered (unsafe)."""
    return "*" in settings.PARTYHUB_ALLOWED_HOSTS or (
        settings.PARTYHUB_ALLOW_IP_HOSTS and ip_literal(_domain(host)))


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
    named = [h for h in settings.PARTYHUB_ALLOWED_HOSTS if h != "*"]
    if validate_host(f"[{name}]" if ":" in name else name, named):
        return True
    own = (host or "").strip().lower()
    return bool(own) and parts.netloc == own and _own_page_suffices(own)


class HostCheck:
    """HTTP: a request whose Host is not allowed gets Django's 400 for DisallowedHost (logged
    as Django logs it). Django's own check (settings.ALLOWED_HOSTS) knows names only, so it
    answers any host when IP literals are allowed; this one applies the policy instead. It
    sits below the middlewares that add the security headers, which read no host, and above
    everything that does (settings.MIDDLEWARE)."""
    sync_capable = True
    async_capable = False

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        host = request.get_host()       # Django's 400 for a malformed Host or an unlisted name
        if not host_allowed(host):
            raise DisallowedHost(f"Invalid HTTP_HOST header: {host!r}. See ALLOWED_HOSTS in "
                                 "README.md, \"Names and addresses\".")
        return self.get_response(request)


class OneLineRefusal(logging.Filter):
    """Django logs a refused Host (DisallowedHost, at the logger
    `django.security.DisallowedHost`) as an error with the exception's traceback. It is a
    stranger's request answered with a 400, not a fault of this server: one warning line
    with the path and the client's address instead (settings.LOGGING)."""

    def filter(self, record):
        request = getattr(record, "request", None)
        if request is not None:
            record.msg = f"{record.getMessage()} ({request.method} {request.path} from {client_address(request)})"
            record.args = ()
        record.exc_info = record.exc_text = record.stack_info = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


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
