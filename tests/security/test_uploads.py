"""Deck uploads cost what they are worth (issue 20, part 2; partyhub/decks/pictures.py and
uploads.py), against a real daphne (partyhub.edge; a worker may run 2 s here).

A zip whose end record declares a million entries, or whose directory is 50 MB under an
end record that claims a few, is refused before its directory is read; 300 pictures of
40 million pixels each in a 150 kB zip are refused from their headers before one is decoded;
an upload that takes longer than the worker may is killed: each is answered within 3 s while
the server's VmRSS grows by less than 64 MiB. A second upload while one runs is refused at
once with `upload_busy`; a legitimate upload still makes a deck.
"""
from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request

import pytest
import websockets

from tests.liveserver import children, http, room_with_players
from tests.security import attack
from tests.security.attack import PING_MS, RSS_GROWTH_MIB, Watch, under_attack
from tests.security.files import flat_png, huge_directory_zip, lying_zip, picture, zipped

pytestmark = pytest.mark.slow
ANSWER_SECONDS = 3


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with attack.server(tmp_path_factory, "uploads", PARTYHUB_DECK_SECONDS="2") as srv:
        yield srv


def _room(server):
    made, _ = room_with_players(server.base, ["Host"])
    return made["code"], made["host_token"]


def upload(server, code, token, files: dict, name="Deck", timeout=30):
    """POST the files (name -> bytes) as the multipart deck upload: (status, json, seconds)."""
    boundary = "b0undary"
    parts = [f"--{boundary}\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\n{name}\r\n".encode()]
    for filename, data in files.items():
        parts += [f"--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; "
                  f"filename=\"{filename}\"\r\nContent-Type: application/octet-stream\r\n\r\n".encode(),
                  data, b"\r\n"]
    parts.append(f"--{boundary}--\r\n".encode())
    req = urllib.request.Request(f"{server.base}/api/rooms/{code}/decks", data=b"".join(parts),
                                 method="POST", headers={
                                     "Content-Type": f"multipart/form-data; boundary={boundary}",
                                     "Authorization": f"Bearer {token}"})
    start = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            status, body = r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        status, body = e.code, json.loads(e.read())
    return status, body, time.monotonic() - start


async def _attack(server, code, token, files):
    """The upload, while a player of the room is pinged: (status, body, s, MiB, max ping)."""
    player = http("POST", f"{server.base}/api/rooms/{code}/join", {"name": "Calm"})[1]
    url = server.base.replace("http", "ws", 1) + f"/ws/rooms/{code}?token={player['token']}"
    async with websockets.connect(url, open_timeout=10) as ws:
        with Watch(server.proc.pid) as watch:
            (status, body, seconds), rtts = await under_attack(ws, upload, server, code, token, files)
    return status, body, seconds, watch.growth, max(rtts)


HOSTILE = {
    "end_record_declares_a_million_entries": (lambda: {"lie.zip": lying_zip(1_000_000), "ok.png": picture()},
                                              201, "zip_too_many_entries"),
    "a_50_mb_directory_under_an_end_record_claiming_3": (
        lambda: {"dir.zip": huge_directory_zip(), "ok.png": picture()}, 201, "zip_too_many_entries"),
    "300_pictures_of_40_million_pixels": (
        lambda: {"bomb.zip": zipped({f"p{i:03d}.png": flat_png(8000, 5000) for i in range(300)})},
        413, "deck_too_many_pixels"),
    "pictures_that_take_longer_than_the_worker_may": (
        lambda: {"slow.zip": zipped({f"p{i}.png": flat_png(8000, 5000) for i in range(8)})},
        413, "upload_too_slow"),
}


@pytest.mark.parametrize("kind", list(HOSTILE))
async def test_a_hostile_upload_is_answered_within_3_s_and_costs_the_server_nothing(server, kind):
    make, want_status, want_code = HOSTILE[kind]
    files = make()
    code, token = _room(server)
    upload(server, code, token, {"warm.png": picture()})   # the code paths, once
    status, body, seconds, growth, ping = await _attack(server, code, token, files)
    print(f"\n{kind} ({sum(map(len, files.values())) / 1e6:.1f} MB): {status} in {seconds:.2f}s, "
          f"RSS +{growth:.1f} MiB, ping max {ping:.1f} ms: {str(body)[:120]}")
    assert status == want_status
    codes = [body["error"]["code"]] if "error" in body else [r["code"] for r in body["rejected"]]
    assert codes == [want_code]
    assert seconds < ANSWER_SECONDS
    assert growth < RSS_GROWTH_MIB
    assert ping < PING_MS


async def test_one_upload_at_a_time_then_the_next_one_works(server):
    code, token = _room(server)
    other, other_token = _room(server)
    slow = asyncio.create_task(asyncio.to_thread(
        upload, server, code, token, {"slow.zip": zipped({f"p{i}.png": flat_png(8000, 5000)
                                                          for i in range(8)})}))
    deadline = time.monotonic() + 10
    while not children(server.proc.pid) and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    assert children(server.proc.pid), "the worker started"
    for room, key in ((code, token), (other, other_token)):
        status, body, seconds = await asyncio.to_thread(upload, server, room, key, {"a.png": picture()})
        assert (status, body["error"]["code"]) == (429, "upload_busy")
        assert seconds < 1
    status, body, _ = await slow
    assert (status, body["error"]["code"]) == (413, "upload_too_slow")
    assert children(server.proc.pid) == [], "the worker was killed"
    status, body, _ = upload(server, code, token, {"a.png": picture(), "more.zip": zipped(
        {"b.jpg": picture("JPEG"), "c.webp": picture("WEBP")})})
    assert status == 201 and body["cards"] == 3 and body["rejected"] == []
    status, listed = http("GET", f"{server.base}/api/decks", headers={"Authorization": f"Bearer {token}"})
    assert status == 200 and (body["deck"], 3) in [(d["id"], d["cards"]) for d in listed["decks"]]
