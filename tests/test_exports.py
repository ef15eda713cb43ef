"""The packages' names load their modules on first use: every name resolves, to the one object."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

PACKAGES = [
    "amreval",
    "amreval.amr",
    "amreval.docamr",
    "amreval.match",
    "amreval.mfbeta",
    "amreval.scores",
    "amreval.hub",
]


@pytest.mark.parametrize("name", PACKAGES)
def test_every_exported_name_resolves_and_is_listed(name):
    package = importlib.import_module(name)
    for export in package.__all__:
        value = getattr(package, export)
        assert value is not None, export
        assert export in dir(package)
        # the same object its own module holds (not a module that happens to share the name)
        home = getattr(value, "__module__", None)
        if callable(value) and home and home.startswith("amreval."):
            assert getattr(importlib.import_module(home), export) is value, export
    with pytest.raises(AttributeError, match=f"module '{name}' has no attribute 'no_such_name'"):
        package.no_such_name  # noqa: B018


def _fresh(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def test_a_function_named_like_its_module_is_the_function_whichever_is_imported_first():
    code = (
        "import amreval.scores.smatch, amreval.scores.docsmatch, amreval.mfbeta.score\n"
        "from amreval.scores import smatch, docsmatch, s2match\n"
        "from amreval import mfbeta\n"
        "import amreval\n"
        "print(*(type(f).__name__ for f in (smatch, docsmatch, s2match, mfbeta, amreval.mfbeta, amreval.smatch)))"
    )
    assert _fresh(code).split() == ["function"] * 6


def test_import_amreval_loads_no_score_reader_or_solver():
    code = "import sys, amreval; print(' '.join(sorted(sys.modules)))"
    loaded = set(_fresh(code).split())
    for module in ("amreval.scores", "amreval.docamr", "amreval.mfbeta.score", "amreval.match.alignment"):
        assert module not in loaded
    for module in ("penman", "highspy", "sqlite3", "xml.etree.ElementTree", "multiprocessing", "numpy"):
        assert module not in loaded
