"""Matching: graphs as triples, the best node alignment, and the diff under it."""

from amreval.match.alignment import (
    DEFAULT_RESTARTS,
    DEFAULT_SOLVER,
    DEFAULT_TIME_LIMIT,
    SOLVERS,
    Alignment,
    Problem,
    SearchOptions,
    align,
    align_triples,
    build_problem,
    inverse_mapping,
    lp_bound,
    solve_milp,
)
from amreval.match.diff import TripleDiff, triple_diff
from amreval.match.triples import EncodedPair, Triples, encode_pair, graph_triples, normalize_constant

__all__ = [
    "DEFAULT_RESTARTS",
    "DEFAULT_SOLVER",
    "DEFAULT_TIME_LIMIT",
    "SOLVERS",
    "Alignment",
    "EncodedPair",
    "Problem",
    "SearchOptions",
    "Triples",
    "TripleDiff",
    "align",
    "align_triples",
    "build_problem",
    "encode_pair",
    "graph_triples",
    "inverse_mapping",
    "lp_bound",
    "normalize_constant",
    "solve_milp",
    "triple_diff",
]
