"""The jinx and sketch audience screens in the real shell against the frames the platform sends
(the audience design, issue 22), without the platform's audience core: the audience phone's
socket is relayed through Playwright, which adds the game's audience actions to its views
(from the pure rules: `audience_actions`), answers its audience actions with `mine` frames
judged by the pure rules (`audience_check`), and sends the TV `tally` frames
(`audience_summary`). The players play through sockets; the game runs host-paced.
Screenshots: tests/e2e/screenshots/audience-relay-{jinx,sketch}-*.png (390/320 px, TV 1920x1080)."""
import asyncio
import json

import pytest

from partyhub.gamekit import Ballot
from tests.e2e.browser import PHONE, chromium, e2e_server, page, settled, shot, until
from tests.e2e.test_audience_games_browser import BIG_TV, NAMES, both_widths, draw_boards
from tests.liveserver import Conn, http

pytestmark = [pytest.mark.browser, pytest.mark.slow]

def relay(ws, edit_in, edit_out):
    server = ws.connect_to_server()
    server.on_message(lambda m: (lambda out: out is not None and ws.send(out))(edit_in(m)))
    ws.on_message(lambda m: (lambda out: out is not None and server.send(out))(edit_out(m)))


class Relay:
    """The audience core's part, played from the test: `state_of(view)` builds from the
    phone's newest view (and what the test knows: jinx's target, sketch's words) as much of
    the game's state as the audience hooks read."""

    def __init__(self, game, state_of):
        self.game, self.state_of = game, state_of
        self.votes: dict = {}          # ballot -> {voter: {"name", "votes"}}
        self.phone = None
        self.tv = None
        self.seq = 0
        self.view = None

    def phone_in(self, m):
        f = json.loads(m)
        d = f.get("d") or {}
        if f.get("t") == "view" and d.get("room", {}).get("phase") == "playing" and d.get("game"):
            d["room"]["audience_play"] = True
            self.view = d
            state = self.state_of(d)
            if state is not None:
                d["actions"] = [a for a in d["actions"] if not a["type"].startswith("audience_")] + \
                    self.game.audience_actions(state)
            return json.dumps(f)
        return m

    def phone_out(self, m):
        f = json.loads(m)
        d = f.get("d") or {}
        if f.get("t") != "act" or not str(d.get("type", "")).startswith("audience_"):
            return m
        state = self.state_of(self.view)
        ballot = self.game.audience_ballot(state) if state else None
        mine = self.votes.setdefault(ballot, {}).setdefault("zoe", {"name": "Zoe", "votes": {}})
        verdict = self.game.audience_check(state, d, dict(mine["votes"])) if ballot else None
        if not isinstance(verdict, Ballot):
            code = verdict.code if verdict else "no_ballot"
            self.phone.send(json.dumps({"t": "error", "d": {"code": code, "message": "", "ref": f["id"]}}))
            return None
        if verdict.key is not None:
            mine["votes"][verdict.key] = verdict.value
        self.phone.send(json.dumps({"t": "mine", "d": {"ballot": ballot, "votes": dict(mine["votes"]),
                                                       "ref": f["id"], "reply": verdict.reply}}))
        self.send_tally(state)
        return None

    def vote(self, voter, name, action):
        """Another voter (as if on its own socket)."""
        state = self.state_of(self.view)
        ballot = self.game.audience_ballot(state)
        mine = self.votes.setdefault(ballot, {}).setdefault(voter, {"name": name, "votes": {}})
        verdict = self.game.audience_check(state, action, dict(mine["votes"]))
        assert isinstance(verdict, Ballot), verdict
        if verdict.key is not None:
            mine["votes"][verdict.key] = verdict.value
        self.send_tally(state)

    def send_tally(self, state):
        ballot = self.game.audience_ballot(state)
        entries = self.votes.get(ballot, {})
        self.seq += 1
        if self.tv:
            self.tv.send(json.dumps({"t": "tally", "d": {"ballot": ballot, "seq": self.seq, "voters": len(entries),
                                                         "summary": self.game.audience_summary(state, entries)}}))


async def table(browser, base, errors, rel):
    status, room = http("POST", base + "/api/rooms", {"language": "en"})
    code, host = room["code"], room["host_token"]
    seats = [http("POST", f"{base}/api/rooms/{code}/join", {"name": n})[1] for n in NAMES]
    conns = {s["player_id"]: await Conn(base, code, s["token"]).open() for s in seats}
    ctl = await Conn(base, code, host).open()
    await ctl.act({"type": "settings", "timers": "none"})
    tv = await page(browser, BIG_TV, errors)
    await tv.route_web_socket("**/ws/rooms/**", lambda ws: (setattr(rel, "tv", ws), relay(ws, lambda m: m, lambda m: m)))
    await tv.goto(f"{base}/")
    await tv.evaluate(f"localStorage.setItem('partyhub.host.{code}', '{host}')")
    await tv.goto(f"{base}/tv/{code}")
    zoe = await page(browser, PHONE, errors, "en")
    await zoe.route_web_socket("**/ws/rooms/**", lambda ws: (setattr(rel, "phone", ws), relay(ws, rel.phone_in, rel.phone_out)))
    await zoe.goto(f"{base}/j/{code}?watch")
    await zoe.locator(".lobby-phone").wait_for()
    return code, ctl, conns, tv, zoe


async def test_jinx_audience_screens(tmp_path, chromium_path):
    from games.jinx.rules import GAME
    server = e2e_server(tmp_path)
    errors = []
    known = {}

    def state_of(v):
        """Enough of a jinx state for the audience hooks: phase, turn, picks, target, last."""
        if not v or not v.get("game"):
            return None
        g = v["game"]
        seats = [p["id"] for p in v["room"]["players"]]
        picks = [[seats.index(f["player"]), i] for i, f in enumerate(g["fingers"]) if f]
        return {"phase": g["phase"], "turn": g["turn"], "picks": picks, "target": known.get("target"),
                "seats": seats, "last": g["last"]}

    rel = Relay(GAME, state_of)
    try:
        async with chromium(chromium_path) as browser:
            code, ctl, conns, tv, zoe = await table(browser, server.base, errors, rel)
            await ctl.act({"type": "start", "game": "jinx", "options": {"first_player": "first_seat"}})
            v = await ctl.wait(lambda v: v["room"]["phase"] == "playing" and v["game"])
            active = conns[v["game"]["active"]]
            await active.wait(lambda v: v["game"] and "target" in v["game"])
            target = known["target"] = active.view["game"]["target"]
            await active.act({"type": "clue", "text": "ocean"})
            known["view"] = await ctl.wait(lambda v: v["game"]["phase"] == "race")
            await conns[v["game"]["guessers"][0]].act({"type": "pick", "slot": (target + 1) % 9})
            known["view"] = await ctl.wait(lambda v: any(v["game"]["fingers"]))
            await zoe.locator(".jx-p-cell.live").first.wait_for()
            await until(zoe, "() => [...document.querySelectorAll('.jx-face img')].every(i => i.complete)", timeout=5000)
            assert await zoe.locator(".jx-p-title", has_text="Which card is it?").count() == 1
            await both_widths(zoe, "audience-relay-jinx-phone-race")
            await zoe.locator(f'.jx-p-cell[data-slot="{target}"]').tap()
            await zoe.locator(f'.jx-p-cell.guess[data-slot="{target}"] .jx-guess').wait_for()
            for i in range(11):
                rel.vote(f"a{i}", f"V{i}", {"type": "audience_predict", "slot": (target + 2 + i % 3) % 9})
            await both_widths(zoe, "audience-relay-jinx-phone-predicted")
            await tv.locator(".jx-aud", has_text="12 in the audience predicted").wait_for()
            await settled(tv)
            await shot(tv, "audience-relay-jinx-tv-race")
            await conns[v["game"]["guessers"][1]].act({"type": "pick", "slot": target})
            known["view"] = await ctl.wait(lambda v: v["game"]["phase"] == "reveal")
            await zoe.locator(".jx-p-title.good", has_text="You predicted it!").wait_for()
            await both_widths(zoe, "audience-relay-jinx-phone-reveal")
            for c in [*conns.values(), ctl]:
                await c.close()
        assert not errors, errors
    finally:
        server.kill()


async def test_sketch_audience_screens(tmp_path, chromium_path):
    from games.sketch.rules import GAME
    server = e2e_server(tmp_path)
    errors = []
    known = {"words": {}}

    def state_of(v):
        if not v or not v.get("game"):
            return None
        g = v["game"]
        seats = [p["id"] for p in g["players"]]
        boards = {p: [{"word": known["words"].get((p, i)), "strokes": [], "won_by": [], "won_at": None}
                      for i in range(6)] for p in seats}
        return {"phase": g["phase"], "round": g["round"], "seats": seats, "boards": boards,
                "guess_words": g["guess_words"]}

    rel = Relay(GAME, state_of)
    try:
        async with chromium(chromium_path) as browser:
            code, ctl, conns, tv, zoe = await table(browser, server.base, errors, rel)
            await ctl.act({"type": "start", "game": "sketch", "options": {}})
            known["words"].update(await draw_boards(conns))
            await asyncio.sleep(0.5)
            await next(iter(conns.values())).act({"type": "advance"})   # the VIP (first seat)
            known["view"] = await ctl.wait(lambda v: v["game"]["phase"] == "guessing")
            await zoe.locator(".sk-astage .sk-abig").wait_for()
            await both_widths(zoe, "audience-relay-sketch-phone-guessing")
            await zoe.fill(".sk-ainput", "zzz balloon")
            await zoe.locator(".sk-asend").click()
            await zoe.locator(".sk-areply.in", has_text="Guess recorded: “zzz balloon”").wait_for()
            await both_widths(zoe, "audience-relay-sketch-phone-wrong")
            who = await zoe.locator(".sk-awho").inner_text()
            names = {p["id"]: p["name"] for p in known["view"]["room"]["players"]}
            drawer = next(pid for pid, n in names.items() if n in who)
            board = int(who.rsplit(" ", 1)[1]) - 1
            word = known["words"][(drawer, board)]
            await zoe.fill(".sk-ainput", f"a {word}")
            await zoe.locator(".sk-asend").click()
            # issue 31: right or wrong, a guess is only recorded until the round is over
            await zoe.locator(".sk-areply.in .sk-aleft", has_text="1 guess left").wait_for()
            await zoe.locator(".sk-athumbbtn.got").first.wait_for()
            await both_widths(zoe, "audience-relay-sketch-phone-right")
            order = [p["id"] for p in known["view"]["game"]["players"]]
            n = order.index(drawer) * 6 + board
            for i, name in enumerate(["Max", "Olena", "Bartholomew", None]):
                rel.vote(f"a{i}", name, {"type": "audience_guess", "board": n, "text": word})
            await tv.locator(".sk-audnames", has_text="5 guessing").wait_for()
            await settled(tv)
            await shot(tv, "audience-relay-sketch-tv-guessing")
            for c in [*conns.values(), ctl]:
                await c.close()
        assert not errors, errors
    finally:
        server.kill()
