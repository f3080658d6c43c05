# Pantheon Press. `make build` sets everything up on a fresh machine and runs the main job;
# `make test` runs the test suite (what CI calls).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: build test test-all validate provenance bench bench-all engine-goldens doc-goldens tools lock clean

# Every game's card sheets and documents (A4; `make build PAPER=letter` for US Letter).
# `pantheon build` validates first and skips card sheets whose inputs did not change
# (content hashes); the stamp below lets make skip even starting it when no input file is newer.
PAPER ?= a4
BUILD_INPUTS := $(shell find data templates pipeline -type f -not -path '*/__pycache__/*' 2>/dev/null)
BUILD_STAMP  := output/.build-$(PAPER).stamp

build: $(BUILD_STAMP)

$(BUILD_STAMP): $(STAMP) $(BUILD_INPUTS)
	$(BIN)/pantheon build --paper $(PAPER)
	@mkdir -p $(dir $@) && touch $@

# Lint (ruff, with import order) and type-check (mypy) the pipeline, then run the tests on every core.
# --dist loadscope keeps each test module on one worker, so a costly module fixture is made once per run.
# (Not loadgroup: pytest-xdist 3.8 groups by rewriting a node id that pytest 9 no longer reads, so its
# xdist_group marks are silently ignored.)
test: $(STAMP) tools
	$(BIN)/ruff check pipeline
	$(BIN)/mypy pipeline
	$(BIN)/pytest -n auto --dist loadscope

# Everything `make test` runs, plus the tests marked slow (the exhaustive fuzz among them: an hour or more).
test-all: $(STAMP) tools
	$(BIN)/ruff check pipeline
	$(BIN)/mypy pipeline
	$(BIN)/pytest -n auto --dist loadscope -m ''

# PDF tools the tests and `pantheon preview` use (Debian packages), installed where missing.
tools:
	@command -v qpdf >/dev/null || (apt-get update -qq && apt-get install -y -qq qpdf)
	@command -v pdftoppm >/dev/null || (apt-get update -qq && apt-get install -y -qq poppler-utils)

validate: $(STAMP)
	$(BIN)/pantheon validate

provenance: $(STAMP)
	$(BIN)/pantheon provenance

# What the store's namespaces save and the start-up figures, into bench/RESULTS.md (a few minutes).
bench: $(STAMP) tools
	$(BIN)/python bench/store.py

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
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[test]'
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
