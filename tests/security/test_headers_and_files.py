"""Headers on every response, the secret key file's mode, and the admin's login throttle."""
import os
import stat

import pytest
from django.test import Client

from partyhub import adminlogin
from partyhub.settings import key_from_file

pytestmark = pytest.mark.django_db(transaction=True)

PAGES = ["/", "/?lang=uk", "/tv/ABCD", "/j/ABCD", "/api/games", "/api/decks", "/healthz",
         "/api/rooms/ZZZZ", "/admin/login/", "/static/common/common.css", "/static/common/app.js",
         "/no/such/page"]


@pytest.mark.parametrize("path", PAGES)
def test_every_response_carries_the_policy_headers(client, path):
    r = client.get(path)
    csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "object-src 'none'" in csp and "frame-ancestors 'none'" in csp and "style-src 'self'" in csp
    policy = r.headers["Permissions-Policy"]
    assert "camera=()" in policy and "microphone=()" in policy and "geolocation=()" in policy
    assert "screen-wake-lock=(self)" in policy
    assert r.headers["Referrer-Policy"] == "same-origin"
    assert r.headers["X-Content-Type-Options"] == "nosniff"


def test_a_refused_host_gets_the_headers_too(client):
    r = client.get("/", HTTP_HOST="evil.example:8132")
    assert r.status_code == 400 and "Content-Security-Policy" in r.headers


def test_the_pages_hold_no_inline_script_handler_or_style():
    """What the policy forbids is not in any template (the browser test proves it at run time)."""
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "frontend" / "templates"
    for path in root.rglob("*.html"):
        html = path.read_text()
        for script in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in script, (path, script)
        assert not re.search(r"\son[a-z]+\s*=", html), path
        assert not re.search(r"\sstyle\s*=", html), path
        assert "javascript:" not in html, path


def test_a_new_secret_key_file_is_readable_by_its_owner_only(tmp_path):
    os.umask(old := os.umask(0))      # the loosest umask: the mode must not depend on it
    try:
        key = key_from_file(tmp_path / "d" / "secret_key")
    finally:
        os.umask(old)
    assert len(key) >= 50
    assert stat.S_IMODE((tmp_path / "d" / "secret_key").stat().st_mode) == 0o600
    assert key_from_file(tmp_path / "d" / "secret_key") == key        # stable
    assert [p.name for p in (tmp_path / "d").iterdir()] == ["secret_key"]   # nothing left aside


def test_an_existing_world_readable_key_file_is_tightened_and_kept(tmp_path):
    f = tmp_path / "secret_key"
    f.write_text("an-old-key\n")
    f.chmod(0o644)
    assert key_from_file(f) == "an-old-key"
    assert stat.S_IMODE(f.stat().st_mode) == 0o600


@pytest.fixture
def fresh_windows():
    for window in (adminlogin.BY_ADDRESS, adminlogin.BY_NAME):
        window.hits.clear()
    yield
    for window in (adminlogin.BY_ADDRESS, adminlogin.BY_NAME):
        window.hits.clear()


def _login(address, username, password):
    c = Client(REMOTE_ADDR=address)
    return c.post("/admin/login/", {"username": username, "password": password, "next": "/admin/"})


def test_failed_admin_logins_are_throttled_per_address(fresh_windows):
    from django.contrib.auth.models import User
    User.objects.create_superuser("boss", "", "right-password")
    for _ in range(adminlogin.FAILURES):
        assert _login("10.0.0.1", "boss", "guess").status_code == 200      # the form again
    r = _login("10.0.0.1", "boss", "right-password")                      # even the right one
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
    assert _login("10.0.0.1", "other", "guess").status_code == 429
    assert _login("10.0.0.2", "boss", "right-password").status_code == 302   # another address


def test_failed_admin_logins_are_throttled_per_user_name_across_addresses(fresh_windows):
    for i in range(adminlogin.NAME_FAILURES):
        assert _login(f"10.1.0.{i}", "Boss", "guess").status_code == 200
    assert _login("10.2.0.1", "boss", "guess").status_code == 429
    assert _login("10.2.0.1", "someone", "guess").status_code == 200
    assert len(adminlogin.BY_ADDRESS.hits) <= adminlogin.NAME_FAILURES + 1
