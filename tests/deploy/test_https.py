"""The https profile for real: docker-compose.yml with `--profile https`, Caddy's own CA on a
LAN name (README.md, "HTTPS"), on a Docker engine.

Caddy is the image the compose file names (here the stand-in of tests/deploy/caddy, where no
registry is reachable). Its root CA is copied out as the README says, and every request goes
to Caddy over TLS for `partyhub.lan`, verified against that root: the home page, a room made
and its socket opened, the scheme Caddy forwards reaching Django (HSTS and secure cookies over
HTTPS; none of it on the plain-HTTP path through nginx, even when a client claims https), and
the admin's forms trusted from PUBLIC_URL. The only change to the stack: Caddy's host ports
(80 and 443 on a host) are free ports on 127.0.0.1 here, so that the test never needs them.
One web replica; torn down (`down -v`, and the dockerd this module started) also on failure.
"""
from __future__ import annotations

import http.client
import json
import re
import socket
import ssl
import time
import urllib.parse

import pytest

from tests.deploy.stack import Engine, Stack, check_caddy_image, check_images, run
from tests.liveserver import Conn, free_port

pytestmark = [pytest.mark.slow, pytest.mark.docker, pytest.mark.timeout(1500)]
LAN = "partyhub.lan"
SITE = f"https://{LAN}"


@pytest.fixture(scope="module")
def lan(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("https")
    engine = Engine(workdir).start()
    s = None
    try:
        check_images()
        check_caddy_image()
        tls_port, http_port = free_port(), free_port()
        ports = workdir / "compose.caddy-ports.yml"
        ports.write_text("services:\n  caddy:\n    ports: !override\n"
                         f'      - "127.0.0.1:{tls_port}:443"\n      - "127.0.0.1:{http_port}:80"\n')
        s = Stack(workdir, {"PUBLIC_URL": SITE, "CADDY_TLS": "internal"}, extra_files=[ports],
                  profiles=["https"])
        s.up()
        s.tls_port, s.caddy_http_port = tls_port, http_port
        s.root_ca = fetch_root(s, workdir)
        s.tls = ssl.create_default_context(cafile=str(s.root_ca))   # that root only
        serving(s)
        yield s
    finally:
        if s is not None:
            s.down()
        engine.stop()


def fetch_root(stack, workdir, wait=60):
    """Caddy's root CA, copied out with the README's command (made when Caddy first signs)."""
    end = time.monotonic() + wait
    while True:
        done = stack.compose("cp", "caddy:/data/caddy/pki/authorities/local/root.crt", str(workdir),
                             check=False)
        root = workdir / "root.crt"
        if done.returncode == 0 and root.is_file():
            assert "BEGIN CERTIFICATE" in root.read_text()
            return root
        if time.monotonic() > end:
            raise AssertionError(f"no root CA in the caddy container: {done.stderr}\n{stack.logs('caddy')[-3000:]}")
        time.sleep(1)


def serving(stack, wait=60):
    """Until Caddy answers over TLS: `up --wait` returns when its container runs, and Caddy
    first puts its root into the container's trust store (seconds), then serves."""
    end = time.monotonic() + wait
    while True:
        try:
            if https(stack, "GET", "/healthz")[0] == 200:
                return
        except OSError:
            pass
        if time.monotonic() > end:
            raise AssertionError(f"Caddy does not answer over TLS:\n{stack.logs('caddy')[-3000:]}")
        time.sleep(0.5)


class LanConnection(http.client.HTTPSConnection):
    """HTTPS to partyhub.lan (SNI, Host and the certificate's name) at Caddy's test port."""

    def __init__(self, stack):
        super().__init__(LAN, context=stack.tls, timeout=30)
        self.to = ("127.0.0.1", stack.tls_port)

    def connect(self):
        self.sock = self._context.wrap_socket(socket.create_connection(self.to, self.timeout),
                                              server_hostname=LAN)


def https(stack, method, path, body=None, headers=None):
    """(status, headers as a list of pairs, body) of one request to Caddy over TLS."""
    conn = LanConnection(stack)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, r.getheaders(), r.read()
    finally:
        conn.close()


def header(pairs, name) -> list[str]:
    return [v for k, v in pairs if k.lower() == name.lower()]


def test_the_certificate_is_caddys_own_for_the_lan_name(lan):
    with socket.create_connection(("127.0.0.1", lan.tls_port), 10) as raw:
        with lan.tls.wrap_socket(raw, server_hostname=LAN) as tls:    # verified: root + name
            cert = tls.getpeercert()
    names = [v for k, v in cert["subjectAltName"] if k == "DNS"]
    assert names == [LAN], cert
    issuer = dict(x[0] for x in cert["issuer"])
    assert "Caddy Local Authority" in issuer.get("commonName", ""), issuer
    with pytest.raises(ssl.SSLCertVerificationError):     # without that root: not trusted
        with socket.create_connection(("127.0.0.1", lan.tls_port), 10) as raw:
            ssl.create_default_context().wrap_socket(raw, server_hostname=LAN)


def test_the_home_page_comes_over_https_with_hsts(lan):
    status, headers, body = https(lan, "GET", "/")
    assert status == 200 and b'id="new-room"' in body
    hsts = header(headers, "Strict-Transport-Security")
    assert hsts and re.match(r"max-age=\d{6,}", hsts[0]), headers   # Django saw https
    assert header(headers, "Content-Security-Policy")
    assert not header(headers, "Server") or "Caddy" in header(headers, "Server")[0]


def test_caddy_sends_plain_http_to_https(lan):
    conn = http.client.HTTPConnection("127.0.0.1", lan.caddy_http_port, timeout=10)
    try:
        conn.request("GET", "/tv/ABCD", headers={"Host": LAN})
        r = conn.getresponse()
        assert r.status in (301, 302, 308) and r.getheader("Location") == f"{SITE}/tv/ABCD"
    finally:
        conn.close()


async def test_a_room_made_over_https_plays_through_a_wss_socket(lan):
    status, headers, body = https(lan, "POST", "/api/rooms", b"{}",
                                  {"Content-Type": "application/json", "Origin": SITE})
    assert status == 201, body
    room = json.loads(body)
    assert room["join_url"] == f"{SITE}/j/{room['code']}" and room["tv_url"].startswith(SITE)
    status, _, body = https(lan, "POST", f"/api/rooms/{room['code']}/join", b'{"name": "Ann"}',
                            {"Content-Type": "application/json", "Origin": SITE})
    assert status == 201, body
    tv = Conn(SITE, room["code"], room["host_token"])
    assert tv.url.startswith(f"wss://{LAN}/ws/rooms/")
    await tv.open(timeout=20, ssl=lan.tls, host="127.0.0.1", port=lan.tls_port,
                  server_hostname=LAN, origin=SITE)
    try:
        view = await tv.wait(lambda v: [p["name"] for p in v["room"]["players"]] == ["Ann"], 20)
        assert view["room"]["join_url"] == f"{SITE}/j/{room['code']}"
        await tv.act({"type": "settings", "language": "uk"})
        await tv.wait(lambda v: v["room"]["language"] == "uk", 20)
    finally:
        await tv.ws.close()
        tv.reader.cancel()
    logs = lan.logs("caddy")
    assert room["host_token"] not in logs   # Caddy keeps no access log


def test_the_admin_form_is_trusted_from_public_url_and_its_cookies_are_secure(lan):
    status, headers, body = https(lan, "GET", "/admin/login/")
    assert status == 200
    cookies = header(headers, "Set-Cookie")
    csrf = next(c for c in cookies if c.startswith("csrftoken="))
    assert "; Secure" in csrf, cookies
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1).decode()
    form = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "username": "nobody",
                                   "password": "wrong", "next": "/admin/"}).encode()
    sent = {"Content-Type": "application/x-www-form-urlencoded",
            "Cookie": csrf.split(";")[0], "Referer": f"{SITE}/admin/login/"}
    status, _, body = https(lan, "POST", "/admin/login/", form, {**sent, "Origin": SITE})
    assert status == 200 and b"csrfmiddlewaretoken" in body    # the form again: a wrong password
    status, _, _ = https(lan, "POST", "/admin/login/", form, {**sent, "Origin": "https://evil.example"})
    assert status == 403
    web = lan.containers("web")[0]
    trusted = run(["docker", "exec", "-e", "DJANGO_SETTINGS_MODULE=partyhub.settings", web, "python", "-c",
                   "import django; django.setup(); from django.conf import settings as s; "
                   "print(s.CSRF_TRUSTED_ORIGINS, s.SECURE_PROXY_SSL_HEADER)"]).stdout
    assert f"['{SITE}']" in trusted and "HTTP_X_FORWARDED_PROTO" in trusted, trusted


def test_the_plain_http_path_gets_no_hsts_even_when_a_client_claims_https(lan):
    for claim in ({}, {"X-Forwarded-Proto": "https"}):    # nginx sets the scheme it saw
        for path in ("/", "/admin/login/"):
            conn = http.client.HTTPConnection("127.0.0.1", lan.port, timeout=10)
            try:
                conn.request("GET", path, headers=claim)
                r = conn.getresponse()
                r.read()
                assert r.status == 200 and r.getheader("Strict-Transport-Security") is None, (path, claim)
                # a cookie is marked Secure all the same: a browser keeps none from plain HTTP
                assert all("; Secure" in c for c in r.headers.get_all("Set-Cookie") or []), (path, claim)
            finally:
                conn.close()
