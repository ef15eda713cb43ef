"""Scores on the shared alignment engine: Smatch, S²match, DocSmatch with its coreference
sub-score, the fine-grained scores, and the corpus harness they share."""

from amreval.scores.docsmatch import DocPairScore, DocsmatchResult, docsmatch, docsmatch_pair
from amreval.scores.harness import Config, PairScore, SmatchResult, bootstrap_f1, prf
from amreval.scores.s2match import WordVectors, s2match, s2match_pair
from amreval.scores.smatch import smatch, smatch_pair

__all__ = [
    "Config",
    "DocPairScore",
    "DocsmatchResult",
    "PairScore",
    "SmatchResult",
    "WordVectors",
    "bootstrap_f1",
    "docsmatch",
    "docsmatch_pair",
    "prf",
    "s2match",
    "s2match_pair",
    "smatch",
    "smatch_pair",
]
