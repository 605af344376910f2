"""Hosts you name: the server answers only the names it is reached by, and only its own pages
(or no browser at all) may act: forged Host headers, foreign Origins and DNS rebinding."""
import json

import pytest
from channels.db import database_sync_to_async

from partyhub.http import net
from partyhub.origin import host_allowed, origin_allowed
from tests.rooms.helpers import make_room
from tests.rooms.wsclient import Client

REBOUND = "evil.example:8132"     # the attacker's name, resolving to the party machine


# The machine's addresses are read twice here; Docker's tests add and remove bridges, so this
# runs on their worker, never while a stack comes up (tests/conftest.py: xdist_group).
@pytest.mark.xdist_group("docker")
def test_the_default_hosts_are_the_names_the_server_is_reached_by():
    hosts = net.own_hosts("http://party.example:8000")
    assert {"localhost", "127.0.0.1", "[::1]", "party.example", net.lan_address()} <= set(hosts)
    assert "*" not in hosts and "evil.example" not in hosts
    assert "[fe80::1]" in net.own_hosts("http://[fe80::1]:8000")


def test_an_explicit_list_replaces_the_default_and_star_is_still_possible(monkeypatch):
    import importlib

    from partyhub import settings as live
    monkeypatch.setenv("ALLOWED_HOSTS", "party.example, tv.lan")
    assert importlib.reload(live).PARTYHUB_ALLOWED_HOSTS == ["party.example", "tv.lan"]
    assert live.PARTYHUB_ALLOW_IP_HOSTS and live.ALLOWED_HOSTS == ["*"]   # Django: HostCheck judges
    monkeypatch.setenv("PARTYHUB_ALLOW_IP_HOSTS", "0")
    assert importlib.reload(live).ALLOWED_HOSTS == ["party.example", "tv.lan"]   # Django judges too
    monkeypatch.setenv("ALLOWED_HOSTS", "*")
    assert importlib.reload(live).PARTYHUB_ALLOWED_HOSTS == ["*"] == live.ALLOWED_HOSTS
    monkeypatch.delenv("ALLOWED_HOSTS")
    monkeypatch.setenv("PARTYHUB_ALLOW_IP_HOSTS", "")         # set but empty: the default
    assert importlib.reload(live).PARTYHUB_ALLOW_IP_HOSTS
    monkeypatch.delenv("PARTYHUB_ALLOW_IP_HOSTS")
    assert "127.0.0.1" in importlib.reload(live).PARTYHUB_ALLOWED_HOSTS and live.PARTYHUB_ALLOW_IP_HOSTS


def test_an_origin_is_allowed_by_its_host_name_with_any_port(settings):
    settings.PARTYHUB_ALLOWED_HOSTS = ["localhost", "127.0.0.1", "192.168.1.20"]
    settings.PUBLIC_URL, settings.ALLOWED_ORIGINS = "https://party.example", ["http://tv.lan:9000"]
    for origin in ["http://127.0.0.1:8000", "http://127.0.0.1:5", "http://localhost",
                   "http://192.168.1.20:8000", "https://party.example", "http://tv.lan:9000", None]:
        assert origin_allowed(origin, REBOUND), origin
    for origin in [f"http://{REBOUND}", "http://127.0.0.1.evil.example", "null", "file://",
                   "http://tv.lan:9001", "https://party.example.evil", "http://[::1", "ftp://127.0.0.1"]:
        assert not origin_allowed(origin, REBOUND), origin
    settings.PARTYHUB_ALLOWED_HOSTS = ["*"]     # unsafe: the Origin must then equal the Host
    assert origin_allowed(f"http://{REBOUND}", REBOUND)
    assert not origin_allowed(f"http://{REBOUND}", "127.0.0.1:8000")


def test_a_host_header_must_name_an_allowed_host(settings):
    settings.PARTYHUB_ALLOWED_HOSTS = ["localhost", "127.0.0.1"]
    assert host_allowed("127.0.0.1:8000") and host_allowed("LOCALHOST")
    assert not any(host_allowed(h) for h in [REBOUND, "", None, "127.0.0.1.evil.example", "a b"])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/", "/api/games", "/healthz", "/tv/ABCD"])
def test_a_forged_host_gets_400_on_http(client, path):
    assert client.get(path, HTTP_HOST=REBOUND).status_code == 400
    assert client.get(path).status_code in (200, 404)


@pytest.mark.django_db(transaction=True)
def test_rebinding_cannot_create_a_room_over_http(client):
    r = client.post("/api/rooms", data="{}", content_type="application/json",
                    HTTP_HOST=REBOUND, HTTP_ORIGIN=f"http://{REBOUND}")
    assert r.status_code == 400
    from partyhub.rooms.models import Room
    assert Room.objects.count() == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("headers", [
    [(b"host", REBOUND.encode()), (b"origin", f"http://{REBOUND}".encode())],   # DNS rebinding
    [(b"host", REBOUND.encode())],                                                # forged Host
    [(b"host", b"testserver"), (b"origin", b"http://evil.example")],             # foreign page
    [(b"host", b"testserver"), (b"origin", b"null")],
    [(b"origin", b"http://testserver")],                                          # no Host
])
async def test_a_socket_with_a_forged_host_or_a_foreign_origin_is_refused(headers):
    code, host, seats = await database_sync_to_async(make_room)(1)
    assert await Client(code, seats[0].token, headers=headers).open() is not True
    assert await Client(code, host, headers=headers).open() is not True
    ok = [(b"host", b"127.0.0.1:8123"), (b"origin", b"http://localhost:9")]
    assert await Client(code, seats[0].token, headers=ok).open() is True


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("origin", ["http://evil.example", f"http://{REBOUND}", "null"])
def test_a_post_from_a_foreign_page_is_refused_with_403(client, origin):
    r = client.post("/api/rooms", data="{}", content_type="application/json", HTTP_ORIGIN=origin)
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_origin"
    code, host, _ = make_room(0)
    r = client.post(f"/api/rooms/{code}/join", data=json.dumps({"name": "Eve"}),
                    content_type="application/json", HTTP_ORIGIN=origin)
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_origin"
    r = client.post(f"/api/rooms/{code}/decks", {"name": "x"}, HTTP_ORIGIN=origin,
                    HTTP_AUTHORIZATION=f"Bearer {host}")
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_origin"


@pytest.mark.django_db(transaction=True)
def test_a_post_from_the_servers_own_page_or_from_no_browser_is_served(client):
    for extra in ({}, {"HTTP_ORIGIN": "http://testserver"}, {"HTTP_ORIGIN": "http://127.0.0.1:8000"}):
        r = client.post("/api/rooms", data="{}", content_type="application/json", **extra)
        assert r.status_code == 201, (extra, r.content)


@pytest.mark.django_db
def test_a_refused_host_is_logged_as_one_warning_line_not_a_traceback(client, caplog):
    import logging

    from django.conf import settings
    with caplog.at_level(logging.INFO):
        assert client.get("/api/games", HTTP_HOST=REBOUND).status_code == 400
    records = [r for r in caplog.records if r.name == "django.security.DisallowedHost"]
    assert len(records) == 1
    record = records[0]
    assert record.levelname == "WARNING" and record.exc_info is None
    line = logging.Formatter(settings.LOGGING["formatters"]["text"]["format"]).format(record)
    assert "\n" not in line and "Traceback" not in line
    assert "WARNING django.security.DisallowedHost Invalid HTTP_HOST header: 'evil.example:8132'" in line
    assert "GET /api/games from 127.0.0.1" in line
