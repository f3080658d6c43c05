# Pantheon Press. `make build` sets everything up on a fresh machine and runs the main job;
# `make test` runs the test suite (what CI calls).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: build test test-all validate provenance bench bench-all engine-goldens doc-goldens tools lock clean

# Every game's card sheets and documents (A4; `make build PAPER=letter` for US Letter).
# Always runs `pantheon build`: the output folder's manifest decides what is up to date.
PAPER ?= a4

build: $(STAMP)
	$(BIN)/pantheon build --paper $(PAPER)

# Lint (ruff, with import order), type-check (mypy) and hold the layers (lint-imports: pyproject.toml's
# [tool.importlinter]; a layer imports only those below it) of the pipeline, then run the tests on every core, in a
# new random order each run (pytest-randomly prints the seed; `-p randomly --randomly-seed=N` repeats an order).
# --dist loadscope sends a whole module to one worker: a module-scoped fixture (a report of every game, an
# installed package, a built sheet) is made once, where the default `load` could make it on every worker. Order
# and worker still change nothing a test sees: each test has its own temporary folder and data copy.
# (Not loadgroup: pytest-xdist 3.8 groups by rewriting a node id that pytest 9 no longer reads, so its
# xdist_group marks are silently ignored.)
test: $(STAMP) tools
	$(BIN)/ruff check pipeline
	$(BIN)/mypy pipeline
	$(BIN)/lint-imports
	$(BIN)/pytest -n auto --dist loadscope

# Everything `make test` runs, plus the tests marked slow (the exhaustive fuzz among them: an hour or more).
test-all: $(STAMP) tools
	$(BIN)/ruff check pipeline
	$(BIN)/mypy pipeline
	$(BIN)/lint-imports
	$(BIN)/pytest -n auto --dist loadscope -m ''

# PDF tools the tests and `pantheon preview` use (Debian packages), installed where missing. Ghostscript
# brings the CMYK ICC profile of the DriveThruCards export (/usr/share/color/icc/ghostscript/) and measures
# the ink of a PDF in `pantheon preflight --target dtc`.
tools:
	@command -v qpdf >/dev/null || (apt-get update -qq && apt-get install -y -qq qpdf)
	@command -v pdftoppm >/dev/null || (apt-get update -qq && apt-get install -y -qq poppler-utils)
	@command -v gs >/dev/null || (apt-get update -qq && apt-get install -y -qq ghostscript)

validate: $(STAMP)
	$(BIN)/pantheon validate

provenance: $(STAMP)
	$(BIN)/pantheon provenance

# What the store's namespaces save, the first run's CPU (no cache) and the start-up figures, into bench/RESULTS.md
# (a few minutes). BASELINE=DIR (an older checkout with its own .venv) pairs the first run's figures with its.
BASELINE ?=
bench: $(STAMP) tools
	$(BIN)/python bench/store.py $(if $(BASELINE),--baseline $(BASELINE))

# Every benchmark script (the engines, the solver, the renderer against plain reportlab, ...): much longer.
bench-all: $(STAMP) tools
	@for script in bench/*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

# The engines' golden playthroughs (tests/fixtures/engines/): after a rules change you meant; review the diff.
engine-goldens: $(STAMP)
	$(BIN)/python -m tests.core.engine_goldens

# The golden Markdown documents (tests/fixtures/docs-golden/): after a document change you meant; review the diff.
doc-goldens: $(STAMP)
	$(BIN)/python -m tests.core.docs_goldens

# Re-install only when the project's dependencies change. constraints.txt pins the exact
# versions (pyproject.toml gives the ranges), so a new release cannot change the PDFs unseen.
$(STAMP): pyproject.toml constraints.txt
	@echo "Setting up $(VENV): a Python environment of this project's own (once; again when pyproject.toml or constraints.txt change)"
	$(PYTHON) -m venv $(VENV)
	@echo "Updating pip in $(VENV)"
	$(BIN)/pip install --quiet --upgrade pip
	@echo "Installing Pantheon Press and the versions constraints.txt pins: reportlab, svglib, jinja2, pyyaml, jsonschema, typer, openpyxl, ... and the test tools (a few minutes on a first run)"
	$(BIN)/pip install --progress-bar on -c constraints.txt -e '.[test]'
	touch $(STAMP)

# Re-pin constraints.txt to what the ranges in pyproject.toml allow today (then rebuild and compare the PDFs).
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install --quiet --upgrade pip
	.lock-venv/bin/pip install --quiet -e '.[test]'
	(echo "# Exact versions installed by make (regenerate with \`make lock\`)."; \
	 .lock-venv/bin/pip freeze --exclude-editable | grep -v '^-e') > constraints.txt
	rm -rf .lock-venv

clean:
	rm -rf $(VENV) output .cache .pytest_cache .hypothesis .mypy_cache .ruff_cache
