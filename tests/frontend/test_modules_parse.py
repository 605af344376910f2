"""Every ES module of the front end parses (node --check): an early error such as a name both
imported and declared (association's board.js once imported faces.js's `face` beside its own)
makes the browser's import() fail, and the shell then falls back to the generic renderer."""
import shutil
import subprocess
from pathlib import Path

import pytest

NODE = shutil.which("node")
ROOT = Path(__file__).resolve().parents[2] / "frontend" / "static"

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def test_every_front_end_module_parses():
    bad = {}
    for path in sorted(ROOT.rglob("*.js")):
        r = subprocess.run([NODE, "--check", "--input-type=module"], input=path.read_bytes(),
                           capture_output=True, timeout=30)
        if r.returncode:
            bad[str(path.relative_to(ROOT))] = r.stderr.decode(errors="replace").strip().splitlines()[-3:]
    assert bad == {}
