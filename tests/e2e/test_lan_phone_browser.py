"""A phone on a real room's LAN: plain HTTP on the machine's own address, and a flaky network.

The server listens on this machine's non-loopback address (`hostname -I`), as `make run`
serves a party: pages from there are not a secure context, so `navigator.wakeLock` does not
exist (issue 16).

test_the_screen_stays_on_over_plain_http: the first tap (joining) starts the fallback's
looping video; it plays in the lobby and the game, stops when the game is over, and plays again
when the host deals again.

test_coming_back_replaces_a_socket_lost_in_the_gap: the network returns while the phone's
retry is lost in the void; the `online` event (then, a second time, the page turning visible)
replaces it at once instead of waiting out its 5 s. A storm of such events on a healthy socket
sends one probe, not a flood.

test_the_wake_lock_where_there_is_one: on a secure page (loopback) the Wake Lock API is used
and no video is made; when the API refuses, the video takes over from the next tap.

test_a_phone_comes_back_from_a_dead_network: a Sketch phone behind tests/blackhole.py (a proxy
whose network goes away without closing anything). While it is cut, the other players draw
through the protocol, the round turns, a board is won. The phone's heartbeat gives up its
half-open socket; once the network is back, the phone is on the room's current version within
10 s, and everything the server sent into the void (counted by the proxy) shows: the new
round, the strokes drawn during the gap, the won board.
"""
import asyncio
import time

import pytest

from tests.blackhole import Blackhole
from tests.e2e.browser import PHONE, chromium, page, shot, until
from tests.liveserver import Conn, Daphne, free_port, http, lan_address

LAN = lan_address()
pytestmark = [pytest.mark.browser, pytest.mark.slow]
on_lan = pytest.mark.skipif(LAN is None, reason="this machine has no non-loopback IPv4 address")

VIDEO = """() => { const v = document.querySelector('video.keep-awake');
  return v ? {paused: v.paused, t: v.currentTime, src: v.currentSrc, ready: v.readyState} : null; }"""
PLAYING = "() => { const v = document.querySelector('video.keep-awake'); return !!v && !v.paused && v.currentTime > 0; }"


# Chromium says so on every page of an http:// origin that is not loopback (the server sends
# Cross-Origin-Opener-Policy everywhere); the policy only matters over https.
COOP_IGNORED = "The Cross-Origin-Opener-Policy header has been ignored"


def real(errors):
    return [e for e in errors if not e.startswith(COOP_IGNORED)]


# Headless Chromium keeps every tab visible: a page "goes to the background" by saying so.
SEEN = """(state) => {
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => state === 'hidden'});
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def lan_server(tmp_path):
    port = free_port(LAN)
    return Daphne(tmp_path, {"PUBLIC_URL": f"http://{LAN}:{port}", "PARTYHUB_ALLOW_IP_HOSTS": "1"},
                  port=port, bind=LAN).migrate().start()


@on_lan
async def test_the_screen_stays_on_over_plain_http(tmp_path, chromium_path):
    server = lan_server(tmp_path)
    errors = []
    try:
        status, room = http("POST", server.base + "/api/rooms", {})
        code, host = room["code"], room["host_token"]
        async with chromium(chromium_path) as browser:
            phone = await page(browser, PHONE, errors)
            await phone.goto(f"{server.base}/j/{code}")
            await phone.locator("#name").wait_for()
            assert await phone.evaluate("() => [isSecureContext, 'wakeLock' in navigator]") == [False, False]
            before = await phone.evaluate(VIDEO)
            assert before is None or before["paused"], "no video plays before a tap"
            await phone.fill("#name", "Ann")
            await phone.locator(".join-bottom button[type=submit]").click()     # the first tap
            await phone.locator(".lobby-phone").wait_for()
            await until(phone, PLAYING, timeout=5000)
            v = await phone.evaluate(VIDEO)
            assert v["src"].endswith("/static/vendor/nosleep/nosleep.webm") and v["ready"] >= 2, v
            await asyncio.sleep(0.6)
            assert not (await phone.evaluate(VIDEO))["paused"], "it keeps playing (looped)"
            await shot(phone, "lan-phone-lobby-awake")
            await phone.evaluate(SEEN, "hidden")                # another app comes to the front
            assert (await phone.evaluate(VIDEO))["paused"], "let go while the page is hidden"
            await phone.evaluate(SEEN, "visible")               # back, with no new tap
            await until(phone, PLAYING, timeout=5000)
            status, bob = http("POST", f"{server.base}/api/rooms/{code}/join", {"name": "Bob"})
            ctl = await Conn(server.base, code, host).open()
            await ctl.act({"type": "start", "game": "count", "options": {"target": 3}})
            await phone.locator(".gen-actions .act").nth(2).click()       # Ann adds 3: over
            await phone.locator(".results").wait_for()
            await until(phone, "() => document.querySelector('video.keep-awake').paused", timeout=5000)
            await shot(phone, "lan-phone-over-asleep")
            await ctl.act({"type": "again"})                   # a new deal, no tap on this phone
            await phone.locator(".gen-actions .act").first.wait_for()
            await until(phone, PLAYING, timeout=5000)
            await ctl.close()
        assert not real(errors), errors
    finally:
        server.kill()


async def seated_phone(browser, base, code, seat, errors):
    """A phone page on seat (a join answer) from base, in the lobby: (the page, the times
    (monotonic) at which it opened each of its sockets)."""
    phone = await page(browser, PHONE, errors)
    sockets = []
    phone.on("websocket", lambda ws: sockets.append(time.monotonic()))
    await phone.goto(f"{base}/")
    await phone.evaluate(f"localStorage.setItem('partyhub.seat.{code}', '{seat['token']}');"
                         f"localStorage.setItem('partyhub.pid.{code}', '{seat['player_id']}')")
    await phone.goto(f"{base}/j/{code}")
    await phone.locator(".lobby-phone").wait_for()
    return phone, sockets


REFUSE_LOCKS = """navigator.wakeLock.request = () => {
  window.refusedLocks = (window.refusedLocks || 0) + 1;
  return Promise.reject(new DOMException('refused', 'NotAllowedError'));
};"""


@pytest.mark.parametrize("refused", [False, True])
async def test_the_wake_lock_where_there_is_one(tmp_path, chromium_path, refused):
    from tests.e2e.browser import e2e_server
    server = e2e_server(tmp_path)
    errors = []
    try:
        status, room = http("POST", server.base + "/api/rooms", {})
        async with chromium(chromium_path) as browser:
            phone = await page(browser, PHONE, errors)
            if refused:
                await phone.add_init_script(REFUSE_LOCKS)
            await phone.goto(f"{server.base}/j/{room['code']}")
            await phone.locator("#name").wait_for()
            assert await phone.evaluate("() => [isSecureContext, 'wakeLock' in navigator]") == [True, True]
            await phone.fill("#name", "Ann")
            await phone.locator(".join-bottom button[type=submit]").click()
            await phone.locator(".lobby-phone").wait_for()
            if refused:
                await until(phone, PLAYING, timeout=5000)
                assert await phone.evaluate("() => window.refusedLocks") == 1, "asked once, then the video"
            else:
                await asyncio.sleep(0.5)
                assert await phone.evaluate(VIDEO) is None, "the lock is granted: no video"
        assert not errors, errors
    finally:
        server.kill()


def sketch_words(view):
    return [a["word"] for a in view["actions"] if a["type"] == "draw" and a["board"] == 0]


STROKES = [[[0.1, 0.1], [0.9, 0.9]], [[0.9, 0.1], [0.1, 0.9]], [[0.5, 0.1], [0.5, 0.9], [0.2, 0.5]]]

PAINTED = """(name) => {
  const group = [...document.querySelectorAll('.sk-group')].find((g) => g.textContent.includes(name));
  const c = group && group.querySelector('canvas');
  if (!c || !c.width) return 0;
  const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let ink = 0;
  for (let i = 0; i < px.length; i += 4) if (px[i] < 128 && px[i + 3] > 0) ink += 1;
  return ink;
}"""


@on_lan
async def test_a_phone_comes_back_from_a_dead_network(tmp_path, chromium_path):
    server = lan_server(tmp_path)
    proxy = await Blackhole(LAN, server.port, LAN).start()
    errors = []
    try:
        status, room = http("POST", server.base + "/api/rooms", {})
        code, host = room["code"], room["host_token"]
        seats = [http("POST", f"{server.base}/api/rooms/{code}/join", {"name": n})[1]
                 for n in ("Ann", "Bob", "Cleo")]
        ann, bob, cleo = seats
        ctl = await Conn(server.base, code, host).open()
        b, c = [await Conn(server.base, code, s["token"]).open() for s in (bob, cleo)]
        async with chromium(chromium_path) as browser:
            phone, sockets = await seated_phone(browser, proxy.base, code, ann, errors)
            await ctl.act({"type": "start", "game": "sketch", "options": {"round_seconds": 12}})
            await phone.locator(".sk-word").first.wait_for()
            for conn in (b, c):
                await conn.wait(lambda v: v["room"]["phase"] == "playing")

            proxy.cut()                                          # the phone's Wi-Fi goes
            cut_at = time.monotonic()
            cut_v = ctl.version
            for conn in (b, c):
                await conn.act({"type": "draw", "board": 0, "word": sketch_words(conn.view)[0]})
                for points in STROKES:
                    await conn.act({"type": "stroke", "board": 0, "points": points,
                                    "color": "#000", "width": 8})
            await ctl.wait(lambda v: v["game"]["phase"] == "guessing", timeout=20)
            word = (await c.wait(lambda v: v["game"]["phase"] == "guessing"))["game"]["you"]["boards"][0]["word"]
            await b.act({"type": "guess", "player": cleo["player_id"], "board": 0, "text": word})
            await ctl.wait(lambda v: any(x["player"] == cleo["player_id"] and x.get("won_by")
                                         for x in v["game"]["boards"]))
            while time.monotonic() - cut_at < 19:   # long enough for a retry to time out too
                await asyncio.sleep(0.2)
            gap_sockets = [t for t in sockets if t > cut_at]
            # the heartbeat gave the half-open socket up (a ping unanswered for 4 s, pings every
            # 5 s), and the retry, lost in the void as well, was given up after 5 s for another
            assert len(gap_sockets) >= 2, [t - cut_at for t in gap_sockets]
            assert gap_sockets[0] - cut_at < 10.5, gap_sockets[0] - cut_at
            assert ctl.version > cut_v
            lost = [f for t, f in proxy.lost if t >= cut_at]
            lost_views = [f["v"] for f in lost if f.get("t") == "view"]
            assert lost_views, "the server sent views into the dead socket"

            proxy.restore()                                      # the network is back
            back_at = time.monotonic()
            current = ctl.version
            await until(phone, "(v) => window.partyhub.version >= v", current, timeout=10_000)
            took = time.monotonic() - back_at
            assert took < 10, took
            assert await phone.evaluate("() => window.partyhub.version") == ctl.version
            assert max(lost_views) <= current
            # every change of the gap shows on the phone: the round turned, the strokes drawn
            # in the gap are on Bob's and Cleo's boards, Cleo's board is won by Bob
            view = await phone.evaluate("() => window.partyhub.view")
            assert view["game"]["phase"] == "guessing"
            boards = {x["player"]: x for x in view["game"]["boards"] if x["board"] == 0}
            for seat in (bob, cleo):
                assert len(boards[seat["player_id"]]["strokes"]) == len(STROKES)
            assert boards[cleo["player_id"]]["won_by"] == [bob["player_id"]]
            await phone.locator(".sk-gtile.won").wait_for()
            for name in ("Bob", "Cleo"):
                assert await until(phone, PAINTED, name, timeout=3000), f"{name}'s strokes are drawn"
            await shot(phone, "lan-phone-back-from-a-dead-network")
            print(f"\nnetwork cut {back_at - cut_at:.1f} s: the server sent {len(lost)} frames "
                  f"({len(lost_views)} views, v{min(lost_views)}..v{max(lost_views)}) into the dead "
                  f"socket; the phone opened {len(gap_sockets)} socket(s) during the cut and was on "
                  f"v{current} {took:.2f} s after the network came back")
            for conn in (ctl, b, c):
                await conn.close()
        assert not [e for e in real(errors) if "WebSocket" not in e], errors
    finally:
        await proxy.close()
        server.kill()


@on_lan
async def test_coming_back_replaces_a_socket_lost_in_the_gap(tmp_path, chromium_path):
    server = lan_server(tmp_path)
    proxy = await Blackhole(LAN, server.port, LAN).start()
    errors = []
    try:
        status, room = http("POST", server.base + "/api/rooms", {})
        code, host = room["code"], room["host_token"]
        ann, bob = [http("POST", f"{server.base}/api/rooms/{code}/join", {"name": n})[1]
                    for n in ("Ann", "Bob")]
        ctl = await Conn(server.base, code, host).open()
        b = await Conn(server.base, code, bob["token"]).open()
        async with chromium(chromium_path) as browser:
            phone, sockets = await seated_phone(browser, proxy.base, code, ann, errors)
            await ctl.act({"type": "start", "game": "count", "options": {"target": 100}})
            await phone.locator(".gen-actions .act").first.wait_for()
            # a healthy socket coming back is probed, at most once a second: within the budget
            pings = []
            phone.on("websocket", lambda ws: ws.on(
                "framesent", lambda f: '"t":"ping"' in f and pings.append(time.monotonic())))
            await phone.reload()
            await phone.locator(".gen-actions .act").first.wait_for()
            await asyncio.sleep(1.2)                  # past the first ping's second
            storm = time.monotonic()
            await phone.evaluate("""() => { for (let i = 0; i < 200; i += 1) {
              window.dispatchEvent(new Event('online'));
              document.dispatchEvent(new Event('visibilitychange')); } }""")
            await asyncio.sleep(1.5)
            assert 1 <= len([t for t in pings if t >= storm]) <= 2, pings
            for n, (event, fire) in enumerate([
                    ("online", "() => window.dispatchEvent(new Event('online'))"),
                    ("visible", f"() => ({SEEN})('visible')")]):
                proxy.cut()
                cut_at = time.monotonic()
                if event == "visible":
                    await phone.evaluate(SEEN, "hidden")
                await b.act({"type": "say", "text": f"gap {n}"})
                # the heartbeat gives the half-open socket up; its retry goes into the void too
                while not [t for t in sockets if t > cut_at]:
                    assert time.monotonic() - cut_at < 12, "the heartbeat did not give up"
                    await asyncio.sleep(0.05)
                retry_at = [t for t in sockets if t > cut_at][0]
                await asyncio.sleep(max(0.0, retry_at + 1.3 - time.monotonic()))
                proxy.restore()
                back_at = time.monotonic()
                await phone.evaluate(fire)
                await until(phone, "(v) => window.partyhub.version >= v", ctl.version, timeout=10_000)
                took = time.monotonic() - back_at
                # waiting out the lost retry would take 3.7 s or more (5 s, less the 1.3 s)
                assert took < 2, (event, took)
                said = await phone.evaluate("() => window.partyhub.view.game.said.map((x) => x[1])")
                assert f"gap {n}" in said
                print(f"\n{event}: the phone was current {took:.2f} s after the network came back")
            for conn in (ctl, b):
                await conn.close()
        assert not [e for e in real(errors) if "WebSocket" not in e], errors
    finally:
        await proxy.close()
        server.kill()
