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


def test_listing_shows_the_exports_not_the_machinery_and_subpackages_load_when_asked():
    code = (
        "import amreval\n"
        "names = dir(amreval)\n"
        "print(all(n in names for n in amreval.__all__), [n for n in ('exports', 'shadow', 'TYPE_CHECKING',"
        " 'annotations') if n in names])\n"
        "print(type(amreval.report).__name__, type(amreval.scores.compare_systems).__name__)"
    )
    assert _fresh(code).splitlines() == ["True []", "module function"]


def test_the_smatch_command_loads_only_what_it_runs():
    from pathlib import Path

    examples = Path(__file__).resolve().parents[1] / "examples"
    code = (
        "import io, sys, contextlib\n"
        "from amreval.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['smatch', '-f', {str(examples / 'pred.amr')!r}, {str(examples / 'gold.amr')!r}])\n"
        "print(' '.join(sorted(sys.modules)))"
    )
    loaded = set(_fresh(code).split())
    assert "amreval.scores.smatch" in loaded and "amreval.match.blocks" in loaded
    for module in (
        "amreval.docamr",
        "amreval.mfbeta",
        "amreval.scores.compare",
        "amreval.scores.s2match",
        "amreval.scores.docsmatch",
        "penman",
        "highspy",
        "scipy",
    ):
        assert module not in loaded, module


def test_the_command_list_is_the_parser_s():
    from amreval.cli import _COMMANDS, build_parser

    parser = build_parser()
    (commands,) = [a for a in parser._actions if a.dest == "command"]
    assert tuple(commands.choices) == _COMMANDS


def test_a_name_that_is_no_module_is_an_attribute_error():
    import amreval

    assert not hasattr(amreval, "nope.x") and not hasattr(amreval, "nope")
