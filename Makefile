# The README's commands: `make demo` and `make test` set everything up from nothing.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
STAMP := $(VENV)/.installed

.PHONY: demo test check test-core bench venv clean dist

$(STAMP): pyproject.toml setup.py constraints.txt src/amreval/match/_kernels.c
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -c constraints.txt -e '.[test,hub,s2match,lm,distributed,parser,draw,space]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	@echo "== Smatch of examples/pred.amr against examples/gold.amr =="
	$(VENV)/bin/amreval smatch -f examples/pred.amr examples/gold.amr --pr --significant 4
	@echo "== per pair =="
	$(VENV)/bin/amreval smatch -f examples/pred.amr examples/gold.amr --ms --significant 4
	@echo "== DocAMR of examples/msamr_demo.xml + examples/gold.amr (docamr representation) =="
	$(VENV)/bin/amreval docamr --xml examples/msamr_demo.xml --amrs examples/gold.amr
	@echo "== DocSmatch with the coreference sub-score: examples/pred.docamr.amr against examples/gold.docamr.amr =="
	$(VENV)/bin/amreval docsmatch -f examples/pred.docamr.amr examples/gold.docamr.amr --coref-subscore
	@echo "== S²match (GloVe 6B 50-d) of examples/pred.amr against examples/gold.amr =="
	$(VENV)/bin/amreval s2match -f examples/pred.amr examples/gold.amr --pr --significant 4
	@echo "== Is one system better? Two predicted document sets compared on the same gold (paired permutation test) =="
	$(VENV)/bin/amreval compare -f metrics/docsmatch/examples/pred.docamr.amr metrics/docsmatch/examples/pred2.docamr.amr \
		--gold metrics/docsmatch/examples/gold.docamr.amr --score docsmatch --resamples 1000

CORE_VENV ?= .venv-core
CORE_STAMP := $(CORE_VENV)/.installed

test: check $(STAMP) $(CORE_STAMP)
	$(PY) -m pytest -q -rs
	@echo "== the core alone (no extras installed): what needs an extra skips, naming it =="
	$(CORE_VENV)/bin/python -m pytest -q -rs -p no:cacheprovider

# lint, format and types: clean or the tests do not run
check: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks metrics datasets conftest.py
	$(VENV)/bin/ruff format --check src tests benchmarks metrics datasets conftest.py
	$(VENV)/bin/mypy

# a second environment with the core dependencies and the test tools only
$(CORE_STAMP): pyproject.toml setup.py constraints.txt src/amreval/match/_kernels.c
	test -x $(CORE_VENV)/bin/python || $(PYTHON) -m venv $(CORE_VENV)
	$(CORE_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(CORE_VENV)/bin/python -m pip install --quiet -c constraints.txt -e '.[test]'
	touch $(CORE_STAMP)

test-core: $(CORE_STAMP)
	$(CORE_VENV)/bin/python -m pytest -q -rs -p no:cacheprovider

# the sdist and a wheel for this platform in dist/, checked as PyPI would (twine check --strict)
dist: $(STAMP)
	$(PIP) install --quiet -c constraints.txt build twine
	rm -rf dist
	$(PY) -m build --outdir dist .
	$(PY) -m twine check --strict dist/*

bench: $(STAMP)
	$(PIP) install --quiet -c constraints.txt -e '.[test,bench]'
	$(PY) benchmarks/bench_smatch.py
	$(PY) benchmarks/bench_smatchpp.py
	$(PY) benchmarks/bench_certified.py
	$(PY) benchmarks/bench_mfbeta.py
	$(PY) benchmarks/bench_docamr.py
	$(PY) benchmarks/bench_s2match.py
	$(PY) benchmarks/bench_docsmatch.py
	$(PY) benchmarks/bench_docparse.py
	$(PY) benchmarks/bench_compare.py
	$(PY) benchmarks/bench_finegrained.py
	$(PY) benchmarks/bench_trainer.py

clean:
	rm -rf $(VENV) $(CORE_VENV) build dist .pytest_cache .hypothesis .mypy_cache .ruff_cache src/*.egg-info
	rm -f src/amreval/match/_ckernels*.so
