# partyhub: `make run` serves the app, `make test` runs every test.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
export PORT

.PHONY: run test test-long bench bench-smoke migrate clean messages lock

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

test: $(VENV)/.stamp-test
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

test-long: $(VENV)/.stamp-test
	$(BIN)/python -m pytest -q --long $(PYTEST_ARGS)

bench: $(VENV)/.stamp-test
	$(BIN)/python -m bench $(BENCH_ARGS)

messages: $(VENV)/.stamp-run
	cd partyhub && ../$(BIN)/python ../manage.py compilemessages

clean:
	rm -rf $(VENV) $(LOCK_VENV) data
