"""MFβ: Meaning (S²match of parsed generations) and Form (a language model's preference) of text generated from AMR.

The language models (:mod:`amreval.mfbeta.form`, extra ``lm``) and parsers
(:mod:`amreval.mfbeta.parsers`, extra ``parser``) load only when used.
"""

from __future__ import annotations

from amreval._lazy import attach_stub

__getattr__, __dir__, __all__ = attach_stub(__name__, __file__)
