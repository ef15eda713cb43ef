"""Every code block of README.md and docs/guides/*.md runs, in order, as a reader would run it.

Blocks are read with Sybil: ``python`` blocks are executed (those written as ``>>>`` sessions are doctests, their
shown output checked), one namespace per page; ``console`` blocks are shell sessions whose ``$`` lines run in
bash and whose shown output is compared with what they print (``...`` matches anything); ``bash`` blocks run
whole under ``set -euo pipefail``. Everything runs from a copy of the checkout's bundled files (``examples/``,
``metrics/``, ``datasets/``), so what a block writes stays out of the checkout, with ``amreval`` on ``PATH``
(this Python's own ``bin``).

A block that cannot run here is marked before it with ``<!-- skip: next "REASON" -->``; REASON must be one of
:data:`SKIP_REASONS` (each allowed as a skip in CI by the root conftest's ``ALLOWED_SKIPS``).
"""

from __future__ import annotations

import doctest
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import unittest
from pathlib import Path

import pytest

sybil = pytest.importorskip("sybil", reason="the docs extra (sybil) is not installed")

from sybil import Example, Sybil
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser, SkipParser

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs" / "guides").glob("*.md"))]
#: What a run of the examples gets of the checkout: the bundled sample files, the metric folders (so that
#: ``evaluate.load("metrics/docsmatch")`` works from its root) and the dataset card.
BUNDLED = ("examples", "metrics", "datasets")

#: Why a block may be skipped: what it needs that a clone and this machine do not give.
SKIP_REASONS = {
    "docs example installs packages (make demo, make test, pip install)",
    "docs example needs the public AMR data of ../shared/data",
    "docs example needs licensed data (AMR 3.0 with MS-AMR, LDC2020T02)",
    "docs example needs a model from the Hugging Face Hub (network)",
    "docs example needs a trained AMR parser (an amrlib model folder)",
    "docs example needs a GPU",
    "docs example needs several processes launched together (torchrun, accelerate launch)",
    "docs example needs a Hugging Face account (an upload to the Hub)",
}
#: The languages a block may be written in: the three that run, and text (output shown on its own).
LANGUAGES = {"python", "console", "bash", "text"}

_FENCE = re.compile(r"^```(\S*)", re.MULTILINE)
_SKIP = re.compile(r'<!-- skip: next "(?P<reason>[^"]*)" -->')
_CHECKER = doctest.OutputChecker()


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    # a PYTHONPATH of this run (a checkout's src) made absolute: the examples run from another folder
    paths = [str(Path(p).resolve()) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    if paths:
        env["PYTHONPATH"] = os.pathsep.join(paths)
    env.update(AMREVAL_PROGRESS="0", HF_HUB_OFFLINE="1", NO_COLOR="1", COLUMNS="200")
    return env


def _run(script: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=cwd,
        env=_environment(),
        capture_output=True,
        text=True,
        timeout=300,
    )


def _sessions(source: str) -> list[tuple[str, str]]:
    """A console block's commands, each with the output shown after it."""
    sessions: list[tuple[list[str], list[str]]] = []
    continued = False
    for line in source.splitlines():
        if continued:
            sessions[-1][0].append(line)
        elif line.startswith("$ "):
            sessions.append(([line[2:]], []))
        elif sessions:
            sessions[-1][1].append(line)
        else:
            raise ValueError(f"a console block starts with output, not with a $ line: {line!r}")
        continued = line.endswith("\\")
    return [("\n".join(command), "\n".join(output)) for command, output in sessions]


def _normal(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines()) + "\n"


def evaluate_console(example: Example) -> str | None:
    cwd = example.namespace["__checkout__"]
    for command, shown in _sessions(example.parsed):
        done = _run(command, cwd)
        if done.returncode != 0:
            return f"$ {command}\nexit status {done.returncode}\n{done.stdout}{done.stderr}"
        if shown.strip() and not _CHECKER.check_output(_normal(shown), _normal(done.stdout), doctest.ELLIPSIS):
            return f"$ {command}\nshown:\n{_normal(shown)}printed:\n{_normal(done.stdout)}"
    return None


def evaluate_bash(example: Example) -> str | None:
    done = _run(example.parsed, example.namespace["__checkout__"])
    if done.returncode != 0:
        return f"exit status {done.returncode}\n{done.stdout}{done.stderr}"
    return None


_SYBIL = Sybil(
    parsers=[
        PythonCodeBlockParser(doctest_optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE),
        CodeBlockParser("console", evaluate_console),
        CodeBlockParser("bash", evaluate_bash),
        SkipParser(),
    ],
    patterns=["*.md"],
)
_DOCUMENTS = {page: _SYBIL.parse(page) for page in PAGES}
_EXAMPLES = {page: list(document) for page, document in _DOCUMENTS.items()}
_DONE: dict[Path, int] = {}


def _blocks() -> list[pytest.param]:
    params = []
    for page, examples in _EXAMPLES.items():
        for index, example in enumerate(examples):
            if isinstance(example.parsed, tuple):  # a skip directive
                continue
            name = f"{page.relative_to(ROOT)}:{example.line}"
            params.append(pytest.param(page, index, id=name))
    return params


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    """A folder holding copies of the checkout's bundled files, where the examples run.

    It also holds ``gpt2/``, a tiny random GPT-2 saved as ``hf download gpt2 --local-dir ./gpt2`` saves the real
    one (where the lm extra is installed): it stands in for the language model folder the MFβ examples name.
    """
    folder = tmp_path_factory.mktemp("checkout")
    for name in BUNDLED:
        shutil.copytree(ROOT / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    if importlib.util.find_spec("torch") and importlib.util.find_spec("transformers"):
        texts = (ROOT / "metrics" / "mfbeta" / "examples").glob("*.txt")
        lines = [line for path in texts for line in path.read_text(encoding="utf-8").splitlines()]
        request.getfixturevalue("make_tiny_gpt2")(folder / "gpt2", lines * 4)
    return folder


@pytest.mark.parametrize(("page", "index"), _blocks())
def test_example(page: Path, index: int, checkout: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(checkout)
    for key, value in _environment().items():
        if key not in ("PATH",):
            monkeypatch.setenv(key, value)
    examples = _EXAMPLES[page]
    _DOCUMENTS[page].namespace["__checkout__"] = checkout
    # the blocks before this one run first (once), as a reader runs a page from the top
    for before in examples[_DONE.get(page, 0) : index]:
        try:
            before.evaluate()
        except unittest.SkipTest:
            pass
    _DONE[page] = index + 1
    examples[index].evaluate()


def test_every_block_is_run_or_skipped_for_a_known_reason() -> None:
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        languages = _FENCE.findall(text)[::2]  # opening fences (every block is closed by a bare fence)
        assert set(languages) <= LANGUAGES, f"{page.name}: blocks in {set(languages) - LANGUAGES}"
        for found in _SKIP.finditer(text):
            assert found["reason"] in SKIP_REASONS, f"{page.name}: unknown skip reason {found['reason']!r}"
        assert "skip: next" not in _SKIP.sub("", text), f"{page.name}: a skip directive without a known reason"
