"""partyhub on many hosts of one machine (tests/deploy/test_multihost.py): a Lab of network
namespaces (tests/deploy/netns.py) with

- `db`: PostgreSQL (Debian's binaries, a cluster made by initdb in a temporary folder, trust
  authentication on the lab's network) and a Redis Sentinel;
- `redis1`, `redis2`: the Redis master and its replica, each with a sentinel (three sentinels,
  quorum 2, as production runs them);
- `web1`... : one daphne each (tests/liveserver.Daphne), told REDIS_SENTINELS and
  DATABASE_URL, naming itself in X-Partyhub-Replica;
- `proxy`: Debian's nginx with the Helm chart's own configuration (tests/deploy/helm_nginx.py),
  routing by room code to the web hosts.

The test process is on the lab's network too and drives everything through the proxy.
"""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests import redis_servers
from tests.deploy.helm_nginx import Proxy
from tests.deploy.netns import Host, Lab
from tests.liveserver import Daphne, run_migrate, server_env

WEB_PORT, PG_PORT, REDIS_PORT, SENTINEL_PORT, PROXY_PORT = 8000, 5432, 6379, 26379, 8080
NGINX = "/usr/sbin/nginx"


def pg_bin() -> Path | None:
    """The newest Debian PostgreSQL's binaries (initdb, postgres), if any."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


def missing_programs() -> list[str]:
    out = []
    if pg_bin() is None:
        out.append("PostgreSQL server binaries (/usr/lib/postgresql/<n>/bin; Debian: postgresql)")
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        out.append("the `postgres` user (PostgreSQL refuses to run as root)")
    if shutil.which("setpriv") is None:
        out.append("setpriv (util-linux)")
    if not os.access(NGINX, os.X_OK) and shutil.which("nginx") is None:
        out.append("nginx (Debian: nginx)")
    if not redis_servers.available():
        out.append("redis-server (Debian: redis-server)")
    return out


class Postgres:
    """A throwaway PostgreSQL cluster on `host`, run as the postgres user."""

    def __init__(self, host: Host):
        self.host = host
        self.folder = Path(tempfile.mkdtemp(prefix="partyhub-mh-pg-"))   # not under root's 0700 tmp
        self.proc: subprocess.Popen | None = None
        self.url = f"postgres://postgres@{host.address}:{PG_PORT}/partyhub"

    def _as_postgres(self) -> list[str]:
        return ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"]

    def start(self) -> Postgres:
        user = pwd.getpwnam("postgres")
        os.chown(self.folder, user.pw_uid, user.pw_gid)
        data = self.folder / "data"
        subprocess.run([*self._as_postgres(), str(pg_bin() / "initdb"), "-D", str(data), "-U", "postgres",
                        "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"],
                       check=True, capture_output=True, timeout=120)
        with open(data / "pg_hba.conf", "a") as f:
            f.write(f"host all all {self.host.lab.net} trust\n")
        log = open(self.folder / "log", "ab")
        self.proc = subprocess.Popen(
            [*self.host.prefix, *self._as_postgres(), str(pg_bin() / "postgres"), "-D", str(data),
             "-h", self.host.address, "-p", str(PG_PORT), "-k", str(self.folder),
             "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
             "-c", "max_connections=200"], stdout=log, stderr=log, start_new_session=True)
        self._wait()
        return self

    def _wait(self, seconds=30):
        import psycopg
        end = time.monotonic() + seconds
        while True:
            try:
                with psycopg.connect(self.url.rsplit("/", 1)[0] + "/postgres", autocommit=True,
                                     connect_timeout=2) as admin:
                    admin.execute("CREATE DATABASE partyhub")
                return
            except psycopg.OperationalError:
                if time.monotonic() > end or self.proc.poll() is not None:
                    raise RuntimeError(f"PostgreSQL did not start: {(self.folder / 'log').read_text()[-2000:]}")
                time.sleep(0.1)

    def query(self, sql: str, *args):
        import psycopg
        with psycopg.connect(self.url, connect_timeout=5) as conn:
            return conn.execute(sql, args).fetchall()

    def remove(self):
        shutil.rmtree(self.folder, ignore_errors=True)


class Cluster:
    """The whole lab: build with `start()`, tear down with `close()` (also after a failure)."""

    def __init__(self, folder: Path, env: dict | None = None):
        self.folder, self.env = folder, dict(env or {})
        self.lab = Lab()
        self.webs: dict[str, Daphne] = {}
        self.redis: dict[str, redis_servers.RedisProcess] = {}
        self.sentinels: list[redis_servers.RedisProcess] = []
        self.pg: Postgres | None = None
        self.proxy: Proxy | None = None

    def start(self, webs=3) -> Cluster:
        self.lab.start()
        db = self.lab.host("db")
        self.pg = Postgres(db)          # kept before it starts: close() removes its folder
        self.pg.start()
        with ThreadPoolExecutor(1) as pool:     # the schema while Redis and its sentinels settle
            migrated = pool.submit(run_migrate, server_env(self.folder / "migrate", {
                "DATABASE_URL": self.pg.url, "REDIS_URL": "", "REDIS_SENTINELS": "", "REDIS_SENTINEL_MASTER": ""}))
            self._start_redis(db)
            migrated.result()
        names = [f"web{n}" for n in range(1, webs + 1)]
        with ThreadPoolExecutor(len(names)) as pool:
            list(pool.map(self.add_web, names))
        proxy_host = self.lab.host("proxy")
        self.proxy = Proxy(self.folder / "nginx", host=proxy_host.address, prefix=proxy_host.prefix)
        self.proxy.port, self.proxy.health = PROXY_PORT, PROXY_PORT + 1
        self.proxy.start(list(self.webs.values()))
        return self

    def _start_redis(self, db: Host):
        r1, r2 = self.lab.host("redis1"), self.lab.host("redis2")
        master = redis_servers.master(self.folder / "redis1", r1.address, REDIS_PORT, prefix=r1.prefix)
        self.redis["redis1"] = master.start()
        replica = redis_servers.replica(self.folder / "redis2", r2.address, REDIS_PORT, of=master, prefix=r2.prefix)
        self.redis["redis2"] = replica.start()
        redis_servers.wait_until(lambda: redis_servers.replica_in_sync(replica), 15, "the replica syncs")
        for h in (db, r1, r2):
            s = redis_servers.sentinel(self.folder / f"sentinel-{h.name}", h.address, SENTINEL_PORT,
                                       watched=master, quorum=2, prefix=h.prefix)
            self.sentinels.append(s.start())
        # every sentinel knows the replica and the two other sentinels before anything fails
        redis_servers.wait_until(lambda: all(
            s.client().execute_command("SENTINEL", "replicas", redis_servers.MASTER_NAME)
            and len(s.client().execute_command("SENTINEL", "sentinels", redis_servers.MASTER_NAME)) == 2
            for s in self.sentinels), 20, "the sentinels know each other and the replica")

    def web_env(self) -> dict:
        return {"DATABASE_URL": self.pg.url, "REDIS_URL": "",
                "REDIS_SENTINELS": ",".join(s.address for s in self.sentinels),
                "REDIS_SENTINEL_MASTER": redis_servers.MASTER_NAME, "TRUST_PROXY": "1",
                "TIMEKEEPER_INTERVAL": "0.1", "PARTYHUB_JOINS_PER_MINUTE": "5000",
                "PARTYHUB_ROOMS_PER_MINUTE": "5000", "PARTYHUB_LOOKUPS_PER_MINUTE": "5000", **self.env}

    def add_web(self, name: str) -> Daphne:
        host = self.lab.host(name)
        (self.folder / name).mkdir(parents=True, exist_ok=True)
        web = Daphne(self.folder / name, {**self.web_env(), "PARTYHUB_REPLICA": name},
                     port=WEB_PORT, bind=host.address, prefix=host.prefix)
        web.address = f"{host.address}:{WEB_PORT}"
        web.host = host
        self.webs[name] = web.start(wait=60)
        return web

    @property
    def base(self) -> str:
        return f"http://{self.proxy.host}:{self.proxy.port}"

    def master_address(self) -> str | None:
        return redis_servers.master_address(self.sentinels)

    def close(self):
        if self.proxy:
            self.proxy.stop()
        self.lab.close()            # every process of every host, then the namespaces
        if self.pg:
            self.pg.remove()
