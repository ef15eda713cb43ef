# The README's commands: `make demo` and `make test` set everything up from nothing.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DEMO_STAMP := $(VENV)/.installed-demo
DEMO_EXTRAS := s2match,hub
EXTRAS := test,hub,s2match,lm,distributed,parser,draw,space,docs
# pytest's worker processes (pytest-xdist): one per core, each running whole test files (a file's fixtures made once)
JOBS ?= auto

.PHONY: demo test check lint types test-core bench venv clean dist docs

# The installer: uv (the one on PATH, else one that pip puts into .uv/ from PyPI); pip where uv cannot be had.
# `make test UV=` installs with pip. (Each of these is worked out once, when first used.)
UV ?= $(eval UV := $$(shell command -v uv 2>/dev/null || { test -x .uv/bin/uv || $$(PYTHON) -m pip install --quiet \
	--target .uv uv >/dev/null 2>&1; test -x .uv/bin/uv && echo .uv/bin/uv; }))$(UV)
# uv reads none of pip's settings: the wheel folders, indexes and constraints that pip is given here (its config
# files, PIP_* variables) are handed to uv, so that both take the same files (torch's CPU build on this disk), and
# like pip, uv takes the best version on any of the indexes
PIP_CONFIG = $(eval PIP_CONFIG := $$(shell $$(PYTHON) -m pip config list 2>/dev/null))$(PIP_CONFIG)
pip_setting = $(shell printf '%s\n' $(PIP_CONFIG) \
	| sed -n "s/^:env:\.$(1)=\(.*\)$$/\1/p; s/^global\.$(1)=\(.*\)$$/\1/p" | head -n 1)
UV_FLAGS = --index-strategy unsafe-best-match $(addprefix --index-url=,$(call pip_setting,index-url)) \
	$(addprefix --extra-index-url=,$(call pip_setting,extra-index-url)) \
	$(addprefix --find-links=,$(call pip_setting,find-links)) $(addprefix --constraint=,$(call pip_setting,constraint))

# $(call install,ENV,WHAT): a virtual environment ENV (made if missing) with WHAT installed under constraints.txt
define install
	@if [ -n "$(UV)" ]; then \
		echo "== $(1): installing with $(UV)"; \
		set -ex; \
		test -x $(1)/bin/python || $(UV) venv --quiet --seed --python $(PYTHON) $(1); \
		$(UV) pip install --quiet --compile-bytecode --python $(1)/bin/python $(UV_FLAGS) -c constraints.txt $(2); \
	else \
		echo "== $(1): installing with pip (uv cannot be had)"; \
		set -ex; \
		test -x $(1)/bin/python || $(PYTHON) -m venv $(1); \
		$(1)/bin/python -m pip install --quiet --upgrade pip; \
		$(1)/bin/python -m pip install --quiet -c constraints.txt $(2); \
	fi
	$(call compile,$(1))
endef

# $(call compile,ENV): bytecode caches of the package's own sources (an editable install leaves them in src/, which
# no installer compiles). PYTHONDONTWRITEBYTECODE=1, set by many container images, stops Python from writing them
# as it imports: without them every process compiles every module it imports (a third of a second for the CLI).
# uv's --compile-bytecode (pip compiles by default) does the same for the installed dependencies.
define compile
	$(1)/bin/python -m compileall -q src
endef

# everything: the package, every extra and the test tools
$(STAMP): pyproject.toml setup.py constraints.txt src/amreval/match/kernels/_kernels.c
	$(call install,$(VENV),-e '.[$(EXTRAS)]')
	touch $(DEMO_STAMP) $(STAMP)

# what the demo and the README's quick starts run: the package, S²match's word vectors and the evaluate metrics
$(DEMO_STAMP): pyproject.toml setup.py constraints.txt src/amreval/match/kernels/_kernels.c
	$(call install,$(VENV),-e '.[$(DEMO_EXTRAS)]')
	touch $(DEMO_STAMP)

# the package's own sources compiled again where they changed since (compileall skips the caches that are up to
# date): what the demo, the tests and the benchmarks run is then the same as from a fresh install
BYTECODE := $(VENV)/.bytecode
$(BYTECODE): $(STAMP) $(shell find src -name '*.py' 2>/dev/null)
	$(call compile,$(VENV))
	touch $(BYTECODE)

venv: $(STAMP) $(BYTECODE)

demo: $(DEMO_STAMP)
	$(call compile,$(VENV))
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

# lint and format first; then the types beside the core-only suite (mypy keeps one core busy), and the whole
# suite once the types are clean. A failure anywhere fails `make test`.
test: lint $(STAMP) $(BYTECODE)
	@$(MAKE) --no-print-directory -j 2 --output-sync=target types test-core
	$(PY) -m pytest -q -rs -n $(JOBS) --dist loadfile

# lint, format and types
check: lint types

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks metrics datasets docs spaces conftest.py
	$(VENV)/bin/ruff format --check src tests benchmarks metrics datasets docs spaces conftest.py

types: $(STAMP)
	$(VENV)/bin/mypy

# a second environment with the core dependencies and the test tools only
$(CORE_STAMP): pyproject.toml setup.py constraints.txt src/amreval/match/kernels/_kernels.c
	$(call install,$(CORE_VENV),-e '.[test]')
	touch $(CORE_STAMP)

test-core: $(CORE_STAMP)
	@echo "== the core alone (no extras installed): what needs an extra skips, naming it =="
	$(CORE_VENV)/bin/python -m pytest -q -rs -p no:cacheprovider -n $(JOBS) --dist loadfile

# the documentation site in site/ (mkdocs.yml): strict, so a broken link, a missing reference or any warning fails
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --site-dir site

# the sdist and a wheel for this platform in dist/, checked as PyPI would (twine check --strict)
dist: $(STAMP)
	$(call install,$(VENV),build twine)
	rm -rf dist
	$(PY) -m build --outdir dist .
	$(PY) -m twine check --strict dist/*

bench: $(STAMP) $(BYTECODE)
	$(call install,$(VENV),-e '.[test,bench]')
	$(PY) benchmarks/bench_smatch.py
	$(PY) benchmarks/bench_smatchpp.py
	$(PY) benchmarks/bench_certified.py
	$(PY) benchmarks/bench_mfbeta.py
	$(PY) benchmarks/bench_docamr.py
	$(PY) benchmarks/bench_s2match.py
	$(PY) benchmarks/bench_docsmatch.py
	$(PY) benchmarks/bench_docparse.py
	$(PY) benchmarks/bench_compare.py
	$(PY) benchmarks/bench_compare_space.py
	$(PY) benchmarks/bench_finegrained.py
	$(PY) benchmarks/bench_trainer.py

clean:
	rm -rf $(VENV) $(CORE_VENV) .uv build dist site .pytest_cache .hypothesis .mypy_cache .ruff_cache src/*.egg-info
	rm -f src/amreval/match/kernels/_ckernels*.so
