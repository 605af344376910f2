"""The Helm chart (deploy/helm/partyhub): rendered for its defaults (with the two URLs a host
must give), for values-production.yaml and for the bundled try-out databases, every manifest
validated against the Kubernetes schemas of the pinned versions, offline; then what matters
in them: probes, graceful shutdown, the disruption budget, the migrations hook, the routing
proxy's hash on the room code, and secrets kept out of ConfigMaps and plain env values.
No cluster here: the proxy's routing is exercised by tests/deploy/test_helm_proxy.py.
"""
import re

import pytest

from tests.deploy import helm
from tests.deploy.helm import renderer  # noqa: F401 (autouse: the test extra is there)
from tests.deploy.test_compose import SAFE_DEFAULTS, settings_env
from tests.deploy.test_image import dockerfile_env

CASES = {
    "default": helm.REQUIRED,
    "production": helm.production(),
    "try-out": helm.TRY_OUT,
}
FULL = f"{helm.RELEASE}-partyhub"


@pytest.fixture(scope="module")
def rendered() -> dict:
    return {case: helm.render(values) for case, values in CASES.items()}


# --- every manifest is valid Kubernetes --------------------------------------------------

@pytest.mark.parametrize("case", CASES)
def test_every_manifest_validates_against_the_pinned_kubernetes_schemas(rendered, case):
    docs = rendered[case]
    assert len(docs) >= 10
    assert not helm.validation_errors(docs)


def test_the_validation_catches_a_broken_manifest(rendered):
    web = helm.one(rendered["default"], "Deployment", f"{FULL}-web")
    wrong_type = {**web, "spec": {**web["spec"], "replicas": "two"}}
    unknown_field = {**web, "spec": {**web["spec"], "replica": 2}}   # strict: no unknown fields
    errors = helm.validation_errors([wrong_type, unknown_field])
    assert len(errors) == 2 * len(helm.KUBERNETES_VERSIONS), errors
    assert any("'two'" in e for e in errors) and any("'replica'" in e for e in errors)


@pytest.mark.parametrize("case", CASES)
def test_helm_lint_finds_nothing_past_information(case):
    report = helm.helm_python.lint(str(helm.CHART), CASES[case], strict=True,
                                   kube_version=f"v{helm.KUBERNETES_VERSIONS[0]}")
    assert not report["errors"]
    assert not [m for m in report["messages"] if m["severity"] >= 2]


def test_the_chart_supports_the_oldest_validated_version():
    chart = helm.values_file("Chart.yaml")
    assert chart["kubeVersion"] == f">={helm.KUBERNETES_VERSIONS[0]}-0"


@pytest.mark.parametrize("case", CASES)
def test_the_expected_objects_are_made(rendered, case):
    kinds = sorted(d["kind"] for d in rendered[case])
    assert kinds.count("Deployment") == 2   # web and proxy
    assert kinds.count("PodDisruptionBudget") == 2
    assert "Job" in kinds and "ConfigMap" in kinds
    assert kinds.count("StatefulSet") == (2 if case == "try-out" else 0)
    assert ("Ingress" in kinds) == (case == "production")
    assert ("Secret" in kinds) == (case != "production")   # production names its own


# --- what a host must give ----------------------------------------------------------------

@pytest.mark.parametrize("values, message", [
    ({}, "secrets.databaseUrl"),
    ({"secrets": {"databaseUrl": "postgres://u:p@db/x"}}, "secrets.redisUrl"),
    ({"postgresql": {"enabled": True}, "redis": {"enabled": True}}, "postgresql.password"),
    (helm.merged(helm.REQUIRED, {"config": {"allowIpHosts": False}}), "config.publicUrl"),
])
def test_a_missing_required_value_stops_the_render_with_its_name(values, message):
    with pytest.raises(Exception, match=re.escape(message)):
        helm.render(values)


# --- the web replicas ---------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES)
def test_web_probes_healthz_on_its_port(rendered, case):
    web = helm.container(helm.one(rendered[case], "Deployment", f"{FULL}-web"), "web")
    ports = {p["name"]: p["containerPort"] for p in web["ports"]}
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        get = web[probe]["httpGet"]
        assert get["path"] == "/healthz" and get["port"] in ports, probe
    # Liveness gives the database a minute before a restart that would not help.
    liveness = web["livenessProbe"]
    assert liveness["periodSeconds"] * liveness["failureThreshold"] >= 60


def test_probes_name_the_public_host_when_ip_hosts_are_refused(rendered):
    web = helm.container(helm.one(rendered["production"], "Deployment", f"{FULL}-web"), "web")
    assert helm.env(web)["PARTYHUB_ALLOW_IP_HOSTS"] == "0"
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert web[probe]["httpGet"]["httpHeaders"] == [{"name": "Host", "value": "party.example.org"}]
    default = helm.container(helm.one(rendered["default"], "Deployment", f"{FULL}-web"), "web")
    assert "httpHeaders" not in default["readinessProbe"]["httpGet"]   # the pod's IP is answered


@pytest.mark.parametrize("case", CASES)
def test_web_stops_gracefully_so_sockets_move(rendered, case):
    deployment = helm.one(rendered[case], "Deployment", f"{FULL}-web")
    web = helm.container(deployment, "web")
    pause = web["lifecycle"]["preStop"]["sleep"]["seconds"]
    # Longer than the proxy's resolver takes to see the pod gone, and the grace period leaves
    # daphne time to stop after it.
    valid = helm.merged(helm.values_file("values.yaml"), CASES[case])["proxy"]["resolverValid"]
    assert pause > int(valid.rstrip("s"))
    assert helm.pod_spec(deployment)["terminationGracePeriodSeconds"] >= pause + 10
    assert deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0


def test_pod_annotations_are_a_map_or_absent(rendered):
    # production names its own Secret (no checksum) and no annotations of its own
    assert "annotations" not in helm.one(rendered["production"], "Deployment", f"{FULL}-web")["spec"]["template"]["metadata"]
    pods = helm.one(helm.render(helm.merged(helm.production(), {"web": {"podAnnotations": {"a": "b"}}})),
                    "Deployment", f"{FULL}-web")["spec"]["template"]["metadata"]
    assert pods["annotations"] == {"a": "b"}
    default = helm.one(rendered["default"], "Deployment", f"{FULL}-web")["spec"]["template"]["metadata"]
    assert len(default["annotations"]["checksum/secret"]) == 64


@pytest.mark.parametrize("case", CASES)
def test_web_is_told_every_setting(rendered, case):
    web = helm.env(helm.container(helm.one(rendered[case], "Deployment", f"{FULL}-web"), "web"))
    missing = sorted(n for n in settings_env() - set(web) - set(dockerfile_env()) if n not in SAFE_DEFAULTS)
    assert not missing
    assert web["MIGRATE"] == "0" and web["TRUST_PROXY"] == "1" and web["DEBUG"] == "0"
    secret = "partyhub-secrets" if case == "production" else FULL
    for name in ("SECRET_KEY", "DATABASE_URL", "REDIS_URL"):
        assert web[name] == ("secret", secret, name)


@pytest.mark.parametrize("case", CASES)
def test_the_disruption_budgets_hold_the_pods_they_name(rendered, case):
    docs = rendered[case]
    for component in ("web", "proxy"):
        pdb = helm.one(docs, "PodDisruptionBudget", f"{FULL}-{component}")
        pods = helm.one(docs, "Deployment", f"{FULL}-{component}")["spec"]["template"]["metadata"]["labels"]
        assert helm.labels_match(pdb["spec"]["selector"]["matchLabels"], pods)
        assert pdb["spec"]["maxUnavailable"] == 1
        others = [d for d in docs if d["kind"] == "Deployment" and d["metadata"]["name"] != f"{FULL}-{component}"]
        assert not any(helm.labels_match(pdb["spec"]["selector"]["matchLabels"],
                                         d["spec"]["template"]["metadata"]["labels"]) for d in others)


@pytest.mark.parametrize("case", CASES)
def test_every_service_selects_pods_with_its_target_port(rendered, case):
    docs = rendered[case]
    workloads = [d for d in docs if d["kind"] in ("Deployment", "StatefulSet")]
    for service in helm.of_kind(docs, "Service"):
        chosen = [w for w in workloads
                  if helm.labels_match(service["spec"]["selector"], w["spec"]["template"]["metadata"]["labels"])]
        assert len(chosen) == 1, service["metadata"]["name"]
        ports = {p["name"] for c in helm.pod_spec(chosen[0])["containers"] for p in c["ports"]}
        assert {p["targetPort"] for p in service["spec"]["ports"]} <= ports


def test_decks_live_on_a_read_write_many_volume_every_replica_mounts(rendered):
    docs = rendered["default"]
    claim = helm.one(docs, "PersistentVolumeClaim", f"{FULL}-decks")
    assert claim["spec"]["accessModes"] == ["ReadWriteMany"]
    web = helm.one(docs, "Deployment", f"{FULL}-web")
    volume = next(v for v in helm.pod_spec(web)["volumes"] if v["name"] == "decks")
    assert volume["persistentVolumeClaim"]["claimName"] == claim["metadata"]["name"]
    assert {"name": "decks", "mountPath": "/data/decks"} in helm.container(web, "web")["volumeMounts"]
