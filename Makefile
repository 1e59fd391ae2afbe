# Two commands matter: `make run` (the companion; a simulated table when there is no Pi)
# and `make test` (everything CI runs). Both build .venv on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The first of the Pythons $(2) that runs and is Python 3.$(1); empty when none is.
find_python = $(firstword $(foreach p,$(2),$(shell $(p) -c 'import sys; \
	sys.exit(sys.version_info[:2] != (3, $(1)))' >/dev/null 2>&1 && echo $(p))))

# The tests run again on the NumPy and OpenCV each Raspberry Pi OS gives the companion
# (systemd/*-constraints.txt): those that touch them (vision, numerics) and the engine, on the
# OS's Python where this machine has it. Bookworm's numpy 1.24 exists for Python 3.11 only.
# Calibration's whole sessions are left to the first run: their vision parts have tests of
# their own, and the sessions would take a third of these runs' time.
PI_TESTS := tests/dice tests/calibration tests/game tests/hardware/test_camera.py \
	tests/hardware/test_sim_camera.py --ignore=tests/calibration/test_calibrate_cli.py \
	--ignore=tests/calibration/test_calibration_session.py
ifeq ($(origin TRIXIE_PY),undefined)
TRIXIE_PY := $(or $(call find_python,13,$(PY) python3.13),$(PY))
endif
ifeq ($(origin BOOKWORM_PY),undefined)
BOOKWORM_PY := $(call find_python,11,$(PY) python3.11)
endif
export TRIXIE_PY BOOKWORM_PY  # found once, for the runs below too

.PHONY: run test test-main test-trixie test-bookworm lint format bench clean

INSTALL_INPUTS := pyproject.toml

# What a machine needs before pip can build the companion, each said in one line.
define check_machine
@$(1) -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 || { \
	found=$$($(1) --version 2>/dev/null) || found="not found"; \
	echo "make: the companion needs Python 3.11 or newer; $(1) is $$found" \
	"(try: make PY=python3.11)" >&2; exit 1; }
@$(1) -c 'import ensurepip, venv' >/dev/null 2>&1 || { \
	echo "make: $(1) cannot make a virtual environment (Debian: apt install python3-venv)" >&2; \
	exit 1; }
endef

# $(call venv,DIR,PYTHON,CONSTRAINTS): DIR with the companion and its dev tools installed.
define venv
$(call check_machine,$(2))
$(2) -m venv $(1)
$(1)/bin/pip install --quiet --upgrade pip
$(1)/bin/pip install --quiet $(3) -e '.[dev]'
touch $(1)/.installed
endef

$(STAMP): $(INSTALL_INPUTS)
	$(call venv,$(VENV),$(PY),)

.venv-trixie/.installed: $(INSTALL_INPUTS) systemd/trixie-constraints.txt
	$(call venv,.venv-trixie,$(TRIXIE_PY),-c systemd/trixie-constraints.txt)

.venv-bookworm/.installed: $(INSTALL_INPUTS) systemd/bookworm-constraints.txt
	$(call venv,.venv-bookworm,$(BOOKWORM_PY),-c systemd/bookworm-constraints.txt)

run: $(STAMP)
	$(BIN)/companion run

# Lint, every test on this machine's newest libraries (two workers), then the Pi runs side by
# side, each printed whole when it ends. The venvs are built first, one after the other.
test: lint .venv-trixie/.installed $(if $(BOOKWORM_PY),.venv-bookworm/.installed)
	$(MAKE) --no-print-directory test-main
	$(MAKE) --no-print-directory -j2 --output-sync=target test-trixie test-bookworm

test-main: $(STAMP)
	$(BIN)/pytest -n 2 --dist worksteal

test-trixie: .venv-trixie/.installed
	@echo "Again on Raspberry Pi OS Trixie's NumPy and OpenCV, with $(TRIXIE_PY):"
	.venv-trixie/bin/pytest -q -m 'not browser' $(PI_TESTS)

ifneq ($(BOOKWORM_PY),)
test-bookworm: .venv-bookworm/.installed
	@echo "Again on Raspberry Pi OS Bookworm's NumPy and OpenCV, with $(BOOKWORM_PY):"
	.venv-bookworm/bin/pytest -q -m 'not browser' $(PI_TESTS)
else ifneq ($(CI),)
test-bookworm:
	@echo "make: the Bookworm run needs Python 3.11 (numpy 1.24 has no wheels for newer)," \
		"and neither $(PY) nor python3.11 is; set BOOKWORM_PY=/path/to/python3.11" >&2; exit 1
else
test-bookworm:
	@echo "Skipped: the run on Bookworm's numpy 1.24 needs Python 3.11 (not $(PY), and no" \
		"python3.11 here); set BOOKWORM_PY=/path/to/python3.11 to run it"
endif

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

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
	rm -rf $(VENV) .venv-trixie .venv-bookworm var .pytest_cache
