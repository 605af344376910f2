"""The room actions' types have one source, partyhub/rooms/core/schema.py (issue 29, part 6):
the pages serve them to the front end's scripts (frontend/static/common/util.js reads them),
and the bots read the schema itself. Before, util.js and partyhub/bots.py each kept a copy,
and no two of the three lists agreed."""
import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from partyhub import bots
from partyhub.rooms.core import schema
from tests.frontend.page import document_stub

UTIL = Path(__file__).resolve().parents[2] / "frontend" / "static" / "common" / "util.js"
NODE = shutil.which("node")


def served(html: str) -> list:
    found = re.search(r'<script id="room-actions" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the page serves no room actions"
    return json.loads(found.group(1))


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["/tv/ABCD", "/j/ABCD"])
def test_the_room_pages_serve_the_schemas_room_actions(client, page):
    assert served(client.get(page).content.decode()) == sorted(schema.SCHEMA)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_front_end_knows_the_room_actions_the_page_serves(client):
    page = served(client.get("/j/ABCD").content.decode())
    script = (document_stub({"room-actions": page})
              + f"const {{ ROOM_ACTIONS }} = await import({json.dumps(UTIL.as_uri())});\n"
              + "console.log(JSON.stringify([...ROOM_ACTIONS].sort()));\n")
    r = subprocess.run([NODE, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == sorted(schema.SCHEMA)


def test_a_bot_never_plays_a_room_action():
    # a bot without the server's bot pass can be the VIP: its view offers the room's own
    # actions, `choose` and `revoke_passes` among them; it plays only the game's
    room = [{"type": kind} for kind in schema.SCHEMA]
    view = {"room": {"game": "count", "language": "en"}, "game": {}, "actions": room}
    assert bots.choose(room, "en", random.Random(1)) is None
    assert all(bots.next_action(view, random.Random(seed)) is None for seed in range(20))
