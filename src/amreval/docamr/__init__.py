"""DocAMR: MS-AMR reading and conversion of sentence AMRs plus coreference (MS-AMR or text) to document graphs."""

from __future__ import annotations

from amreval._lazy import attach_stub

__getattr__, __dir__, __all__ = attach_stub(__name__, __file__)
