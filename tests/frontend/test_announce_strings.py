"""The phone's live region says each game's own name for every phase of its rules, in en, uk
and ru (issue 21): "<game>.phase.<id>" strings in the game's i18n.js (they load with it; the
announcer waits for the module), and the tie-break and turn wording it uses."""
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
    """{lang: the text of that language's block} of a game's i18n.js."""
    text = (GAMES / game / "i18n.js").read_text(encoding="utf-8")
    starts = [(m.group(1), m.end()) for m in re.finditer(r"^  (en|uk|ru): \{$", text, re.M)]
    assert [lang for lang, _ in starts] == ["en", "uk", "ru"], starts
    ends = [pos for _, pos in starts[1:]] + [len(text)]
    return {lang: text[pos:end] for (lang, pos), end in zip(starts, ends)}


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
            m = re.search(rf"^\s*'{game}\.phase\.{phase}': '([^']+)',$", block, re.M)
            assert m and m.group(1).strip(), f"{game} {lang}: no {game}.phase.{phase}"


@pytest.mark.parametrize("game", sorted(TURNS))
def test_turn_wording_in_every_language(game):
    for lang, block in blocks(game).items():
        for key in TURNS[game]:
            m = re.search(rf"^\s*'{game}\.{key}': '([^']+)',$", block, re.M)
            assert m, f"{game} {lang}: no {game}.{key}"
            assert ("{name}" in m.group(1)) == (key == "turn_of"), m.group(1)


def test_sketch_says_its_tie_break_in_every_language():
    for lang, block in blocks("sketch").items():
        assert re.search(r"^\s*'sketch\.tiebreak': '[^']+',$", block, re.M), lang
