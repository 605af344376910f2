# partyhub: `make run` serves the app, `make test` runs every test.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
export PORT

.PHONY: run test test-fast test-long durations bench bench-smoke migrate clean messages lock screens

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# Reinstall only when a lock or pyproject.toml changed. The dependencies come from the locks,
# pinned with their hashes; then partyhub itself, without resolving anything again.
$(VENV)/.stamp-run: requirements.lock pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q --require-hashes -r requirements.lock
	$(BIN)/pip install -q --no-deps -e .
	touch $@

$(VENV)/.stamp-test: requirements-test.lock $(VENV)/.stamp-run
	$(BIN)/pip install -q --require-hashes -r requirements-test.lock
	touch $@

# Resolve the locks again from pyproject.toml's bounds: after a bound changed, or with
# LOCK_ARGS=--upgrade (everything to its newest allowed release) or
# LOCK_ARGS="--upgrade-package Pillow" (one package). pip-tools runs in a venv of its own.
LOCK_VENV := .venv-lock
LOCK_ARGS ?=
COMPILE = CUSTOM_COMPILE_COMMAND="make lock" $(LOCK_VENV)/bin/pip-compile -q --generate-hashes \
	--strip-extras --no-emit-index-url --no-emit-find-links $(LOCK_ARGS)

lock:
	test -x $(LOCK_VENV)/bin/pip-compile || { $(PY) -m venv $(LOCK_VENV) && $(LOCK_VENV)/bin/pip install -q pip-tools; }
	$(COMPILE) -o requirements.lock pyproject.toml
	$(COMPILE) --extra test -o requirements-test.lock pyproject.toml

migrate: $(VENV)/.stamp-run
	$(BIN)/python manage.py migrate --noinput -v0

run: migrate
	$(BIN)/python -m partyhub.serve

# The suite runs on PARALLEL workers (pytest-xdist); tests that share a server, a stack or a
# browser run on one worker by rule (tests/conftest.py: xdist_group; docs/testing.md).
# PARALLEL=0: in this process, one test after another. 5 workers on this 2-core machine: most
# of the tests outside the browsers wait (servers, timers, sockets), and 5 kept both cores
# 75% busy where 3 kept them 54% (docs/testing.md, 2026-12-02).
PARALLEL ?= 5
xdist = $(if $(filter 0,$(1)),-p no:xdist,-n $(1) --dist loadgroup)
XDIST = $(call xdist,$(PARALLEL))
# The browser round on 3 workers (docs/testing.md, 2026-12-02): chromium's CPU binds it. It had
# 2 from 2026-11-27, when 3 chromiums put the load at 20 and timeouts failed tests at random;
# since chromium no longer loads the omnibox's popups for each context (a third of its CPU),
# 3 ran the round in 16 min with nothing failed.
BROWSER_PARALLEL ?= $(if $(filter 0,$(PARALLEL)),0,3)
BROWSER_XDIST = $(call xdist,$(BROWSER_PARALLEL))

# Every test (CI: .ci/run), in two rounds: Docker adds and removes network interfaces, and a
# chromium loading a page at that moment fails with net::ERR_NETWORK_CHANGED (chromium issue
# 41465264), so the Docker tests run beside everything but the browsers, then the browsers run.
# A round with nothing selected (pytest's exit 5) is no failure; the first failing round's
# code is make's. PYTEST_ARGS go to both rounds (give it no -m of its own).
ROUNDS = s=0; \
	$(call ROUND,$(XDIST) -m "not browser and not webkit",$(1)) [ $$r -eq 5 ] || s=$$r; \
	$(call ROUND,$(BROWSER_XDIST) -m "browser or webkit",$(1)) [ $$r -eq 5 ] || [ $$s -ne 0 ] || s=$$r; \
	exit $$s

# One round ($(1): its own options, $(2): PYTEST_ARGS), its code left in r. When its tests
# failed (pytest's exit 1), RETRY_MOST of them at most, those run once more after the round,
# one after another in one process: on this 2-core machine a loaded browser round runs out
# of waiting at random (2 to 5 of 159 tests a CI run, rarely the same twice; docs/testing.md),
# and a test that fails again fails the round. The output names every test retried.
RETRY_MOST ?= 8
ROUND = f=$$(mktemp); $(BIN)/python -m pytest -q $(1) $(2) --failed-to=$$f; r=$$?; n=$$(wc -l < $$f); \
	if [ $$r -eq 1 ] && [ $$n -ge 1 ] && [ $$n -le $(RETRY_MOST) ]; then \
	  echo "== $$n failed; once more, one after another:"; sed 's/^/   /' $$f; \
	  $(BIN)/python -m pytest -q -p no:xdist $(2) @$$f; r=$$?; \
	  if [ $$r -eq 0 ]; then echo "== RETRIED: failed once, passed alone (docs/testing.md):"; sed 's/^/   /' $$f; fi; \
	fi; rm -f $$f;

# The tests write bytecode, whatever the environment says: their servers are forked from a
# process that has imported the libraries (tests/forkserver.py) and import partyhub itself
# after the fork, and without its .pyc files each one compiled about 130 modules again:
# 0.42 s of CPU a server start where it is 0.30 with them, and every worker compiled the
# tests too (docs/testing.md, "Servers forked, not started"). __pycache__/ is in .gitignore.
test test-fast test-long durations: export PYTHONDONTWRITEBYTECODE :=

# First the layers' contracts (pyproject.toml, docs/architecture.md): a lower layer that
# imports an upper one, or a circle, fails `make test` before any test runs.
LINT_IMPORTS = $(BIN)/lint-imports --no-logo

test: $(VENV)/.stamp-test
	$(LINT_IMPORTS)
	@$(call ROUNDS,$(PYTEST_ARGS))

# Everyday: every test but the browsers (chromium, WebKit), Docker and the long variants.
test-fast: $(VENV)/.stamp-test
	$(LINT_IMPORTS)
	$(BIN)/python -m pytest -q $(XDIST) -m "not browser and not webkit and not docker" $(PYTEST_ARGS)

test-long: $(VENV)/.stamp-test
	$(LINT_IMPORTS)
	@$(call ROUNDS,--long $(PYTEST_ARGS))

# The workers take the longest work first, and run work that waits beside busy work, by each
# test's seconds and CPU in tests/durations.json (tests/schedule.py): run every test as make test
# does and write their figures there again, after tests were added or grew (a test it does not
# know counts as 2 s, and one it has no CPU for as busy).
durations: $(VENV)/.stamp-test
	@$(call ROUNDS,--durations-to=tests/durations.json $(PYTEST_ARGS))

bench: $(VENV)/.stamp-test
	$(BIN)/python -m bench $(BENCH_ARGS)

# Every game played at a full table in chromium: a screenshot of every TV (1920x1080, 1280x720)
# and phone (390, 320 px) screen into screens/<game>/, one contact sheet per game in
# screens/<game>.png (tests/e2e/screens.py; SCREENS_ARGS: e.g. --games jinx).
screens: $(VENV)/.stamp-test
	$(BIN)/python -m tests.e2e.screens $(SCREENS_ARGS)

messages: $(VENV)/.stamp-run
	cd partyhub && ../$(BIN)/python ../manage.py compilemessages

clean:
	rm -rf $(VENV) $(LOCK_VENV) data
