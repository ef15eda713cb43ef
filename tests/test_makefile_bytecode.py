"""The Makefile's environments come with bytecode caches: with ``PYTHONDONTWRITEBYTECODE=1`` (set by many
container images) Python writes none as it imports, so an environment without them compiles every module
it imports in every process (a third of a second of the CLI's start on these machines)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _dry_run(tmp_path: Path, *args: str) -> str:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    venv = tmp_path / "venv"
    done = subprocess.run(
        ["make", "-n", "-C", str(ROOT), *args, f"VENV={venv}", f"CORE_VENV={tmp_path / 'core'}"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_uv_installs_compile_bytecode_and_the_sources_are_compiled(tmp_path: Path) -> None:
    out = _dry_run(tmp_path, "venv", "UV=uv")
    assert "pip install --quiet --compile-bytecode --python" in out
    assert f"{tmp_path / 'venv'}/bin/python -m compileall -q src" in out


def test_pip_installs_compile_the_sources_too(tmp_path: Path) -> None:
    # pip compiles what it installs by default; the editable package's own src/ is compiled after it
    out = _dry_run(tmp_path, "venv", "UV=")
    assert "installing with pip" in out
    assert out.count(f"{tmp_path / 'venv'}/bin/python -m compileall -q src") == 2  # after the install, then the stamp


def test_the_benchmarks_and_the_demo_run_on_compiled_sources(tmp_path: Path) -> None:
    for target in ("bench", "demo"):
        assert "-m compileall -q src" in _dry_run(tmp_path, target, "UV=uv")
