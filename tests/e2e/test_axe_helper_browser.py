"""The axe_check helper itself: it fails on serious problems, names them, and honours `allow`."""
import pytest

from tests.e2e.axe import axe_check, axe_page
from tests.e2e.browser import chromium

pytestmark = [pytest.mark.browser]

BROKEN = ('<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>x</h1>'
          '<div role="dialog">no name</div><img src="data:,"></main></body></html>')


async def test_axe_check_fails_on_serious_problems_and_honours_allow(chromium_path):
    async with chromium(chromium_path) as browser:
        p = await axe_page(browser, {"width": 800, "height": 600})
        await p.set_content(BROKEN)
        with pytest.raises(AssertionError) as e:
            await axe_check(p, "broken page")
        text = str(e.value)
        assert "broken page" in text and "aria-dialog-name [serious]" in text and "image-alt [critical]" in text
        assert await axe_check(p, allow={"aria-dialog-name", "image-alt"}) == []
        # a part of the page only
        assert await axe_check(p, selector="h1") == []
        await p.set_content(BROKEN.replace('role="dialog"', 'role="dialog" aria-label="Zoom"')
                            .replace('<img src="data:,">', '<img src="data:," alt="">'))
        assert await axe_check(p, "fixed page") == []
