"""The faces (frontend/static/common/faces.js, issue 28 part 3), run in Node with a tiny stand-in
for the SVG DOM: 36 characters, all different, in one style (the same outline on every shape);
a drawing becomes one polyline per stroke in its colour; anything else is no face (the symbol)."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from partyhub.rooms.access import portraits

MODULE = Path(__file__).resolve().parents[2] / "frontend" / "static" / "common" / "faces.js"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

FAKE_DOM = """
globalThis.document = { createElementNS: (ns, tag) => ({ tag, ns, attrs: {}, kids: [],
  setAttribute(k, v) { this.attrs[k] = String(v); }, appendChild(c) { this.kids.push(c); } }) };
const plain = (e) => e && { tag: e.tag, attrs: e.attrs, kids: e.kids.map(plain) };
"""


def run(body: str):
    script = f"import * as F from {json.dumps(MODULE.as_uri())};\n{FAKE_DOM}\n{body}"
    r = subprocess.run([NODE, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def walk(node):
    yield node
    for k in node["kids"]:
        yield from walk(k)


def test_thirty_six_characters_all_different_in_one_style():
    out = run("console.log(JSON.stringify({n: F.CHARACTERS, all: Array.from({length: F.CHARACTERS}, (_, i) => plain(F.character(i)))}))")
    assert out["n"] == portraits.CHARACTERS == 36
    texts = {json.dumps(c, sort_keys=True) for c in out["all"]}
    assert len(texts) == 36
    for c in out["all"]:
        assert c["tag"] == "svg" and c["attrs"]["viewBox"] == "0 0 100 100"
        head = [n for n in walk(c) if n["tag"] == "circle" and n["attrs"].get("r") == "34"]
        assert len(head) == 1 and head[0]["attrs"]["stroke"] == "#2b2135"
        outlined = {n["attrs"].get("stroke-width") for n in walk(c) if n["attrs"].get("stroke") == "#2b2135"}
        assert outlined == {"3"}


def test_a_drawing_is_a_polyline_per_stroke_and_anything_else_is_no_face():
    out = run("""
const d = plain(F.face({ portrait: [{ c: '#e4572e', w: 8, p: [100, 200, 300, 400] }, { c: '#000', w: 2, p: [5, 6] }] }));
const none = [{}, { portrait: [] }, { character: 'c36' }, { character: 'x1' }, { character: 'c-1' }, null]
  .map((p) => F.face(p));
console.log(JSON.stringify({ d, none, c35: !!F.face({ character: 'c35' }) }));
""")
    lines = [n for n in walk(out["d"]) if n["tag"] == "polyline"]
    assert [(n["attrs"]["points"], n["attrs"]["stroke"]) for n in lines] == [
        ("100,200 300,400", "#e4572e"), ("5,6 5,6", "#000")]       # a dot is drawn too
    assert out["d"]["attrs"]["viewBox"] == "0 0 1000 1000"
    assert out["none"] == [None] * 6 and out["c35"] is True
