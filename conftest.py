"""Doctests of modules whose optional extra is not installed are not collected (the tests say which extra);
with ``AMREVAL_NO_SKIP`` (set by ``.ci/run``) a skip is a failure unless its reason is on ``ALLOWED_SKIPS``."""

from __future__ import annotations

import atexit
import importlib.util
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


# The Hub libraries' caches (evaluate's metric modules, datasets' builds) of a test run: one folder per test
# process (each xdist worker its own), set before any test module imports evaluate or datasets, removed when the
# process ends; a user's HF_HOME is left as it is.
if "HF_HOME" not in os.environ:
    os.environ["HF_HOME"] = _HF_HOME = tempfile.mkdtemp(prefix="amreval-hf-")
    atexit.register(shutil.rmtree, _HF_HOME, ignore_errors=True)

collect_ignore = []
# datasets.builder: this project's own datasets/ folder does not pass for the package
if not _installed("datasets.builder"):
    collect_ignore.append("src/amreval/hub/ms_amr.py")
if not _installed("huggingface_hub"):
    collect_ignore.append("src/amreval/hub/modelcard.py")


# --------------------------------------------------------------------------- skips that CI turns into failures

#: The environment variable that makes a skip a failure: its value is the prefix (``sys.prefix``) of the
#: environment that has every part the tests need (CI: ``.venv``, with every extra); elsewhere it has no effect,
#: so the core-only environment, where what needs an extra skips by design, runs as before.
NO_SKIP = "AMREVAL_NO_SKIP"

#: The skips that stay skips there, each for a stated reason (the start of the skip's reason -> why).
ALLOWED_SKIPS: dict[str, str] = {
    "public AMR data not found at": "../shared/data and ../shared/reference are not part of a clone",
    "smatchpp (SMATCH++) is not installed": "a benchmark peer (the bench extra), which CI does not install",
    "the reference converter (PyPI docAMR": "a benchmark peer (the bench extra), which CI does not install",
    "spaCy's en_core_web_sm": "a spaCy model, which no extra installs (spacy download en_core_web_sm)",
    "only when Space bundles are served": "runs in .ci/bundle-test, on the bundles in a fresh environment",
    "all tests skipped by +SKIP option": "doctests that show calls on licensed data (AMR 3.0) without running them",
    # the examples of README.md and docs/guides/ (tests/docs/test_examples.py) that cannot run in CI
    "docs example installs packages": "the set-up commands (make demo, make test, pip install) install packages",
    "docs example needs the public AMR data": "../shared/data is not part of a clone",
    "docs example needs licensed data": "AMR 3.0 with MS-AMR (LDC2020T02) is licensed, read from the user's copy",
    "docs example needs a model from the Hugging Face Hub": "CI is offline: a tiny local model stands in where it can",
    "docs example needs a trained AMR parser": "no pretrained AMR parser can be had offline",
    "docs example needs a GPU": "CI has none",
    "docs example needs several processes launched together": "torchrun or accelerate launch around the example",
    "docs example needs a Hugging Face account": "an upload to the Hub needs a login and network",
}


def _no_skip() -> bool:
    prefix = os.environ.get(NO_SKIP)
    return bool(prefix) and Path(prefix).resolve() == Path(sys.prefix).resolve()


def _skip_reason(report: pytest.CollectReport | pytest.TestReport) -> str:
    longrepr = report.longrepr
    return str(longrepr[2]) if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)


def _as_failure(report: pytest.CollectReport | pytest.TestReport) -> None:
    """A skip not on :data:`ALLOWED_SKIPS` becomes a failure that says why."""
    if not report.skipped or hasattr(report, "wasxfail"):
        return
    reason = _skip_reason(report).removeprefix("Skipped: ")
    if not any(reason.startswith(allowed) for allowed in ALLOWED_SKIPS):
        report.outcome = "failed"
        report.longrepr = (
            f"skipped ({reason}), but {NO_SKIP} says this environment ({sys.prefix}) has every part the tests "
            "need: install what is missing, or add the reason to ALLOWED_SKIPS in conftest.py, saying why"
        )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    outcome = yield
    if _no_skip():
        _as_failure(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Iterator[None]:
    outcome = yield
    if _no_skip():
        _as_failure(outcome.get_result())
