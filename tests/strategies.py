"""Hypothesis strategies shared by the tests: random triples of a graph pair and the problems built from them,
and random documents with dense coreference drawn from a seeded generator; and the check of a search's
result against the integer program's optimum on them (:func:`check_against_optimum`).

The tests folder is on ``sys.path`` (pytest's ``pythonpath`` option), so a test module imports these with
``from strategies import problems, triples``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import strategies as st

from amreval.match.problem import Candidates, Problem, build_problem
from amreval.match.triples import Triples, encode_pair


@st.composite
def triples(
    draw: st.DrawFn,
    max_nodes: int = 8,
    concepts: str = "aabc",
    *,
    min_nodes: int = 1,
    attributes: bool = False,
    relations_per_node: int = 3,
) -> Triples:
    """The triples of a random graph of ``min_nodes`` to ``max_nodes`` nodes named ``v0``, ``v1`` ...

    Each node's concept is drawn from ``concepts`` (a letter repeated is drawn more often), the first node is the
    top, and up to ``relations_per_node`` times as many relations as nodes (``r`` or ``s``, between any two nodes,
    loops too) are drawn, those drawn twice kept once. With ``attributes``, up to three ``polarity`` or ``quant``
    attributes of value ``x`` are drawn as well.
    """
    n = draw(st.integers(min_nodes, max_nodes))
    names = [draw(st.sampled_from(concepts)) for _ in range(n)]
    attrs: list[tuple[str, int, str]] = []
    relations: list[tuple[str, int, int]] = []
    if n:
        attrs.append(("TOP", 0, names[0]))
        if attributes:
            for _ in range(draw(st.integers(0, 3))):
                attrs.append((draw(st.sampled_from(["polarity", "quant"])), draw(st.integers(0, n - 1)), "x"))
        for _ in range(draw(st.integers(0, relations_per_node * n))):
            relations.append(
                (draw(st.sampled_from(["r", "s"])), draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1)))
            )
    return Triples([f"v{k}" for k in range(n)], names, list(dict.fromkeys(attrs)), list(dict.fromkeys(relations)))


@st.composite
def problems(
    draw: st.DrawFn,
    graphs: st.SearchStrategy[Triples] | None = None,
    *,
    last_group: int = 3,
    weighted: bool = True,
) -> Problem:
    """The matching problem of two random graphs (drawn from ``graphs``, by default :func:`triples`).

    Some problems put every node in one to three sentence groups among ``0`` to ``last_group`` (a
    coreference node in several), a node matching only nodes that share a group with it. With ``weighted``,
    the second graph's concepts and relations may get graded weights (S²match-like: fractions, not whole
    numbers).
    """
    graphs = triples() if graphs is None else graphs
    a, b = draw(graphs), draw(graphs)
    kw: dict = {}
    if draw(st.booleans()):
        groups = st.lists(st.integers(0, last_group), min_size=1, max_size=3, unique=True).map(sorted)
        kw["allowed"] = Candidates.from_lists([draw(groups) for _ in a.concepts], [draw(groups) for _ in b.concepts])
    if weighted and draw(st.booleans()):
        weights = st.sampled_from([0.25, 0.5, 1.0, 0.7])
        n_b, n_r = len(b.concepts), len(b.relations)
        kw["b_weights"] = (
            np.array([draw(weights) for _ in range(n_b)]),
            None,
            np.array([draw(weights) for _ in range(n_r)]),
        )
    return build_problem(encode_pair(a, b), **kw)


def random_document(rng: random.Random, weights: str) -> Problem:
    """Two random graphs over 2-4 sentences; a third of the nodes in two or three (dense coreference)."""
    n_sentences = rng.randint(2, 4)
    sides = []
    for _ in range(2):
        n = rng.randint(3, 10)
        concepts = ["top"] + [rng.choice("aabbc") for _ in range(n - 1)]
        groups = [[0]] + [
            sorted(rng.sample(range(1, n_sentences + 1), rng.choice([1, 1, 2, 2, 3]) if n_sentences > 2 else 2))
            if rng.random() < 0.35
            else [rng.randint(1, n_sentences)]
            for _ in range(n - 1)
        ]
        relations = [("snt", 0, k) for k in range(1, n) if rng.random() < 0.3]
        for _ in range(rng.randint(n, 3 * n)):
            relations.append((rng.choice("rs"), rng.randrange(1, n), rng.randrange(1, n)))
        triples = Triples([f"v{k}" for k in range(n)], concepts, [("TOP", 0, "top")], list(dict.fromkeys(relations)))
        sides.append((triples, groups))
    (a, ga), (b, gb) = sides
    kw: dict = {}
    if weights == "tie-break":
        # DocSmatch's coreference bonus on some of B's instances and relations
        eps = 1.0 / (2 * (rng.randint(1, 6) + 1))
        kw["b_weights"] = (
            np.array([1.0 + eps * (rng.random() < 0.4) for _ in b.concepts]),
            None,
            np.array([1.0 + eps * (rng.random() < 0.4) for _ in b.relations]),
        )
    elif weights == "graded":
        kw["b_weights"] = (np.array([rng.choice([0.25, 0.5, 1.0, 0.7]) for _ in b.concepts]), None, None)
    return build_problem(encode_pair(a, b), allowed=Candidates.from_lists(ga, gb), **kw)


def check_against_optimum(
    problem: Problem,
    start: float,
    found: tuple[np.ndarray, float, float | None, bool],
    optimum: float,
    *,
    bound_tolerance: float = 1e-9,
) -> None:
    """A search's result ``(mapping, score, bound, proven)`` from a start scoring ``start``, against the
    optimum: the mapping is worth the score, which lies between the start's and the optimum; the bound (where
    there is one) is no lower than the optimum (within ``bound_tolerance``: an LP's bound is a float); a
    proof only of the optimum."""
    mapping, score, bound, proven = found
    assert problem.value(mapping) == pytest.approx(score, abs=1e-9)
    assert start - 1e-9 <= score <= optimum + 1e-9
    if bound is not None:
        assert bound >= optimum - bound_tolerance
    if proven:
        assert score == pytest.approx(optimum, abs=1e-9)
