"""Matching: graphs as triples, the alignment problem, its bounds, the best alignment, and the diff under it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from amreval._lazy import exports

if TYPE_CHECKING:
    from amreval.match.alignment import align, align_triples, hill_climb
    from amreval.match.bounds import assignment_bound, lp_bound, solve_milp
    from amreval.match.diff import TripleDiff, triple_diff
    from amreval.match.options import DEFAULT_RESTARTS, DEFAULT_SOLVER, DEFAULT_TIME_LIMIT, SOLVERS, SearchOptions
    from amreval.match.problem import Alignment, Candidates, Problem, build_problem, inverse_mapping
    from amreval.match.triples import EncodedPair, Triples, encode_pair, graph_triples, normalize_constant

__all__ = [
    "DEFAULT_RESTARTS",
    "DEFAULT_SOLVER",
    "DEFAULT_TIME_LIMIT",
    "SOLVERS",
    "Alignment",
    "Candidates",
    "EncodedPair",
    "Problem",
    "SearchOptions",
    "Triples",
    "TripleDiff",
    "align",
    "align_triples",
    "assignment_bound",
    "build_problem",
    "encode_pair",
    "graph_triples",
    "hill_climb",
    "inverse_mapping",
    "lp_bound",
    "normalize_constant",
    "solve_milp",
    "triple_diff",
]

__getattr__, __dir__ = exports(
    __name__,
    {
        "alignment": (
            "align",
            "align_triples",
            "hill_climb",
        ),
        "bounds": (
            "assignment_bound",
            "lp_bound",
            "solve_milp",
        ),
        "diff": (
            "TripleDiff",
            "triple_diff",
        ),
        "options": (
            "DEFAULT_RESTARTS",
            "DEFAULT_SOLVER",
            "DEFAULT_TIME_LIMIT",
            "SOLVERS",
            "SearchOptions",
        ),
        "problem": (
            "Alignment",
            "Candidates",
            "Problem",
            "build_problem",
            "inverse_mapping",
        ),
        "triples": (
            "EncodedPair",
            "Triples",
            "encode_pair",
            "graph_triples",
            "normalize_constant",
        ),
    },
)
