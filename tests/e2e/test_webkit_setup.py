"""Where WebKit cannot run, its tests skip and say what to install; CI fails instead."""
import shutil

import pytest

import tests.conftest
from tests.e2e import webkit

WHICH = shutil.which


@pytest.mark.parametrize("program, package", [("WebKitWebDriver", "webkit2gtk-driver"), ("Xvfb", "xvfb")])
def test_a_missing_program_skips_the_webkit_tests_and_names_its_package(monkeypatch, program, package):
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None if name == program else WHICH(name, *a, **k))
    assert package in webkit.missing()
    monkeypatch.setattr(tests.conftest, "REQUIRE", False)
    with pytest.raises(pytest.skip.Exception, match=package):
        webkit.require()
    monkeypatch.setattr(tests.conftest, "REQUIRE", True)     # PARTYHUB_REQUIRE_SERVICES=1
    with pytest.raises(pytest.fail.Exception, match=f"required service missing: .*{package}"):
        webkit.require()


def test_without_minibrowser_the_webkit_tests_skip_too(monkeypatch):
    monkeypatch.setattr(webkit, "MINIBROWSER", ("/nonexistent/webkit2gtk-4.*/MiniBrowser",))
    assert webkit.minibrowser() is None
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: "/usr/bin/" + name)
    assert "MiniBrowser" in webkit.missing()
