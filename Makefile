# NLP Power Explorer — `make run` starts the app, `make test` runs every test.
# Works on a fresh machine with only python3 and make: the virtual environment
# is built from requirements.txt the first time (and whenever it changes).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 8501
# Listen on this machine only; `make run ADDRESS=0.0.0.0` serves a lab network on purpose.
ADDRESS ?= 127.0.0.1
# App processes: 1 for one person (`make run`); a lab's shared server runs one per core (`make lab`,
# `WORKERS=auto`) behind scripts/lab.py, which keeps each browser on its own process.
WORKERS ?= 1

.PHONY: run lab test test-fast bench browser venv clean

venv: $(STAMP)

$(STAMP): requirements.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	@touch $(STAMP)

run: venv
	$(BIN)/python scripts/lab.py --workers $(WORKERS) --server.address $(ADDRESS) --server.port $(PORT)

# A lab on one server: one app process per core (`make lab ADDRESS=0.0.0.0` to serve the lab's network).
lab: venv
	$(BIN)/python scripts/lab.py --workers auto --server.address $(ADDRESS) --server.port $(PORT)

browser: venv
	@PYTHON=$(BIN)/python sh scripts/ensure-chromium.sh

test: venv browser
	$(BIN)/python -m pytest

test-fast: venv
	$(BIN)/python -m pytest -m "not e2e"

bench: venv
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) test-artifacts .pytest_cache
