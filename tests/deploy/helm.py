"""The Helm chart (deploy/helm/partyhub) rendered offline, for tests/deploy/test_helm*.py.

helm-python-sdk renders with Helm's own Go code (a shared library in its wheel: no helm
binary, no cluster, no network); kubernetes-validate checks each manifest against the
Kubernetes JSON schemas shipped in its wheel, for the pinned versions below.
"""
import base64
import copy
from pathlib import Path

import pytest
import yaml

from tests.conftest import need

try:
    import helm_python
    import kubernetes_validate
except ImportError:     # the test extra not installed yet: the tests say so (and fail in CI)
    helm_python = kubernetes_validate = None

ROOT = Path(__file__).resolve().parents[2]
CHART = ROOT / "deploy" / "helm" / "partyhub"
RELEASE, NAMESPACE = "party", "games"
# The oldest Kubernetes the chart supports (Chart.yaml's kubeVersion) and the newest whose
# schemas kubernetes-validate ships: every manifest must validate, strictly, against both.
KUBERNETES_VERSIONS = ("1.30.0", "1.37.0")

# What a host must give besides the chart's defaults: the database and Redis (values.yaml).
REQUIRED = {"secrets": {"databaseUrl": "postgres://partyhub:db-pass-4711@db.internal:5432/partyhub",
                        "redisUrl": "redis://:redis-pass-4712@redis.internal:6379/0"}}
TRY_OUT = {"postgresql": {"enabled": True, "password": "pg-pass-4713"}, "redis": {"enabled": True}}


@pytest.fixture(scope="module", autouse=True)
def renderer():
    """Before a module's other fixtures: the renderer and the schemas are there (test extra)."""
    need(helm_python is not None and kubernetes_validate is not None,
         "helm-python-sdk and kubernetes-validate (the test extra: make test installs them)")


def merged(*layers: dict) -> dict:
    """Values merged as `-f a -f b` merges them: maps key by key, anything else replaced."""
    out: dict = {}
    for layer in layers:
        _merge_into(out, copy.deepcopy(layer))
    return out


def _merge_into(out: dict, layer: dict) -> None:
    for key, value in layer.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            _merge_into(out[key], value)
        else:
            out[key] = value


def values_file(name: str) -> dict:
    return yaml.safe_load((CHART / name).read_text())


def production() -> dict:
    return values_file("values-production.yaml")


def render(values: dict) -> list[dict]:
    """Every manifest the chart makes with these values (over its defaults), NOTES left out."""
    with helm_python.Chart.load(str(CHART)) as chart:
        files = chart.render(values, name=RELEASE, namespace=NAMESPACE, is_install=True)
    docs = []
    for path, text in sorted(files.items()):
        if path.endswith(".yaml"):
            docs += [d for d in yaml.safe_load_all(text) if d]
    return docs


def validation_errors(docs: list[dict]) -> list[str]:
    errors = []
    for doc in docs:
        for version in KUBERNETES_VERSIONS:
            try:
                kubernetes_validate.validate(doc, version, strict=True)
            except (kubernetes_validate.ValidationError, kubernetes_validate.SchemaNotFoundError) as e:
                errors.append(f"{doc['kind']}/{doc['metadata']['name']} on {version}: "
                              f"{getattr(e, 'message', e)} at {list(getattr(e, 'path', []))}")
    return errors


def one(docs: list[dict], kind: str, name: str) -> dict:
    found = [d for d in docs if d["kind"] == kind and d["metadata"]["name"] == name]
    assert len(found) == 1, f"{kind}/{name}: {len(found)} found in {[(d['kind'], d['metadata']['name']) for d in docs]}"
    return found[0]


def of_kind(docs: list[dict], kind: str) -> list[dict]:
    return [d for d in docs if d["kind"] == kind]


def pod_spec(doc: dict) -> dict:
    return doc["spec"]["template"]["spec"]


def container(doc: dict, name: str) -> dict:
    return next(c for c in pod_spec(doc)["containers"] if c["name"] == name)


def env(container_spec: dict) -> dict:
    """{name: value or ("secret", secret name, key)} of a container's environment."""
    out = {}
    for item in container_spec.get("env", []):
        ref = item.get("valueFrom", {}).get("secretKeyRef")
        out[item["name"]] = ("secret", ref["name"], ref["key"]) if ref else item.get("value", "")
    return out


def secret_data(doc: dict) -> dict:
    return {k: base64.b64decode(v).decode() for k, v in doc.get("data", {}).items()}


def labels_match(selector: dict, labels: dict) -> bool:
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def value_paths(values: dict, prefix: str = "") -> list[str]:
    """Dotted paths of values.yaml: leaves, and maps left empty for the host to fill."""
    paths = []
    for key, value in values.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            paths += value_paths(value, path + ".")
        else:
            paths.append(path)
    return paths
