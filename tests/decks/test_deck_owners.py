"""Decks belong to whoever uploaded them (docs/decisions.md): anyone else lists none and may
not start with one; the owner's later rooms offer it; the owner renames and deletes it, a
staff user sees and deletes every deck; a quota per host; a share code hands one to a friend."""
import json

import pytest
from django.contrib.auth.models import User

from partyhub import decks
from partyhub.decks import custom as hosts
from partyhub.decks import deckpass
from partyhub.rooms.access import selectors
from partyhub.rooms.core.errors import ServiceError
from partyhub.rooms.views.viewmodel import room_part
from partyhub.rooms.write import services
from tests.rooms.helpers import tv
from tests.decks.test_decks import f, picture, send

pytestmark = pytest.mark.django_db(transaction=True)
ALICE, BOB = "alice-tv-browser-key-0001", "bob-tv-browser-key-000002"


@pytest.fixture(autouse=True)
def data_dir(settings, tmp_path):
    settings.DATA_DIR = settings.MEDIA_ROOT = tmp_path
    return tmp_path


def new_room(client, key=None, players=3):
    body = {} if key is None else {"host_key": key}
    r = client.post("/api/rooms", json.dumps(body), content_type="application/json")
    assert r.status_code == 201, r.content
    made = r.json()
    for n in range(players):
        services.seat_join(made["code"], f"P{n + 1}")
    return made


def upload(client, made, name="Holiday", cards=1):
    r = send(client, made["code"], made["host_token"], name,
             [f(f"{n}.png", picture(color=(n, 90, 40))) for n in range(cards)])
    assert r.status_code == 201, r.content
    return r.json()["deck"]


def as_key(key):
    return {"HTTP_X_HOST_KEY": key}


def choices(client, **auth):
    games = {g["id"]: g for g in client.get("/api/games", **auth).json()}
    return games["association"]["options"]["deck"]["choices"]


def start(code, deck_id):
    return services.room_apply(code, tv(), None, {"type": "start", "game": "jinx",
                                                  "options": {"deck": deck_id}})


def test_a_new_browser_is_given_a_host_key_and_a_given_one_is_kept(client):
    made = new_room(client)
    assert hosts.host_key_hash(made["host_key"])
    assert new_room(client, ALICE)["host_key"] == ALICE
    assert new_room(client, "short")["host_key"] != "short"       # not a key: a new one


def test_nobody_else_sees_or_starts_with_a_hosts_deck(client):
    alice = new_room(client, ALICE)
    deck_id = upload(client, alice)
    assert client.get("/api/decks").json()["decks"] == []
    assert choices(client) == ["default"]
    bob = new_room(client, BOB)
    for auth in (as_key(BOB), {"HTTP_AUTHORIZATION": f"Bearer {bob['host_token']}"}):
        assert client.get("/api/decks", **auth).json()["decks"] == []
        assert choices(client, **auth) == ["default"]
    room = selectors.room_get(bob["code"])
    assert room_part(room, list(room.seats.all()), "")["games"][0]["options"]["deck"]["choices"] \
        == ["default"]
    with pytest.raises(ServiceError) as e:
        start(bob["code"], deck_id)
    assert (e.value.code, e.value.status) == ("deck_not_yours", 403)
    with pytest.raises(ServiceError) as e:
        start(bob["code"], "u0000000000")                              # no such deck at all
    assert e.value.code == "bad_options"
    for method in ("patch", "delete"):
        r = getattr(client, method)(f"/api/decks/{deck_id}", json.dumps({"name": "Mine now"}),
                                    content_type="application/json", **as_key(BOB))
        assert (r.status_code, r.json()["error"]["code"]) == (404, "deck_not_found")
    r = client.post(f"/api/decks/{deck_id}/share", **as_key(BOB))
    assert r.json()["error"]["code"] == "deck_not_found"
    r = client.delete(f"/api/decks/{deck_id}")                         # anonymous
    assert (r.status_code, r.json()["error"]["code"]) == (401, "no_host_key")
    assert decks.manifest(deck_id)["name"] == "Holiday"


def test_the_owners_later_room_lists_and_starts_with_it(client):
    deck_id = upload(client, new_room(client, ALICE), cards=2)
    later = new_room(client, ALICE)
    listed = client.get("/api/decks", HTTP_AUTHORIZATION=f"Bearer {later['host_token']}").json()
    assert [(d["id"], d["mine"]) for d in listed["decks"]] == [(deck_id, True)]
    assert choices(client, **as_key(ALICE)) == ["default", deck_id]
    room = selectors.room_get(later["code"])
    part = room_part(room, list(room.seats.all()), "")
    spec = {g["id"]: g for g in part["games"]}["jinx"]["options"]["deck"]
    assert spec["choices"] == ["default", deck_id] and spec["labels"] == {deck_id: "Holiday"}
    start(later["code"], deck_id)
    assert selectors.room_get(later["code"]).options["deck"] == deck_id


def test_the_owner_renames_and_deletes(client, data_dir):
    deck_id = upload(client, new_room(client, ALICE))
    r = client.patch(f"/api/decks/{deck_id}", json.dumps({"name": "  Summer   2026 "}),
                     content_type="application/json", **as_key(ALICE))
    assert r.status_code == 200 and r.json() == {"id": deck_id, "name": "Summer 2026"}
    assert decks.labels() == {deck_id: "Summer 2026"}                 # the cache sees the change
    r = client.patch(f"/api/decks/{deck_id}", json.dumps({"name": ""}),
                     content_type="application/json", **as_key(ALICE))
    assert r.json()["error"]["code"] == "bad_deck_name"
    assert client.delete(f"/api/decks/{deck_id}", **as_key(ALICE)).status_code == 204
    assert decks.custom_ids() == [] and not (data_dir / "decks" / deck_id).exists()
    assert client.delete(f"/api/decks/{deck_id}", **as_key(ALICE)).status_code == 404


def test_a_staff_user_sees_and_deletes_every_deck(client):
    first = upload(client, new_room(client, ALICE), "A")
    second = upload(client, new_room(client, BOB), "B")
    staff = User.objects.create_user("boss", password="pw-for-tests-only", is_staff=True)
    client.force_login(staff)
    listed = client.get("/api/decks").json()["decks"]
    assert [d["id"] for d in listed] == [first, second] and all(d["owner"] for d in listed)
    assert client.delete(f"/api/decks/{second}").status_code == 204
    assert decks.custom_ids() == [first]
    client.logout()
    plain = User.objects.create_user("pat", password="pw-for-tests-only")
    client.force_login(plain)
    assert client.get("/api/decks").json()["decks"] == []
    assert client.delete(f"/api/decks/{first}").status_code == 401


def test_the_quota_bounds_the_count_and_the_bytes(client, settings):
    settings.PARTYHUB_LIMITS = {**settings.PARTYHUB_LIMITS, "decks_per_host": 2}
    alice = new_room(client, ALICE)
    upload(client, alice, "One")
    upload(client, alice, "Two")
    r = send(client, alice["code"], alice["host_token"], "Three", [f("a.png", picture())])
    assert (r.status_code, r.json()["error"]["code"]) == (429, "too_many_decks")
    upload(client, new_room(client, BOB), "Bob's")                   # per host
    size = decks.manifest(decks.owned(hosts.host_key_hash(BOB))[0])["bytes"]
    settings.PARTYHUB_LIMITS = {**settings.PARTYHUB_LIMITS, "deck_bytes_per_host": size * 2 + 1}
    bob = new_room(client, BOB)
    r = send(client, bob["code"], bob["host_token"], "Big", [f(f"{n}.png", picture(color=(n, 9, 9)))
                                                              for n in range(2)])
    assert (r.status_code, r.json()["error"]["code"]) == (413, "decks_too_large")
    assert len(decks.owned(hosts.host_key_hash(BOB))) == 1


def test_a_share_code_makes_it_pickable_for_a_friend(client, settings):
    settings.PUBLIC_URL = "https://party.example.org"
    deck_id = upload(client, new_room(client, ALICE))
    shared = client.post(f"/api/decks/{deck_id}/share", **as_key(ALICE)).json()
    code = shared["code"]
    assert shared["url"] == f"https://party.example.org/?deck={code}"   # the home page adds it
    assert client.post(f"/api/decks/{deck_id}/share", **as_key(ALICE)).json()["code"] == code
    bob = new_room(client, BOB)
    r = client.post("/api/decks/redeem", json.dumps({"code": "NOPE2345"}),
                    content_type="application/json", **as_key(BOB))
    assert (r.status_code, r.json()["error"]["code"]) == (404, "bad_share_code")
    r = client.post("/api/decks/redeem", json.dumps({"code": code.lower()}),
                    content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {bob['host_token']}")
    assert r.status_code == 200 and r.json()["id"] == deck_id
    listed = client.get("/api/decks", **as_key(BOB)).json()["decks"]
    assert [(d["id"], d["mine"], "share" in d) for d in listed] == [(deck_id, False, False)]
    start(bob["code"], deck_id)
    r = client.patch(f"/api/decks/{deck_id}", json.dumps({"name": "Bob's"}),
                     content_type="application/json", **as_key(BOB))
    assert (r.status_code, r.json()["error"]["code"]) == (403, "deck_not_yours")
    assert client.get("/api/decks").json()["decks"] == []            # still nobody else's


def test_the_admin_command_lists_and_deletes_every_deck(client):
    from io import StringIO

    from django.core.management import CommandError, call_command
    first = upload(client, new_room(client, ALICE), "Alice's")
    second = upload(client, new_room(client, BOB), "Bob's")
    out = StringIO()
    call_command("decks", "list", stdout=out)
    lines = out.getvalue().splitlines()
    assert [line.split()[0] for line in lines] == [first, second] and lines[1].endswith("Bob's")
    call_command("decks", "delete", second, stdout=StringIO())
    assert decks.custom_ids() == [first]
    with pytest.raises(CommandError, match="no such deck"):
        call_command("decks", "delete", second, stdout=StringIO())


def redeem(client, code, key):
    return client.post("/api/decks/redeem", json.dumps({"code": code}), content_type="application/json",
                       **as_key(key))


def test_the_owner_renews_the_share_code_and_withdraws_the_share(client):
    carol = "carol-tv-browser-key-0003"
    deck_id = upload(client, new_room(client, ALICE))
    first = client.post(f"/api/decks/{deck_id}/share", **as_key(ALICE)).json()["code"]
    bob = new_room(client, BOB)
    assert redeem(client, first, BOB).status_code == 200
    # a new code: the old one adds the deck no more; who added it keeps it
    renewed = client.post(f"/api/decks/{deck_id}/share", json.dumps({"new": True}),
                          content_type="application/json", **as_key(ALICE)).json()
    assert renewed["code"] != first and renewed["url"].endswith(f"?deck={renewed['code']}")
    assert redeem(client, first, carol).json()["error"]["code"] == "bad_share_code"
    assert [d["id"] for d in client.get("/api/decks", **as_key(BOB)).json()["decks"]] == [deck_id]
    assert redeem(client, renewed["code"], carol).status_code == 200
    start(bob["code"], deck_id)                   # Bob's room deals it before the withdrawal
    # only the owner withdraws it
    r = client.delete(f"/api/decks/{deck_id}/share", **as_key(BOB))
    assert (r.status_code, r.json()["error"]["code"]) == (403, "deck_not_yours")
    assert client.delete(f"/api/decks/{deck_id}/share").json()["error"]["code"] == "no_host_key"
    r = client.delete(f"/api/decks/{deck_id}/share", **as_key(ALICE))
    assert r.status_code == 200 and r.json() == {"id": deck_id, "code": None, "removed": 2}
    # the code is dead, and the friends lost the deck: not listed, not offered, not dealt again
    assert redeem(client, renewed["code"], "dave-tv-browser-key-00004").json()["error"]["code"] == "bad_share_code"
    for key in (BOB, carol):
        assert client.get("/api/decks", **as_key(key)).json()["decks"] == []
        assert choices(client, **as_key(key)) == ["default"]
    # the game Bob's room dealt plays on, with its pictures (partyhub/decks/deckpass.py)
    assert client.get(deckpass.url(selectors.room_get(bob["code"]), f"{deck_id}-001")).status_code == 200
    services.room_apply(bob["code"], tv(), None, {"type": "end"})
    with pytest.raises(ServiceError) as e:
        start(bob["code"], deck_id)
    assert e.value.code == "deck_not_yours"
    assert client.get("/api/decks", **as_key(ALICE)).json()["decks"][0]["share"] is None
    # a new share is a new code
    again = client.post(f"/api/decks/{deck_id}/share", **as_key(ALICE)).json()["code"]
    assert again not in (first, renewed["code"])
