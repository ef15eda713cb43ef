"""The documentation's pages keep what the project promises of them.

The training-loop guide shows ``examples/training_loop.py`` as it is; every row of the bad-input catalogue
(``docs/reference/bad-input.md``) names tests that exist; the command-line reference, written at build time by
``docs/hooks/cli_reference.py``, has every command and every option of the parsers; the README stays a short
entry point.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def _hook(name: str):
    spec = importlib.util.spec_from_file_location(f"docs_hook_{name}", DOCS / "hooks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_training_guide_shows_the_example_as_it_is():
    guide = (DOCS / "guides" / "training.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(\"\"\"Train a sequence-to-sequence AMR parser.*?)```", guide, re.S)
    assert block is not None
    assert block.group(1) == (ROOT / "examples" / "training_loop.py").read_text(encoding="utf-8")


def test_every_row_of_the_bad_input_catalogue_names_a_test_that_exists():
    page = (DOCS / "reference" / "bad-input.md").read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("| ") and not line.startswith("| Input")]
    named = [name for row in rows for name in re.findall(r"`(tests/[^`:]+(?:::\w+)?)`", row.rsplit(" | ", 1)[1])]
    assert len(rows) == 91 and len(named) == 159
    for name in named:
        path, _, test = name.partition("::")
        assert (ROOT / path).is_file(), name
        assert not test or f"def {test}(" in (ROOT / path).read_text(encoding="utf-8"), name


def test_the_command_line_reference_has_every_command_and_option():
    from amreval.cli import COMMANDS, build_parser

    text = _hook("cli_reference").cli_reference()
    [commands] = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    for name in COMMANDS:
        assert f"\n## amreval {name}\n" in text, name
        for action in commands.choices[name]._actions:
            if action.help == argparse.SUPPRESS:  # an old spelling kept working, listed on the settings page
                continue
            for option in action.option_strings:
                assert f"<code>{option}" in text or f", {option}" in text, (name, option)


def test_the_readme_is_a_short_entry_point_into_the_docs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    for link in re.findall(r"\]\(((?:docs/|CHANGELOG)[^)#]*)", readme):
        assert (ROOT / link).is_file(), link
    assert "../shared" not in readme
