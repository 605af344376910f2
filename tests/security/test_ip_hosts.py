"""Addresses need no naming: a Host that is an IP literal is answered with any port, so a TV
that opens the Docker host's LAN address (http://192.168.1.20:8080, none of the container's
own addresses) is served out of the box. DNS rebinding needs a name, so names are still
refused unless listed, and an IP-literal Origin acts only as the request's own Host (the page
came from this very address) or when it is named."""
import sys

import pytest
from channels.db import database_sync_to_async
from django.http import HttpRequest

from partyhub.origin import host_allowed, ip_literal, origin_allowed
from tests.rooms.helpers import make_room
from tests.rooms.wsclient import Client

ADDRESS = "10.1.2.3:8080"            # the Docker host's LAN address, not the container's
REBOUND = "evil.example:8080"        # the attacker's name, resolving to that address
NAMED = ["party.lan", "localhost", "127.0.0.1", "testserver"]
SECURITY_HEADERS = ["Content-Security-Policy", "Permissions-Policy", "X-Content-Type-Options",
                    "Referrer-Policy"]


@pytest.fixture
def hosts(settings):
    settings.PARTYHUB_ALLOWED_HOSTS, settings.PARTYHUB_ALLOW_IP_HOSTS = NAMED, True
    settings.PUBLIC_URL, settings.ALLOWED_ORIGINS = "", []
    return settings


def test_ip_literals_are_ipv4_addresses_or_bracketed_ipv6_addresses():
    assert all(map(ip_literal, ["10.1.2.3", "0.0.0.0", "[::1]", "[2001:db8::5]", "[::ffff:10.1.2.3]"]))
    assert not any(map(ip_literal, ["::1", "[10.1.2.3]", "010.1.2.3", "10.1.2", "0x0a.1.2.3",
                                    "10.1.2.3.evil.example", "evil.example", "[::1", "", "[]"]))


def test_any_address_is_answered_with_any_port_and_only_the_listed_names(hosts):
    for host in ["10.1.2.3", ADDRESS, "192.168.1.20:65535", "203.0.113.5:1", "[::1]",
                 "[2001:db8::5]:8080", "[FE80::1]:8000", "party.lan:8080", "PARTY.LAN"]:
        assert host_allowed(host), host
    for host in [REBOUND, "evil.example", "tv.lan:8080", "10.1.2.3.evil.example", "010.1.2.3",
                 "10.1.2", "::1", "[10.1.2.3]", "[::1", "10.1.2.3:port", "", None, "a b"]:
        assert not host_allowed(host), host


def test_with_ip_hosts_off_only_the_listed_names_and_addresses_are_answered(hosts):
    hosts.PARTYHUB_ALLOW_IP_HOSTS = False
    assert not host_allowed(ADDRESS) and not host_allowed("[2001:db8::5]:8080")
    assert host_allowed("127.0.0.1:8000") and host_allowed("party.lan")


def test_a_page_acts_at_an_address_only_from_that_very_address(hosts):
    for origin in [f"http://{ADDRESS}", f"https://{ADDRESS}", "http://party.lan:1234", None]:
        assert origin_allowed(origin, ADDRESS), origin
    for origin in ["http://203.0.113.5", "http://203.0.113.5:8080", "http://10.1.2.3",
                   "http://10.1.2.3:8081", "http://10.1.2.4:8080", f"http://{REBOUND}",
                   "http://[::1]:8080", "null", f"ftp://{ADDRESS}", f"http://user@{ADDRESS}"]:
        assert not origin_allowed(origin, ADDRESS), origin
    six = "[2001:db8::5]:8080"
    assert origin_allowed(f"http://{six}", six) and not origin_allowed("http://[2001:db8::6]:8080", six)


def test_a_rebound_page_is_refused_although_its_origin_equals_its_host(hosts):
    assert not origin_allowed(f"http://{REBOUND}", REBOUND)
    assert not origin_allowed(f"http://{ADDRESS}", REBOUND)


def test_with_ip_hosts_off_an_address_is_no_origin_of_its_own(hosts):
    hosts.PARTYHUB_ALLOW_IP_HOSTS = False
    assert not origin_allowed(f"http://{ADDRESS}", ADDRESS)
    assert origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000")     # named


def test_public_url_and_allowed_origins_act_at_an_address_as_before(hosts):
    hosts.PUBLIC_URL, hosts.ALLOWED_ORIGINS = "https://party.example", ["http://tv.lan:9000"]
    for origin in ["https://party.example", "http://tv.lan:9000"]:
        assert origin_allowed(origin, ADDRESS), origin
    for origin in ["http://party.example", "http://tv.lan:9001", "https://party.example.evil"]:
        assert not origin_allowed(origin, ADDRESS), origin


@pytest.mark.django_db(transaction=True)
def test_the_tv_opening_the_docker_hosts_address_is_served_and_links_to_it(client, hosts):
    for path in ["/", "/api/games", "/healthz", "/static/common/app.js"]:
        assert client.get(path, HTTP_HOST=ADDRESS).status_code == 200, path
    assert client.get("/", HTTP_HOST="[2001:db8::5]:8080").status_code == 200
    r = client.post("/api/rooms", data="{}", content_type="application/json",
                    HTTP_HOST=ADDRESS, HTTP_ORIGIN=f"http://{ADDRESS}")
    assert r.status_code == 201, r.content
    assert r.json()["join_url"] == f"http://{ADDRESS}/j/{r.json()['code']}"
    r = client.post("/api/rooms", data="{}", content_type="application/json",
                    HTTP_HOST=ADDRESS, HTTP_ORIGIN="http://203.0.113.5")
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_origin"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/", "/api/games", "/static/common/app.js", "/admin/login/"])
def test_a_rebound_name_gets_400_with_the_security_headers(client, hosts, path):
    r = client.get(path, HTTP_HOST=REBOUND)
    assert r.status_code == 400
    if path.startswith("/api/"):    # a script's or a bot's request is told why (partyhub/web.py)
        assert r.json()["error"]["code"] == "host_not_allowed"
    else:
        assert b"Bad Request (400)" in r.content
    missing = [h for h in SECURITY_HEADERS if h not in r.headers]
    assert not missing, missing


@pytest.mark.django_db(transaction=True)
def test_with_ip_hosts_off_an_address_gets_400(client, hosts):
    hosts.PARTYHUB_ALLOW_IP_HOSTS = False
    assert client.get("/api/games", HTTP_HOST=ADDRESS).status_code == 400
    assert client.get("/api/games", HTTP_HOST="127.0.0.1:8000").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_nothing_reads_the_host_before_the_host_check(client, hosts, monkeypatch):
    readers, real = [], HttpRequest.get_host

    def get_host(request):
        readers.append(sys._getframe(1).f_globals["__name__"])
        return real(request)
    monkeypatch.setattr(HttpRequest, "get_host", get_host)
    assert client.get("/admin/login/", HTTP_HOST=REBOUND).status_code == 400
    assert readers == ["partyhub.origin"]
    readers.clear()
    assert client.get("/admin/login/", HTTP_HOST=ADDRESS).status_code == 200
    assert readers[0] == "partyhub.origin" and len(readers) > 1    # the others read it after


@pytest.mark.django_db(transaction=True)
async def test_a_socket_by_an_address_is_refused_with_ip_hosts_off(hosts):
    code, _, seats = await database_sync_to_async(make_room)(1)
    own = [(b"host", ADDRESS.encode()), (b"origin", f"http://{ADDRESS}".encode())]
    assert await Client(code, seats[0].token, headers=own).open() is True
    hosts.PARTYHUB_ALLOW_IP_HOSTS = False
    assert await Client(code, seats[0].token, headers=own).open() is not True


def test_compose_answers_the_docker_hosts_address_out_of_the_box():
    from tests.deploy.test_compose import ROOT, SERVICES, environment
    assert environment(SERVICES["web"])["PARTYHUB_ALLOW_IP_HOSTS"] == "${PARTYHUB_ALLOW_IP_HOSTS:-1}"
    example = dict(line.split("=", 1) for line in (ROOT / ".env.example").read_text().splitlines()
                   if "=" in line and not line.startswith("#"))
    assert example["PARTYHUB_ALLOW_IP_HOSTS"] in ("", "1") and example["PUBLIC_URL"] == ""
