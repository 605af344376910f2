"""Pinned dependencies: the locks pin every package with hashes, within pyproject's bounds,
and the test lock installs the very same versions of what the app runs on."""
import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^\s\\;]+)")


def pins(name: str) -> dict:
    """{package: version} of a lock; every pin carries at least one sha256 hash."""
    text = (ROOT / name).read_text()
    out = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", text):
        m = PIN.match(block)
        if m:
            assert "--hash=sha256:" in block, f"{name}: {m.group(1)} has no hash"
            out[canonicalize_name(m.group(1))] = m.group(2)
    return out


def project():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_every_dependency_is_pinned_with_hashes_within_its_bounds():
    run, test = pins("requirements.lock"), pins("requirements-test.lock")
    for spec, lock in [(d, run) for d in project()["dependencies"]] + \
                      [(d, test) for d in project()["optional-dependencies"]["test"]]:
        req = Requirement(spec)
        name = canonicalize_name(req.name)
        assert name in lock, f"{req.name} is not in the lock"
        assert req.specifier.contains(lock[name], prereleases=True), (spec, lock[name])


def test_the_test_lock_runs_the_same_versions_as_the_app():
    run, test = pins("requirements.lock"), pins("requirements-test.lock")
    assert {k: test.get(k) for k in run} == run


def test_the_bounds_leave_out_releases_with_known_security_fixes():
    bounds = {canonicalize_name(Requirement(d).name): Requirement(d).specifier
              for d in project()["dependencies"]}
    for name, too_old in [("django", "5.2.16"), ("pillow", "12.2.0"), ("pillow", "10.0.0"),
                          ("twisted", "24.3.0")]:
        assert not bounds[name].contains(too_old), (name, too_old)


def test_make_the_image_and_ci_install_from_the_locks():
    make = (ROOT / "Makefile").read_text()
    assert "--require-hashes -r requirements.lock" in make and "--no-deps -e ." in make
    assert "--require-hashes -r requirements-test.lock" in make
    assert "pip install --require-hashes -r requirements.lock" in (ROOT / "Dockerfile").read_text()
    assert "make test" in (ROOT / ".ci" / "run").read_text()
