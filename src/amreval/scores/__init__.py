"""Scores on the shared alignment engine: Smatch, S²match, DocSmatch with its coreference
sub-score, the fine-grained scores, the corpus harness they share, and paired comparisons of systems."""

from amreval.scores.compare import compare_systems, paired_test
from amreval.scores.comparison import Comparison, PairedTest
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
