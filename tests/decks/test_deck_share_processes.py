"""Two daphne processes over one decks folder and PostgreSQL: a deck's share withdrawn or its
code renewed on one process stops the old code on the other at once, even after the other has
read the deck's manifest (partyhub/decks reads a manifest afresh whenever its file changes)."""
import io

import pytest
from PIL import Image

from partyhub.decks import custom as upload
from tests.liveserver import Daphne, http

pytestmark = [pytest.mark.slow, pytest.mark.postgres]
ALICE, BOB, CAROL = "alice-tv-browser-key-0001", "bob-tv-browser-key-000002", "carol-tv-browser-key-0003"


def key(k):
    return {"X-Host-Key": k}


def webp() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (6, 9), (0, 120, 200)).save(out, "WEBP")
    return out.getvalue()


def listed(base, k):
    return [d["id"] for d in http("GET", f"{base}/api/decks", headers=key(k))[1]["decks"]]


def test_a_withdrawn_or_renewed_share_code_stops_at_once_on_the_other_process(
        tmp_path, settings, postgres_database):
    settings.DATA_DIR = settings.MEDIA_ROOT = tmp_path          # the folder both processes read
    deck = upload.store("Shared", [webp()], upload.host_key_hash(ALICE))["deck"]
    env = {"DATABASE_URL": postgres_database}
    a = Daphne(tmp_path, env).migrate().start()
    b = Daphne(tmp_path, env).start()
    try:
        status, made = http("POST", f"{a.base}/api/decks/{deck}/share", headers=key(ALICE))
        assert status == 200
        first = made["code"]
        assert http("POST", f"{b.base}/api/decks/redeem", {"code": first}, key(BOB))[0] == 200
        assert listed(b.base, BOB) == [deck]                    # b has read the manifest

        status, made = http("POST", f"{a.base}/api/decks/{deck}/share", {"new": True}, key(ALICE))
        assert status == 200 and made["code"] != first
        status, body = http("POST", f"{b.base}/api/decks/redeem", {"code": first}, key(CAROL))
        assert (status, body["error"]["code"]) == (404, "bad_share_code")
        assert http("POST", f"{b.base}/api/decks/redeem", {"code": made["code"]}, key(CAROL))[0] == 200

        status, body = http("DELETE", f"{a.base}/api/decks/{deck}/share", headers=key(ALICE))
        assert status == 200 and body["removed"] == 2
        status, body = http("POST", f"{b.base}/api/decks/redeem", {"code": made["code"]}, key(BOB))
        assert (status, body["error"]["code"]) == (404, "bad_share_code")
        assert listed(b.base, BOB) == [] and listed(b.base, CAROL) == []
        assert listed(b.base, ALICE) == [deck]
    finally:
        a.kill()
        b.kill()
