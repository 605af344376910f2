"""Room codes: 4 letters while the 4-letter space has room, longer as it fills."""
import pytest

from partyhub.rooms.core import codes
from partyhub.rooms.core.errors import ServiceError
from partyhub.rooms.models import Room
from partyhub.rooms.write import services


def test_a_new_code_has_4_letters_from_the_alphabet_while_few_are_held():
    code = codes.new_code(lambda sample: set())
    assert len(code) == 4 and set(code) <= set(codes.alphabet())
    assert not set(code) & set("ILO")


def test_half_of_a_sample_held_is_not_crowded_more_than_half_is():
    seen = []

    def half(sample):
        seen.append(sample)
        return set(sample[:8]) if len(sample[0]) == 4 else set()
    code = codes.new_code(half)
    assert len(code) == 4 and code not in seen[0][:8]

    def nine(sample):
        return set(sample[:9]) if len(sample[0]) == 4 else set()
    assert len(codes.new_code(nine)) == 5


def test_lengths_are_tried_in_turn_up_to_the_longest():
    def held_below(n):
        return lambda sample: {c for c in sample if len(c) < n}
    assert [len(codes.new_code(held_below(n))) for n in range(5, 9)] == [5, 6, 7, 8]
    assert codes.new_code(lambda sample: set(sample)) is None


@pytest.mark.django_db
def test_codes_grow_as_a_tiny_space_fills_and_creation_never_fails(settings):
    settings.PARTYHUB_CODE_ALPHABET = "AB"      # 16 codes of 4 letters
    made = [services.room_create()[0].code for _ in range(60)]
    assert len(set(made)) == 60
    fours = [c for c in made if len(c) == 4]
    assert len(fours) <= 16 and all(len(c) <= 8 and set(c) <= {"A", "B"} for c in made)
    assert any(len(c) >= 6 for c in made)       # 5 letters (32 codes) filled in turn
    assert Room.objects.count() == 60


@pytest.mark.django_db
def test_no_free_code_at_all_is_room_full(settings, monkeypatch):
    monkeypatch.setattr(codes, "new_code", lambda held: None)
    with pytest.raises(ServiceError) as e:
        services.room_create()
    assert (e.value.code, e.value.status) == ("room_full", 503)
