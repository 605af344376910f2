"""The boundaries decks cross: the platform never imports a game, a game never imports
another game, and a game's rules import nothing of Django, Channels or the platform's decks.
Imports are checked in a fresh interpreter (sys.modules), so nothing loaded by the test run
itself can hide a reach."""
import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name for p in (ROOT / "games").iterdir() if (p / "rules" / "__init__.py").is_file())


def modules_under(package: str) -> list[str]:
    folder = ROOT / package.replace(".", "/")
    out = []
    for path in sorted(folder.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out.append(".".join(parts))
    return out


def loaded_after_importing(modules: list[str], then: str = "") -> list[str]:
    """sys.modules of a fresh interpreter (no Django settings) after importing `modules`
    and running `then` (code that uses them: a lazy import happens only when called)."""
    code = ("import importlib, json, sys\n"
            f"for name in {modules!r}:\n"
            "    importlib.import_module(name)\n"
            f"{then}\n"
            "print(json.dumps(sorted(sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


# A game played through its rules alone: setup (jinx also without a deck: stand-in faces),
# every view and the legal actions, the options' spec.
PLAY = """
from partyhub.gamekit import TABLE
from games.{game}.rules import GAME
deck = {{"id": "default", "name": "default", "image": "{{id}}.png",
        "cards": ["c%03d" % i for i in range(160)], "spares": []}}
for options in ({bare}{{"deck": "default", "_deck": deck}},):
    state = GAME.setup(["ann", "bob", "cat", "dan"], options, 1)
    for viewer in (*state["seats"], TABLE):
        GAME.view(state, viewer)
        GAME.actions(state, viewer)
    [opt.spec() for opt in GAME.options.values()]
"""


def test_every_module_of_jinx_loads_nothing_of_association_even_in_play():
    modules = modules_under("games.jinx")
    assert "games.jinx.rules.deck" in modules and "games.jinx.apps" in modules
    loaded = loaded_after_importing(modules, then=PLAY.format(game="jinx", bare="{}, "))
    assert "games.jinx.rules.deck" in loaded
    assert [m for m in loaded if m.startswith("games.association")] == []


def test_association_loads_nothing_of_jinx_and_its_rules_nothing_of_its_deck_pipeline():
    loaded = loaded_after_importing(["games.association.rules", "games.association.apps"],
                                    then=PLAY.format(game="association", bare=""))
    assert [m for m in loaded if m.startswith(("games.jinx", "games.association.deck"))] == []


@pytest.mark.parametrize("game", GAMES)
def test_a_games_rules_load_no_other_game_no_django_and_no_deck_store(game):
    loaded = loaded_after_importing([f"games.{game}.rules"])
    others = [m for m in loaded if m.startswith("games.") and not m.startswith(f"games.{game}")]
    assert others == []
    forbidden = ("django", "channels", "daphne", "partyhub.decks", "partyhub.rooms")
    assert [m for m in loaded if m.split(".")[0] in forbidden or m.startswith(forbidden)] == []


def imported_names(path: Path) -> list[str]:
    """Every module a file imports (statements, and import_module("...") with a literal)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names += [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", ""))
              in ("import_module", "__import__") and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            names.append(node.args[0].value)
    return names


@pytest.mark.parametrize("game", GAMES)
def test_no_module_of_a_game_imports_another_game(game):
    files = sorted((ROOT / "games" / game).rglob("*.py"))
    reaching = {str(f.relative_to(ROOT)): n for f in files for n in imported_names(f)
                if re.match(r"games(\.|$)", n) and not n.startswith(f"games.{game}")}
    assert reaching == {}


def test_no_module_of_the_platform_imports_a_game():
    files = sorted((ROOT / "partyhub").rglob("*.py"))
    assert len(files) > 20 and ROOT / "partyhub" / "decks" / "custom.py" in files
    reaching = {str(f.relative_to(ROOT)): n for f in files for n in imported_names(f)
                if n == "games" or n.startswith("games.")}
    assert reaching == {}


def test_the_import_scan_sees_each_way_of_importing_a_game(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import games.jinx\nfrom games.association import deck\n"
                      "def f():\n    from games import sketch\n"
                      "    importlib.import_module('games.klepka.rules')\n", encoding="utf-8")
    found = [n for n in imported_names(sample) if re.match(r"games(\.|$)", n)]
    assert found == ["games.jinx", "games.association", "games.association.deck", "games",
                     "games.sketch", "games.klepka.rules"]
