"""The HTTP API of PROTOCOL.md."""
import json

import pytest

from partyhub.rooms.access import selectors
from partyhub.rooms.write import services
from tests.rooms.helpers import make_room, player, start_count

pytestmark = pytest.mark.django_db(transaction=True)


def post(client, url, body=None, **extra):
    return client.post(url, data=json.dumps(body or {}), content_type="application/json", **extra)


def test_creating_a_room_answers_code_join_url_and_host_token(client):
    r = post(client, "/api/rooms", {"language": "uk"})
    assert r.status_code == 201
    body = r.json()
    assert len(body["code"]) == 4 and body["host_token"]
    assert body["join_url"].endswith(f"/j/{body['code']}")
    assert "localhost" not in body["join_url"] and "127.0.0.1" not in body["join_url"]


def test_join_answers_player_id_and_token_and_errors_have_codes(client):
    code = post(client, "/api/rooms").json()["code"]
    r = post(client, f"/api/rooms/{code}/join", {"name": "Ann"})
    assert r.status_code == 201 and set(r.json()) >= {"player_id", "token"}
    cases = [("/api/rooms/ZZZZ/join", {"name": "x"}, 404, "room_not_found"),
             (f"/api/rooms/{code}/join", {"name": "ANN"}, 409, "name_taken"),
             (f"/api/rooms/{code}/join", {"name": " "}, 400, "bad_name")]
    for url, body, status, err in cases:
        r = post(client, url, body)
        assert (r.status_code, r.json()["error"]["code"]) == (status, err)
    r = client.post(f"/api/rooms/{code}/join", data="{oops", content_type="application/json")
    assert (r.status_code, r.json()["error"]["code"]) == (400, "bad_request")


def test_joins_beyond_the_limit_per_address_are_rate_limited(client, settings):
    from partyhub.http import limits
    code = post(client, "/api/rooms").json()["code"]
    settings.PARTYHUB_LIMITS = {**settings.PARTYHUB_LIMITS, "joins_per_minute": 3}
    limits.reset()          # the doors read their settings again
    statuses = [post(client, f"/api/rooms/{code}/join", {"name": f"N{i}"}).status_code for i in range(5)]
    assert statuses == [201, 201, 201, 429, 429]


def test_the_room_summary_and_the_qr_code(client):
    code, _, _ = make_room(2)
    s = client.get(f"/api/rooms/{code}").json()
    assert s["phase"] == "lobby" and [p["name"] for p in s["players"]] == ["P1", "P2"]
    assert "token" not in json.dumps(s)
    qr = client.get(f"/api/rooms/{code}/qr.svg")
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml" and b"<svg" in qr.content


def test_the_games_list_has_limits_and_option_defaults(client):
    games = client.get("/api/games").json()
    count = next(g for g in games if g["id"] == "count")
    assert count["min_players"] == 1 and count["options"]["target"] == {"default": 10, "min": 3, "max": 100}


def test_the_event_log_needs_the_host_token_and_a_finished_game(client):
    code, host, seats = make_room(2)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {host}"}
    assert client.get(f"/api/rooms/{code}/log").status_code == 401
    assert client.get(f"/api/rooms/{code}/log", HTTP_AUTHORIZATION="Bearer nope").status_code == 401
    start_count(code, target=3)
    r = client.get(f"/api/rooms/{code}/log", **auth)
    assert (r.status_code, r.json()["error"]["code"]) == (409, "game_running")
    services.room_apply(code, player(seats[0]), None, {"type": "add", "n": 3})
    log = client.get(f"/api/rooms/{code}/log", **auth).json()
    # the add closed the audience's ballot of that turn: its fold follows the move (none voted)
    assert [e["type"] for e in log["events"]] == ["game_started", "action", "audience_closed", "counted"]
    assert log["events"][2]["data"] == {"ballot": "t0", "entries": {}}


def test_healthz_reports_the_database_and_the_channel_layer(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"db": "ok", "channel_layer": "ok"}


def test_the_pages_render_in_each_language(client):
    code, _, _ = make_room(1)
    for url in ("/", f"/tv/{code}", f"/j/{code}"):
        for lang in ("en", "uk", "ru"):
            r = client.get(f"{url}?lang={lang}")
            assert r.status_code == 200, (url, lang)
            assert f'lang="{lang}"' in r.content.decode()


def test_the_ukrainian_dictionary_check_answers_known_and_unknown_words(client):
    assert client.get("/api/dictionary/uk/книжками").json()["known"] is True
    assert client.get("/api/dictionary/uk/п’ять").json()["known"] is True
    assert client.get("/api/dictionary/uk/кнткщ").json() == {"word": "кнткщ", "known": False}
    # a slash typed into the phone's check (sent as %2F) is answered, not a 404
    r = client.get("/api/dictionary/uk/%3Csvg%2Fonload%3D1%3E")
    assert r.status_code == 200 and r.json()["known"] is False, r.content


def test_healthz_is_503_with_the_reason_when_the_channel_layer_is_down(client, monkeypatch):
    from partyhub.rooms.transport import api

    async def down():
        raise ConnectionError("layer down")
    monkeypatch.setattr(api, "_probe_layer", down)
    r = client.get("/healthz")
    assert r.status_code == 503 and r.json()["db"] == "ok"
    assert r.json()["channel_layer"].startswith("down")


def test_the_origin_check_allows_the_own_host_public_url_and_no_origin(settings):
    from partyhub.origin import origin_allowed
    settings.PUBLIC_URL = "https://party.example"
    settings.ALLOWED_ORIGINS = ["http://tv.local:9000"]
    assert origin_allowed(None, "x")
    assert origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert origin_allowed("https://party.example", "web:8000")
    assert origin_allowed("http://tv.local:9000", "web:8000")
    assert not origin_allowed("http://evil.example", "127.0.0.1:8000")
    assert not origin_allowed("null", "127.0.0.1:8000")


async def test_a_request_runs_its_middleware_in_one_thread_with_few_switches(monkeypatch):
    """SyncStack (partyhub/middleware.py): Django's middlewares run sync in the request's
    worker thread. Without it, each of them switches to a thread and back on the way in and
    again on the way out: 18 switches for this request when it was added, 6 with it (the
    request signals, the stack, the way back for the view, CSRF's process_view, the view,
    and closing the response)."""
    import threading

    from asgiref import sync
    from channels.db import database_sync_to_async
    from django.test import AsyncClient

    code = (await database_sync_to_async(services.room_create)("en"))[0].code
    switches, seen = [], set()
    real_s2a, real_a2s = sync.SyncToAsync.__call__, sync.AsyncToSync.__call__

    async def s2a(self, *a, **k):
        switches.append(getattr(self.func, "__qualname__", "?"))
        return await real_s2a(self, *a, **k)

    def a2s(self, *a, **k):
        switches.append("async_to_sync")
        return real_a2s(self, *a, **k)

    from django.middleware.locale import LocaleMiddleware
    real_locale = LocaleMiddleware.process_request

    def locale(self, request):
        seen.add(threading.get_ident())
        return real_locale(self, request)

    monkeypatch.setattr(sync.SyncToAsync, "__call__", s2a)
    monkeypatch.setattr(sync.AsyncToSync, "__call__", a2s)
    monkeypatch.setattr(LocaleMiddleware, "process_request", locale)
    r = await AsyncClient().get(f"/api/rooms/{code}")
    assert r.status_code == 200 and r.json()["code"] == code
    assert len(seen) == 1 and threading.get_ident() not in seen    # a worker thread, not the loop
    assert len(switches) <= 6, switches


def test_the_frequent_requests_keep_their_database_connection(client, monkeypatch):
    """Create, join and the summary run their database work on api's pooled threads, whose
    connections outlive the request (a request's own thread would open one every time)."""
    import threading

    from django.db import connection

    seen = []
    real = selectors.room_read

    def spy(code):
        seen.append((threading.current_thread().name, id(connection.connection)))
        return real(code)
    monkeypatch.setattr(selectors, "room_read", spy)
    code = post(client, "/api/rooms").json()["code"]
    assert post(client, f"/api/rooms/{code}/join", {"name": "Ann"}).status_code == 201
    for _ in range(3):
        assert client.get(f"/api/rooms/{code}").json()["players"][0]["name"] == "Ann"
    names = {name for name, _ in seen}
    assert all(n.startswith("http-db") for n in names) and threading.current_thread().name not in names
    # at most two pooled threads, each with one connection, for three requests
    assert len(seen) == 3 and len(set(seen)) <= 2 and len(set(seen)) == len(names), seen
