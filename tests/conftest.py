"""Shared fixtures: the public AMR data in ../shared/data, when it is there."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DATA = SHARED / "data"
REFERENCE = SHARED / "reference"


def need(path: Path) -> Path:
    """Return ``path`` or skip the test with a message saying what is missing."""
    if not path.exists():
        pytest.skip(f"public AMR data not found at {path} (expected ../shared/data beside the project)")
    return path


@pytest.fixture
def data_dir() -> Path:
    return need(DATA)


@pytest.fixture
def reference_dir() -> Path:
    return need(REFERENCE)
