"""Debian chromium through the playwright package (never a browser download)."""
import asyncio
import contextlib
import json
import time
from pathlib import Path

# Playwright's own --disable-features (playwright-core's chromiumSwitches.ts), which any other
# --disable-features replaces: chromium keeps the last of a switch given twice.
# tests/e2e/test_browser_flags.py checks that the browser launched keeps every one of them.
PLAYWRIGHT_DISABLED = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
    "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin",
    "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled", "PreconnectToSearch",
    "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion",
)
# Chromium 156 draws the omnibox's popups as WebUI pages: two renderers loaded for every
# window, that is for every browser context, for an omnibox a headless browser never shows.
# They cost 0.8 s of CPU a context (8 contexts: 9.2-9.8 s of chromium's CPU, 3.0-3.1 s without them),
# on a browser round bound by chromium's CPU (docs/testing.md).
OMNIBOX_POPUPS = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync",
         "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED + OMNIBOX_POPUPS)]
SHOTS = Path(__file__).resolve().parent / "screenshots"
TV = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}


# One chromium for the tests of a module that run in its event loop (tests/e2e/conftest.py
# runs them so): launched at the first test's call, closed after the module. A test gets it
# with no context open and leaves it so (its contexts, with their cookies and storage, are
# closed at its end), as a new browser would be.
_SHARED_BROWSERS: dict = {}    # the module's event loop -> {"pw": Playwright, "browser": Browser}


@contextlib.asynccontextmanager
async def sharing_browsers():
    """While this is open, chromium() in this event loop hands out one browser."""
    loop = asyncio.get_running_loop()
    _SHARED_BROWSERS[loop] = held = {}
    try:
        yield
    finally:
        del _SHARED_BROWSERS[loop]
        if "browser" in held:
            with contextlib.suppress(Exception):
                await held["browser"].close()
            await held["pw"].stop()


@contextlib.asynccontextmanager
async def chromium(path):
    held = _SHARED_BROWSERS.get(asyncio.get_running_loop())
    if held is None:
        async with _launched(path) as (_, browser):
            async with _screens_on_failure(browser):
                yield browser
        return
    if "browser" not in held or not held["browser"].is_connected():
        if "pw" in held:
            await held["pw"].stop()
        held["pw"], held["browser"] = await _launch(path)
    browser = held["browser"]
    try:
        async with _screens_on_failure(browser):
            yield browser
    finally:
        for ctx in list(browser.contexts):
            with contextlib.suppress(Exception):
                await ctx.close()


async def _launch(path):
    from playwright.async_api import async_playwright
    SHOTS.mkdir(exist_ok=True)
    pw = await async_playwright().start()
    try:
        return pw, await pw.chromium.launch(executable_path=path, args=FLAGS, headless=True)
    except BaseException:
        await pw.stop()
        raise


@contextlib.asynccontextmanager
async def _launched(path):
    pw, browser = await _launch(path)
    try:
        yield pw, browser
    finally:
        with contextlib.suppress(Exception):
            await browser.close()
        await pw.stop()


@contextlib.asynccontextmanager
async def _screens_on_failure(browser):
    try:
        yield
    except BaseException:
        await _last_screens(browser)
        raise


async def _last_screens(browser):
    """A failing test's pages as they stand: each trail ends with the page's visible text."""
    for _, _, p, note in TRAILS:
        if p.context.browser is not browser:
            continue
        try:
            text = await p.evaluate("() => document.body.innerText")
            status = await p.evaluate("() => (window.partyhub && window.partyhub.view) ? "
                                      "JSON.stringify({room: window.partyhub.view.room.phase, "
                                      "game: (window.partyhub.view.game || {}).phase}) : null")
        except Exception as e:   # noqa: BLE001 - a closed or crashed page says so
            note(f"screen unavailable: {e}")
            continue
        note(f"view {status}; screen text: " + " | ".join(
            line.strip() for line in text.splitlines() if line.strip())[:600])


# What every page of the current test did, for the failure report (tests/e2e/conftest.py):
# navigations, console lines, sockets opened and closed, and the frames that change the screen.
# One (name, lines, page, note) per page; note(text) adds a line.
TRAILS: list = []


def _frame_note(payload):
    try:
        f = json.loads(payload)
    except (TypeError, ValueError):
        return None
    if not isinstance(f, dict) or f.get("t") in ("ping", "pong", "stream"):
        return None
    d = f.get("d") if isinstance(f.get("d"), dict) else {}
    if f.get("t") == "view":
        g = d.get("game") if isinstance(d.get("game"), dict) else {}
        return f"view v={f.get('v')} phase={d.get('room', {}).get('phase')} game={g.get('phase')}"
    if f.get("t") == "act":
        return f"act {json.dumps(d, ensure_ascii=False)[:120]}"
    return f"{f.get('t')} {json.dumps(d, ensure_ascii=False)[:160]}"


def trail(p, name):
    """Record what page p does into TRAILS under name."""
    lines, t0 = [], time.monotonic()

    def note(text):
        lines.append(f"{time.monotonic() - t0:7.2f}s {text}")

    TRAILS.append((name, lines, p, note))

    def on_socket(ws):
        note(f"socket open {ws.url.split('?')[0]}")
        ws.on("close", lambda _ws: note("socket closed"))
        ws.on("socketerror", lambda e: note(f"socket error {e}"))
        ws.on("framereceived", lambda payload: (n := _frame_note(payload)) and note(f"<- {n}"))
        ws.on("framesent", lambda payload: (n := _frame_note(payload)) and note(f"-> {n}"))

    p.on("framenavigated", lambda fr: fr == p.main_frame and note(f"navigated {fr.url}"))
    p.on("console", lambda m: note(f"console.{m.type} {m.text[:200]}"))
    p.on("pageerror", lambda e: note(f"pageerror {e}"))
    p.on("websocket", on_socket)
    p.on("crash", lambda _p: note("crashed"))


# A browser's locale per language: a phone speaks its browser's language (issue 22).
LOCALES = {"en": "en-US", "uk": "uk-UA", "ru": "ru-RU"}


async def page(browser, viewport, errors=None, lang=None):
    """A new page; `lang`: its browser's language (Accept-Language), else the system's."""
    ctx = await browser.new_context(viewport=viewport, has_touch=viewport is PHONE,
                                    is_mobile=viewport is PHONE,
                                    **({"locale": LOCALES[lang]} if lang else {}))
    p = await ctx.new_page()
    trail(p, f"{'phone' if viewport is PHONE else 'tv'} {len(TRAILS) + 1}")
    if errors is not None:
        p.on("pageerror", lambda e: errors.append(str(e)))
        # the shell catches a game module's render error and logs it: that is an error too
        p.on("console", lambda m: errors.append(m.text) if m.type == "error"
             and not m.text.startswith("Failed to load resource") else None)
        # a missing static file is an error, except the modules of the test game, which has
        # none by design (the shell falls back to its generic screen)
        p.on("response", lambda r: errors.append(f"{r.status} {r.url}")
             if r.status >= 400 and "/static/" in r.url and "/static/games/count/" not in r.url
             else None)
    return p


async def until(p, expression, arg=None, timeout=30_000, every=0.05):
    """What page.wait_for_function does, without its eval: the pages' Content-Security-Policy
    forbids eval, and Playwright's waiting predicate is evaluated from a string in the page.
    `evaluate` is not subject to the policy, so this polls it. Returns the truthy value."""
    end = time.monotonic() + timeout / 1000
    while not (value := await p.evaluate(expression, arg)):
        if time.monotonic() > end:
            raise TimeoutError(f"still false after {timeout} ms: {expression[:200]}")
        await asyncio.sleep(every)
    return value


async def box(locator, timeout=10):
    """The locator's bounding box once it has one: a screen that draws its bar again (the
    phone's game bar is mounted anew on each redraw) can detach the element between the wait
    and the read, and Playwright then gives None (CI once)."""
    end = time.monotonic() + timeout
    while (b := await locator.bounding_box()) is None:
        assert time.monotonic() < end, f"no box after {timeout} s: {locator}"
        await asyncio.sleep(0.05)
    return b


async def shot(p, name):
    await p.screenshot(path=str(SHOTS / f"{name}.png"))


def e2e_server(tmp_path):
    """A live server whose join links point at itself (so browser phones can follow them).
    In a module of tests/e2e it is the module's one server (see shared_server); elsewhere a
    new one in tmp_path."""
    if _SHARED_SERVER:
        folder = _SHARED_SERVER["folder"]
        server = _SHARED_SERVER.get("server")
        if server is None or server.proc.poll() is not None:
            server = _SHARED_SERVER["server"] = _new_server(folder, SHARED_LIMITS)
        return Shared(server)
    return _new_server(tmp_path)


def _new_server(folder, env=None):
    from tests.liveserver import Daphne, free_port
    port = free_port()
    return Daphne(folder, {"PUBLIC_URL": f"http://127.0.0.1:{port}", **(env or {})},
                  port=port).migrate().start()


# A server start is a daphne process and its Django (seconds of CPU): the tests of a module
# share one (tests/e2e/conftest.py), each in rooms of its own. Their joins and new rooms add
# up within a minute, so the shared server's per-address windows are wider than the tests of
# one module use; a test of those limits starts a server of its own (tests/security).
SHARED_LIMITS = {f"PARTYHUB_{name}_PER_MINUTE": "100000"
                 for name in ("JOINS", "ROOMS", "LOOKUPS", "AUDIENCE")}
_SHARED_SERVER: dict = {}


@contextlib.contextmanager
def shared_server(folder):
    """While this is open, e2e_server() hands out one server with its data in folder, started
    at the first call (and again if it died); it is stopped at the end."""
    _SHARED_SERVER.update(folder=folder)
    try:
        yield
    finally:
        server = _SHARED_SERVER.get("server")
        _SHARED_SERVER.clear()
        if server is not None:
            server.kill()


class Shared:
    """The module's server as a test sees it: kill() and stop() leave it to the module's end."""

    def __init__(self, server):
        self._server = server

    def __getattr__(self, name):
        return getattr(self._server, name)

    def kill(self):
        pass

    stop = kill


async def new_room(browser, base, errors=None, lang="en", tv=None):
    """The TV opens the home page and presses New room: (the TV page, the join URL it shows)."""
    import re
    tv = tv or await page(browser, TV, errors)
    await tv.goto(f"{base}/?lang={lang}")
    await tv.locator("#new-room").click()
    await tv.wait_for_url(re.compile(r"/tv/[A-Z]{4}"))
    join_url = (await tv.locator(".join-url").inner_text()).strip()
    assert join_url.startswith(base + "/j/"), join_url
    return tv, join_url


async def join_phones(browser, join_url, names, errors=None, tv=None, into=None, lang=None):
    """A phone page per name joins through the join URL; waits until the TV lists them all.
    The phones' browsers speak `lang`, else the room's language (a one-language household)."""
    from tests.liveserver import http
    if lang is None:
        base, code = join_url.rsplit("/j/", 1)
        lang = http("GET", f"{base}/api/rooms/{code}")[1]["language"]
    phones = [] if into is None else into
    for name in names:
        p = await page(browser, PHONE, errors, lang)
        await p.goto(join_url)
        await p.fill("#name", name)
        await p.locator(".join-bottom button[type=submit]").click()
        await p.locator(".lobby-phone").wait_for()
        phones.append(p)
    if tv is not None:
        for name in names:
            await tv.locator(".players .pname", has_text=name).wait_for()
    return phones


async def seat_page(browser, base, code, seat, viewport):
    """A phone page on a seat joined through the API (`seat`: its join answer), at its lobby or
    whatever screen the room is on."""
    p = await page(browser, viewport)
    await p.goto(f"{base}/")
    await p.evaluate("([c, s]) => { localStorage.setItem(`partyhub.seat.${c}`, s.token); "
                     "localStorage.setItem(`partyhub.pid.${c}`, s.player_id); }", [code, seat])
    await p.goto(f"{base}/j/{code}")
    await p.locator(".screen-in").wait_for()
    return p


async def settled(p, limit_ms=3000):
    """Wait until the short animations running now (pops, slides: not endless pulses nor
    countdowns) have finished, so that geometry is read from the screen at rest."""
    await p.evaluate("""async (limit) => {
      const short = document.getAnimations().filter((a) => a.playState === 'running' && a.effect
        && a.effect.getComputedTiming().endTime <= limit);
      await Promise.race([Promise.all(short.map((a) => a.finished.catch(() => null))),
                          new Promise((ok) => setTimeout(ok, limit))]);
      await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
    }""", limit_ms)
