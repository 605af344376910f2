"""WebKitGTK, the engine of Safari, for browser tests.

Debian's WebKitWebDriver (package webkit2gtk-driver) drives MiniBrowser in `--automation` mode
on an Xvfb display of its own, through Selenium. The driver's path is given, so Selenium Manager
(which would download a driver) never runs; nothing is downloaded. One session serves the whole
test run (tests/e2e/conftest.py): starting it takes about 1.5 s, a test resets it in a few ms.

Selenium's calls block; `WebKit` runs each in a thread so the event loop of an async test (its
Playwright TV, its protocol clients) keeps going. Selenium's clicks and pointer moves are real
input events of the engine (mouse: WebKitGTK has no touch emulation).
"""
import asyncio
import glob
import os
import shutil
import subprocess
import time
from pathlib import Path
from unittest import mock

from tests.e2e.browser import PHONE, SHOTS

DRIVER = "WebKitWebDriver"
MINIBROWSER = ("/usr/lib/*-linux-gnu/webkit2gtk-4.*/MiniBrowser", "/usr/libexec/webkit2gtk-4.*/MiniBrowser")
# GTK's theme gives MiniBrowser's toolbar a minimum width of 447 px. Without its margins and
# paddings the window, and so the page, can be as narrow as a 320 px phone.
GTK_CSS = "* { min-width: 0; min-height: 0; padding: 0; margin: 0; }\n"


def minibrowser():
    found = sorted(p for pattern in MINIBROWSER for p in glob.glob(pattern) if os.access(p, os.X_OK))
    return found[-1] if found else None


def missing():
    """Why WebKit tests cannot run here, or None."""
    if not shutil.which(DRIVER):
        return "WebKitWebDriver is not installed (apt-get install webkit2gtk-driver)"
    if not minibrowser():
        return "WebKitGTK's MiniBrowser is not installed (apt-get install webkit2gtk-driver)"
    if not shutil.which("Xvfb"):
        return "Xvfb is not installed (apt-get install xvfb)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (make .venv/.stamp-test)"
    return None


def require():
    """Skip (or, with PARTYHUB_REQUIRE_SERVICES=1, fail) when WebKit cannot run here."""
    from tests.conftest import need
    reason = missing()
    need(reason is None, reason)


class Xvfb:
    """A virtual X display; -displayfd makes the server pick a free display number itself."""

    def __init__(self, screen="1920x1080x24"):
        r, w = os.pipe()
        self.proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", screen,
                                      "-nolisten", "tcp"], pass_fds=(w,), stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        os.close(w)
        number = b""
        with os.fdopen(r, "rb") as pipe:
            while not number.endswith(b"\n"):
                chunk = pipe.read(1)
                if not chunk:
                    raise RuntimeError(f"Xvfb exited with {self.proc.wait(5)} before naming its display")
                number += chunk
        self.display = f":{number.decode().strip()}"

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


class Session:
    """Xvfb, then WebKitWebDriver and MiniBrowser on it; quit() stops all three."""

    def __init__(self, workdir):
        from selenium import webdriver
        from selenium.webdriver.common.selenium_manager import SeleniumManager
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service
        workdir = Path(workdir)
        (workdir / "config" / "gtk-3.0").mkdir(parents=True, exist_ok=True)
        (workdir / "config" / "gtk-3.0" / "gtk.css").write_text(GTK_CSS)
        self.log = workdir / "webkitwebdriver.log"
        self.xvfb = Xvfb()
        os.environ["SE_OFFLINE"] = "true"     # were Selenium Manager ever asked: no network
        env = {**os.environ, "DISPLAY": self.xvfb.display,
               "XDG_CONFIG_HOME": str(workdir / "config"), "XDG_CACHE_HOME": str(workdir / "cache"),
               "XDG_DATA_HOME": str(workdir / "data")}
        env.pop("WAYLAND_DISPLAY", None)
        options = Options()
        options.binary_location = minibrowser()
        options.add_argument("--automation")
        service = Service(executable_path=shutil.which(DRIVER), env=env, log_output=str(self.log))
        try:
            # the driver's path is given, so Selenium must not ask its manager (a download) for one
            with mock.patch.object(SeleniumManager, "binary_paths",
                                   side_effect=AssertionError("Selenium Manager must not run")):
                self.driver = webdriver.WebKitGTK(service=service, options=options)
        except BaseException:
            self.xvfb.stop()
            raise
        self.driver.set_script_timeout(30)

    def quit(self):
        try:
            self.driver.quit()
        finally:
            self.xvfb.stop()


class WebKit:
    """The session's window as an async page: every call runs in a thread."""

    def __init__(self, driver):
        self.driver = driver

    async def _(self, fn, *args):
        return await asyncio.to_thread(fn, *args)

    def _reset(self):
        d = self.driver
        for handle in d.window_handles[1:]:
            d.switch_to.window(handle)
            d.close()
        d.switch_to.window(d.window_handles[0])
        d.get("about:blank")

    async def reset(self, viewport=PHONE):
        await self._(self._reset)
        await self.resize(viewport)

    def _resize(self, width, height):
        # the window holds MiniBrowser's toolbar: size it so that the page gets the viewport
        # (the page learns its new size a moment after the window has it)
        size = "return [innerWidth, innerHeight, outerWidth - innerWidth, outerHeight - innerHeight]"
        for _ in range(3):
            w, h, extra_w, extra_h = self.driver.execute_script(size)
            if [w, h] == [width, height]:
                break
            self.driver.set_window_size(width + extra_w, height + extra_h)
            end = time.monotonic() + 2
            while time.monotonic() < end:
                inner = self.driver.execute_script(size)[:2]
                if inner == [width, height]:
                    break
                time.sleep(0.02)
        return self.driver.execute_script(size)[:2]

    async def resize(self, viewport):
        size = await self._(self._resize, viewport["width"], viewport["height"])
        assert size == [viewport["width"], viewport["height"]], size
        return size

    async def goto(self, url):
        await self._(self.driver.get, url)

    async def reload(self):
        await self._(self.driver.refresh)

    async def js(self, body, *args):
        """Run a function body (`return ...`) in the page; args are arguments[0], [1]..."""
        return await self._(self.driver.execute_script, body, *args)

    async def until(self, expression, *args, timeout=30, every=0.05):
        """Poll a JS expression until it is truthy; returns its value."""
        end = time.monotonic() + timeout
        while not (value := await self.js(f"return ({expression});", *args)):
            if time.monotonic() > end:
                raise TimeoutError(f"WebKit: still false after {timeout} s: {expression[:200]}")
            await asyncio.sleep(every)
        return value

    async def wait(self, css, text=None, timeout=30):
        """Wait until an element matching css (and holding text) is shown."""
        await self.until(f"!!{_FIND}(arguments[0], arguments[1])", css, text, timeout=timeout)

    def _element(self, css, text, index):
        found = self.driver.execute_script(f"return {_FIND}(arguments[0], arguments[1], true)", css, text)
        assert len(found) > index, f"WebKit: no element {css!r} holding {text!r} (#{index})"
        return found[index]

    @staticmethod
    def _fresh(fn, tries=3):
        """fn(), again if the page re-rendered its element between finding and using it."""
        from selenium.common.exceptions import StaleElementReferenceException
        for k in range(tries):
            try:
                return fn()
            except StaleElementReferenceException:
                if k == tries - 1:
                    raise
                time.sleep(0.1)

    async def click(self, css, text=None, index=0):
        """A real click on the index-th shown element matching css (and holding text), once
        the page's short animations are over (a click lands where the element is now)."""
        await self.wait(css, text)
        await self.settle()
        await self._(self._fresh, lambda: self._element(css, text, index).click())

    async def type(self, css, text):
        """Typed into a field, key by key."""
        await self.wait(css)

        def typing():
            el = self._element(css, None, 0)
            el.clear()
            el.send_keys(text)
            return el
        el = await self._(self._fresh, typing)
        await self.until("arguments[0].value === arguments[1]", el, text)

    async def settle(self):
        """Wait until the short animations running now (pops, flights; not countdowns, not
        endless pulses) have finished and the page's pictures are decoded."""
        await self._(self.driver.execute_async_script,
                     "const done = arguments[arguments.length - 1];"
                     "const short = document.getAnimations().filter(a => a.playState === 'running'"
                     " && a.effect.getComputedTiming().endTime <= 3000);"
                     "Promise.all([...short.map(a => a.finished), ...[...document.images].map(i => i.decode())]"
                     ".map(p => p.catch(() => null)))"
                     # and two frames, so that the screenshot shows what the page has now
                     ".then(() => requestAnimationFrame(() => requestAnimationFrame(() => done(true))));")

    async def stroke(self, css, path, steps=4):
        """Press the mouse on the element, move through path (fractions of its box), release."""
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        await self.wait(css)

        def draw():
            box = self.driver.execute_script(
                "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                "return [r.left, r.top, r.width, r.height];", css)
            at = [(round(box[0] + fx * box[2]), round(box[1] + fy * box[3])) for fx, fy in path]
            actions = ActionBuilder(self.driver, duration=20)
            pointer = actions.pointer_action
            pointer.move_to_location(*at[0])
            pointer.pointer_down()
            for (x0, y0), (x1, y1) in zip(at, at[1:]):
                for k in range(1, steps + 1):
                    pointer.move_to_location(round(x0 + (x1 - x0) * k / steps),
                                             round(y0 + (y1 - y0) * k / steps))
            pointer.pointer_up()
            actions.perform()
        await self._(draw)

    async def overflow(self):
        """Elements wider than the page reaches (a horizontal scroll on the phone), by class."""
        return await self.js(
            "const w = document.documentElement.clientWidth; const out = [];"
            "for (const el of document.querySelectorAll('body *')) {"
            "  const r = el.getBoundingClientRect();"
            "  if (r.width && (r.right > w + 1 || r.left < -1) && getComputedStyle(el).position !== 'fixed')"
            "    out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} ${Math.round(r.left)}..${Math.round(r.right)}`);"
            "}"
            "return document.documentElement.scrollWidth > w ? out.slice(0, 10) : [];")

    def save_shot(self, name):
        SHOTS.mkdir(exist_ok=True)
        self.driver.save_screenshot(str(SHOTS / f"webkit-{name}.png"))

    async def shot(self, name):
        """A screenshot of the page once it has settled (tests/e2e/screenshots/webkit-<name>.png)."""
        await self.settle()
        await self._(self.save_shot, name)

    def describe(self):
        """For a failure report: the address, the view's phases and the visible text."""
        return self.driver.execute_script(
            "const v = window.partyhub && window.partyhub.view;"
            "return location.href + ' view ' + (v ? JSON.stringify({room: v.room.phase, "
            "game: (v.game || {}).phase, you: v.you}) : null) + ' | ' + "
            "(document.body ? document.body.innerText.split('\\n').map(s => s.trim()).filter(Boolean)"
            ".join(' | ').slice(0, 600) : '')")


# The shown elements matching arguments[0] whose text holds arguments[1] (when given): the first
# one, or all of them when the third argument is true.
_FIND = ("((css, text, all) => { const els = [...document.querySelectorAll(css)].filter(e => "
         "e.getClientRects().length && (!text || e.textContent.includes(text))); "
         "return all ? els : els[0]; })")

