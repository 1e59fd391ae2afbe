# Two commands matter: `make run` (the companion; a simulated table when there is no Pi)
# and `make test` (everything CI runs). Both build .venv on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint format bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/companion run

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# The quick benchmarks; bench/soak.py (whole games over HTTP) runs for an hour on its own.
bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/screens.py
	$(BIN)/python bench/web.py
	$(BIN)/python bench/dice.py $(wildcard ../shared/data/dice/*/)
	$(BIN)/python bench/cocked.py
	$(BIN)/python bench/oblique.py

clean:
	rm -rf $(VENV) var .pytest_cache
