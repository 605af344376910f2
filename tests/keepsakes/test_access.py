"""Who may open a room's gallery: its seats and its TV by their tokens, whoever has the host's
share link until it is revoked, and nobody once the room is purged (partyhub/keepsakes/)."""
import re

import pytest

from partyhub.keepsakes import access
from partyhub.rooms.models import Keepsake, KeepsakeLink, Room
from partyhub.rooms.write import lifecycle, services
from tests.rooms.helpers import make_room, player, start_count, tv

pytestmark = pytest.mark.django_db


def played(n=2):
    """A room whose count game was played to its end (so it left a keepsake)."""
    code, host, seats = make_room(n)
    start_count(code, target=3)
    services.room_apply(code, player(seats[0]), None, {"type": "add", "n": 3})
    return code, host, seats


def bearer(token):
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def gallery_url(client, code, token):
    r = client.post(f"/api/rooms/{code}/keepsakes", data="{}", content_type="application/json",
                    **bearer(token))
    assert r.status_code == 201, r.content
    return r.json()["url"]


def test_a_seat_token_opens_the_gallery_and_a_stranger_does_not(client):
    code, _, seats = played()
    url = gallery_url(client, code, seats[1].token)
    assert url.startswith(f"/r/{code}/keepsakes?k=") and seats[1].token not in url
    page = client.get(url)
    assert page.status_code == 200 and b"Keepsakes of room" in page.content
    assert b"P1" in page.content and b"Make a share link" not in page.content
    assert client.get(f"/r/{code}/keepsakes").status_code == 403
    assert client.get(f"/r/{code}/keepsakes?k=forged").status_code == 403
    r = client.post(f"/api/rooms/{code}/keepsakes", data="{}", content_type="application/json",
                    **bearer("not-a-token"))
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"


def test_the_tv_token_opens_it_with_the_share_buttons(client):
    code, host, _ = played()
    page = client.get(gallery_url(client, code, host))
    assert page.status_code == 200 and b"Make a share link" in page.content


def test_a_pass_of_one_room_does_not_open_another(client):
    code, _, seats = played()
    other, _, _ = played()
    key = gallery_url(client, code, seats[0].token).split("?k=")[1]
    assert client.get(f"/r/{other}/keepsakes?k={key}").status_code == 403


def test_a_kicked_player_loses_the_gallery(client):
    code, _, seats = make_room(3)
    url = gallery_url(client, code, seats[2].token)
    assert client.get(url).status_code == 200
    services.room_apply(code, tv(), None, {"type": "kick", "player": seats[2].player_id})
    assert client.get(url).status_code == 403


def test_a_kicked_players_pass_stays_dead_when_someone_else_is_given_the_seat(client):
    """Issue 31: a spectator's claim of the kicked seat, approved on the TV, un-kicked the seat,
    and the kicked player's old pass opened the gallery again."""
    code, _, seats = played(3)
    url = gallery_url(client, code, seats[2].token)
    services.room_apply(code, tv(), None, {"type": "kick", "player": seats[2].player_id})
    assert client.get(url).status_code == 403
    _, late, late_token = services.seat_join(code, "Late")
    change = services.room_apply(code, player(late), None, {"type": "take_seat", "player": seats[2].player_id})
    services.room_apply(code, tv(), None, {"type": "approve_claim", "claim": change.room.claims[0]["id"]})
    assert client.get(url).status_code == 403
    assert client.get(gallery_url(client, code, late_token)).status_code == 200    # the seat's new holder


def test_a_pass_ends_when_its_seat_moves_to_another_phone(client):
    code, _, seats = make_room(2)
    url = gallery_url(client, code, seats[1].token)
    _, claim, token = services.seat_claim(code, "P2")
    services.room_apply(code, tv(), None, {"type": "approve_claim", "claim": claim["id"]})
    assert client.get(url).status_code == 403
    assert client.get(gallery_url(client, code, token)).status_code == 200


def test_the_host_shares_a_link_anyone_can_open_until_it_is_revoked(client):
    code, host, seats = played()
    # only the host makes one
    r = client.post(f"/api/rooms/{code}/keepsakes/share", data="{}",
                    content_type="application/json", **bearer(seats[0].token))
    assert r.status_code == 401
    r = client.post(f"/api/rooms/{code}/keepsakes/share", data="{}",
                    content_type="application/json", **bearer(host))
    assert r.status_code == 201
    link = r.json()["url"]
    assert client.get(link).status_code == 200
    # a new link replaces the old one
    newer = client.post(f"/api/rooms/{code}/keepsakes/share", data="{}",
                        content_type="application/json", **bearer(host)).json()["url"]
    assert client.get(link).status_code == 403 and client.get(newer).status_code == 200
    r = client.delete(f"/api/rooms/{code}/keepsakes/share", **bearer(host))
    assert r.json() == {"revoked": True}
    assert client.get(newer).status_code == 403


def test_the_host_page_makes_and_stops_the_share_link(client):
    code, host, seats = played()
    key = gallery_url(client, code, host).split("?k=")[1]
    made = client.post(f"/r/{code}/keepsakes", {"k": key, "do": "share"})
    assert made.status_code == 200 and KeepsakeLink.objects.filter(room__code=code).exists()
    link = made.context["made"]
    assert f"/r/{code}/keepsakes?k=" in link and client.get(link).status_code == 200
    client.post(f"/r/{code}/keepsakes", {"k": key, "do": "unshare"})
    assert client.get(link).status_code == 403
    # a player's pass cannot make one
    pkey = gallery_url(client, code, seats[0].token).split("?k=")[1]
    assert client.post(f"/r/{code}/keepsakes", {"k": pkey, "do": "share"}).status_code == 403
    assert not KeepsakeLink.objects.filter(room__code=code).exists()


def test_the_gallery_is_purged_with_its_room(client):
    code, host, seats = played()
    url = gallery_url(client, code, seats[0].token)
    share = client.post(f"/api/rooms/{code}/keepsakes/share", data="{}",
                        content_type="application/json", **bearer(host)).json()["url"]
    room = Room.objects.get(code=code)
    assert Keepsake.objects.filter(room=room).count() == 1
    Room.objects.filter(pk=room.pk).update(closed_at=1)   # closed long ago
    assert client.get(url).status_code == 200            # a closed room's gallery still opens
    gone = lifecycle.purge(now=10 ** 13)
    assert gone.rooms == 1 and gone.keepsakes == 1
    assert not Keepsake.objects.exists() and not KeepsakeLink.objects.exists()
    assert client.get(url).status_code == 404 and client.get(share).status_code == 404
    # a new room with the same code is not opened by the old passes
    Room.objects.create(code=code, host_token_hash="x", pk=room.pk + 1000)
    assert client.get(url).status_code == 403


def test_a_pass_names_who_it_is_for():
    code, host, seats = played()
    _, key = access.pass_for(code, seats[0].token)
    who = access.visitor(code, key)
    assert (who.who, who.player_id, who.host) == ("player", seats[0].player_id, False)
    assert access.visitor(code, access.pass_for(code, host)[1]).host
    assert re.fullmatch(r"[A-Za-z0-9_:-]+", key)     # goes into addresses as it is


def test_unknown_codes_count_as_failed_lookups(client, settings):
    code, _, seats = played()
    url = gallery_url(client, code, seats[0].token)
    spent = settings.PARTYHUB_LIMITS["lookups_per_minute"]
    for _ in range(spent):
        assert client.get("/r/ZZZZ/keepsakes?k=x").status_code == 404
    assert client.get(url).status_code == 429


def test_the_share_form_needs_the_pages_csrf_token():
    from django.test import Client
    code, host, _ = played()
    browser = Client(enforce_csrf_checks=True)
    key = gallery_url(browser, code, host).split("?k=")[1]
    assert browser.post(f"/r/{code}/keepsakes", {"k": key, "do": "share"}).status_code == 403
    assert not KeepsakeLink.objects.filter(room__code=code).exists()
    page = browser.get(f"/r/{code}/keepsakes?k={key}")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())[1]
    made = browser.post(f"/r/{code}/keepsakes", {"k": key, "do": "share", "csrfmiddlewaretoken": token})
    assert made.status_code == 200 and KeepsakeLink.objects.filter(room__code=code).exists()


@pytest.mark.parametrize("language,text", [("uk", "Ця галерея закрита."), ("ru", "Эта галерея закрыта.")])
def test_the_refusal_speaks_the_rooms_language(client, language, text):
    """The 403 page spoke the browser's language (English here), not the room's."""
    code, _, _ = make_room(1, language=language)
    for page in (client.get(f"/r/{code}/keepsakes?k=forged"),
                 client.get(f"/r/{code}/keepsakes?k=forged", HTTP_ACCEPT_LANGUAGE="en")):
        assert page.status_code == 403
        assert text in page.content.decode() and f'lang="{language}"' in page.content.decode()
    unknown = client.get("/r/ZZZZZZ/keepsakes?k=forged", HTTP_ACCEPT_LANGUAGE="ru")
    assert unknown.status_code == 404 and 'lang="ru"' in unknown.content.decode()
