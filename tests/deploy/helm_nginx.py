"""The chart's proxy configuration run by a real nginx on loopback (tests/deploy/test_helm_proxy.py).

Stand-in web replicas answer every request with their own name in X-Partyhub-Replica (as
partyhub's replicas do) and echo the X-Forwarded-For and X-Forwarded-Proto they were given. The chart is rendered
with `proxy.webServers` naming them (Debian's nginx 1.22 has no upstream `resolve`, which the
cluster's configuration uses for the headless Service's SRV records; the rest of the file is
the same).
"""
import http.client
import signal
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tests.deploy import helm
from tests.liveserver import free_port

MAIN_CONF = """worker_processes 1;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 256; }}
http {{
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    include {dir}/default.conf;
}}
"""


def get(host: str, port: int, path: str, headers: dict | None = None) -> tuple[str, str]:
    """(body, X-Partyhub-Replica) of a GET to host:port."""
    conn = http.client.HTTPConnection(host, port, timeout=5)
    try:
        conn.request("GET", path, headers=headers or {})
        answer = conn.getresponse()
        return answer.read().decode(), answer.getheader("X-Partyhub-Replica", "")
    finally:
        conn.close()


class Replica:
    """One stand-in web replica on 127.0.0.1: its name in every answer."""

    def __init__(self, name: str):
        self.name = name

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                body = f"{self.headers.get('X-Forwarded-For')} {self.headers.get('X-Forwarded-Proto')}".encode()
                self.send_response(200)
                self.send_header("X-Partyhub-Replica", name)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.address = f"127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class Proxy:
    """nginx with the chart's ConfigMap for these replicas, in a folder of its own; `prefix`
    runs it on another host (`ip netns exec`), reached at `host`."""

    def __init__(self, folder: Path, host="127.0.0.1", prefix=(), **proxy_values):
        self.folder, self.port, self.process = folder, free_port(), None
        self.host, self.prefix = host, tuple(prefix)
        self.health = free_port()
        self.values = proxy_values
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "nginx.conf").write_text(MAIN_CONF.format(dir=folder))

    def configure(self, replicas: list) -> str:
        """replicas: anything with an `address` (host:port)."""
        values = helm.merged(helm.REQUIRED, {"proxy": {
            **self.values, "port": self.port, "healthPort": self.health,
            "webServers": [r.address for r in replicas]}})
        conf = helm.one(helm.render(values), "ConfigMap", f"{helm.RELEASE}-partyhub-proxy")["data"]["default.conf"]
        (self.folder / "default.conf").write_text(conf)
        return conf

    def nginx(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["nginx", "-p", str(self.folder), "-c", str(self.folder / "nginx.conf"), *args],
                              capture_output=True, text=True, timeout=30)

    def start(self, replicas: list[Replica]):
        self.configure(replicas)
        checked = self.nginx("-t")
        assert checked.returncode == 0, checked.stderr
        self.process = subprocess.Popen([*self.prefix, "nginx", "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._wait_for_health()

    def hup(self, replicas: list):
        """The configuration for another set of replicas, loaded as `nginx -s reload` does: new
        workers take the new connections, the old ones finish their open sockets."""
        self.configure(replicas)
        checked = self.nginx("-t")
        assert checked.returncode == 0, checked.stderr
        self.process.send_signal(signal.SIGHUP)

    def reload(self, replicas: list[Replica]):
        """The configuration for another set of replicas, and every worker on it."""
        self.stop()
        self.start(replicas)

    def _wait_for_health(self):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if self.get("/healthz", port=self.health)[0] == "ok\n":
                    return
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"nginx did not start: {(self.folder / 'error.log').read_text()}")

    def get(self, path: str, port: int | None = None, headers: dict | None = None) -> tuple[str, str]:
        """(body, X-Partyhub-Replica) of a GET through the proxy."""
        return get(self.host, port or self.port, path, headers)

    def replica_of(self, path: str, headers: dict | None = None) -> str:
        return self.get(path, headers=headers)[1]

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
