"""The audience's association screens (issue 22) in a real browser, the shell's socket routed
to a scripted server sending views built by the real rules (and the `mine` / `tally` frames
the platform sends):
- the audience phone at 390 and 320 px in the vote phase: the table as a grid of cards, every
  card a target of 44 px or more and the page not wider than the phone; a tap sends an
  `audience_vote`, the `mine` frame marks the pick ✓ and the status says "You voted for card n";
- the TV at 1920x1080: "2 in the audience voted" from the tally (never a card) and the
  anonymous voters as a count apart ("+5 anonymous, not counted"), the reveal's
  badge on the audience's pick and "The audience: 1 of 2 found it", the results' "Audience
  favourite".
Screenshots: tests/e2e/screenshots/association-audience-*.png.
"""
import asyncio
import json
import sys
from pathlib import Path

import pytest

from tests.e2e.browser import PHONE, TV, chromium, page, settled, shot, until
from tests.e2e.test_klepka_browser import Scripted, server  # noqa: F401 (the module's server fixture)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "association"))

pytestmark = [pytest.mark.browser]
FULL_HD = {"width": 1920, "height": 1080}
CODE = "KLEP"       # the scripted pages never ask the server about the room
PLAYERS = [("ann", "Ann", "#ff5d8f", "●"), ("bob", "Bob", "#4cc9f0", "▲"),
           ("cat", "Катерина", "#3ddc97", "■"), ("dan", "Dan", "#ffd23f", "◆")]


def scenes():
    """vote (the audience may vote), reveal (its ballot folded in), over (a whole game)."""
    import random

    from association_helpers import GAME, new_game, others, story, to_vote, vote

    s = to_vote(new_game(4, seed=5))
    assert s["seats"] == [p[0] for p in PLAYERS]
    out = {"vote": s}
    decoy = next(c for c in s["table"] if c != story(s))
    entries = {"a1": {"name": "Zoe", "votes": {"card": story(s)}},
               "c1": {"name": None, "votes": {"card": decoy}}, "c2": {"name": None, "votes": {"card": decoy}}}
    before = s
    for seat in others(s):
        own = s["played"][seat]
        before, s = s, vote(s, seat, next(c for c in s["table"] if c != own))
    out["reveal"] = GAME.audience_close(s, GAME.audience_ballot(before), entries)
    # a whole game: the audience votes for the first table card of every turn; the first seed
    # from 9 whose game ends with a tie on the podium (the results show a shared step), so the
    # scene does not hang on the deck's order
    for seed in range(9, 400):
        g = whole_game(GAME, new_game, seed)
        points = sorted(GAME.scores(g).values(), reverse=True)
        steps = sorted(set(points), reverse=True)[:3]
        if any(points.count(p) > 1 for p in steps):
            break
    out["over"] = g
    return out, GAME


def whole_game(GAME, new_game, seed):
    """A whole game of 4 (to 10 points) by random moves; the audience votes for the first table
    card of every turn."""
    import random

    r = random.Random(1)
    g = new_game(4, seed=seed, target_score=10)
    now = 1_000
    while g["phase"] != "over":
        key = GAME.audience_ballot(g)
        moves = [(seat, a) for seat in g["seats"] for a in GAME.actions(g, seat)]
        seat, a = r.choice(moves)
        if a.get("clue", "") is None:
            a = dict(a, clue="moon")
        after = GAME.apply(g, seat, a, now).state
        if key is not None and GAME.audience_ballot(after) != key:
            after = GAME.audience_close(after, key, {"v": {"name": "Zoe", "votes": {"card": g["table"][0]}},
                                                     "c": {"name": None, "votes": {"card": g["table"][-1]}}})
        g, now = after, now + 100
    return g


def envelope(GAME, s, role, lang, pid=None, phase="playing"):
    from partyhub.gamekit import AUDIENCE, TABLE
    viewer = TABLE if role == "tv" else AUDIENCE
    scores = GAME.scores(s)
    actions = [{"type": "pause"}, {"type": "end"}] if role == "tv" else GAME.audience_actions(s)
    return {"room": {"code": CODE, "phase": phase, "game": "association", "game_no": 1, "vip": "ann",
                     "paused": False, "language": lang, "locked": False, "streamer": False,
                     "extended": False, "takeover": False, "join_url": f"http://partyhub.test/j/{CODE}",
                     "audience_play": True,
                     "players": [{"id": i, "name": n, "color": c, "symbol": y, "connected": True,
                                  "score": scores[i], "bot": False} for i, n, c, y in PLAYERS],
                     "audience": 3, "options": {}, "results": GAME.outcome(s),
                     "scoreboard": {"played": 0, "wins": {}, "recent": []}},
            "you": {"role": "tv" if role == "tv" else "audience", "id": None, "language": lang},
            "game": GAME.view(s, viewer), "deadline": None, "actions": actions}


async def scripted(browser, viewport, kind, errors):
    p = await page(browser, viewport, errors)
    sock = Scripted()
    import re
    await p.route_web_socket(re.compile(r"/ws/rooms/"), sock.handler)
    key = f"partyhub.host.{CODE}" if kind == "tv" else f"partyhub.seat.{CODE}"
    await p.add_init_script(f"localStorage.setItem('{key}', 'tok');"
                            + (f"localStorage.setItem('partyhub.audience.{CODE}', 'tok');" if kind != "tv" else ""))
    return p, sock


def send(sock, t, d):
    sock.ws.send(json.dumps({"t": t, "d": d}, ensure_ascii=False))


async def test_the_audience_phone_votes_and_the_tv_shows_the_audience(chromium_path, server):  # noqa: F811
    import django
    django.setup()
    sc, GAME = scenes()
    vote_s = sc["vote"]
    ballot = GAME.audience_ballot(vote_s)
    table = vote_s["table"]
    errors = []
    async with chromium(chromium_path) as browser:
        for width, height, lang in ((390, 844, "en"), (320, 640, "uk"), (390, 844, "ru")):
            vp = PHONE if width == 390 else {"width": width, "height": height}
            ph, sock = await scripted(browser, vp, "phone", errors)
            sock.view = envelope(GAME, vote_s, "audience", lang)
            await ph.goto(f"{server.base}/j/{CODE}?lang={lang}")
            await ph.locator(".as-p-strip.aud .as-p-card").first.wait_for()
            # the game's stylesheet is loaded (a fresh browser context fetches it anew)
            await until(ph, "() => getComputedStyle(document.querySelector('.as-p-strip')).display === 'grid'"
                        " && [...document.querySelectorAll('.as-p-strip img')].every((i) => i.complete)")
            await settled(ph)
            sizes = await ph.locator(".as-p-strip.aud .as-p-pick").evaluate_all(
                "els => els.map((e) => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })")
            assert len(sizes) == len(table) and min(min(w, h) for w, h in sizes) >= 44, sizes
            wide = await ph.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= width, (width, wide)
            await shot(ph, f"association-audience-phone{width}-vote-{lang}")
            # a tap votes; the platform's `mine` marks the pick
            await ph.locator(".as-p-strip.aud .as-p-pick").nth(1).click()
            await until(ph, "() => 1", timeout=1000)
            sent = [f["d"] for f in sock.sent if f["d"].get("type") == "audience_vote"]
            assert sent and sent[-1] == {"type": "audience_vote", "card": table[1]}, sock.sent
            send(sock, "mine", {"ballot": ballot, "votes": {"card": table[1]}, "ref": sock.sent[-1]["id"],
                                "reply": {"card": table[1]}})
            await until(ph, "() => document.querySelector('.as-p-card.voted') !== null")
            marked = await ph.locator(".as-p-card.voted").get_attribute("data-card")
            assert marked == table[1]
            title = await ph.locator(".as-p-title").inner_text()
            assert "2" in title, title
            await settled(ph)
            await shot(ph, f"association-audience-phone{width}-voted-{lang}")
            await ph.context.close()

        for lang in ("en", "uk"):
            tv, tsock = await scripted(browser, FULL_HD, "tv", errors)
            tsock.view = envelope(GAME, vote_s, "tv", lang)
            await tv.goto(f"{server.base}/tv/{CODE}?lang={lang}")
            await tv.locator(".as-slot.up").first.wait_for()
            send(tsock, "tally", {"ballot": ballot, "seq": 3, "voters": 7, "anonymous": 5, "summary": {"voted": 2}})
            await until(tv, "() => { const e = document.querySelector('.as-crowd'); return e && !e.hidden && e.textContent; }")
            text = await tv.locator(".as-crowd").inner_text()
            assert "2" in text and not any(c in text for c in table), text
            # anonymous voters: a count apart (issue 31)
            anon = await tv.locator(".as-crowd .aud-anon").inner_text()
            assert anon == {"en": "+5 anonymous, not counted", "uk": "+5 анонімних, без заліку"}[lang], anon
            await settled(tv)
            await shot(tv, f"association-audience-tv-vote-{lang}")
            await tsock.push(envelope(GAME, sc["reveal"], "tv", lang))
            await tv.locator(".as-cards.owned .as-crowd-badge").first.wait_for(timeout=15_000)
            await until(tv, "() => { const e = document.querySelector('.as-crowd'); return e && !e.hidden; }", timeout=10_000)
            crowd = sc["reveal"]["last"]["audience"]
            badges = await tv.locator(".as-crowd-badge").evaluate_all(
                "els => els.map((e) => [e.closest('.as-slot').dataset.card, e.textContent])")
            assert sorted(b[0] for b in badges) == sorted(crowd["pick"]), badges
            await settled(tv)
            await asyncio.sleep(1.0)
            await shot(tv, f"association-audience-tv-reveal-{lang}")
            await tsock.push(envelope(GAME, sc["over"], "tv", lang, phase="over"))
            await tv.locator(".as-award").wait_for(timeout=10_000)
            await settled(tv)
            await shot(tv, f"association-audience-tv-results-{lang}")
            # the recap under the podium never pushes the podium up over the headline, and a
            # shared step lists its players one under another, their names never on each other
            # (issue 27: in one row they ran together, "BobBobОленаDave")
            boxes = await tv.evaluate("""() => {
              const r = (e) => e.getBoundingClientRect();
              const head = r(document.querySelector('.results-head'));
              const tops = [...document.querySelectorAll('.pod-player')].map((e) => r(e).top);
              const shared = [...document.querySelectorAll('.step-players.shared')].map((s) => {
                const names = [...s.querySelectorAll('.pname')].map(r);
                return names.every((a, i) => names.slice(i + 1).every((b) => a.bottom <= b.top + 1 || b.bottom <= a.top + 1));
              });
              return {head: head.bottom, top: Math.min(...tops), shared};
            }""")
            assert boxes["top"] >= boxes["head"] - 1, boxes
            assert boxes["shared"] and all(boxes["shared"]), boxes
            await tv.context.close()
        # the audience phone's results: the award too
        ph, sock = await scripted(browser, {"width": 320, "height": 640}, "phone", errors)
        sock.view = envelope(GAME, sc["over"], "audience", "en", phase="over")
        await ph.goto(f"{server.base}/j/{CODE}?lang=en")
        await ph.locator(".as-award").wait_for(timeout=10_000)
        await settled(ph)
        await shot(ph, "association-audience-phone320-results-en")
        wide = await ph.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= 320, wide
    assert not errors, errors
