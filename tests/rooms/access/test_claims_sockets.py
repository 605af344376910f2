"""Getting a seat back over the real transport: HTTP to ask, a socket to wait, the TV's answer
(never a phone's), the token frame, the `handed` frame of the phone that lost the seat and its
request to get it back; and no frame of any connection shows a token it must not."""
import hashlib
import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client as HttpClient

from partyhub.rooms.relay.audience import kinds as audience_kinds
from tests.rooms.transport.test_consumers import table
from tests.rooms.wsclient import Client

pytestmark = pytest.mark.django_db(transaction=True)


def _post(url, body):
    r = HttpClient().post(url, data=json.dumps(body), content_type="application/json")
    return r.status_code, r.json()


async def post(url, body):
    return await database_sync_to_async(_post)(url, body)


def digest(token):
    return hashlib.sha256(token.encode()).hexdigest()


async def closed(client):
    """Read to the close; returns (frames read, close code)."""
    got = []
    while not got or got[-1]["t"] != "_closed":
        got.append(await client.recv())
    return got[:-1], got[-1]["code"]


async def ask_back(code, tv, phone):
    """The phone's browser forgets it (the socket closes); a new browser asks by the name."""
    name = next(p["name"] for p in tv.view["room"]["players"] if p["id"] == phone.seat.player_id)
    await phone.close()
    await tv.until(lambda v: not next(p for p in v["room"]["players"] if p["name"] == name)["connected"])
    status, body = await post(f"/api/rooms/{code}/join", {"name": name})
    assert (status, body["error"]["code"], body["claimable"]) == (409, "name_taken", True)
    status, body = await post(f"/api/rooms/{code}/claim", {"name": name})
    assert status == 202 and set(body) == {"claim", "token", "player_id", "seat", "expires"}
    assert body["player_id"] == phone.seat.player_id
    waiting = Client(code, body["token"])
    assert await waiting.open() is True
    assert waiting.view["you"] == {"role": "audience", "id": None}
    assert all(a["type"] in audience_kinds() for a in waiting.view["actions"])     # votes at most
    await waiting.until(lambda v: any(c["id"] == body["claim"] for c in v["room"]["claims"]))
    return body, waiting


async def test_a_new_browser_gets_its_lobby_seat_back_when_the_tv_approves_and_nothing_leaks():
    code, tv, phones = await table(2)
    audience = Client(code)
    assert await audience.open() is True
    claim, waiting = await ask_back(code, tv, phones[1])
    vip = phones[0]
    approve = {"type": "approve_claim", "claim": claim["claim"]}
    await tv.until(lambda v: approve in v["actions"])
    await vip.until(lambda v: v["room"]["claims"])
    assert approve not in vip.view["actions"]           # the VIP's phone is told, never asked
    await tv.act(approve)
    frames, close_code = await closed(waiting)
    assert close_code == 4005
    assert {"t": "token", "d": {"token": claim["token"], "player_id": phones[1].seat.player_id}} in frames
    back = Client(code, claim["token"])
    assert await back.open() is True
    assert back.view["you"] == {"role": "player", "id": phones[1].seat.player_id, "language": "en"}
    v = await tv.until(lambda v: all(p["connected"] for p in v["room"]["players"]) and not v["room"]["claims"])
    assert [(h["player"], h["kind"], h["approved"]) for h in v["room"]["handovers"]] == [
        (phones[1].seat.player_id, "new_phone", "tv")]
    old = Client(code, phones[1].seat.token)
    assert await old.open() == 4003        # the old token: told its seat was handed, then closed
    assert old.frames[0]["t"] == "handed" and old.frames[0]["d"]["approved"] == "tv"
    # the leak audit of these screens: no token, and no token's hash, in any frame but the
    # asker's own token frame
    for c in (tv, vip, audience, back):
        await c.drain()
    secrets = [claim["token"], digest(claim["token"]), phones[1].seat.token, digest(phones[1].seat.token),
               phones[0].seat.token, digest(phones[0].seat.token)]
    checked = 0
    for c in (tv, vip, audience, waiting, back, old):
        for f in c.frames:
            if f["t"] in ("token", "_closed"):
                continue
            text = json.dumps(f)
            assert not any(s in text for s in secrets), text[:300]
            assert "token_hash" not in text
            checked += 1
    assert checked >= 15


async def test_the_vips_phone_cannot_approve_their_own_claim_of_a_sleeping_players_seat():
    """Issue 31: the VIP claims Bob from a new browser while Bob's phone sleeps, then sends
    approve_claim from the VIP's seat."""
    code, tv, phones = await table(3)
    vip, bob = phones[0], phones[1]
    await tv.act({"type": "start", "game": "count", "options": {}})
    await tv.until(lambda v: v["room"]["phase"] == "playing")
    claim, waiting = await ask_back(code, tv, bob)
    ref = await vip.act({"type": "approve_claim", "claim": claim["claim"]})
    err = await vip.error()
    assert (err["d"]["code"], err["d"]["ref"]) == ("not_allowed", ref) and "TV" in err["d"]["message"]
    woken = Client(code, bob.seat.token)             # Bob's phone wakes: still his seat
    assert await woken.open() is True and woken.view["you"]["id"] == bob.seat.player_id
    frames, close_code = await closed(waiting)
    assert {"t": "claim", "d": {"id": claim["claim"], "state": "dropped"}} in frames and close_code == 4003


async def test_the_phone_that_lost_its_seat_asks_it_back_and_the_tv_decides_again():
    code, tv, phones = await table(2)
    claim, waiting = await ask_back(code, tv, phones[1])
    await tv.act({"type": "approve_claim", "claim": claim["claim"]})
    await closed(waiting)
    holder = Client(code, claim["token"])
    assert await holder.open() is True
    old = Client(code, phones[1].seat.token)
    assert await old.open() == 4003
    told = old.frames[0]["d"]
    assert (told["player"], told["seat"], told["approved"]) == (phones[1].seat.player_id, "P2", "tv")
    status, body = await post(f"/api/rooms/{code}/claim", {"token": phones[1].seat.token})
    assert status == 202 and body["player_id"] == phones[1].seat.player_id and body["seat"] == "P2"
    again = Client(code, body["token"])
    assert await again.open() is True
    await tv.until(lambda v: [c["back"] for c in v["room"]["claims"]] == [True])
    await tv.act({"type": "approve_claim", "claim": body["claim"]})
    frames, close_code = await closed(holder)          # the phone that held it is told
    handed = next(f["d"] for f in frames if f["t"] == "handed")
    assert (handed["kind"], handed["approved"], close_code) == ("old_phone", "tv", 4003)
    frames, close_code = await closed(again)
    assert close_code == 4005 and any(f["t"] == "token" for f in frames)
    mine = Client(code, body["token"])
    assert await mine.open() is True and mine.view["you"]["id"] == phones[1].seat.player_id


async def test_a_denied_new_browser_is_told_and_its_socket_closed():
    code, tv, phones = await table(2)
    claim, waiting = await ask_back(code, tv, phones[1])
    await tv.act({"type": "deny_claim", "claim": claim["claim"]})
    frames, close_code = await closed(waiting)
    assert {"t": "claim", "d": {"id": claim["claim"], "state": "denied"}} in frames and close_code == 4003
    assert await Client(code, claim["token"]).open() == 4003
    assert await Client(code, phones[1].seat.token).open() is True      # the owner keeps the seat


async def test_the_owner_coming_back_drops_the_claim_and_tells_the_new_browser():
    code, tv, phones = await table(2)
    claim, waiting = await ask_back(code, tv, phones[1])
    owner = Client(code, phones[1].seat.token)
    assert await owner.open() is True
    frames, close_code = await closed(waiting)
    assert {"t": "claim", "d": {"id": claim["claim"], "state": "dropped"}} in frames and close_code == 4003
    await tv.until(lambda v: not v["room"]["claims"])


async def test_during_a_game_a_spectator_asks_and_takes_the_seat_when_the_tv_approves():
    code, tv, phones = await table(2)
    await tv.act({"type": "start", "game": "count", "options": {}})
    await tv.until(lambda v: v["room"]["phase"] == "playing")
    status, late = await post(f"/api/rooms/{code}/join", {"name": "Late"})
    assert status == 201
    spectator = Client(code, late["token"])
    assert await spectator.open() is True
    await phones[1].close()
    ask = {"type": "take_seat", "player": phones[1].seat.player_id}
    await spectator.until(lambda v: ask in v["actions"])
    await spectator.act(ask)
    v = await tv.until(lambda v: v["room"]["claims"])
    assert v["room"]["claims"][0]["by"] == late["player_id"]
    assert spectator.view["you"]["role"] == "audience"              # nothing moved yet
    await tv.act({"type": "approve_claim", "claim": v["room"]["claims"][0]["id"]})
    frames, close_code = await closed(spectator)
    assert close_code == 4005 and {"t": "token", "d": {"token": late["token"],
                                                     "player_id": phones[1].seat.player_id}} in frames
    seated = Client(code, late["token"])
    assert await seated.open() is True
    assert seated.view["you"] == {"role": "player", "id": phones[1].seat.player_id, "language": "en"}
    assert "secret" in seated.view["game"]


def test_claim_answers_and_refusals_over_http(client):
    from partyhub.rooms.write import services
    from tests.rooms.helpers import tv

    def post_(url, body):
        r = client.post(url, data=json.dumps(body), content_type="application/json")
        return r.status_code, r.json()

    code = post_("/api/rooms", {})[1]["code"]
    ann = post_(f"/api/rooms/{code}/join", {"name": "Ann"})[1]
    bob = post_(f"/api/rooms/{code}/join", {"name": "Bob"})[1]
    status, body = post_(f"/api/rooms/{code}/join", {"name": "bob"})
    assert (status, body["error"]["code"], body["claimable"]) == (409, "name_taken", True)
    for name, want in [("Nobody", (404, "not_claimable")), ("", (400, "bad_name"))]:
        status, body = post_(f"/api/rooms/{code}/claim", {"name": name})
        assert (status, body["error"]["code"]) == want
    assert post_("/api/rooms/ZZZZ/claim", {"name": "Bob"})[0] == 404
    answers = [post_(f"/api/rooms/{code}/claim", {"name": n}) for n in ("Bob", "Bob", "Ann")]
    assert [(s, b.get("error", {}).get("code")) for s, b in answers] == [
        (202, None), (409, "claim_pending_seat"), (429, "claim_pending_address")]
    status, body = post_(f"/api/rooms/{code}/claim", {"token": "not-a-lost-seat"})
    assert (status, body["error"]["code"]) == (404, "not_claimable")
    services.room_apply(code, tv(), None, {"type": "kick", "player": ann["player_id"]})
    for path in ("join", "claim"):
        status, body = post_(f"/api/rooms/{code}/{path}", {"name": "ANN"})
        assert (status, body["error"]["code"]) == (403, "name_kicked")
    services.seat_connect(code, bob["player_id"], "bob-here")     # the owner is back: nothing to claim
    status, body = post_(f"/api/rooms/{code}/claim", {"name": "Bob"})
    assert (status, body["error"]["code"]) == (409, "seat_taken")
    status, body = post_(f"/api/rooms/{code}/join", {"name": "Bob"})
    assert (status, body["claimable"]) == (409, False)
