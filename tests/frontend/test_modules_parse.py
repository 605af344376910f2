"""Every ES module of the front end parses (node compiles it as a module): an early error such as a name both
imported and declared (association's board.js once imported faces.js's `face` beside its own)
makes the browser's import() fail, and the shell then falls back to the generic renderer."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

NODE = shutil.which("node")
ROOT = Path(__file__).resolve().parents[2] / "frontend" / "static"

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


# One node for every module (92 of them; one `node --check` each took 6.5 s of CPU): V8
# compiles each as a module (vm.SourceTextModule), which raises its early errors.
CHECK = """
import vm from "node:vm";
import { readFileSync } from "node:fs";
const bad = {};
for (const path of JSON.parse(readFileSync(0, "utf8"))) {
  try { new vm.SourceTextModule(readFileSync(path, "utf8"), { identifier: path }); }
  catch (e) { bad[path] = String((e && e.message) || e); }
}
process.stdout.write(JSON.stringify(bad));
"""


def parse_errors(paths) -> dict:
    command = [NODE, "--experimental-vm-modules", "--no-warnings", "--input-type=module", "-e", CHECK]
    listed = json.dumps([str(p) for p in paths]).encode()
    r = subprocess.run(command, input=listed, capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr.decode(errors="replace")
    return json.loads(r.stdout)


def test_every_front_end_module_parses():
    paths = sorted(ROOT.rglob("*.js"))
    assert len(paths) > 50
    bad = parse_errors(paths)
    assert {str(Path(p).relative_to(ROOT)): e for p, e in bad.items()} == {}


def test_a_name_both_imported_and_declared_is_an_error(tmp_path):
    (tmp_path / "dup.js").write_text('import { face } from "./faces.js";\nexport function face() {}\n')
    (tmp_path / "fine.js").write_text('import { face } from "./faces.js";\nexport const a = face;\n')
    bad = parse_errors([tmp_path / "dup.js", tmp_path / "fine.js"])
    dup = str(tmp_path / "dup.js")
    assert list(bad) == [dup] and "already been declared" in bad[dup]
