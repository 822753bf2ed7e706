# Two commands are all the set-up there is: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# The public conformance vectors (a copy of the shared ones, see conformance/README.md).
CASES  := conformance/cases

.PHONY: demo test lint typecheck conformance pytest browser bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall when the project's metadata changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# The web app with a new demo game in demo.db; prints the URL and the GM's and players' links.
demo: $(VENV)/.installed
	$(BIN)/kingmaker demo

lint: $(VENV)/.installed-test
	$(BIN)/ruff check src tests benchmarks

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy --strict src/kingmaker

conformance: $(VENV)/.installed-test
	$(BIN)/kingmaker conformance --quiet $(CASES) tests/vectors

# Debian's Chromium for the Playwright browser tests, installed when missing.
browser:
	scripts/ensure-browser

pytest: $(VENV)/.installed-test browser
	$(BIN)/pytest

test: lint typecheck conformance pytest

bench: $(VENV)/.installed-test
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/log_store.py
	$(BIN)/python benchmarks/web_load.py

clean:
	rm -rf $(VENV) test-artifacts build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
