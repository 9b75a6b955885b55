# Two entry points: `make demo` and `make test`. Both do all set-up on a fresh Debian machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup swipl demo test clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV) || { bash scripts/ensure-venv.sh && rm -rf $(VENV) && $(PYTHON) -m venv $(VENV); }
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

swipl:
	@bash scripts/ensure-swipl.sh

setup: $(STAMP) swipl

demo: setup
	$(BIN)/python -m explain demo --out runs/demo --force

test: setup
	$(BIN)/python -m pytest -q

clean:
	rm -rf $(VENV) runs .pytest_cache
