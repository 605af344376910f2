"""The Helm chart's wiring (deploy/helm/partyhub): the migrations before the web pods, the
secrets only in Secrets, the routing proxy's hash on the room code over the headless Service,
the values schema, and every value documented. tests/deploy/test_helm.py renders and validates the manifests.
"""
import base64
import json
import re

import pytest

from tests.deploy import helm
from tests.deploy.helm import renderer  # noqa: F401 (autouse: the test extra is there)

FULL = f"{helm.RELEASE}-partyhub"
HOOK = "helm.sh/hook"


@pytest.fixture(scope="module")
def default():
    return helm.render(helm.REQUIRED)


@pytest.fixture(scope="module")
def try_out():
    return helm.render(helm.TRY_OUT)


# --- the migrations -----------------------------------------------------------------------

def test_migrations_run_as_a_hook_before_install_and_upgrade(default):
    job = helm.one(default, "Job", f"{FULL}-migrate")
    notes = job["metadata"]["annotations"]
    assert notes[HOOK] == "pre-install,pre-upgrade"
    assert "before-hook-creation" in notes["helm.sh/hook-delete-policy"]
    assert helm.container(job, "migrate")["command"] == ["python", "manage.py", "migrate", "--noinput"]
    # The Secret it reads is a hook too, made before it: hooks run before the release's resources.
    secret = helm.one(default, "Secret", FULL)["metadata"]["annotations"]
    assert secret[HOOK] == notes[HOOK]
    assert int(secret["helm.sh/hook-weight"]) < int(notes["helm.sh/hook-weight"])
    assert not helm.pod_spec(helm.one(default, "Deployment", f"{FULL}-web")).get("initContainers")


def test_with_the_bundled_database_the_web_pods_wait_for_the_migrations(try_out):
    # The StatefulSet exists only with the release's resources: no pre-install hook can reach it.
    job = helm.one(try_out, "Job", f"{FULL}-migrate-1")
    assert HOOK not in job["metadata"].get("annotations", {})
    wait = helm.pod_spec(helm.one(try_out, "Deployment", f"{FULL}-web"))["initContainers"][0]
    assert "migrate --check" in wait["command"][-1] and "until" in wait["command"][-1]


def test_the_bundled_databases_are_single_replica_and_wired(try_out):
    for name in ("postgresql", "redis"):
        assert helm.one(try_out, "StatefulSet", f"{FULL}-{name}")["spec"]["replicas"] == 1
    data = helm.secret_data(helm.one(try_out, "Secret", FULL))
    assert data["DATABASE_URL"] == f"postgres://partyhub:pg-pass-4713@{FULL}-postgresql:5432/partyhub"
    assert data["REDIS_URL"] == f"redis://{FULL}-redis:6379/0"
    assert helm.one(try_out, "Service", f"{FULL}-postgresql")["spec"]["ports"][0]["port"] == 5432
    pg = helm.env(helm.container(helm.one(try_out, "StatefulSet", f"{FULL}-postgresql"), "postgresql"))
    assert pg["POSTGRES_PASSWORD"] == ("secret", FULL, "POSTGRES_PASSWORD")


# --- secrets ------------------------------------------------------------------------------

def secrets_given() -> tuple[dict, list[str]]:
    values = helm.merged(helm.REQUIRED, {"secrets": {"secretKey": "key-4714" * 6, "metricsToken": "tok-4715"}})
    return values, [values["secrets"][k] for k in ("databaseUrl", "redisUrl", "secretKey", "metricsToken")]


def test_secret_values_reach_the_secret_only():
    values, given = secrets_given()
    docs = helm.render(values)
    data = helm.secret_data(helm.one(docs, "Secret", FULL))
    assert sorted(data.values()) == sorted(given)
    elsewhere = [d for d in docs if d["kind"] != "Secret"]
    leaks = [(d["kind"], d["metadata"]["name"], s) for d in elsewhere for s in given if s in repr(d)]
    assert not leaks
    # Nor in a base64 form outside the Secret (a checksum is a hash, not the value).
    assert not [d for d in elsewhere for s in data.values() if base64.b64encode(s.encode()).decode() in repr(d)]


def test_a_secret_key_left_empty_is_made_once_per_render_and_long():
    key = helm.secret_data(helm.one(helm.render(helm.REQUIRED), "Secret", FULL))["SECRET_KEY"]
    assert len(key) == 50 and key.isalnum()


def test_an_existing_secret_replaces_the_charts_own():
    docs = helm.render(helm.merged(helm.REQUIRED, {"secrets": {"existingSecret": "mine"}}))
    assert not helm.of_kind(docs, "Secret")
    refs = {v for d in docs if d["kind"] in ("Deployment", "Job")
            for c in helm.pod_spec(d)["containers"] for v in helm.env(c).values() if isinstance(v, tuple)}
    assert refs and {name for _, name, _ in refs} == {"mine"}


# --- the routing proxy --------------------------------------------------------------------

def proxy_conf(docs) -> str:
    return helm.one(docs, "ConfigMap", f"{FULL}-proxy")["data"]["default.conf"]


def room_of(conf: str, uri: str) -> str:
    """What nginx's `map $uri $partyhub_room` gives for a path: its regexes in order, in Python."""
    block = re.search(r"map \$uri \$partyhub_room \{(.*?)\n\s*\}", conf, re.S).group(1)
    for line in block.strip().splitlines():
        pattern, value = line.split()[0], line.split()[1].rstrip(";")
        if pattern == "default":
            return value
        match = re.search(pattern.lstrip("~").replace("(?<", "(?P<"), uri)
        if match:
            return re.sub(r"\$(\w+)", lambda m: match.group(m.group(1)), value)
    raise AssertionError("the map has no default")


@pytest.mark.parametrize("uri", ["/ws/rooms/ABCD", "/ws/rooms/ABCD/", "/api/rooms/ABCD", "/api/rooms/ABCD/join",
                                 "/api/rooms/ABCD/decks", "/j/ABCD", "/tv/ABCD", "/r/ABCD/keepsakes",
                                 "/r/ABCD/cards/c1.webp"])
def test_every_path_naming_a_room_is_keyed_on_its_code(default, uri):
    assert room_of(proxy_conf(default), uri) == "ABCD"


@pytest.mark.parametrize("uri", ["/", "/api/rooms", "/api/games", "/api/decks/x1", "/healthz",
                                 "/static/tv.js", "/jj/ABCD", "/admin/"])
def test_a_path_naming_no_room_goes_anywhere(default, uri):
    # An empty key: nginx's hash then picks round-robin (a constant would pick one pod for all;
    # tests/deploy/test_helm_proxy.py sees them spread).
    assert room_of(proxy_conf(default), uri) == '""'


def test_the_proxy_hashes_rooms_over_the_headless_service(default):
    conf = proxy_conf(default)
    upstream = re.search(r"upstream partyhub_web \{(.*?)\}", conf, re.S).group(1)
    assert re.search(r"^\s*hash \$partyhub_room consistent;", upstream, re.M)
    headless = helm.one(default, "Service", f"{FULL}-web-headless")
    assert headless["spec"]["clusterIP"] == "None" and not headless["spec"]["publishNotReadyAddresses"]
    # Its SRV records, one name per pod: one name's several addresses would be round-robin.
    port_name = headless["spec"]["ports"][0]["name"]
    fqdn = f"{FULL}-web-headless.{helm.NAMESPACE}.svc.cluster.local"
    assert re.search(rf"^\s*server {re.escape(fqdn)} service={port_name} resolve\b", upstream, re.M)
    assert re.search(r"^\s*resolver \S+ valid=\d+s", conf, re.M) and "zone partyhub_web" in upstream
    assert conf.count("proxy_pass http://partyhub_web;") == 3


def test_the_proxy_believes_forwarded_headers_only_from_trusted_proxies(default):
    edge = proxy_conf(default)
    assert "set_real_ip_from" not in edge and "$http_x_forwarded_proto" not in edge
    behind = proxy_conf(helm.render(helm.production()))
    assert "set_real_ip_from 10.0.0.0/8;" in behind and "real_ip_header X-Forwarded-For;" in behind
    assert '"1:https" https;' in behind


def test_the_proxy_restarts_on_a_new_configuration_and_runs_nginx_with_resolve(default):
    proxy = helm.one(default, "Deployment", f"{FULL}-proxy")
    assert len(proxy["spec"]["template"]["metadata"]["annotations"]["checksum/config"]) == 64
    mount = helm.container(proxy, "nginx")["volumeMounts"][0]
    assert mount["mountPath"] == "/etc/nginx/conf.d"
    # `resolve` on an upstream server: nginx 1.27.3 and later.
    major, minor = map(int, helm.container(proxy, "nginx")["image"].split(":")[1].split("-")[0].split(".")[:2])
    assert (major, minor) >= (1, 28)


def test_the_load_balancer_keeps_client_addresses_and_the_ingress_reaches_the_proxy(default):
    service = helm.one(default, "Service", FULL)
    assert service["spec"]["type"] == "LoadBalancer" and service["spec"]["externalTrafficPolicy"] == "Local"
    production = helm.render(helm.production())
    ingress = helm.one(production, "Ingress", FULL)
    backend = ingress["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    assert backend["name"] == FULL and helm.one(production, "Service", FULL)["spec"]["type"] == "ClusterIP"


# --- values ---------------------------------------------------------------------------------

@pytest.mark.parametrize("values, where", [
    ({"web": {"replica": 3}}, "/web"),                          # a typo is refused, not ignored
    ({"config": {"logFormat": "xml"}}, "/config/logFormat"),
    ({"web": {"replicas": "two"}}, "/web/replicas"),
    ({"proxy": {"service": {"type": "Ingress"}}}, "/proxy/service/type"),
])
def test_the_values_schema_refuses_what_the_chart_would_ignore(values, where):
    with pytest.raises(Exception, match=re.escape(where)):
        helm.render(helm.merged(helm.REQUIRED, values))


def schema_paths(schema: dict, prefix: str = "") -> list[str]:
    paths = []
    for key, sub in schema.get("properties", {}).items():
        path = f"{prefix}{key}"
        paths += schema_paths(sub, path + ".") if "properties" in sub else [path]
    return paths


def test_the_values_schema_names_every_value_and_no_other():
    schema = json.loads((helm.CHART / "values.schema.json").read_text())
    values = helm.values_file("values.yaml")
    named = set(schema_paths(schema)) - {"global"}

    def covering(path: str) -> str | None:   # itself, or a free-form map it sits in (web.resources)
        parts = path.split(".")
        return next((".".join(parts[:n]) for n in range(len(parts), 0, -1) if ".".join(parts[:n]) in named), None)

    covered = {p: covering(p) for p in helm.value_paths(values)}
    assert None not in covered.values(), [p for p, c in covered.items() if c is None]
    assert named == set(covered.values())


# --- documentation ------------------------------------------------------------------------

def test_every_value_is_documented_in_the_charts_readme():
    readme = (helm.CHART / "README.md").read_text()
    def documented(path: str) -> bool:   # itself, or the map it belongs to (web.resources)
        parts = path.split(".")
        return any(f"`{'.'.join(parts[:n])}`" in readme for n in range(2, len(parts) + 1)) or f"`{path}`" in readme

    missing = [p for p in helm.value_paths(helm.values_file("values.yaml")) if not documented(p)]
    assert not missing
