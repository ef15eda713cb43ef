"""Metrics named by a path relative to the current directory: ``load_metric`` finds the shipped ones from
anywhere and says what it looked for where it finds nothing; ``evaluate.load`` of the checkout's relative path
fails outside the checkout's root (its own error, which the docs quote)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from amreval import InputError
from amreval.hub import load_metric
from amreval.hub.metrics import metric_source

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = (
    "amreval ships the metrics docsmatch, mfbeta, smatch, each loaded by its name from any directory: "
    'amreval.hub.load_metric("docsmatch")'
)


def message(name: object) -> str:
    with pytest.raises(InputError) as raised:
        metric_source(name)  # what load_metric checks before it imports evaluate
    return str(raised.value)


def test_a_path_that_does_not_exist_is_named_with_the_folder_it_was_taken_from(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    here = f"(a relative path is taken from the current directory, {tmp_path})"
    assert message("metrics/nonexistent") == (
        f"no metric at 'metrics/nonexistent': {tmp_path}/metrics/nonexistent does not exist {here}; {SHIPPED}"
    )
    assert message("./nope") == f"no metric at './nope': {tmp_path}/nope does not exist {here}; {SHIPPED}"
    assert message("nope.py") == f"no metric at 'nope.py': {tmp_path}/nope.py does not exist {here}; {SHIPPED}"
    assert message("/no/such/folder") == f"no metric at '/no/such/folder': /no/such/folder does not exist; {SHIPPED}"
    assert message("bleu") == f"unknown metric 'bleu'; {SHIPPED}"
    assert message("") == f"an empty metric name; {SHIPPED}"
    (tmp_path / "mine").mkdir()
    assert message("mine") == f"'mine' is not a metric folder: {tmp_path}/mine holds no mine.py; {SHIPPED}"
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    assert message(Path("notes.txt")) == (
        f"'notes.txt' is not a metric folder or script: {tmp_path}/notes.txt is neither a folder nor a .py file; "
        f"{SHIPPED}"
    )
    # the checkout's paths, typed here, are the shipped folders (they do not exist from here)
    for name in ("docsmatch", "metrics/docsmatch", "./metrics/docsmatch/", "metrics/docsmatch/docsmatch.py"):
        assert metric_source(name) == ROOT / "metrics" / "docsmatch", name


def test_evaluate_load_of_the_relative_path_fails_outside_the_checkout_root(tmp_path):
    pytest.importorskip("evaluate", reason="the hub extra (evaluate, datasets) is not installed")
    script = (
        "import evaluate\n"
        "try:\n"
        "    evaluate.load('metrics/docsmatch')\n"
        "except FileNotFoundError as exc:\n"
        "    print(exc)\n"
        "from amreval.hub import load_metric\n"
        "print(type(load_metric('metrics/docsmatch')).__name__)\n"
    )
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"Couldn't find a module script at {tmp_path}/metrics/docsmatch/docsmatch.py. "
        "Module 'metrics/docsmatch' doesn't exist on the Hugging Face Hub either.",
        "Docsmatch",
    ]


def test_load_metric_says_the_same_before_it_needs_evaluate(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match=r"^no metric at 'metrics/nonexistent': "):
        load_metric("metrics/nonexistent")
