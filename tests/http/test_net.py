"""Join links: PUBLIC_URL; else the host the TV used (unless loopback); else the LAN address."""
import json

import pytest

from partyhub.http import net

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def named_hosts(settings):
    """The names these TVs use are the server's (README, "Names and addresses"); addresses
    such as 192.168.1.20 are answered without being named."""
    settings.PARTYHUB_ALLOWED_HOSTS = ["partyhub.lan", "party.example.org", "tv.localhost",
                                       "localhost", "127.0.0.1", "[::1]", "testserver"]


def create(client, host):
    r = client.post("/api/rooms", data="{}", content_type="application/json", HTTP_HOST=host)
    assert r.status_code == 201, r.content
    return r.json()


def test_without_public_url_the_join_link_and_qr_use_the_host_the_tv_used(client, settings):
    settings.PUBLIC_URL = ""
    room = create(client, "192.168.1.20:8080")
    assert room["join_url"] == f"http://192.168.1.20:8080/j/{room['code']}"
    assert room["tv_url"] == f"http://192.168.1.20:8080/tv/{room['code']}"
    qr = client.get(f"/api/rooms/{room['code']}/qr.svg", HTTP_HOST="partyhub.lan")
    assert qr["X-Join-Url"] == f"http://partyhub.lan/j/{room['code']}"
    summary = client.get(f"/api/rooms/{room['code']}", HTTP_HOST="partyhub.lan").json()
    assert summary["join_url"] == qr["X-Join-Url"]


def test_behind_a_trusted_https_proxy_the_link_is_https(client, settings):
    settings.PUBLIC_URL = ""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    room = create(client, "party.example.org")
    r = client.get(f"/api/rooms/{room['code']}/qr.svg", HTTP_HOST="party.example.org",
                   HTTP_X_FORWARDED_PROTO="https")
    assert r["X-Join-Url"] == f"https://party.example.org/j/{room['code']}"


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1:8000", "[::1]:8000", "tv.localhost"])
def test_a_tv_on_loopback_gets_the_lan_address(client, settings, host):
    settings.PUBLIC_URL = ""
    room = create(client, host)
    assert room["join_url"] == f"http://{net.lan_address()}:{settings.PORT}/j/{room['code']}"


def test_a_host_outside_allowed_hosts_is_never_echoed(client, settings):
    settings.PUBLIC_URL = ""
    settings.PARTYHUB_ALLOWED_HOSTS = ["partyhub.lan", "testserver"]
    room = create(client, "partyhub.lan")
    from django.test import RequestFactory
    request = RequestFactory().get("/", HTTP_HOST="evil.example")
    assert net.join_url(room["code"], request) == f"http://{net.lan_address()}:{settings.PORT}/j/{room['code']}"


def test_public_url_wins_over_the_host(client, settings):
    settings.PUBLIC_URL = "https://party.example.org"
    room = create(client, "192.168.1.20:8080")
    assert room["join_url"] == f"https://party.example.org/j/{room['code']}"
    assert json.loads(client.get(f"/api/rooms/{room['code']}").content)["join_url"] == room["join_url"]


# -- sockets: every view sent to a socket carries the address that socket's client used

def _socket_headers(host, **extra):
    return [(b"host", host.encode()), (b"origin", f"http://{host}".encode()),
            *((k.replace("_", "-").encode(), v.encode()) for k, v in extra.items())]


async def test_a_tvs_views_carry_the_address_the_tv_used_at_first_and_after_a_join(settings):
    """Under compose: the TV at http://192.168.1.20:<port>/ through the proxy, PUBLIC_URL empty.
    The views used to carry the process's own address (the container's 172.18.0.5:8000)."""
    from channels.db import database_sync_to_async
    from partyhub.rooms.write import services
    from partyhub.rooms.live.publish import publish
    from tests.rooms.helpers import make_room
    from tests.rooms.wsclient import Client

    settings.PUBLIC_URL = ""
    code, host_token, _ = await database_sync_to_async(make_room)(1)
    tv = Client(code, host_token, headers=_socket_headers("192.168.1.20:8080"))
    local_tv = Client(code, host_token, headers=_socket_headers("localhost:8000"))
    assert await tv.open() is True and await local_tv.open() is True
    assert tv.view["room"]["join_url"] == f"http://192.168.1.20:8080/j/{code}"
    default = f"http://{net.lan_address()}:{settings.PORT}/j/{code}"
    assert local_tv.view["room"]["join_url"] == default      # loopback: phones cannot use it
    change, _, _ = await database_sync_to_async(services.seat_join)(code, "Late")
    await publish(change)
    for client, url in ((tv, f"http://192.168.1.20:8080/j/{code}"), (local_tv, default)):
        view = await client.until(lambda v: len(v["room"]["players"]) == 2)
        assert view["room"]["join_url"] == url
    await tv.close()
    await local_tv.close()


async def test_a_socket_through_a_trusted_https_proxy_gets_an_https_link(settings):
    from channels.db import database_sync_to_async
    from tests.rooms.helpers import make_room
    from tests.rooms.wsclient import Client

    settings.PUBLIC_URL = ""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    code, host_token, _ = await database_sync_to_async(make_room)(1)
    tv = Client(code, host_token, headers=_socket_headers("party.example.org",
                                                          x_forwarded_proto="https"))
    assert await tv.open() is True
    assert tv.view["room"]["join_url"] == f"https://party.example.org/j/{code}"
    await tv.close()


def test_a_view_is_rebased_on_its_join_url_only():
    name = '\\"join_url\\":\\"http://evil/j/X'        # a name that looks like the key, escaped
    text = ('{"t":"view","v":1,"d":{"room":{"code":"ABCD","join_url":"http://172.18.0.5:8000/j/ABCD",'
            '"players":[{"name":"' + name + '"}]}}}')
    out = net.view_for_base(text, "http://192.168.1.20:8080")
    room = json.loads(out)["d"]["room"]
    assert room["join_url"] == "http://192.168.1.20:8080/j/ABCD"
    assert room["players"][0]["name"] == json.loads(text)["d"]["room"]["players"][0]["name"]
    assert net.view_for_base(text, None) == text


def _lan(monkeypatch, interfaces, routes):
    monkeypatch.setattr(net, "_interfaces", lambda: interfaces)
    monkeypatch.setattr(net, "_default_route_interfaces", lambda: routes)
    net.lan_address.cache_clear()
    try:
        return net.lan_address()
    finally:
        net.lan_address.cache_clear()


def test_the_lan_address_is_the_default_routes_interfaces(monkeypatch):
    """make run printed docker0's 172.17.0.1 while eth0 held the reachable address."""
    lo, docker = ("lo", "127.0.0.1", True), ("docker0", "172.17.0.1", True)
    assert _lan(monkeypatch, [lo, docker, ("eth0", "192.0.2.2", True)], ["eth0"]) == "192.0.2.2"
    assert _lan(monkeypatch, [lo, ("eth0", "172.20.1.5", True), ("wlan0", "192.168.1.20", True)],
                ["eth0"]) == "172.20.1.5"
    # no default route: a home network first, never Docker's bridges or an interface that is down
    assert _lan(monkeypatch, [docker, ("br-1a2b", "172.18.0.1", True), ("veth9", "169.254.1.1", True),
                              ("eth0", "172.20.1.5", True)], []) == "172.20.1.5"
    assert _lan(monkeypatch, [("eth1", "192.168.9.9", False), ("eth0", "10.1.2.3", True),
                              ("wlan0", "192.168.1.20", True)], []) == "192.168.1.20"
    assert _lan(monkeypatch, [("eth1", "192.168.9.9", False), ("eth0", "10.1.2.3", True)],
                []) == "10.1.2.3"


def test_the_default_route_is_read_from_the_routing_table(tmp_path):
    table = tmp_path / "route"
    table.write_text(
        "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
        "docker0\t000011AC\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0\n"
        "wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\n"
        "eth0\t00000000\t010200C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
        "tun0\t00000000\t00000000\t0000\t0\t0\t0\t00000000\t0\t0\t0\n")   # not up
    assert net._default_route_interfaces(str(table)) == ["eth0", "wlan0"]
    assert net._default_route_interfaces(str(tmp_path / "none")) == []
