"""Small files (issue 29, part 7): no source file in partyhub/, games/ or frontend/static/ is
over 400 lines. A long file is split by what it does (sketch's phone: drawing, guessing and
audience modules), never by cramming lines."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("partyhub", "games", "frontend/static")
SOURCES = {".py", ".js", ".css", ".html"}   # data files (word lists, decks in JSON) are not source
MOST = 400

# Today's exceptions, each being split in its own branch of issue 29. The list only shrinks:
# a file brought under the limit must leave it (test_the_exceptions_are_still_exceptions), and
# no file may join it.
TOO_LONG_FOR_NOW: set = set()


def long_files(root: Path, folders=FOLDERS) -> dict:
    """{path relative to root: lines} of every source file over MOST lines under `folders`."""
    out = {}
    for folder in folders:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in SOURCES or not path.is_file():
                continue
            with path.open("rb") as f:
                lines = sum(1 for _ in f)
            if lines > MOST:
                out[path.relative_to(root).as_posix()] = lines
    return out


def test_no_source_file_is_over_400_lines():
    found = {p: n for p, n in long_files(ROOT).items() if p not in TOO_LONG_FOR_NOW}
    assert not found, f"split these by what they do (at most {MOST} lines a file): {found}"


def test_the_exceptions_are_still_exceptions():
    """An exception that exists no more, or is now short enough, leaves the list."""
    long = long_files(ROOT)
    fixed = sorted(p for p in TOO_LONG_FOR_NOW if p not in long)
    assert not fixed, f"remove from TOO_LONG_FOR_NOW (gone or at most {MOST} lines now): {fixed}"


def test_the_check_finds_a_long_file_of_each_kind(tmp_path):
    for i, suffix in enumerate(sorted(SOURCES)):
        folder = tmp_path / "games" / f"g{i}"
        folder.mkdir(parents=True)
        (folder / f"long{suffix}").write_text("x\n" * (MOST + 1))
        (folder / f"fits{suffix}").write_text("x\n" * MOST)
        (folder / "words.txt").write_text("x\n" * (MOST * 3))
    found = long_files(tmp_path)
    assert found == {f"games/g{i}/long{s}": MOST + 1 for i, s in enumerate(sorted(SOURCES))}
