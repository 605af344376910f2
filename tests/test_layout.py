"""tests/ mirrors the code (issue 29): each package of partyhub/ and each game has a test
folder at the same place (partyhub/rooms/store: tests/rooms/store; games/jinx:
tests/games/jinx) with tests in it, and no test folder inside a mirrored tree stands for a
package that is gone. Tests of the whole (tests/e2e, tests/reliability, tests/security,
tests/deploy, ...) live beside the mirror, not in it."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
NOT_CODE = {"migrations", "management", "templates", "static", "locale", "__pycache__"}


def packages(top: Path):
    """The packages under top (folders with an __init__.py), as paths relative to top."""
    return sorted(p.parent.relative_to(top) for p in top.rglob("__init__.py")
                  if not NOT_CODE & set(p.relative_to(top).parts))


def mirror(rel: Path, base: str) -> Path:
    return TESTS / base / rel if base else TESTS / rel


def has_tests(folder: Path) -> bool:
    return folder.is_dir() and any(folder.glob("test_*.py"))


def test_each_package_of_the_platform_has_its_test_folder():
    missing = [str(mirror(rel, "")) for rel in packages(ROOT / "partyhub")
               if rel.parts and not has_tests(mirror(rel, ""))]
    assert not missing, "packages of partyhub/ without tests at the same place: " + ", ".join(missing)


def test_each_game_has_its_test_folder():
    games = [p.name for p in (ROOT / "games").iterdir() if (p / "__init__.py").exists()]
    assert games
    missing = [g for g in games if not has_tests(TESTS / "games" / g)]
    assert not missing, f"games without tests/games/<game>/: {missing}"


def test_no_test_folder_stands_for_a_package_that_is_gone():
    code = {rel for rel in packages(ROOT / "partyhub") if rel.parts}
    stale = []
    for top in sorted(code, key=lambda r: len(r.parts)):
        if len(top.parts) != 1:
            continue
        for rel in packages(TESTS / top):
            if rel.parts and top / rel not in code:
                stale.append(str(TESTS / top / rel))
    assert not stale, "test folders with no package of partyhub/ behind them: " + ", ".join(stale)
