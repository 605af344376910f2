"""Openclipart in the story deck (issue 28): a curated pool, recorded by file name, kept
cleaned in clipart.json so that painting a card needs neither Debian's openclipart-svg nor
the network, drawn through the same ink line and flat colour as OpenMoji, and credited."""
import collections
import json
import random
import re
from pathlib import Path

import pytest

from partyhub import decks as deck
from games.association.deck import cast, clipart, draw, generate, story

ROOT = Path(__file__).resolve().parents[3]
BANNED = {"flag", "logo", "letter", "digit", "sign", "symbol", "icon", "icons", "button", "arrow", "smilies",
          "tux", "debian", "mascot", "card", "joker", "eiffel", "text", "roadsigns", "aiga"}


def clip_names(card: dict) -> list[str]:
    return [n for n in (card["hero"], card["carry"], *card["slots"].values()) if n and clipart.is_clip(n)]


def test_the_store_holds_exactly_the_pool_with_each_file_name():
    stored = clipart.stored()
    assert sorted(stored) == sorted(clipart.POOL)
    for name, (path, _) in clipart.POOL.items():
        assert stored[name]["file"] == path
        svg = stored[name]["svg"]
        assert svg.startswith("<") and len(svg) > 500, name
        assert not re.search(r"sodipodi|inkscape|<(text|image|script|style|metadata)\b", svg), name
        for ref in re.findall(r"url\(#([^)]+)\)", svg):
            assert ref.startswith("oc") and f'id="{ref}"' in svg, (name, ref)


def test_the_pool_is_curated_no_flags_logos_letters_or_symbols():
    for name, (path, word) in clipart.POOL.items():
        assert name.startswith(clipart.PREFIX) and word == cast.label(name)
        assert not set(re.split(r"[/_.\-]", path.lower())) & BANNED, path
        assert path.split("/")[0] in ("people", "animals", "buildings", "plants"), path
    assert set(clipart.LEAVE_OUT) <= set(clipart.POOL)
    assert set(clipart.POOL) <= cast.every_name()          # every drawing is used by a pool
    assert set(clipart.POOL) <= set(draw.BOXES)           # and measured


def test_cleaning_drops_the_editor_and_stray_parts_and_keeps_the_drawing_s_own_ids():
    text = ('<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.0//EN" "x.dtd">'
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            'xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" '
            'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape">'
            '<metadata><title>x</title></metadata><sodipodi:namedview id="base"/>'
            '<defs><linearGradient id="g1"><stop offset="0"/></linearGradient>'
            '<linearGradient id="g2" xlink:href="#g1"/></defs>'
            '<g id="layer1" inkscape:label="Layer 1"><path id="p7" d="M 10.123456,20.98765 l 0.123456,0.0123456" '
            'style="fill:url(#g2);stroke:#000000" stroke-miterlimit="4"/>'
            '<rect id="stray" x="400" width="2" height="300"/></g></svg>')
    out = clipart.clean(text, "oc9-", drop={"stray"})
    assert out == ('<defs><linearGradient id="oc9-0"><stop offset="0"/></linearGradient>'
                   '<linearGradient id="oc9-1" href="#oc9-0"/></defs>'
                   '<g><path d="M 10.1,21 l 0.12,0.012" style="fill:url(#oc9-1);stroke:#000000"/></g>')


def test_painting_a_card_needs_no_debian_package(monkeypatch, tmp_path):
    monkeypatch.setattr(clipart, "SOURCE", tmp_path / "nowhere")
    card = next(c for c in story.plan() if c["hero"] and clipart.is_clip(c["hero"])
                and '"#000000"' in clipart.inner(c["hero"]))
    svg = draw.card_svg(card, story.SEED)
    assert f'<filter id="oc{card["id"]}"' in svg            # the common ink line and flat colour
    assert svg.count(f'filter="url(#oc{card["id"]})"') == len(clip_names(card))
    body = draw.Canvas(card["palette"], "x", random.Random(1)).body(card["hero"])
    assert body in svg and ":#000000" not in body               # black outlines in the palette's ink
    assert draw.PALETTES[card["palette"]][7] in body


def test_openclipart_actors_and_things_are_in_the_deck_and_feel_what_they_can():
    cards = story.plan()
    with_clip = [c for c in cards if clip_names(c)]
    assert len(with_clip) >= 0.25 * len(cards)
    heroes = collections.Counter(c["hero"] for c in cards if c["hero"] and clipart.is_clip(c["hero"]))
    assert len(heroes) >= 20 and sum(heroes.values()) >= 60
    for c in cards:
        if c["hero"] in cast.FEELS:
            assert c["mood"] in cast.FEELS[c["hero"]], (c["id"], c["hero"], c["mood"])
        if c["family"] == "inside":
            assert c["hero"] not in cast.WIDE, c["id"]
    labels = collections.Counter(cast.label(n) for n in cast.every_name() if clipart.is_clip(n) or n in cast.HEROES)
    assert max(labels.values()) == 1, labels.most_common(2)    # an object name means one drawing


def test_openclipart_is_credited_on_the_credits_screens_and_in_the_readme():
    assert "Openclipart" in generate.CREDIT and "public domain" in generate.CREDIT
    assert deck._shipped("default")["credit"] == generate.CREDIT
    for game in ("association", "jinx"):
        for lang in ("en", "uk", "ru"):
            text = (ROOT / "frontend" / "static" / "games" / game / "i18n" / f"{lang}.js").read_text()
            line = next(s for s in text.splitlines() if f'"{game}.credits"' in s)
            assert "OpenMoji" in line and "Openclipart" in line, (game, lang)
    readme = (ROOT / "README.md").read_text()
    credits = readme[readme.index("## Credits"):]
    assert "Openclipart" in credits and "public domain" in credits


@pytest.mark.skipif(not clipart.SOURCE.is_dir(), reason="openclipart-svg is a build-time package")
def test_the_store_is_what_the_cleaner_makes_of_the_debian_files():
    made = clipart.read_pool()
    assert json.loads(json.dumps(made)) == clipart.stored()
