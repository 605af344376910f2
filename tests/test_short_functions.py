"""Short functions (issue 29, part 7): the long functions the review named are broken into
named steps, and stay so: each at most MOST_LINES lines and MOST_BRANCHES branches (an `if`,
`elif`, loop, `except` or conditional expression each count one)."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MOST_LINES, MOST_BRANCHES = 25, 8
SHORT = [
    ("partyhub/rooms/transport/consumers.py", "RoomConsumer.receive"),   # was 47 lines, 29 branches
    ("partyhub/bots/client.py", "Session.run"),     # was bots._session: 69 lines, six variables
]
BRANCHES = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.ExceptHandler, ast.IfExp)


def function(path: Path, dotted: str):
    node = ast.parse(path.read_text(encoding="utf-8"))
    for name in dotted.split("."):
        node = next(n for n in ast.iter_child_nodes(node) if getattr(n, "name", None) == name)
    return node


def size(node) -> tuple[int, int]:
    """(lines, branches) of a function."""
    return node.end_lineno - node.lineno + 1, sum(isinstance(n, BRANCHES) for n in ast.walk(node))


def test_the_named_functions_are_short():
    long = {name: size(function(ROOT / path, name)) for path, name in SHORT}
    assert all(lines <= MOST_LINES and branches <= MOST_BRANCHES for lines, branches in long.values()), long


def test_the_measure_sees_a_long_function(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("class C:\n    def f(self, x):\n" + "".join(
        f"        if x == {i}:\n            return {i}\n" for i in range(9)), encoding="utf-8")
    assert size(function(sample, "C.f")) == (19, 9)
