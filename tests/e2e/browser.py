"""Debian chromium through the playwright package (never a browser download)."""
import contextlib
from pathlib import Path

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
SHOTS = Path(__file__).resolve().parent / "screenshots"
TV = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}


@contextlib.asynccontextmanager
async def chromium(path):
    from playwright.async_api import async_playwright
    SHOTS.mkdir(exist_ok=True)
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=path, args=FLAGS, headless=True)
        try:
            yield browser
        finally:
            await browser.close()


async def page(browser, viewport, errors=None):
    ctx = await browser.new_context(viewport=viewport, has_touch=viewport is PHONE,
                                    is_mobile=viewport is PHONE)
    p = await ctx.new_page()
    if errors is not None:
        p.on("pageerror", lambda e: errors.append(str(e)))
        # the shell catches a game module's render error and logs it: that is an error too
        p.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return p


async def shot(p, name):
    await p.screenshot(path=str(SHOTS / f"{name}.png"))
