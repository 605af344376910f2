"""Each phone in its player's language (issue 22): the seat takes its language from the first
join's Accept-Language (or the join form's choice), the player changes it with the `language`
action, it stays with the seat across reloads and screens; the TV and the game's content keep
the room's language."""
import json

import pytest
from channels.db import database_sync_to_async

from games.sketch.rules import words as sketch_words
from partyhub.gamekit import TABLE
from partyhub.rooms.core.errors import ServiceError
from partyhub.rooms.models import Seat
from partyhub.rooms.views import viewmodel
from partyhub.rooms.write import services
from tests.rooms.helpers import make_room, player, tv
from tests.rooms.wsclient import Client

pytestmark = pytest.mark.django_db(transaction=True)


def join(client, code, name, header=None, **body):
    extra = {"HTTP_ACCEPT_LANGUAGE": header} if header else {}
    r = client.post(f"/api/rooms/{code}/join", data=json.dumps({"name": name, **body}),
                    content_type="application/json", **extra)
    assert r.status_code == 201, r.content
    return r.json()


def frames(code) -> dict:
    change = services.room_sync(code)
    return {k: json.loads(v)["d"] for k, v in viewmodel.viewer_frames(change.room, change.seats, "http://x").items()}


def test_a_first_join_takes_the_phones_accept_language_and_the_room_keeps_its_own(client):
    code, _, _ = make_room(1, language="ru")
    ann = join(client, code, "Ann", "uk-UA,uk;q=0.9,en;q=0.5")
    bob = join(client, code, "Bob", "de-DE,en;q=0.8")
    eve = join(client, code, "Eve")                                 # a client that sends none
    views = frames(code)
    assert views[ann["player_id"]]["you"]["language"] == "uk"
    assert views[bob["player_id"]]["you"]["language"] == "en"
    assert views[eve["player_id"]]["you"]["language"] == "ru"       # the room's
    assert {v["room"]["language"] for v in views.values()} == {"ru"}
    assert "language" not in views[TABLE]["you"]                  # the TV speaks the room's


def test_the_join_forms_choice_wins_over_accept_language(client):
    code, _, _ = make_room(1)
    ann = join(client, code, "Ann", "uk", language="ru")
    assert Seat.objects.get(player_id=ann["player_id"], room__code=code).language == "ru"
    bad = join(client, code, "Bob", "uk", language="xx")            # not a language: the header's
    assert Seat.objects.get(player_id=bad["player_id"], room__code=code).language == "uk"


def test_a_player_changes_their_phones_language_and_nobody_elses():
    code, _, seats = make_room(2, language="uk")
    services.room_apply(code, player(seats[0]), "l1", {"type": "language", "language": "en"})
    views = frames(code)
    assert views[seats[0].player_id]["you"]["language"] == "en"
    assert views[seats[1].player_id]["you"]["language"] == "uk"
    assert {v["room"]["language"] for v in views.values()} == {"uk"}


@pytest.mark.parametrize("actor, d, code_", [
    ("tv", {"type": "language", "language": "en"}, "not_allowed"),
    ("seat", {"type": "language", "language": "de"}, "bad_action"),
    ("seat", {"type": "language"}, "bad_action"),
])
def test_a_language_that_is_not_a_phones_choice_is_refused(actor, d, code_):
    code, _, seats = make_room(1)
    with pytest.raises(ServiceError) as e:
        services.room_apply(code, tv() if actor == "tv" else player(seats[0]), None, d)
    assert e.value.code == code_
    assert Seat.objects.get(pk=seats[0].pk).language == "en"


def test_the_shared_game_content_stays_in_the_rooms_language():
    code, _, seats = make_room(3, language="uk")
    services.room_apply(code, player(seats[0]), None, {"type": "language", "language": "en"})
    change = services.room_apply(code, tv(), None, {"type": "start", "game": "sketch", "options": {}})
    assert change.room.options["language"] == "uk"
    mine = frames(code)[seats[0].player_id]
    assert mine["you"]["language"] == "en"
    offered = [a["word"] for a in mine["actions"] if a["type"] == "draw"]
    ukrainian = set(sketch_words.builtin("uk", change.room.options["difficulty"]))
    assert offered and set(offered) <= ukrainian


async def test_the_choice_survives_a_reload_and_a_second_screen_while_the_tv_keeps_the_room():
    code, host, seats = await database_sync_to_async(make_room)(2, "uk")
    table = Client(code, host)
    assert await table.open() is True
    phone = Client(code, seats[0].token)
    assert await phone.open() is True
    assert phone.view["you"]["language"] == "uk"
    await phone.act({"type": "language", "language": "ru"})
    await phone.until(lambda v: v["you"]["language"] == "ru")
    await phone.close()
    again = Client(code, seats[0].token)                # the reload (or another tab of the seat)
    assert await again.open() is True
    assert again.view["you"]["language"] == "ru"
    other = Client(code, seats[1].token)
    assert await other.open() is True
    assert other.view["you"]["language"] == "uk"
    assert table.view["room"]["language"] == "uk" and "language" not in table.view["you"]
    for c in (table, again, other):
        await c.close()


def test_a_phone_page_speaks_the_language_its_player_chose_for_that_room(client):
    code, _, _ = make_room(1, language="ru")
    client.cookies["django_language"] = "en"        # what the phone's page sets (app.js)
    html = client.get(f"/j/{code}", HTTP_ACCEPT_LANGUAGE="uk").content.decode()
    assert '<html lang="en"' in html
    assert 'data-lang="en"' in html and "common/i18n/en.js" in html   # and preloads only its strings
    tv_html = client.get(f"/tv/{code}", HTTP_ACCEPT_LANGUAGE="uk").content.decode()
    assert '<html lang="ru"' in tv_html
