"""Doctests of modules whose optional extra is not installed are not collected (the tests say which extra)."""

from __future__ import annotations

import importlib.util


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


collect_ignore = []
# datasets.builder: this project's own datasets/ folder does not pass for the package
if not _installed("datasets.builder"):
    collect_ignore.append("src/amreval/hub/ms_amr.py")
if not _installed("huggingface_hub"):
    collect_ignore.append("src/amreval/hub/modelcard.py")
