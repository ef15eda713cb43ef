"""Matching: graphs as triples, the alignment problem, its bounds, the best alignment, and the diff under it."""

from __future__ import annotations

from amreval._lazy import attach_stub

__getattr__, __dir__, __all__ = attach_stub(__name__, __file__)
