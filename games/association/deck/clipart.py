"""Openclipart drawings in the story deck (Openclipart 0.18, public domain).

Build time only. `generate --clipart` reads the curated files of POOL from Debian's
`openclipart-svg` package (/usr/share/openclipart/svg, or $OPENCLIPART), cleans each (editor
metadata out, ids made the drawing's own, numbers rounded) and keeps the drawings in
clipart.json beside this module with their file names, so painting a card, and the deck's
tests, need neither the package nor the network. On a card every drawing from here gets the
same ink line and flat colour as the OpenMoji drawings (`treatment`), then the card's one
painterly finish.
"""
from __future__ import annotations

import functools
import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

SOURCE = Path(os.environ.get("OPENCLIPART", "/usr/share/openclipart/svg"))
STORE = Path(__file__).resolve().parent / "clipart.json"
PREFIX = "CLIP "

# name -> (file under SOURCE, the word the cards' titles and object names use). Curated by
# eye: full figures with a readable face or gesture, creatures, houses; no flags, logos,
# letters, digits, UI symbols or pop-culture characters.
POOL = {
    # people
    "CLIP OLD MAN": ("people/man_01.svg", "old man"),
    "CLIP OLD SAILOR": ("people/man_02.svg", "old sailor"),
    "CLIP OLD WOMAN": ("people/woman_01.svg", "old woman"),
    "CLIP GIRL WITH A BALL": ("people/io_bambina_architetto_fr_01.svg", "girl with a ball"),
    "CLIP GRANDFATHER RUNNING": ("people/nonno_sport_architetto_f_01.svg", "grandfather"),
    "CLIP BALLERINA": ("people/ballerina_architetto_fra_01.svg", "ballerina"),
    "CLIP SKATER": ("people/roller_blader_ganson.svg", "skater"),
    "CLIP HIKER": ("people/backpacker_ganson.svg", "hiker"),
    "CLIP TRAVELLER": ("people/rich_young_man_going_aw_01.svg", "traveller"),
    "CLIP READER": ("people/woman_reading_gerald_g._01.svg", "reader"),
    "CLIP BLACKSMITH": ("people/blacksmiti_ganson.svg", "blacksmith"),
    # creatures
    "CLIP FROG": ("animals/rana02_architetto_france_01.svg", "frog"),
    "CLIP SHOUTING FROG": ("animals/rana01_architetto_france_01.svg", "startled frog"),
    "CLIP PENGUIN AND CHICK": ("animals/pinguino_col_piccolo_arc_01.svg", "penguin and chick"),
    "CLIP WIZARD DOG": ("animals/mammals/dog_02_drawn_with_strai_01.svg", "dog in a wizard's hat"),
    "CLIP BEAR": ("animals/mammals/bears/orso_architetto_francesc_03.svg", "brown bear"),
    "CLIP LION": ("animals/mammals/big_cats/leone_01_architetto_fran_01.svg", "lion"),
    "CLIP RESTING LION": ("animals/mammals/big_cats/leone_02_architetto_fran_01.svg", "resting lion"),
    "CLIP COW": ("animals/mammals/vacca_pezzata_rossa_val_01.svg", "cow"),
    "CLIP PIG": ("animals/mammals/pig_marcelo_caiafa1.svg", "pig"),
    "CLIP BLACK CAT": ("animals/mammals/cartoon_cat_gerald_g._01.svg", "black cat"),
    "CLIP CAT ON A CUSHION": ("animals/mammals/housecats/gattina_cat_architetto_f_01.svg", "cat on a cushion"),
    "CLIP SQUIRREL": ("animals/mammals/cartoon_squirrel_mike_sm1.svg", "squirrel with a book"),
    "CLIP BARN OWL": ("animals/birds/gufo_civetta_architetto__01.svg", "barn owl"),
    "CLIP PUFFIN": ("animals/birds/puffin-md.svg", "puffin"),
    "CLIP LADYBIRD": ("animals/bugs/bug_nicu_buculei_01.svg", "ladybird"),
    "CLIP LITTLE DRAGON": ("animals/dinosaurs/dino_architetto_francesc_02.svg", "little dragon"),
    "CLIP ORCA": ("animals/orca_matthew_gates_r.svg", "orca"),
    "CLIP SCORPION": ("animals/scorpion-md-v0.1.svg", "scorpion"),
    "CLIP MANTIS": ("animals/bugs/mantide_religiosa_archit_01.svg", "praying mantis"),
    "CLIP SWAN": ("animals/birds/cigno_di_spalle_architet_01.svg", "white swan"),
    # buildings
    "CLIP CROOKED HOUSE": ("buildings/homes/casa_dei_sogni_architett_01.svg", "crooked house"),
    "CLIP LIGHTHOUSE": ("buildings/homes/lighthouse_matthew_gates_.svg", "lighthouse"),
    "CLIP CHALET": ("buildings/homes/home0.svg", "chalet"),
    "CLIP TOWN HOUSES": ("buildings/homes/home1.svg", "town houses"),
    "CLIP IGLOO": ("buildings/homes/home10.svg", "igloo"),
    "CLIP LOG CABIN": ("buildings/homes/home12.svg", "log cabin"),
    "CLIP TIMBER HOUSE": ("buildings/homes/home3.svg", "timbered house"),
    "CLIP STILT HOUSE": ("buildings/homes/home4.svg", "house on stilts"),
    "CLIP STONE COTTAGE": ("buildings/homes/home9.svg", "stone cottage"),
    "CLIP BUBBLE HOUSE": ("buildings/homes/pinkhome-simple.svg", "bubble house"),
    "CLIP ORANGE TREE": ("plants/trees/tree_whit_fruits_01.svg", "orange tree"),
}
# name -> ids of a file's elements left out (a stray line beside the drawing)
LEAVE_OUT = {"CLIP CAT ON A CUSHION": {"polygon3"}}

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"
SKIP = {"metadata", "title", "desc", "script", "style", "namedview"}
LONG_NUMBER = re.compile(r"-?\d*\.\d{2,}(?:e-?\d+)?")


def is_clip(name: str) -> bool:
    return name.startswith(PREFIX)


def label(name: str) -> str:
    return POOL[name][1]


def _short(number: str) -> str:
    """A tenth of a unit for big numbers (coordinates); small ones (scales, opacities) keep three decimals."""
    x = float(number)
    digits = 1 if abs(x) >= 10 else 2 if abs(x) >= .1 else 3
    return f"{x:.{digits}f}".rstrip("0").rstrip(".")


def _round(text: str) -> str:
    return LONG_NUMBER.sub(lambda m: _short(m.group()), text)


def _attrs(el, ids: dict) -> str:
    out = []
    for key, value in el.attrib.items():
        if key.startswith(XLINK):
            key = key[len(XLINK):]
            if key != "href":
                continue
        elif key.startswith("{") or key == "stroke-miterlimit":
            continue        # inkscape:, sodipodi:, xml: editor attributes
        if key == "id":
            if value not in ids:
                continue
            value = ids[value]
        elif key == "href" and value.startswith("#"):
            value = "#" + ids.get(value[1:], value[1:])
        else:
            value = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{ids.get(m.group(1), m.group(1))})", value)
            value = re.sub(r"\s+", " ", _round(value)).strip()
        out.append(f' {key}="{value}"'.replace("&", "&amp;").replace("<", "&lt;"))
    return "".join(out)


def _emit(el, ids: dict, out: list, drop=frozenset()) -> None:
    if not el.tag.startswith(SVG):
        return                # sodipodi:namedview, rdf and other editors' elements
    tag = el.tag[len(SVG):]
    if tag in SKIP or el.get("id") in drop:
        return
    if not len(el):
        out.append(f"<{tag}{_attrs(el, ids)}/>")
        return
    out.append(f"<{tag}{_attrs(el, ids)}>")
    for child in el:
        _emit(child, ids, out, drop)
    out.append(f"</{tag}>")


def clean(text: str, prefix: str, drop=frozenset()) -> str:
    """The drawing inside a file's <svg> element as compact SVG: editor metadata and the
    elements whose ids are in `drop` out, every referenced id prefixed with `prefix` (others
    dropped), long numbers rounded."""
    root = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", text, flags=re.S).encode("utf-8"))
    used = set(re.findall(r"url\(#([^)]+)\)", text)) | set(re.findall(r'href="#([^"]+)"', text))
    ids = {i: f"{prefix}{n}" for n, i in enumerate(sorted(used))}
    out: list[str] = []
    for child in root:
        _emit(child, ids, out, drop)
    return "".join(out)


def read_pool(source: Path = SOURCE) -> dict:
    """{name: {"file": its file name, "svg": the cleaned drawing}} from the Debian package."""
    out = {}
    for n, (name, (path, _)) in enumerate(sorted(POOL.items())):
        text = (source / path).read_text(encoding="utf-8", errors="replace")
        out[name] = {"file": path, "svg": clean(text, f"oc{n}-", LEAVE_OUT.get(name, frozenset()))}
    return out


@functools.lru_cache(maxsize=None)
def stored() -> dict:
    return json.loads(STORE.read_text(encoding="utf-8"))


def inner(name: str) -> str:
    return stored()[name]["svg"]


def treatment(uid: str, ink: str) -> str:
    """The filter every Openclipart drawing is drawn through: its colours flattened to eight
    steps a channel (airbrushed gradients become bands of flat paint; five steps turned a
    brown bear's highlights olive) and a dark ink outline around it, as OpenMoji's own."""
    steps = " ".join(f"{k / 7:.3f}" for k in range(8))
    return (f'<filter id="oc{uid}" x="-6%" y="-6%" width="112%" height="112%">'
            f'<feMorphology in="SourceAlpha" operator="dilate" radius="1.3" result="fat"/>'
            f'<feFlood flood-color="{ink}"/><feComposite in2="fat" operator="in" result="line"/>'
            f'<feComponentTransfer in="SourceGraphic" result="flat">'
            f'<feFuncR type="discrete" tableValues="{steps}"/><feFuncG type="discrete" tableValues="{steps}"/>'
            f'<feFuncB type="discrete" tableValues="{steps}"/></feComponentTransfer>'
            f'<feMerge><feMergeNode in="line"/><feMergeNode in="flat"/></feMerge></filter>')
