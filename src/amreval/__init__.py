"""amreval: evaluation of (document-level) Abstract Meaning Representation.

The core package reads AMR (:mod:`amreval.amr`), turns graphs into triples and
finds the best node alignment (:mod:`amreval.match`), and computes every score
(:mod:`amreval.scores`); DocAMR conversion (:mod:`amreval.docamr`), MFβ
(:mod:`amreval.mfbeta`), the Hub side (:mod:`amreval.hub`) and pictures
(:mod:`amreval.report`) stand beside them. The ``evaluate`` metrics, the
datasets builder and the command line are thin doors into it.

Example:
    >>> from amreval import smatch
    >>> round(smatch(["(w / want-01 :ARG0 (b / boy))"], ["(w / want-01 :ARG0 (g / girl))"]).f1, 4)
    0.75
"""

from __future__ import annotations

from amreval._lazy import attach_stub

__getattr__, __dir__, __all__ = attach_stub(__name__, __file__)
