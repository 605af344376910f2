"""`make screens` (issue 27): every game played at a full table, with a screenshot of every TV
and phone screen, and one contact sheet per game, for people to look at.

    python -m tests.e2e.screens [--games association,jinx] [--out screens] [--players N]

One server and one chromium. Per game a room of its own: two TVs on it (1920x1080 and
1280x720, the same host in one browser context), two phones in chromium (390 px, the VIP, in
the room's language; 320 px in Ukrainian) and simulated phones (partyhub.bots over the
protocol) with the longest names a seat may have, up to the game's most players. The browser
phones are driven like bots (partyhub.bots.next_action on their own view); a storyteller
alternates between the longest clue allowed and a short one. Each page is shot the first time
each of its screens comes (a game phase and what the phone may do), once its short
animations are over; then the results. Per game: <out>/<game>/*.png and <out>/<game>.png,
the contact sheet (Pillow): one row per screen, the TVs and phones side by side.
"""
import argparse
import asyncio
import contextlib
import random
import tempfile
import time
from pathlib import Path

from partyhub import bots
from partyhub.bots import client as botclient
from tests.e2e.browser import (SHARED_LIMITS, TV, _new_server, chromium, join_phones, new_room,
                               page, settled, until)
from tests.e2e.test_axe_sweep_browser import VIEW, phone_screen

ROOT = Path(__file__).resolve().parents[2]
BIG_TV = {"width": 1920, "height": 1080}
SMALL = {"width": 320, "height": 640}
CHROMIUM = "/usr/bin/chromium"
# Names at the seat's limit (32 characters, partyhub/rooms/core/seating.py: NAME_MAX), Latin and
# Cyrillic, and short ones that tie (the run-together places of issue 27).
LONG_NAMES = ["Maximiliana Bartholomew-Fitzroy", "Олександра-Вікторія Коваленко-Ш",
              "Konstantinos Papadopoulos-Jones", "Анастасія Шевченко-Запорізька",
              "Wolfgang Amadeus Mozart the 3rd", "Христофор Бонавентура Кирилюк",
              "BobBob", "Олена", "Dave", "Cleo"]
THINK = (0.05, 0.3)   # a simulated phone's think time (s): the table plays fast, screens still come
# Moments the fast seats would end before the TVs are shot (each settled, then still there, after
# the phones' new screens): every seat, simulated or browser, waits this long (s) in them until
# both TVs have been shot there. Jinx's race ends at the first right tap.
HOLD = {("jinx", "race"): (9.0, 10.0)}
TVS = ("tv1920", "tv1280")
RETRY = 3.0           # s a browser phone waits for its move to change its view before it tries another
WAIT = 10.0           # s a TV may lag behind the table's view before its shot of that moment is given up
PROGRESS = 30         # s between the progress lines (the phase and turn a game has reached)
LONG_CLUE = ("The quiet lighthouse keeper who counted every wave that ever reached the shore, "
             "and still forgot the one that mattered most")[:140]
# Per game: its most players, the room's language, and options that reach the results soon
# (klepka's smallest table; reveals just long enough to be shot on a loaded machine).
GAMES = {
    "association": (12, "en", {"target_score": 6, "reveal_seconds": 6}),
    "jinx": (6, "en", {"next_turn_seconds": 5, "first_player": "first_seat"}),
    "klepka": (6, "uk", {"table": "6x8", "reveal_seconds": 5}),
    "sketch": (10, "en", {"round_seconds": 12}),
}


def hold_of(game, view, seen):
    """The think time (s) that holds this view's moment while a TV has not been shot in it."""
    phase = ((view or {}).get("game") or {}).get("phase")
    hold = HOLD.get((game, phase))
    return hold if hold and any(f"{tv} {phase}" not in seen for tv in TVS) else None


def think_of(game, seen=()):
    """A simulated seat's think time in a view of `game` (partyhub.bots.play's think)."""
    return lambda view: hold_of(game, view, seen) or THINK


def held(game, view, since, seen=()):
    """A browser phone still waits in this view (first seen at `since`, monotonic s)."""
    hold = hold_of(game, view, seen)
    return hold is not None and time.monotonic() - since < hold[0]


def tell_clue(action, turn):
    """The storyteller's clue: the longest allowed on odd turns, two words on even ones."""
    if action and "clue" in action:
        return {**action, "clue": LONG_CLUE if turn % 2 else "Listen closely"}
    return action


async def snap(p, path, still=None):
    """One screenshot once the game's screen is drawn (no "Loading…") and at rest; none (False)
    when `still` says the screen has moved on by then."""
    with contextlib.suppress(Exception):     # still loading after 10 s: shot as it is
        await p.wait_for_function("() => !document.querySelector('.loading')", timeout=10_000)
    await settled(p, 2500)
    if still is not None and not await still():
        return False
    await p.screenshot(path=str(path))
    return True


async def shoot(pages, folder, shots, still=None):
    """Shoot [(page, name)] at once. With `still` (async, -> bool): keep the shots only if the
    screen has not moved on meanwhile (a short reveal), else drop them and return False."""
    paths = [folder / f"{len(shots) + i:03d}-{name}.png" for i, (_, name) in enumerate(pages)]
    done = await asyncio.gather(*(snap(p, path, still) for (p, _), path in zip(pages, paths)))
    if not all(done) or (still is not None and not await still()):
        for path in paths:
            path.unlink(missing_ok=True)
        return False
    shots.extend((name, path) for (_, name), path in zip(pages, paths))
    return True


async def tv_shot(p, key, now, folder, shots, timeout=WAIT):
    """Shoot the TV page p at the moment `now` (of the table's view): once p itself shows it
    (a TV that lags behind under load is waited for, up to timeout s, not shot on the screen
    before nor dropped), and kept only if p is still there when it is taken."""
    async def still():
        return moment(await p.evaluate(VIEW)) == now
    end = time.monotonic() + timeout
    while not await still():
        if time.monotonic() > end:
            return False
        await asyncio.sleep(0.1)
    return await shoot([(p, key)], folder, shots, still)


def moment(view):
    """Where a game is: its phase and turn (a screen shot in it is of that moment)."""
    g = (view or {}).get("game") or {}
    return (view or {}).get("room", {}).get("phase"), g.get("phase"), g.get("turn"), g.get("turn_no")


async def play(browser, base, game, folder, players, budget):
    n, lang, options = GAMES[game]
    n = min(players or n, n)
    tv, join_url = await new_room(browser, base, lang=lang, tv=await page(browser, BIG_TV))
    code = join_url.rsplit("/j/", 1)[1]
    small_tv = await tv.context.new_page()
    await small_tv.set_viewport_size(TV)
    await small_tv.goto(tv.url)
    phones = await join_phones(browser, join_url, ["Ann"], lang=lang, tv=tv)
    phones += await join_phones(browser, join_url, ["Богдан"], lang="uk", tv=tv)
    await phones[1].set_viewport_size(SMALL)
    rnd = random.Random(27)
    sims = []
    seen = set()     # the screens shot: '<page> <phase>' (the simulated seats' hold reads it)
    for name in LONG_NAMES[:max(0, n - len(phones))]:
        status, seat = await asyncio.to_thread(botclient._post, f"{base}/api/rooms/{code}/join", {"name": name})
        assert status == 201, seat
        sims.append(asyncio.create_task(botclient.play(base, code, seat["token"], random.Random(name), think=think_of(game, seen))))
    await until(tv, "(n) => window.partyhub.view.room.players.length >= n", n)
    shots = []
    try:
        await shoot([(tv, "tv1920 lobby"), (small_tv, "tv1280 lobby")], folder, shots)
        await tv.evaluate("([game, options]) => window.partyhub.act({type: 'start', game, options})",
                          [game, options])
        await until(tv, "() => window.partyhub.view.room.phase === 'playing' && window.partyhub.view.game")
        memory = [{} for _ in phones]
        acted = [(None, None, 0.0)] * len(phones)     # per phone: the view it acted on, its move, when
        failed = [set() for _ in phones]             # per phone: the moves refused in that view
        shown = [(None, 0.0)] * len(phones)           # per phone: its moment and when it came
        start = time.monotonic()
        end, tick = start + budget, start + PROGRESS
        while time.monotonic() < end:
            tv_view = await tv.evaluate(VIEW)
            if tv_view["room"]["phase"] != "playing":
                break
            phase = tv_view["game"].get("phase")
            if time.monotonic() > tick:
                tick += PROGRESS
                print(f"{game}: {time.monotonic() - start:.0f} s, {phase}, turn "
                      f"{tv_view['game'].get('turn_no', tv_view['game'].get('turn'))}", flush=True)
            for p, label in ((tv, "tv1920"), (small_tv, "tv1280")):
                if (key := f"{label} {phase}") not in seen and await tv_shot(p, key, moment(tv_view), folder, shots):
                    seen.add(key)
            views = [await p.evaluate(VIEW) for p in phones]
            for p, v in zip(phones, views):
                if v and (key := await phone_screen(p, v)) not in seen:
                    async def same(p=p, key=key):
                        v = await p.evaluate(VIEW)
                        return bool(v) and await phone_screen(p, v) == key
                    if await shoot([(p, key)], folder, shots, same):
                        seen.add(key)
            for i, (p, v) in enumerate(zip(phones, views)):
                if not v or v["room"]["phase"] != "playing":
                    continue
                last_view, last_move, at = acted[i]
                if moment(v) != shown[i][0]:
                    shown[i] = (moment(v), time.monotonic())
                if held(game, v, shown[i][1], seen):
                    continue
                if last_view == v:
                    # a move that did not change the view in RETRY s was refused: another one,
                    # as a simulated phone does (else a game with no timer waits for ever)
                    if last_move is None or time.monotonic() - at < RETRY:
                        continue
                    failed[i].add(bots.offered_key(v.get("actions", []), last_move))
                else:
                    failed[i] = set()
                move = tell_clue(bots.next_action(v, rnd, failed[i], memory[i]), (v.get("game") or {}).get("turn", 1))
                acted[i] = (v, move, time.monotonic())
                if move is not None:
                    await p.evaluate("(a) => window.partyhub.act(a)", move)
            await asyncio.sleep(0.2)
        else:
            print(f"{game}: not over in {budget} s, ended")
            await tv.evaluate("window.partyhub.act({type: 'end'})")
        if (await tv.evaluate(VIEW))["room"]["phase"] == "over":
            pages = [(tv, "tv1920"), (small_tv, "tv1280"), (phones[0], "phone390"), (phones[1], "phone320")]
            for p, _ in pages:
                await p.locator(".results, .result-actions").first.wait_for()
            await shoot([(p, f"{label} results") for p, label in pages], folder, shots)
    finally:
        for task in sims:
            task.cancel()
        await asyncio.gather(*sims, return_exceptions=True)
        await tv.context.close()
        for p in phones:
            await p.context.close()
    return shots


def contact_sheet(shots, out, title):
    """One row per screen (the words after the page's label), its shots side by side at a
    common height; the label under each."""
    from PIL import Image, ImageDraw, ImageFont
    rows: dict = {}
    for name, path in shots:
        rows.setdefault(name.split(" ", 1)[1], []).append((name, path))
    height, pad, caption = 360, 16, 28
    font = ImageFont.load_default(size=20)
    lines = []
    for screen, items in rows.items():
        thumbs = []
        for name, path in items:
            img = Image.open(path).convert("RGB")
            img.thumbnail((10_000, height))
            thumbs.append((name, img))
        lines.append(thumbs)
    width = max(sum(img.width + pad for _, img in line) for line in lines) + pad
    sheet = Image.new("RGB", (max(width, 800), 50 + len(lines) * (height + caption + pad)), "#15102a")
    draw = ImageDraw.Draw(sheet)
    draw.text((pad, 12), title, fill="#ffd23f", font=font)
    y = 50
    for line in lines:
        x = pad
        for name, img in line:
            sheet.paste(img, (x, y))
            draw.text((x, y + height + 4), name, fill="#ffffff", font=font)
            x += img.width + pad
        y += height + caption + pad
    sheet.save(out)


async def main(games, out, players, budget):
    with tempfile.TemporaryDirectory() as data:
        server = _new_server(Path(data), SHARED_LIMITS)
        try:
            async with chromium(CHROMIUM) as browser:
                for game in games:
                    folder = out / game
                    folder.mkdir(parents=True, exist_ok=True)
                    for old in folder.glob("*.png"):
                        old.unlink()
                    t0 = time.monotonic()
                    shots = await play(browser, server.base, game, folder, players, budget)
                    contact_sheet(shots, out / f"{game}.png", f"{game}: {len(shots)} screens")
                    print(f"{game}: {len(shots)} screens in {time.monotonic() - t0:.0f} s -> {out / game}.png")
        finally:
            with contextlib.suppress(Exception):
                server.kill()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--out", type=Path, default=ROOT / "screens")
    ap.add_argument("--players", type=int, default=0, help="seats per game (default: the game's most)")
    ap.add_argument("--budget", type=float, default=480, help="seconds a game may take before it is ended")
    a = ap.parse_args()
    asyncio.run(main([g for g in a.games.split(",") if g], a.out, a.players, a.budget))
