"""Scores on the shared alignment engine: Smatch, S²match, DocSmatch with its coreference
sub-score, the fine-grained scores, the corpus harness they share, and paired comparisons of systems.

Each corpus score is in its module (``from amreval.scores.smatch import smatch``, likewise
``docsmatch`` and ``s2match``; the top-level package exports all three); the rest is exported here.
"""

from __future__ import annotations

from amreval._lazy import attach_stub

__getattr__, __dir__, __all__ = attach_stub(__name__, __file__)
