"""Scores on the shared alignment engine: Smatch, S²match, DocSmatch with its coreference
sub-score, the fine-grained scores, the corpus harness they share, and paired comparisons of systems."""

from __future__ import annotations

from typing import TYPE_CHECKING

from amreval._lazy import exports, shadow

if TYPE_CHECKING:
    from amreval.scores.compare import compare_systems, paired_test
    from amreval.scores.comparison_results import Comparison, PairedTest
    from amreval.scores.docsmatch import DocPairScore, DocsmatchResult, docsmatch, docsmatch_pair
    from amreval.scores.harness import Config, PairScore, SmatchResult, bootstrap_f1, prf
    from amreval.scores.s2match import WordVectors, s2match, s2match_pair
    from amreval.scores.smatch import smatch, smatch_pair

__all__ = [
    "Comparison",
    "Config",
    "DocPairScore",
    "DocsmatchResult",
    "PairScore",
    "PairedTest",
    "SmatchResult",
    "WordVectors",
    "bootstrap_f1",
    "compare_systems",
    "docsmatch",
    "docsmatch_pair",
    "paired_test",
    "prf",
    "s2match",
    "s2match_pair",
    "smatch",
    "smatch_pair",
]

__getattr__, __dir__ = exports(
    __name__,
    {
        "compare": (
            "compare_systems",
            "paired_test",
        ),
        "comparison_results": (
            "Comparison",
            "PairedTest",
        ),
        "docsmatch": (
            "DocPairScore",
            "DocsmatchResult",
            "docsmatch",
            "docsmatch_pair",
        ),
        "harness": (
            "Config",
            "PairScore",
            "SmatchResult",
            "bootstrap_f1",
            "prf",
        ),
        "s2match": (
            "WordVectors",
            "s2match",
            "s2match_pair",
        ),
        "smatch": (
            "smatch",
            "smatch_pair",
        ),
    },
)
shadow(__name__, "smatch", "docsmatch", "s2match")
