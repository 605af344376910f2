"""Join links: PUBLIC_URL; else the host the TV used (unless loopback); else the LAN address."""
import json

import pytest

from partyhub.rooms import net

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


def test_the_lan_address_prefers_home_networks_over_docker_bridges(monkeypatch):
    monkeypatch.setattr(net, "_interface_addresses", lambda: ["127.0.0.1", "172.17.0.1", "10.1.2.3",
                                                              "192.168.1.20"])
    net.lan_address.cache_clear()
    try:
        assert net.lan_address() == "192.168.1.20"
        monkeypatch.setattr(net, "_interface_addresses", lambda: ["172.17.0.1", "10.1.2.3"])
        net.lan_address.cache_clear()
        assert net.lan_address() == "10.1.2.3"
    finally:
        net.lan_address.cache_clear()
