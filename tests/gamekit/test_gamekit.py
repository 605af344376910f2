"""partyhub.gamekit is a package split by what it does (values, options, fields, audience);
games import every name from the package itself, and it stays pure (no Django)."""
import ast
import subprocess
import sys
from pathlib import Path

import partyhub.gamekit as gamekit

ROOT = Path(__file__).resolve().parents[2]


def imported_names() -> set:
    """Every name a game or the platform imports `from partyhub.gamekit import ...`."""
    names = set()
    for path in [*ROOT.glob("games/**/*.py"), *ROOT.glob("partyhub/**/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "partyhub.gamekit":
                names |= {alias.name for alias in node.names}
    return names


def test_every_name_the_games_import_is_in_the_package():
    names = imported_names()
    assert {"Accepted", "Rejected", "Option", "clean_action", "audience_of", "TABLE"} <= names
    assert sorted(n for n in names if not hasattr(gamekit, n)) == []
    assert sorted(names - set(gamekit.__all__)) == []


def test_the_package_is_split_by_what_it_does():
    assert (ROOT / "partyhub" / "gamekit" / "__init__.py").is_file()
    assert gamekit.Accepted.__module__ == "partyhub.gamekit.values"
    assert gamekit.Option.__module__ == "partyhub.gamekit.options"
    assert gamekit.Field.__module__ == "partyhub.gamekit.fields"
    assert gamekit.Ballot.__module__ == "partyhub.gamekit.audience"


def test_the_package_imports_no_django():
    code = "import sys, partyhub.gamekit; print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'channels')))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
