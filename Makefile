# Two commands matter: `make run` (the companion; a simulated table when there is no Pi)
# and `make test` (everything CI runs). Both build .venv on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The NumPy and OpenCV a Raspberry Pi runs (Bookworm's python3-numpy, and the OpenCV wheel
# systemd/pi-constraints.txt allows), where the tests run a second time: the dice reader must
# read alike on both, and nothing may need NumPy 2.
PI_VENV := .venv-pi
PI_STAMP := $(PI_VENV)/.installed
PI_NUMPY := numpy==1.24.*

.PHONY: run test lint format bench clean

# The install compiles companion/dice/*.c: a change to them needs the install again.
C_SOURCES := $(wildcard companion/dice/*.c)

$(STAMP): pyproject.toml $(C_SOURCES)
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(PI_STAMP): pyproject.toml $(C_SOURCES) systemd/pi-constraints.txt
	$(PY) -m venv $(PI_VENV)
	$(PI_VENV)/bin/pip install --quiet --upgrade pip
	$(PI_VENV)/bin/pip install --quiet -c systemd/pi-constraints.txt '$(PI_NUMPY)' -e '.[dev]'
	touch $(PI_STAMP)

run: $(STAMP)
	$(BIN)/companion run

test: $(STAMP) $(PI_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/pytest
	@echo "Again on the Raspberry Pi's NumPy and OpenCV (no browser: it is on the phone):"
	$(PI_VENV)/bin/pytest -m 'not browser'

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# The quick benchmarks; bench/soak.py (whole games over HTTP) runs for an hour on its own.
bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/games.py
	$(BIN)/python bench/screens.py
	$(BIN)/python bench/web.py
	$(BIN)/python bench/dice.py $(wildcard ../shared/data/dice/*/)
	$(BIN)/python bench/cocked.py
	$(BIN)/python bench/oblique.py

clean:
	rm -rf $(VENV) $(PI_VENV) var .pytest_cache
