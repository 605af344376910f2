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


def _interface_addresses() -> list[str]:
    found = []
    try:
        for _, name in socket.if_nameindex():
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                try:
                    packed = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name[:15].encode()))
                except OSError:
                    continue
                found.append(socket.inet_ntoa(packed[20:24]))
    except OSError:
        pass
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


@functools.lru_cache(maxsize=1)
def lan_address() -> str:
    """A non-loopback IPv4 address of this machine (private ranges first), else the host name."""
    addrs = [a for a in _interface_addresses() if not a.startswith("127.")]
    # Home networks first: 172.16/12 is where Docker puts its bridges (docker0 is 172.17.0.1).
    rank = {"192.168.": 0, "10.": 1}
    private = sorted((a for a in addrs if a.startswith(("192.168.", "10.")) or
                      (a.startswith("172.") and 16 <= int(a.split(".")[1]) <= 31)),
                     key=lambda a: next((r for p, r in rank.items() if a.startswith(p)), 2))
    return (private or addrs or [socket.gethostname()])[0]


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
    from partyhub.origin import host_allowed    # here: settings import this module
    try:
        host = request.get_host()
    except DisallowedHost:
        return None
    return f"{request.scheme}://{host}" if host_allowed(host) and not _loopback(host) else None


def public_base(request=None) -> str:
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL
    return (request is not None and request_base(request)) or f"http://{lan_address()}:{settings.PORT}"


def join_url(code: str, request=None) -> str:
    return f"{public_base(request)}/j/{code}"


def tv_url(code: str | None = None, request=None) -> str:
    base = public_base(request)
    return f"{base}/tv/{code}" if code else f"{base}/"
