"""AMR graphs: the graph model and PENMAN reading (files with ``read_*``, text with ``loads_*``)."""

from __future__ import annotations

from amreval._lazy import attach_stub

__getattr__, __dir__, __all__ = attach_stub(__name__, __file__)
