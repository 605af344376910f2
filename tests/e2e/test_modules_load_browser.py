"""Every game's TV and phone module loads in a browser (a module that fails to parse makes the
shell fall back to the generic screen without a word: association's board.js imported a second
`face` after a merge, and its TV and phones showed the generic screen)."""
from pathlib import Path

import pytest

from tests.e2e.browser import TV, chromium, e2e_server, page

pytestmark = [pytest.mark.browser]

GAMES = sorted(p.name for p in (Path(__file__).resolve().parents[2] / "frontend" / "static" / "games").iterdir()
               if (p / "tv.js").exists())


@pytest.mark.asyncio
async def test_every_games_tv_and_phone_module_loads(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    async with chromium(chromium_path) as browser:
        p = await page(browser, TV)
        await p.goto(f"{server.base}/")
        failed = await p.evaluate("""async (games) => {
          const out = [];
          for (const g of games) for (const side of ['tv', 'phone']) {
            try { const m = await import(`/static/games/${g}/${side}.js`);
                  if (typeof m.render !== 'function') out.push(`${g}/${side}.js: no render`); }
            catch (e) { out.push(`${g}/${side}.js: ${e}`); }
          }
          return out; }""", GAMES)
    assert len(GAMES) >= 4, GAMES
    assert not failed, failed
