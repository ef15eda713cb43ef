"""Exact search of a whole problem by branch and bound.

A sentence-level problem is small: :func:`branch_and_bound` searches it
exactly, within a limit of subtrees (the algorithm: :mod:`amreval.match.kernels._branch`,
run in C where built). A document's problem is bounded block by block instead
(:mod:`amreval.match.certify.blocks`), each block searched the same way.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from amreval.errors import InputError
from amreval.match.certify.proof import optimality_gap
from amreval.match.kernels import backend
from amreval.match.problem import Problem, check_one_to_one, nodes_to_pairs, pairs_to_nodes

__all__ = ["branch_and_bound", "ExactResult", "BRANCH_NODE_LIMIT", "BRANCH_MAX_PAIRS"]

#: Subtrees one exact search may enter before it gives up (the same count on every machine, so the
#: result does not depend on speed).
BRANCH_NODE_LIMIT = 10_000
#: Problems (or blocks) with more candidate pairs than this are not searched exactly.
BRANCH_MAX_PAIRS = 2_000


class ExactResult(NamedTuple):
    """What :func:`branch_and_bound` found: the best mapping (the one given, the same object, unless one
    is better by more than :func:`amreval.match.certify.proof.optimality_gap`), whether no mapping is better by
    more than that, and the subtrees entered."""

    mapping: np.ndarray
    proven: bool
    nodes: int


def branch_and_bound(problem: Problem, mapping: np.ndarray, *, node_limit: int = BRANCH_NODE_LIMIT) -> ExactResult:
    """Search ``problem`` exactly from the incumbent ``mapping`` (target node per node of A).

    A target that is no candidate of its node counts as none.

    Raises:
        InputError: a mapping that does not give a target (or -1) per node, or is not one-to-one; a
            ``node_limit`` outside ``[0, 2**62)``.
    """
    mapping = np.asarray(mapping)
    if mapping.shape != (problem.n_a,) or mapping.dtype.kind not in "iu":
        raise InputError(f"the mapping must give a target (or -1) for each of the {problem.n_a} nodes")
    check_one_to_one(mapping)
    if not 0 <= node_limit < 2**62:
        raise InputError(f"node_limit must be an integer from 0 below 2**62, got {node_limit}")
    start = nodes_to_pairs(problem, mapping)
    found = backend().branch_and_bound_kernel(
        problem.search_space(), rows=problem.rows(), init=start, gap=optimality_gap(problem.integral),
        node_limit=node_limit,
    )  # fmt: skip
    best = mapping if np.array_equal(found.pairs, start) else pairs_to_nodes(problem, found.pairs)
    return ExactResult(best, found.proven, found.nodes)
