"""The phone's live region says each game's own name for every phase of its rules, in en, uk
and ru (issue 21): "<game>.phase.<id>" strings in the game's data files i18n/<lang>.js (they load
with the game; the announcer waits for them), and the tie-break and turn wording it uses."""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "frontend" / "static" / "games"

# every phase a running game shows ("over" is the room's results screen: "Game over. …")
PHASES = {
    "association": ("tell", "submit", "vote", "reveal"),
    "jinx": ("clue", "race", "reveal"),
    "klepka": ("words", "flips", "reveal"),
    "sketch": ("drawing", "guessing"),
}
TURNS = {"association": ("turn_of", "your_turn"), "jinx": ("turn_of", "your_turn"), "klepka": ("turn_of",)}


def blocks(game: str) -> dict:
    """{lang: the strings of that language} from the game's data files i18n/<lang>.js."""
    out = {}
    for lang in ("en", "uk", "ru"):
        text = (GAMES / game / "i18n" / f"{lang}.js").read_text(encoding="utf-8")
        out[lang] = json.loads(text[text.index("export default ") + 15:text.rindex(";")])
    return out


def rules_phases(game: str) -> set:
    """The phase ids the game's rules set (phase="x" / "phase": "x" / ["phase"] = "x")."""
    src = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "games" / game / "rules").glob("*.py"))
    found = set(re.findall(r"""(?:phase=|["']phase["']\]?\s*[:=]\s*)["'](\w+)["']""", src))
    rounds = re.search(r"^ROUNDS = \(([^)]*)\)", src, re.M)     # sketch: its rounds are its phases
    if rounds:
        found |= set(re.findall(r'"(\w+)"', rounds.group(1)))
    return found - {"over"}


@pytest.mark.parametrize("game", sorted(PHASES))
def test_every_phase_of_the_rules_has_a_name_in_every_language(game):
    assert rules_phases(game) == set(PHASES[game]), rules_phases(game)
    for lang, block in blocks(game).items():
        for phase in PHASES[game]:
            value = block.get(f"{game}.phase.{phase}")
            assert isinstance(value, str) and value.strip(), f"{game} {lang}: no {game}.phase.{phase}"


@pytest.mark.parametrize("game", sorted(TURNS))
def test_turn_wording_in_every_language(game):
    for lang, block in blocks(game).items():
        for key in TURNS[game]:
            value = block.get(f"{game}.{key}")
            assert isinstance(value, str) and value.strip(), f"{game} {lang}: no {game}.{key}"
            assert ("{name}" in value) == (key == "turn_of"), value


def test_sketch_says_its_tie_break_in_every_language():
    for lang, block in blocks("sketch").items():
        assert isinstance(block.get("sketch.tiebreak"), str) and block["sketch.tiebreak"].strip(), lang
