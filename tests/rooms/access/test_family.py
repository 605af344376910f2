"""Family mode through the room: refused names, clues, guesses and words (not_family_friendly,
the room unchanged), the setting (on for new rooms, off lets everything through), and the
host's `hide`, after which no frame of any viewer carries the hidden name or text."""
import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client as HttpClient

from partyhub.rooms.access import selectors
from partyhub.rooms.access.familymode import PLACEHOLDER
from partyhub.rooms.core import schema
from partyhub.rooms.core.errors import ServiceError
from partyhub.rooms.domain import roomactions
from partyhub.rooms.views import viewmodel
from partyhub.rooms.write import services
from tests.rooms.helpers import make_room, player, tv
from tests.rooms.transport.test_consumers import table
from tests.rooms.wsclient import Client

BAD = "f.u.c.k"


def join(code, name):
    r = HttpClient().post(f"/api/rooms/{code}/join", data=json.dumps({"name": name}),
                          content_type="application/json")
    return r.status_code, r.json()


def frames(code):
    change = selectors.room_read(code)
    return {k: json.loads(v) for k, v in viewmodel.viewer_frames(change.room, change.seats, "http://x/j/C").items()}


def refusal(fn, *args, **kwargs):
    with pytest.raises(ServiceError) as e:
        fn(*args, **kwargs)
    return e.value.code


def settings(code, **values):
    services.room_apply(code, tv(), None, {"type": "settings", **values})


def association(code, seats):
    """Association dealt; returns (the storyteller's seat, a card of its hand)."""
    services.room_apply(code, tv(), None, {"type": "start", "game": "association", "options": {}})
    for pid, frame in frames(code).items():
        tell = [a for a in frame["d"]["actions"] if a["type"] == "tell"]
        if tell:
            return next(s for s in seats if s.player_id == pid), tell[0]["card"]
    raise AssertionError("nobody tells")


# ---------------------------------------------------------------- the setting

@pytest.mark.django_db
def test_a_new_room_is_in_family_mode_and_the_host_may_turn_it_off():
    code, _, _ = make_room(1)
    assert frames(code)["@table"]["d"]["room"]["family"] is True
    settings_act = next(a for a in frames(code)["@table"]["d"]["actions"] if a["type"] == "settings")
    assert "family" in settings_act
    settings(code, family=False)
    assert frames(code)["@table"]["d"]["room"]["family"] is False
    assert refusal(settings, code, family="no") == "bad_action"


@pytest.mark.django_db
def test_a_room_from_before_the_setting_is_not_filtered():
    code, _, _ = make_room(1)
    room = selectors.room_get(code)
    room.settings = {k: v for k, v in room.settings.items() if k != "family"}
    room.save()
    services.room_apply(code, tv(), None, {"type": "lock"})     # the cached room is replaced
    services.room_apply(code, tv(), None, {"type": "unlock"})
    assert frames(code)["@table"]["d"]["room"]["family"] is False


# ---------------------------------------------------------------- names

@pytest.mark.django_db(transaction=True)
def test_a_name_on_the_list_is_refused_with_the_code_and_no_seat_is_added():
    code, _, _ = make_room(1)
    for name in [BAD, "Ｓｈｉｔ", "х у й", "Su\u200bka"]:
        status, body = join(code, name)
        assert (status, body["error"]["code"]) == (400, "not_family_friendly"), name
    assert [p["name"] for p in frames(code)["@table"]["d"]["room"]["players"]] == ["P1"]
    assert join(code, "Scunthorpe")[0] == 201


@pytest.mark.django_db(transaction=True)
def test_with_family_mode_off_the_same_name_joins():
    code, _, _ = make_room(1)
    settings(code, family=False)
    assert join(code, BAD)[0] == 201


# ---------------------------------------------------------------- clues, guesses, words

@pytest.mark.django_db
def test_a_storytellers_clue_on_the_list_is_refused_and_the_room_is_unchanged():
    code, _, seats = make_room(3)
    teller, card = association(code, seats)
    version = selectors.room_get(code).version
    tell = {"type": "tell", "card": card, "clue": "very s h i t t y picture"}
    assert refusal(services.room_apply, code, player(teller), "a1", tell) == "not_family_friendly"
    assert selectors.room_get(code).version == version
    tell["clue"] = "a sunny day in Scunthorpe"
    assert services.room_apply(code, player(teller), "a2", tell).room.state["clue"] == tell["clue"]


@pytest.mark.django_db
def test_with_family_mode_off_the_clue_is_told():
    code, _, seats = make_room(3)
    settings(code, family=False)
    teller, card = association(code, seats)
    tell = {"type": "tell", "card": card, "clue": BAD}
    assert services.room_apply(code, player(teller), "a1", tell).room.state["clue"] == BAD


@pytest.mark.django_db
def test_a_jinx_clue_and_a_sketch_guess_on_the_list_are_refused_before_the_rules():
    code, _, seats = make_room(3)
    services.room_apply(code, tv(), None, {"type": "start", "game": "jinx", "options": {}})
    for s in seats:     # whoever is active: the filter comes first, so each one is refused
        code_ = refusal(services.room_apply, code, player(s), None, {"type": "clue", "text": "сука"})
        assert code_ == "not_family_friendly"
    services.room_apply(code, tv(), None, {"type": "end"})
    services.room_apply(code, tv(), None, {"type": "start", "game": "sketch", "options": {}})
    guess = {"type": "guess", "player": seats[1].player_id, "board": 0, "text": "пиздец"}
    assert refusal(services.room_apply, code, player(seats[0]), None, guess) == "not_family_friendly"


@pytest.mark.django_db
def test_a_custom_sketch_word_list_with_a_listed_word_is_refused_at_the_start():
    code, _, _ = make_room(3)
    start = {"type": "start", "game": "sketch", "options": {"words": "cat\ndog\nbitch\nhouse"}}
    assert refusal(services.room_apply, code, tv(), None, start) == "not_family_friendly"
    assert selectors.room_get(code).phase == "lobby"
    start["options"]["words"] = "cat\ndog\nclass\nhouse"
    assert services.room_apply(code, tv(), None, start).room.phase == "playing"


# ---------------------------------------------------------------- hide

@pytest.mark.django_db
def test_hide_is_a_room_action_of_the_tv_only_and_says_what_is_wrong():
    code, _, seats = make_room(2)
    assert {"type": "hide", "player": None, "text": None} in frames(code)["@table"]["d"]["actions"]
    vip = frames(code)[seats[0].player_id]["d"]["actions"]
    assert not any(a["type"] == "hide" for a in vip)
    hide = {"type": "hide", "player": seats[1].player_id}
    assert refusal(services.room_apply, code, player(seats[0]), None, hide) == "not_allowed"
    assert refusal(services.room_apply, code, tv(), None, {"type": "hide"}) == "bad_action"
    assert refusal(services.room_apply, code, tv(), None,
                   {"type": "hide", "player": "nobody"}) == "unknown_player"
    assert refusal(services.room_apply, code, tv(), None,
                   {"type": "hide", "player": seats[1].player_id, "text": "x"}) == "bad_action"
    assert set(roomactions.HANDLERS) == set(schema.SCHEMA)


@pytest.mark.django_db
def test_a_text_hidden_through_invisible_marks_or_look_alike_letters_is_hidden_as_shown():
    code, _, _ = make_room(2)
    services.seat_join(code, "Bob")
    services.room_apply(code, tv(), None, {"type": "hide", "text": "Во\u034fb"})     # Cyrillic В, о
    services.room_apply(code, tv(), None, {"type": "hide", "text": "BOB"})          # the same text
    assert selectors.room_get(code).settings["hidden"] == ["Воb"]
    for frame in frames(code).values():
        names = [p["name"] for p in frame["d"]["room"]["players"]]
        assert names == ["P1", "P2", PLACEHOLDER], names
    assert refusal(services.room_apply, code, tv(), None,
                   {"type": "hide", "text": "\u3164\u200b"}) == "bad_action"    # nothing visible


@pytest.mark.django_db(transaction=True)
async def test_after_hide_no_frame_of_any_viewer_carries_the_name_or_the_clue():
    code, host, phones = await table(3)
    audience = Client(code)
    assert await audience.open() is True
    viewers = [host, audience, *phones]
    await host.act({"type": "settings", "family": False})     # hiding works either way
    await host.act({"type": "start", "game": "association", "options": {}})
    for p in phones:
        await p.until(lambda d: d["room"]["phase"] == "playing" and d["game"])
    teller = next(p for p in phones if any(a["type"] == "tell" for a in p.view["actions"]))
    card = next(a["card"] for a in teller.view["actions"] if a["type"] == "tell")
    clue = "Rude Words Here"
    hidden = next(p for p in phones if p is not teller)
    name = hidden.seat.name
    await teller.act({"type": "tell", "card": card, "clue": clue})
    for v in viewers:
        await v.until(lambda d: d["game"] and d["game"].get("clue") == clue)
        await v.drain()
        v.frames.clear()
    await host.act({"type": "hide", "text": "rude   words here"})
    await host.act({"type": "hide", "player": hidden.seat.player_id})
    for v in viewers:
        await v.until(lambda d: d["game"]["clue"] == PLACEHOLDER
                      and name not in [p["name"] for p in d["room"]["players"]])
        await v.drain()
    for v in viewers:
        views = [f for f in v.frames if f["t"] == "view"]
        assert views and all(f["t"] != "error" for f in v.frames), v.frames
        # the first view after the hide of the text may still carry the name, never the clue
        assert not any(clue in json.dumps(f, ensure_ascii=False) for f in views)
        assert not any(f'"{name}"' in json.dumps(f, ensure_ascii=False) for f in views[1:])
        last = views[-1]["d"]
        assert last["game"]["clue"] == PLACEHOLDER
        assert f"Player {hidden.seat.order + 1}" in [p["name"] for p in last["room"]["players"]]
    for v in viewers:
        await v.close()
