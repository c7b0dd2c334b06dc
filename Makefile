# Two commands do all set-up on a fresh machine:
#   make demo   -- the main job on built-in demo data
#   make test   -- lint, type-check, import contracts, the documentation build and the whole test suite
#   make test-fast -- the inner loop: lint, the tests not marked slow or integration (heavy
#                     property tests with a tenth of their examples) on two worker processes,
#                     stopping at the first failure
# (make docs builds the documentation site alone: docs/_build/html/index.html)
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test test-fast lint imports typecheck pytest bench venv clean chromium docs

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# The CPU build of PyTorch first: it satisfies the torch extra's range, so pip pulls no CUDA build.
	$(PY) -m pip install --quiet "torch==2.13.0"
	$(PY) -m pip install --quiet -e ".[all,test,docs]"
	# The irrCAC port, a peer of the several-raters tests, pins scipy==1.12, pandas<3 and
	# coverage<7; its code needs only numpy, scipy and pandas, so it goes in without its pins.
	@echo "make: installing the irrCAC port (irrcac 0.4.4) without its dependency pins, for the peer tests"
	$(PY) -m pip install --quiet --no-deps "irrcac==0.4.4"
	touch $(STAMP)

venv: $(STAMP)

# The demo copies its data files to demo-data/ and prints each command with those paths, so any
# of them can be run again as printed (the process never changes directory).
demo: $(STAMP)
	$(VENV)/bin/wkappa demo --dir demo-data

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# The layers of the README's Architecture section (contracts in pyproject.toml).
imports: $(STAMP)
	$(VENV)/bin/lint-imports --no-cache

typecheck: $(STAMP)
	$(VENV)/bin/mypy

# The suite on every core (pytest-xdist; PYTEST_WORKERS=0 runs it in one process). Modules that
# hold one engine (Spark, Dask, the browser) stay on one worker (--dist loadgroup).
PYTEST_WORKERS ?= auto
pytest: $(STAMP)
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadgroup

# The documentation site, strictly: warnings are errors, every cross-reference must resolve.
docs: $(STAMP)
	$(VENV)/bin/sphinx-build -b html -W --keep-going -n -q docs docs/_build/html
	@echo "make docs: built docs/_build/html/index.html"

# Headless Chromium for the browser tests of the HTML report and the documentation site
# (Debian's package, installed with apt-get when missing); SKIP_CHROMIUM=1 skips the install
# and those tests then skip.
chromium:
	@if [ -n "$(SKIP_CHROMIUM)" ]; then \
	  echo "make chromium: SKIP_CHROMIUM is set, not installing chromium; the browser tests will skip"; \
	elif command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then \
	  :; \
	else \
	  echo "make chromium: installing Debian's chromium and its dependencies with apt-get (the browser tests need it; SKIP_CHROMIUM=1 skips this)"; \
	  (DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	   DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || \
	  echo "make chromium: could not install chromium; the browser tests will be skipped"; \
	fi

test: lint imports typecheck chromium docs pytest

test-fast: $(STAMP)
	$(VENV)/bin/ruff check .
	WKAPPA_TEST_FAST=1 $(PY) -m pytest -m "not slow and not integration" -x -q -n 2

# Every benchmarks/bench_*.py script, one after the other (results: BENCHMARKS.md).
bench: $(STAMP)
	for script in benchmarks/bench_*.py; do $(PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis docs/_build docs/_generated \
	  docs/reference/generated docs/reference/api.rst docs/validation.md demo-data
