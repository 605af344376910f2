"""The core's layers (docs/architecture.md) are kept by import-linter's contracts in
pyproject.toml, which `make test` runs (`lint-imports`). These tests show that the contracts
hold for the tree, and that they break when a lower layer imports an upper one (even inside a
function), when a package's modules import each other in a circle, or when the platform
imports a game: each planted in a copy of the tree. And no project import hides inside a
function, where it would hide a circle from a reader (Django's AppConfig.ready excepted)."""
import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT = Path(sys.executable).with_name("lint-imports")
LAYERS = "The core's layers: each imports only the layers below it"
NO_CIRCLE = "No circle: the modules of each package import each other in one direction"
NO_GAME = "The platform never imports a game: games register themselves with the gateway"
BOTS = "Bots: the client (sockets, HTTP) above the turn, the turn above the choice"
NO_SOCKET = "Below live, the core reaches the bots' choice and turn, never their client"


def lint(where: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT), "--no-logo", "--no-cache"], cwd=where, capture_output=True,
                          text=True, timeout=120)


def test_the_tree_keeps_every_contract():
    out = lint(ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "6 kept, 0 broken" in out.stdout


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    """The tree's packages and its contracts, to plant violations in."""
    where = tmp_path_factory.mktemp("tree")
    for package in ("partyhub", "games"):
        shutil.copytree(ROOT / package, where / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", where)
    return where


PLANTS = {
    "a_lower_layer_imports_an_upper_one_inside_a_function": (
        {"partyhub/rooms/store/planted.py": "def later():\n    from partyhub.rooms.write import services\n"},
        [LAYERS], "partyhub.rooms.store.planted -> partyhub.rooms.write.services"),
    "two_modules_of_one_layer_import_each_other": (
        {"partyhub/rooms/core/planted_a.py": "from partyhub.rooms.core import planted_b\n",
         "partyhub/rooms/core/planted_b.py": "from partyhub.rooms.core import planted_a\n"},
        [NO_CIRCLE], ".planted_b -> .planted_a"),
    "a_circle_through_two_layers": (
        {"partyhub/rooms/gateway/planted.py": "from partyhub.rooms.timers import clock\n"},
        [LAYERS, NO_CIRCLE], "partyhub.rooms.gateway.planted -> partyhub.rooms.timers.clock"),
    "the_store_knows_a_game": (
        {"partyhub/rooms/store/planted.py": "from partyhub.rooms.gateway import registry\n"},
        [LAYERS], "partyhub.rooms.store.planted -> partyhub.rooms.gateway.registry"),
    "the_store_reads_a_timer": (
        {"partyhub/rooms/store/planted.py": "from partyhub.rooms.timers import clock\n"},
        [LAYERS], "partyhub.rooms.store.planted -> partyhub.rooms.timers.clock"),
    "the_platform_imports_a_game": (
        {"partyhub/rooms/gateway/planted.py": "import games.jinx.rules\n"},
        [NO_GAME], "partyhub.rooms.gateway.planted -> games.jinx.rules"),
    "the_bots_choice_imports_their_client": (
        {"partyhub/bots/choice.py": "from partyhub.bots import client\n"},
        [BOTS], "partyhub.bots.choice -> partyhub.bots.client"),
    "the_stand_in_opens_a_socket": (
        {"partyhub/rooms/timers/planted.py": "from partyhub.bots.client import dial\n"},
        [NO_SOCKET], "partyhub.rooms.timers.planted -> partyhub.bots.client"),
}


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_a_planted_violation_breaks_the_contract(copy, plant):
    files, broken, named = PLANTS[plant]
    kept = {name: (copy / name).read_text(encoding="utf-8") for name in files if (copy / name).exists()}
    try:
        for name, text in files.items():        # a module of the tree: its text is added to
            (copy / name).write_text(kept.get(name, "") + text, encoding="utf-8")
        out = lint(copy)
    finally:
        for name in files:
            if name in kept:
                (copy / name).write_text(kept[name], encoding="utf-8")
            else:
                (copy / name).unlink()
    assert out.returncode != 0
    for contract in broken:
        assert f"{contract} BROKEN" in out.stdout, out.stdout
    assert named in out.stdout


def project_imports_in_functions(path: Path) -> list:
    """[(line, module)] of the imports of partyhub or games made inside a function, but in an
    AppConfig's ready()."""
    found = []

    def walk(node, in_function: bool):
        for child in ast.iter_child_nodes(node):
            if in_function and isinstance(child, (ast.Import, ast.ImportFrom)):
                names = ([child.module or ""] if isinstance(child, ast.ImportFrom) and not child.level
                         else [a.name for a in child.names] if isinstance(child, ast.Import) else ["."])
                found.extend((child.lineno, n) for n in names
                             if n == "." or n.split(".")[0] in ("partyhub", "games"))
            ready = isinstance(child, ast.FunctionDef) and child.name == "ready"
            walk(child, (in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))
                 and not ready)

    walk(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def test_no_project_import_inside_a_function():
    files = sorted((ROOT / "partyhub").rglob("*.py"))
    assert len(files) > 100
    inside = {str(f.relative_to(ROOT)): found for f in files
              if "migrations" not in f.parts and (found := project_imports_in_functions(f))}
    assert inside == {}


def test_the_scan_sees_an_import_inside_a_function(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import partyhub\n"
                      "def f():\n    from partyhub.rooms.store import store\n"
                      "class C:\n    async def g(self):\n        import games.jinx\n"
                      "        from . import near\n"
                      "    def ready(self):\n        from partyhub.family import lemmas\n", encoding="utf-8")
    assert project_imports_in_functions(sample) == [(3, "partyhub.rooms.store"), (6, "games.jinx"),
                                                    (7, ".")]
