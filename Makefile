# partyhub: `make run` serves the app, `make test` runs every test.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
export PORT

.PHONY: run test test-long bench bench-smoke migrate clean messages

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# Reinstall only when pyproject.toml changed.
$(VENV)/.stamp-run: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.stamp-test: pyproject.toml $(VENV)/.stamp-run
	$(BIN)/pip install -q -e '.[test]'
	touch $@

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
	rm -rf $(VENV) data
