"""MFβ: Meaning (S²match of parsed generations) and Form (a language model's preference) of text generated from AMR.

The language models (:mod:`amreval.mfbeta.form`, extra ``lm``) and parsers
(:mod:`amreval.mfbeta.parsers`, extra ``parser``) load only when used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from amreval._lazy import exports

if TYPE_CHECKING:
    from amreval.mfbeta.score import BETAS, MFResult, explain_alignment, mf_beta, mfbeta

__all__ = ["BETAS", "MFResult", "explain_alignment", "mf_beta", "mfbeta"]

__getattr__, __dir__ = exports(
    __name__,
    {
        "score": (
            "BETAS",
            "MFResult",
            "explain_alignment",
            "mf_beta",
            "mfbeta",
        ),
    },
)
