"""The LP bound by pricing: always a valid bound, equal to the LP's where it ends, and what it proves."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amreval.match import alignment as alignment_module
from amreval.match.alignment import align
from amreval.match.certify import pricing as pricing_module
from amreval.match.certify.bounds import lp_relaxation, solve_milp
from amreval.match.certify.pricing import priced_lp
from amreval.match.options import SearchOptions
from amreval.match.problem import Candidates, build_problem, pairs_to_nodes
from amreval.match.triples import Triples, encode_pair

from strategies import problems, random_document, triples

# few concepts and roles, many relations: many pairs with no unary weight that only terms keep
FEW_CONCEPTS = triples(max_nodes=9, concepts="aab")


@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(problems(FEW_CONCEPTS, last_group=2, weighted=False), st.data())
def test_the_priced_bound_is_never_below_the_lp_and_its_rounding_is_a_mapping(problem, data):
    lp, _ = lp_relaxation(problem)
    optimum = solve_milp(problem)
    assert optimum.optimal
    # any incumbent: none, or a random one-to-one mapping given as pair indices
    incumbent = None
    if data.draw(st.booleans()) and problem.n_pairs:
        chosen = data.draw(st.lists(st.integers(0, problem.n_pairs - 1), max_size=problem.n_a, unique=True))
        incumbent = np.full(problem.n_a, -1, dtype=np.int64)
        used: set[int] = set()
        for p in chosen:
            i, j = int(problem.pair_src[p]), int(problem.pair_tgt[p])
            if incumbent[i] < 0 and j not in used:
                incumbent[i] = p
                used.add(j)
    priced = priced_lp(problem, incumbent, time_limit=30)
    # a dual solution of the whole LP: never below the LP's optimum, so never below the optimum
    assert priced.bound >= lp - 1e-6
    assert priced.bound >= optimum.score - 1e-6
    # it ends only when nothing left out can help: then it is the LP's own value
    assert priced.bound == pytest.approx(lp, abs=1e-6)
    if priced.pairs is not None:
        mapping = pairs_to_nodes(problem, priced.pairs)
        assert problem.value(mapping) <= optimum.score + 1e-9


@settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(problems(FEW_CONCEPTS, last_group=2, weighted=False), st.integers(0, 2**31))
def test_certified_search_through_pricing_reaches_the_optimum(monkeypatch, problem, seed):
    monkeypatch.setattr(alignment_module, "PRICED_LP_MIN_PAIRS", 0)
    optimum = solve_milp(problem)
    found = align(problem, SearchOptions("exact", seed=seed))
    assert found.optimal and found.score == optimum.score
    assert problem.value(found.mapping) == found.score


def test_a_hand_checked_case_where_pricing_adds_a_pair():
    # A: x -r-> y ; B: x -r-> y. The pair y->y has unary weight 1, the pair x->x too; the TOP
    # attribute and the relation make the optimum 4 (2 instances, TOP, the relation).
    a = Triples(["a", "b"], ["x", "y"], [("TOP", 0, "x")], [("r", 0, 1)])
    b = Triples(["p", "q"], ["x", "y"], [("TOP", 0, "x")], [("r", 0, 1)])
    problem = build_problem(encode_pair(a, b))
    priced = priced_lp(problem, None, time_limit=10)
    assert priced.bound == 4.0
    assert pairs_to_nodes(problem, priced.pairs).tolist() == [0, 1]
    # relations only between nodes of other concepts: x->y and y->x have no unary weight
    a = Triples(["a", "b"], ["x", "x"], [], [("r", 0, 1)])
    b = Triples(["p", "q"], ["y", "y"], [], [("r", 0, 1)])
    problem = build_problem(encode_pair(a, b))
    assert problem.n_pairs == 2 and problem.pair_u.tolist() == [0.0, 0.0]
    priced = priced_lp(problem, None, time_limit=10)
    # nothing kept at first; pricing must bring both pairs in to see the relation's match
    assert priced.bound == 1.0 and priced.rounds == 2
    assert pairs_to_nodes(problem, priced.pairs).tolist() == [0, 1]


@st.composite
def documents(draw):
    """Larger problems shaped like documents: sentence groups, a few nodes in many of them (coreference)."""
    a, b = draw(triples(max_nodes=24, concepts="aab")), draw(triples(max_nodes=24, concepts="aab"))

    def groups_of(n):
        out = []
        for _ in range(n):
            if draw(st.integers(0, 5)) == 0:  # a coreference node in many sentences
                out.append(sorted(draw(st.lists(st.integers(0, 5), min_size=2, max_size=6, unique=True))))
            else:
                out.append([draw(st.integers(0, 5))])
        return out

    allowed = Candidates.from_lists(groups_of(len(a.concepts)), groups_of(len(b.concepts)))
    return build_problem(encode_pair(a, b), allowed=allowed)


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_the_priced_bound_equals_the_lp_on_document_shaped_problems(problem):
    lp, _ = lp_relaxation(problem)
    priced = priced_lp(problem, None, time_limit=30)
    assert priced.bound == pytest.approx(lp, abs=1e-6)
    assert priced.pairs is not None
    assert problem.value(pairs_to_nodes(problem, priced.pairs)) <= priced.bound + 1e-9


class _Recorded:
    """A HiGHS solver that records the simplex strategy it is told to use (the rest passed through)."""

    def __init__(self, h, strategies):
        self._h, self._strategies = h, strategies

    def setOptionValue(self, name, value):
        if name == "simplex_strategy":
            self._strategies.append(value)
        return self._h.setOptionValue(name, value)

    def __getattr__(self, name):
        return getattr(self._h, name)


def test_rounds_started_with_the_primal_simplex_reach_the_same_lp(monkeypatch):
    # every warm-started round with few new columns on the primal simplex (the rule of large LPs)
    from amreval.match.certify import bounds as bounds_module

    strategies: list[int] = []
    solver = bounds_module.highs_solver
    monkeypatch.setattr(bounds_module, "highs_solver", lambda *a, **k: _Recorded(solver(*a, **k), strategies))
    rng = random.Random(3)
    problems_ = [random_document(rng, ["whole", "tie-break", "graded"][k % 3]) for k in range(60)]
    default = [priced_lp(p, None, time_limit=30) for p in problems_]
    # these LPs are small (under PRIMAL_MIN_COLUMNS columns): every round after the first is told the default
    # (the dual simplex), 64 of them
    assert strategies == [1] * 64
    del strategies[:]
    monkeypatch.setattr(pricing_module, "PRIMAL_MIN_COLUMNS", 0)
    monkeypatch.setattr(pricing_module, "PRIMAL_SHARE", 1.0)
    warm = later = 0
    for problem, before in zip(problems_, default):
        lp, _ = lp_relaxation(problem)
        priced = priced_lp(problem, None, time_limit=30)
        assert priced.bound == pytest.approx(lp, abs=1e-6) == pytest.approx(before.bound, abs=1e-6)
        warm += priced.rounds > 1
        later += priced.rounds - 1
    # the rounds after the first start from the last basis on 51 of the 60, every one on the primal simplex
    assert warm == 51
    assert strategies == [pricing_module._PRIMAL_SIMPLEX] * later and later == 68
