"""MFβ: Meaning (S²match of parsed generations) and Form (a language model's preference) of text generated from AMR.

The language models (:mod:`amreval.mfbeta.form`, extra ``lm``) and parsers
(:mod:`amreval.mfbeta.parsers`, extra ``parser``) load only when used.
"""

from amreval.mfbeta.score import BETAS, MFResult, explain_alignment, mf_beta, mfbeta

__all__ = ["BETAS", "MFResult", "explain_alignment", "mf_beta", "mfbeta"]
