"""Names that look the same are one name (partyhub.rooms.core.seating.same_name): invisible marks and
look-alike letters of other scripts (UTS #39 skeletons) make no new name, for a join, a claim
and a kicked name alike; Ukrainian and Russian names stay names of their own; a zalgo name
keeps at most MARKS_PER_LETTER marks a letter."""
import json
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partyhub import text
from partyhub.rooms.access import selectors
from partyhub.rooms.core import seating
from partyhub.rooms.core.errors import ServiceError
from partyhub.rooms.write import services
from tests.family.test_filter import IGNORABLES
from tests.rooms.helpers import make_room, room, tv


def refused(code_expected, fn, *args):
    with pytest.raises(ServiceError) as e:
        fn(*args)
    assert e.value.code == code_expected, e.value.code
    return e.value


@pytest.mark.django_db
def test_a_name_with_an_invisible_mark_or_look_alike_letters_is_taken():
    code, _, _ = make_room(0)
    _, bob, _ = services.seat_join(code, "Bob")
    for name in ["Bo\u034fb", "B\ufe0fob", "Bob\U000e0100", "\u3164Bob", "Воb", "ВОВ", "Βοb",
                 "ＢＯＢ", "bob"]:
        refused("name_taken", services.seat_join, code, name)
    assert [s.name for s in selectors.room_read(code).seats] == [bob.name] == ["Bob"]


@pytest.mark.django_db
def test_ukrainian_and_russian_names_join_and_are_kept_as_written():
    code, _, _ = make_room(0, "uk")
    for name in ["Олена", "Алена", "Алёна", "Ірина", "Ирина", "Olena", "Наталка", "Юля", "Bob"]:
        _, seat, _ = services.seat_join(code, name)
        assert seat.name == name
    refused("name_taken", services.seat_join, code, "ОЛЕНА")
    refused("name_taken", services.seat_join, code, "о\u034fлена")
    refused("name_taken", services.seat_join, code, "Оlena")      # a Cyrillic О before Latin
    _, seat, _ = services.seat_join(code, "воb")      # в is a small capital, not a b
    assert seat.name == "воb"


@pytest.mark.django_db
def test_a_kicked_name_stays_out_however_it_is_written():
    code, _, _ = make_room(0)
    _, bob, _ = services.seat_join(code, "Bob")
    services.room_apply(code, tv(), None, {"type": "kick", "player": bob.player_id})
    refused("name_kicked", services.seat_join, code, "Во\u034fb")
    refused("name_kicked", services.seat_claim, code, "Воb")
    services.room_apply(code, tv(), None, {"type": "unban", "name": "ВОВ"})
    assert room(code).barred == []


@pytest.mark.django_db(transaction=True)
def test_a_look_alike_name_asks_for_the_disconnected_seat_as_its_own():
    from django.test import Client
    code, _, _ = make_room(0)
    services.seat_join(code, "Bob")          # never connected: claimable
    r = Client().post(f"/api/rooms/{code}/join", data=json.dumps({"name": "Во\u200bb"}),
                      content_type="application/json")
    assert (r.status_code, r.json()["error"]["code"], r.json()["claimable"]) == (409, "name_taken", True)


def test_a_zalgo_name_keeps_at_most_the_marks_per_letter():
    zalgo = "Z" + "\u0336\u0322\u0321\u031b\u0317" * 3 + "oe"
    name = seating.clean_name(zalgo)
    marks = [unicodedata.category(ch) == "Mn" for ch in unicodedata.normalize("NFD", name)]
    assert text.MARKS_PER_LETTER == 3 and marks[:5] == [False, True, True, True, False]
    assert seating.clean_name("Việt") == "Việt"           # two marks on one letter: kept
    assert seating.clean_name("Йо\u0308сип") == "Йӧсип"   # composed


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(categories=("L", "N", "Zs")), min_size=1, max_size=seating.NAME_MAX),
       st.lists(st.tuples(st.integers(0, 40), st.sampled_from(IGNORABLES)), min_size=1, max_size=5))
def test_a_name_with_ignorables_anywhere_is_the_same_name(name, spots):
    written = name
    for at, ch in sorted(spots, reverse=True):
        written = written[:at] + ch + written[at:]
    clean, dirty = seating.clean_name(name), seating.clean_name(written)
    if clean is not None:
        assert dirty == clean and seating.same_name(written, name)


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(categories=("L",)), min_size=1, max_size=12))
def test_a_name_in_other_case_is_the_same_name(name):
    assert seating.same_name(name, name.upper()) or not text.keys(name)
    assert seating.same_name(name, name.lower()) or not text.keys(name)
