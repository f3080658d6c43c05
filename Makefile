# Pantheon Press. `make build` sets everything up on a fresh machine and runs the main job;
# `make test` runs the test suite (what CI calls).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: build test validate provenance bench clean

build: $(STAMP)
	$(BIN)/pantheon validate

test: $(STAMP)
	$(BIN)/pytest

validate: $(STAMP)
	$(BIN)/pantheon validate

provenance: $(STAMP)
	$(BIN)/pantheon provenance

bench: $(STAMP)
	$(BIN)/python bench/run.py

# Re-install only when the project's dependencies change.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

clean:
	rm -rf $(VENV) output .pytest_cache .hypothesis
