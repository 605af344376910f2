"""The default deck (issue 28): story cards measured on the shipped manifest and pictures.

Reproducible from its seed; at least 300 cards; an actor with a mood on most; at least 15
scene families, none over 10%; at least 10 palettes, no colour bucket over 10%; a sun or
moon disc on at most 30%; at most 5% layout twins; nothing pasted over anything by accident.
Nothing here renders a picture: the drawings are composed as SVG text, the pictures read."""
import collections
from pathlib import Path

import pytest

from partyhub import decks as deck
from games.association.deck import cast, draw, generate, measure, stage, story

ROOT = Path(__file__).resolve().parents[3]
CARDS = deck.shipped_manifest_path()
FOLDER = ROOT / "frontend" / "static" / deck.image_path("default").rsplit("/", 1)[0]
MANIFEST = deck._shipped("default")["cards"]


@pytest.fixture(scope="module")
def seen():
    return measure.read(FOLDER, deck.card_ids("default"))


def test_the_default_deck_has_at_least_300_distinct_cards():
    ids = deck.card_ids("default")
    assert len(ids) >= 300 and len(set(ids)) == len(ids)
    assert len({frozenset(v) for v in deck.objects("default").values()}) == len(ids)


def test_the_manifest_is_what_the_generator_makes_from_the_seed():
    assert generate.MANIFEST == deck.shipped_manifest_path()   # the pipeline writes the platform's
    assert generate.manifest_text() == CARDS.read_text(encoding="utf-8")
    assert story.plan(story.SEED) == story.plan(story.SEED)
    assert story.plan(story.SEED + 1) != story.plan(story.SEED)


def test_the_drawings_are_deterministic_too():
    for card in story.plan()[:12]:
        assert draw.card_svg(card, story.SEED) == draw.card_svg(card, story.SEED)


def test_every_card_has_a_picture_and_the_deck_loads_fast_on_a_phone():
    sizes = [(FOLDER / f"{card_id}.webp").stat().st_size for card_id in deck.card_ids("default")]
    assert min(sizes) > 3_000, "a blank picture"
    assert max(sizes) < 60_000 and sum(sizes) < 10_000_000
    assert sorted(p.stem for p in FOLDER.glob("*.webp")) == sorted(deck.card_ids("default"))


def test_most_cards_show_an_actor_doing_something_with_a_visible_mood():
    acting = [c for c in MANIFEST if c["hero"] and c["mood"] in cast.MOODS]
    assert len(acting) >= 0.6 * len(MANIFEST)
    for c in acting:
        assert c["hero"] in c["objects"] and cast.MOODS[c["mood"]][0] in c["title"], c["id"]


def test_at_least_15_scene_families_none_over_a_tenth():
    count = collections.Counter(c["family"] for c in MANIFEST)
    assert len(count) >= 15
    assert max(count.values()) <= 0.1 * len(MANIFEST)


def test_at_least_10_palettes_and_few_suns_or_moons():
    assert len({c["palette"] for c in MANIFEST}) >= 10
    assert sum(c["light"] == "disc" for c in MANIFEST) <= 0.3 * len(MANIFEST)


def test_no_colour_bucket_holds_over_a_tenth_of_the_pictures(seen):
    buckets = collections.Counter(b for _, b in seen.values())
    assert max(buckets.values()) <= 0.1 * len(seen), buckets.most_common(3)


def test_at_most_5_percent_of_the_pictures_have_a_layout_twin(seen):
    twins = measure.twins({k: h for k, (h, _) in seen.items()})
    assert len(twins) <= 0.05 * len(seen), sorted(twins)


def test_the_twin_measure_finds_a_twin():
    from PIL import Image, ImageDraw
    a = Image.new("RGB", (90, 80), "#204060")
    ImageDraw.Draw(a).rectangle((20, 10, 50, 60), fill="#f0e0a0")
    b = a.copy()
    ImageDraw.Draw(b).rectangle((60, 70, 64, 74), fill="#ff0000")
    c = a.transpose(Image.FLIP_LEFT_RIGHT)
    hashes = {"a": measure.dhash(a), "b": measure.dhash(b), "c": measure.dhash(c)}
    assert measure.twins(hashes) == {"a", "b"}


def test_nothing_overlaps_unless_a_relation_says_so():
    for card in story.plan():
        canvas = draw.paint(card, story.SEED)
        assert stage.collisions(canvas) == [], card["id"]
        assert "hero" in canvas.boxes or not card["hero"], card["id"]


def test_the_collision_check_sees_a_sticker_on_another():
    canvas = draw.Canvas("night", "x", __import__("random").Random(1))
    canvas.place("SNAIL", 100, 200, 80, key="a")
    canvas.place("KEY", 110, 190, 60, key="b")
    canvas.place("OWL", 300, 500, 60, key="c")
    assert stage.collisions(canvas) == [("a", "b")]
    canvas.relate("a", "b")
    assert stage.collisions(canvas) == []


def test_the_pools_leave_out_flags_letters_digits_symbols_and_faces():
    banned = {"FLAG", "LETTER", "DIGIT", "SYMBOL", "SIGN", "FACE", "HAND", "LOGO", "BUTTON", "MARK"}
    for name in cast.every_name():
        assert not set(name.replace("-", " ").split()) & banned, name
