"""The address phones use to reach this server: PUBLIC_URL; else the host the TV used (when
it asked by a name or an address other than loopback); else this machine's LAN address. And
the names it is reached by (the default ALLOWED_HOSTS; IP literals are allowed besides)."""
import fcntl
import functools
import ipaddress
import socket
import struct
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http.request import split_domain_port

from partyhub.origin import host_allowed


IFF_UP, IFF_RUNNING = 0x1, 0x40     # up, and with a carrier (docker0 with no container: up, not running)
# Interfaces Docker makes (its default bridge, a compose network's bridge, a container's end
# of a pair): phones on the home network cannot reach their addresses.
DOCKER_INTERFACES = ("docker", "br-", "veth")


def _interfaces() -> list[tuple[str, str, bool]]:
    """(name, IPv4 address, up) of this machine's interfaces that have an address."""
    found = []
    try:
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        return found
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for name in names:
            request = struct.pack("256s", name[:15].encode())
            try:
                packed = fcntl.ioctl(s.fileno(), 0x8915, request)      # SIOCGIFADDR
            except OSError:
                continue
            try:
                flags = struct.unpack_from("H", fcntl.ioctl(s.fileno(), 0x8913, request), 16)[0]
            except OSError:                                             # SIOCGIFFLAGS
                flags = IFF_UP | IFF_RUNNING
            up = flags & (IFF_UP | IFF_RUNNING) == IFF_UP | IFF_RUNNING
            found.append((name, socket.inet_ntoa(packed[20:24]), up))
    return found


def _default_route_interfaces(table: str = "/proc/net/route") -> list[str]:
    """The interfaces that carry an IPv4 default route (Linux's routing table), best metric
    first; none where the table cannot be read."""
    try:
        with open(table) as f:
            rows = [line.split() for line in f.read().splitlines()[1:]]
    except OSError:
        return []
    routes = [(int(r[6]), r[0]) for r in rows
              if len(r) > 7 and r[1] == "00000000" and r[7] == "00000000" and int(r[3], 16) & 1]
    return [name for _, name in sorted(routes)]


def _interface_addresses() -> list[str]:
    found = [address for _, address, _ in _interfaces()]
    try:
        found += [ai[4][0] for ai in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        pass
    return found


def own_hosts(public_url: str = "") -> list[str]:
    """The names this server is really reached by: PUBLIC_URL's host, localhost, the
    loopback addresses, this machine's IPv4 addresses and its host name (plain and .local).
    Any other name in a Host header is refused (partyhub/origin.py). Read once at start; an
    address the machine gets later is answered all the same while IP literals are allowed
    (settings.PARTYHUB_ALLOW_IP_HOSTS)."""
    hosts = ["localhost", "127.0.0.1", "[::1]"]
    name = urlsplit(public_url).hostname if public_url else None
    if name:
        hosts.append(f"[{name}]" if ":" in name else name)
    hosts += _interface_addresses()
    machine = socket.gethostname().lower()
    hosts += [machine, f"{machine}.local"] if machine else []
    return list(dict.fromkeys(hosts))


def _rank(address: str) -> int:
    """Home networks first (192.168/16, then 10/8), then 172.16/12 (where Docker puts its
    bridges), then other private ranges, then the rest."""
    for rank, prefix in enumerate(("192.168.0.0/16", "10.0.0.0/8", "172.16.0.0/12")):
        if ipaddress.ip_address(address) in ipaddress.ip_network(prefix):
            return rank
    return 3 if ipaddress.ip_address(address).is_private else 4


@functools.lru_cache(maxsize=1)
def lan_address() -> str:
    """The IPv4 address phones on this network most likely reach: that of an interface that
    is up and carries the default route; else of another interface that is up and not
    Docker's (docker0, br-*, veth*), home networks first (_rank); else the host name. Docker's
    bridges and interfaces that are down are never preferred (make run printed docker0's
    172.17.0.1 while eth0 held the reachable address)."""
    routed = _default_route_interfaces()
    usable = [(name, address) for name, address, up in _interfaces()
              if up and not address.startswith("127.") and not name.startswith(DOCKER_INTERFACES)]
    ranked = sorted(usable, key=lambda na: (routed.index(na[0]) if na[0] in routed else len(routed),
                                            _rank(na[1])))
    return ranked[0][1] if ranked else socket.gethostname()


def _loopback(host: str) -> bool:
    name = split_domain_port(host)[0].strip("[]")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def request_base(request) -> str | None:
    """scheme://host[:port] the request came by, when that host is allowed (partyhub/origin.py)
    and not loopback (phones cannot reach the TV's "localhost")."""
    try:
        host = request.get_host()
    except DisallowedHost:
        return None
    return _base(request.scheme, host)


def _base(scheme: str, host: str | None) -> str | None:
    return f"{scheme}://{host}" if host and host_allowed(host) and not _loopback(host) else None


def socket_base(scope) -> str | None:
    """request_base for a socket: its Host (X-Forwarded-Host when settings.USE_X_FORWARDED_HOST
    trusts it, as Django's get_host does) and its scheme (https for wss, or when the proxy
    header of settings.SECURE_PROXY_SSL_HEADER says so, as Django's request.scheme does)."""
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or ()}
    host = headers.get("host")
    if settings.USE_X_FORWARDED_HOST and headers.get("x-forwarded-host"):
        host = headers["x-forwarded-host"]
    secure = scope.get("scheme") in ("wss", "https")
    if settings.SECURE_PROXY_SSL_HEADER:
        name, value = settings.SECURE_PROXY_SSL_HEADER
        sent = headers.get(name.removeprefix("HTTP_").replace("_", "-").lower())
        if sent is not None:
            secure = sent.split(",", 1)[0].strip() == value
    return _base("https" if secure else "http", host)


def public_base(request=None) -> str:
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL
    return (request is not None and request_base(request)) or f"http://{lan_address()}:{settings.PORT}"


def join_url(code: str, request=None) -> str:
    return f"{public_base(request)}/j/{code}"


JOIN_KEY = '"join_url":"'


def view_for_base(text: str, base: str | None) -> str:
    """A view frame's text with its room's join_url on `base` (socket_base: the address the
    socket's own client used), so a TV reached through a proxy shows a link phones can use,
    not this process's default (the container's address). The views are encoded once for
    every socket of a viewer; the room's join_url is the first "join_url" key in the text
    (a key: the same characters inside a string value are escaped)."""
    if base is None or settings.PUBLIC_URL:
        return text
    start = text.find(JOIN_KEY)
    if start < 0:
        return text
    start += len(JOIN_KEY)
    end = text.rfind("/j/", start, text.find('"', start))
    return text if end < 0 or text[start:end] == base else text[:start] + base + text[end:]


def tv_url(code: str | None = None, request=None) -> str:
    base = public_base(request)
    return f"{base}/tv/{code}" if code else f"{base}/"
