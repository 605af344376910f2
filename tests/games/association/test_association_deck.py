"""The default deck: enough distinct cards, each a picture on disk, reproducible from its seed."""
import itertools
from pathlib import Path

import pytest

from partyhub import decks as deck
from games.association.deck import compose, generate, pool

ROOT = Path(__file__).resolve().parents[3]


def test_the_default_deck_has_at_least_150_distinct_cards():
    ids = deck.card_ids("default")
    assert len(ids) >= 150
    assert len(set(ids)) == len(ids)


def test_the_manifest_is_what_the_generator_makes_from_the_seed():
    shipped = deck.shipped_manifest_path().read_text(encoding="utf-8")
    assert generate.MANIFEST == deck.shipped_manifest_path()   # the pipeline writes the platform's
    assert generate.manifest_text() == shipped
    assert generate.manifest_text(compose.SEED) == generate.manifest_text(compose.SEED)


def test_no_two_cards_share_their_set_of_objects_or_even_a_pair_of_objects():
    objects = deck.objects("default")
    sets = [frozenset(v) for v in objects.values()]
    assert len(set(sets)) == len(sets)
    pairs = [frozenset(p) for v in objects.values() for p in itertools.combinations(v, 2)]
    assert len(set(pairs)) == len(pairs)
    assert all(2 <= len(v) <= 4 for v in objects.values())


def test_every_card_has_a_picture_and_the_deck_stays_small():
    folder = ROOT / "frontend" / "static" / deck.image_path("default").rsplit("/", 1)[0]
    sizes = []
    for card_id in deck.card_ids("default"):
        path = ROOT / "frontend" / "static" / deck.image_path("default").format(id=card_id)
        assert path.exists(), path
        sizes.append(path.stat().st_size)
    assert min(sizes) > 3_000, "a blank picture"
    assert sum(sizes) < 15_000_000
    assert folder.is_dir()


def test_the_scenes_vary_in_family_and_palette():
    cards = deck.cards("default")
    assert len({c["family"] for c in cards}) >= 6
    assert len({c["palette"] for c in cards}) >= 8
    assert max(sum(c["palette"] == p for c in cards) for p in compose.PALETTE_NAMES) < len(cards) / 5


def test_objects_come_from_the_curated_pool_and_a_card_keeps_its_names():
    labels = {compose.label(n) for n in pool.OBJECTS}
    for card_id, names in deck.objects("default").items():
        assert set(names) <= labels, card_id


def test_an_unknown_deck_is_refused():
    with pytest.raises(KeyError):
        deck.card_ids("no-such-deck")
    assert deck.names() == ("default",)
