# Two commands do all set-up on a fresh machine:
#   make demo   -- the main job on built-in demo data
#   make test   -- lint, type-check, import contracts and the whole test suite
#   make test-fast -- the inner loop: lint, the tests not marked slow or integration (heavy
#                     property tests with a tenth of their examples), stopping at the first failure
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test test-fast lint imports typecheck pytest bench venv clean chromium

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# The CPU build of PyTorch first: it satisfies the torch extra's range, so pip pulls no CUDA build.
	$(PY) -m pip install --quiet "torch==2.13.0"
	$(PY) -m pip install --quiet -e ".[all,test]"
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/wkappa demo

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# The layers of the README's Architecture section (contracts in pyproject.toml).
imports: $(STAMP)
	$(VENV)/bin/lint-imports --no-cache

typecheck: $(STAMP)
	$(VENV)/bin/mypy

pytest: $(STAMP)
	$(PY) -m pytest

# Headless Chromium for the HTML report test (Debian's package); without it that test skips.
chromium:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  (DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	   DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || \
	  echo "make chromium: could not install chromium; the browser test will be skipped"

test: lint imports typecheck chromium pytest

test-fast: $(STAMP)
	$(VENV)/bin/ruff check .
	WKAPPA_TEST_FAST=1 $(PY) -m pytest -m "not slow and not integration" -x -q

# Every benchmarks/bench_*.py script, one after the other (results: BENCHMARKS.md).
bench: $(STAMP)
	for script in benchmarks/bench_*.py; do $(PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
