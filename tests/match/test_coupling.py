"""The coupled search of documents: blocks made to agree reach the integer program's optimum."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amreval import InputError, loads_graph
from amreval.match import alignment as alignment_module
from amreval.match.alignment import align, hill_climb
from amreval.match.certify import coupling as coupling_module
from amreval.match.certify.bounds import solve_milp
from amreval.match.certify.coupling import couple, coupled_search
from amreval.match.certify.proof import weight_quantum
from amreval.match.problem import Candidates, build_problem
from amreval.match.triples import Triples, encode_pair, graph_triples
from amreval.scores.docsmatch import docsmatch_pair, sentence_constraint

from strategies import check_against_optimum, random_document

# one boy in two sentences on the predicted side, a boy in each sentence on the gold side
PRED = "(d / document :snt1 (g / go-02 :ARG0 (e / boy)) :snt2 (s / sleep-01 :ARG0 e))"
GOLD = "(d / document :snt1 (g / go-02 :ARG0 (b / boy)) :snt2 (s / sleep-01 :ARG0 (c / boy)))"


def document_problem(pred: str, gold: str):
    p, g = loads_graph(pred), loads_graph(gold)
    a, b = graph_triples(p), graph_triples(g)
    return build_problem(encode_pair(a, b), allowed=sentence_constraint(p, g, a, b))


def test_a_hand_checked_coupled_search():
    problem = document_problem(PRED, GOLD)
    climb = hill_climb(problem, restarts=0)
    # 4 instances, TOP, :snt1, :snt2 and one :ARG0 (e can be b or c, not both): 8
    assert (climb.score, climb.mapping.tolist()) == (8.0, [0, 1, 2, 3])
    # pairs d->d (2: instance and TOP), g->g, e->b, e->c, s->s (1 each). Blocks: the top's (0), sentence 1
    # (g->g, e->b, e->c: e's first sentence) and sentence 2 (s->s, c's block, so e->c again). d->d has
    # copies in all three (its :snt terms lie in the sentences), e->c in 1 and 2: shares 2/3 and 1/2.
    # Round 1: block 0 takes d->d (2/3); block 1 d->d, g->g, e->b, :snt1, :ARG0 (2/3 + 4); block 2
    # d->d, s->s, e->c, :snt2, :ARG0 (2/3 + 3.5): 9.5, and blocks 1 and 2 disagree on e->c
    first = couple(problem, climb.mapping, rounds=1)
    assert (first.proven, first.status, first.rounds, first.score) == (False, "rounds", 1, 8.0)
    assert first.bound == pytest.approx(9.5)
    assert first.mapping is climb.mapping  # nothing better found: the same object
    # the step: 1.5 * (9.5 - 8) / (0.5^2 + 0.5^2) = 4.5, times -0.5 and +0.5: e->c's shares become 2.75 in
    # block 1 and -1.75 in block 2. Round 2: block 1 takes e->c (2.75 > 2, e->b with its :ARG0), block 2
    # leaves it (-1.75 + 1 < 0): 2/3 + (2/3 + 1 + 1 + 2.75) + (2/3 + 1 + 1) = 8.75, whose whole part
    # proves 8
    found = couple(problem, climb.mapping)
    assert (found.proven, found.status, found.rounds, found.score, found.climbs) == (True, "bound", 2, 8.0, 1)
    assert found.bound == pytest.approx(8.75)
    assert solve_milp(problem).score == 8.0


def test_the_weights_quantum():
    g = graph_triples(loads_graph("(a / x :r (b / y))"))
    pair = encode_pair(g, g)
    assert weight_quantum(build_problem(pair)) == 1.0
    # DocSmatch's tie-break: 1 + eps with eps = 1 / (2 (n + 1)), here n = 3 coreference items
    eps = 1.0 / 8
    assert weight_quantum(build_problem(pair, b_weights=(np.array([1 + eps, 1.0]), None, None))) == eps
    # graded weights: tenths, quarters (1.5 and 0.75 with the TOP's 1), and one with no quantum
    assert weight_quantum(build_problem(pair, b_weights=(np.array([0.7, 1.0]), None, None))) == 0.1
    assert weight_quantum(build_problem(pair, b_weights=(np.array([0.5, 0.75]), None, None))) == 0.25
    assert weight_quantum(build_problem(pair, b_weights=(np.array([2**-0.5, 1.0]), None, None))) == 0.0


def test_bad_calls_are_input_errors():
    g = graph_triples(loads_graph("(a / x :r (b / y))"))
    plain = build_problem(encode_pair(g, g))
    with pytest.raises(InputError, match="needs a problem with groups"):
        couple(plain, np.array([0, 1]))
    problem = document_problem(PRED, GOLD)
    with pytest.raises(InputError, match="rounds and subtrees must be >= 0, got -1 and 5"):
        couple(problem, np.full(4, -1), rounds=-1, subtrees=5)
    with pytest.raises(InputError, match="a target .or -1. for each of the 4 nodes"):
        couple(problem, np.array([0, 1]))
    with pytest.raises(InputError, match="not one-to-one"):
        couple(problem, np.array([0, 1, 2, 2]))
    # a target that is no candidate counts as none (e -> s is none, s has none): 2 instances, TOP, :snt1
    assert couple(problem, np.array([0, 1, 3, -1]), rounds=0).score == 4.0
    # no subtrees at all: no round ends, no bound
    found = couple(problem, np.full(4, -1), subtrees=0)
    assert (found.proven, found.bound, found.status, found.rounds) == (False, None, "subtrees", 1)


def test_a_block_too_large_ends_the_search_before_it_starts(monkeypatch):
    from amreval.match.certify import coupling

    # sentence 1's block has four copies (d->d, g->g, e->b, e->c), sentence 2's three
    monkeypatch.setattr(coupling, "BLOCK_MAX_COPIES", 3)
    problem = document_problem(PRED, GOLD)
    start = np.array([0, 1, 2, 3])
    found = couple(problem, start)
    assert (found.proven, found.bound, found.status, found.rounds, found.subtrees) == (False, None, "large", 0, 0)
    assert found.mapping is start
    monkeypatch.setattr(coupling, "BLOCK_MAX_COPIES", 4)
    assert couple(problem, start).proven


def _refuse(*args, **kwargs):
    raise AssertionError("the LP relaxation and the integer program are not needed")


def test_align_proves_a_document_by_the_coupled_search(monkeypatch):
    for name in ("assignment_bound", "solve_lp", "solve_milp"):
        monkeypatch.setattr(alignment_module, name, _refuse)
    found = align(document_problem(PRED, GOLD))
    assert (found.score, found.bound, found.optimal, found.method) == (8.0, 8.0, True, "hillclimb")


# the coreference tie-break (scores/coref.py): 7 matches either way, one of them a coreference match
TIE_GOLD = "(d / document :snt1 (a / see-01 :ARG0 (r / coref-entity) :ARG0 (p / person)) :snt2 (b / sleep-01))"
TIE_PRED = "(d / document :snt1 (a / see-01 :ARG0 (z / thing)) :snt2 (b / sleep-01 :ARG0 z))"


def test_the_coreference_tie_break_holds_under_the_coupled_search(monkeypatch):
    expected = docsmatch_pair(TIE_PRED, TIE_GOLD, coref=True)
    for name in ("assignment_bound", "solve_lp", "solve_milp"):
        monkeypatch.setattr(alignment_module, name, _refuse)
    for seed in range(4):
        s = docsmatch_pair(TIE_PRED, TIE_GOLD, coref=True, seed=seed)
        assert (s.match, s.test, s.gold, s.optimal, s.coref.total) == (7, 9, 10, True, (1, 2, 2))
        assert (s.match, s.coref.total) == (expected.match, expected.coref.total)


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from(["whole", "tie-break", "graded"]), st.sampled_from([2, 10, 10**5]))
def test_the_coupled_search_never_crosses_the_optimum_and_proves_only_it(seed, weights, subtrees):
    problem = random_document(random.Random(seed), weights)
    optimum = solve_milp(problem)
    assert optimum.optimal
    climb = hill_climb(problem, restarts=0, seed=seed)
    found = couple(problem, climb.mapping, subtrees=subtrees)
    assert found.subtrees <= subtrees
    check_against_optimum(problem, climb.score, (found.mapping, found.score, found.bound, found.proven), optimum.score)
    result = coupled_search(problem, climb)
    assert result.optimal == couple(problem, climb.mapping).proven
    assert climb.score - 1e-9 <= result.score <= result.bound + 1e-9
    # the certified search as a whole reaches the optimum
    assert align(problem).score == pytest.approx(optimum.score, abs=1e-9)


def test_the_coupled_search_proves_most_random_documents_moving_the_shares():
    rng = random.Random(11)
    tried = proven = moved = improved = 0
    for k in range(150):
        problem = random_document(rng, ["whole", "tie-break", "graded"][k % 3])
        climb = hill_climb(problem, restarts=0)
        if climb.optimal:
            continue
        tried += 1
        found = couple(problem, climb.mapping)
        if found.proven:
            proven += 1
            assert found.score == pytest.approx(solve_milp(problem).score, abs=1e-9)
            moved += found.rounds > 1
            improved += found.score > climb.score + 1e-9
    assert tried >= 110
    assert proven >= 0.9 * tried
    # proofs that needed the shares moved (the blocks disagreed at first), and better mappings than the climb's
    assert moved >= 0.5 * proven and improved >= 0.15 * proven


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from(["whole", "tie-break", "graded"]), st.sampled_from([1, 3, 10]))
def test_a_capped_search_never_crosses_the_optimum_and_proves_only_it(seed, weights, cap):
    # blocks' searches stopped after a few subtrees: their sums are no bounds, only rounds searched to the end are
    problem = random_document(random.Random(seed), weights)
    optimum = solve_milp(problem)
    assert optimum.optimal
    climb = hill_climb(problem, restarts=0, seed=seed)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(coupling_module, "CAPPED_SUBTREES", cap)
        found = couple(problem, climb.mapping, capped=True)
    check_against_optimum(problem, climb.score, (found.mapping, found.score, found.bound, found.proven), optimum.score)


def test_a_capped_search_proves_as_the_uncapped_one_does(monkeypatch):
    rng = random.Random(29)
    problems = [random_document(rng, ["whole", "tie-break", "graded"][k % 3]) for k in range(60)]
    starts = [hill_climb(problem, restarts=0).mapping for problem in problems]
    full = [couple(problem, start) for problem, start in zip(problems, starts)]
    monkeypatch.setattr(coupling_module, "CAPPED_SUBTREES", 3)
    capped = [couple(problem, start, capped=True) for problem, start in zip(problems, starts)]
    assert sum(f.stopped for f in full) == 0
    stopped = [c for c in capped if c.stopped]
    # on 57 of the 60 a block's search stops at the cap, and 52 of those are proven all the same: the same 55
    # documents are proven with the cap as without, at the same scores
    assert (len(stopped), sum(c.proven for c in stopped)) == (57, 52)
    assert [c.proven for c in capped] == [f.proven for f in full] and sum(f.proven for f in full) == 55
    for c, f in zip(capped, full):
        if f.proven:
            assert c.score == pytest.approx(f.score, abs=1e-9)


def test_until_ends_the_search_at_the_first_better_mapping():
    rng = random.Random(23)
    better = 0
    for k in range(60):
        problem = random_document(rng, ["whole", "tie-break", "graded"][k % 3])
        climb = hill_climb(problem, restarts=0)
        full = couple(problem, climb.mapping)
        early = couple(problem, climb.mapping, until=climb.score)
        if early.status != "better":
            # nothing better found before the search ended: the same search
            assert (early.status, early.rounds, early.score) == (full.status, full.rounds, full.score)
            continue
        better += 1
        assert not early.proven
        assert early.score > climb.score + 1e-9 and early.rounds <= full.rounds
        assert early.subtrees <= full.subtrees and early.score <= full.score + 1e-9
        assert problem.value(early.mapping) == pytest.approx(early.score, abs=1e-9)
    # on 15 of the 60 a better mapping turns up before the search would end
    assert better == 15


def test_a_climb_from_a_pair_the_blocks_want_makes_a_move_of_two_nodes():
    # A: v1 (x, :polarity -) and v2 (c); B: w1 (c, :polarity -) and w2 (c); the tops match (2)
    a = Triples(["v0", "v1", "v2"], ["top", "x", "c"], [("TOP", 0, "top"), ("polarity", 1, "-")], [])
    b = Triples(["w0", "w1", "w2"], ["top", "c", "c"], [("TOP", 0, "top"), ("polarity", 1, "-")], [])
    problem = build_problem(encode_pair(a, b), allowed=Candidates.from_lists([[0], [1], [1]], [[0], [1], [1]]))
    # pairs: 0 v0->w0 (2), 1 v1->w1 (the polarity, 1), 2 v2->w1 (c, 1), 3 v2->w2 (c, 1)
    assert (problem.pair_src.tolist(), problem.pair_tgt.tolist()) == ([0, 1, 2, 2], [0, 1, 1, 2])
    # v2 on w1 with v1 unmapped is worth 3, and no move of one node or swap of two gains: the climb stays
    start = np.array([0, -1, 1])
    assert hill_climb(problem, restarts=0, init=start).score == 3.0
    run = coupling_module._Run(problem, coupling_module._decompose(problem), np.array([0, -1, 2]), 3.0, 1000)
    # a block takes v1->w1 (pair 1): put in, it pushes v2 off w1 (still 3, nothing lost), and the climb
    # from there moves v2 onto w2: 4, the optimum
    run.x[:] = False
    run.x[run.d.copy_p == 1] = True
    assert run.polish(np.inf) is True
    assert (run.score, run.pairs.tolist(), run.climbs) == (4.0, [0, 1, 3], 1)
    assert solve_milp(problem).score == 4.0
    # a pair whose start loses a whole triple is not tried: v2->w1 put into the optimum pushes v1 off w1
    # (the polarity lost) and moves v2 off w2 (its c found again on w1): 3 against 4, no climb
    run.x[:] = False
    run.x[run.d.copy_p == 2] = True
    assert run.polish(np.inf) is False and run.climbs == 1


def test_a_round_is_not_begun_with_fewer_subtrees_left_than_the_last_took():
    problem = random_document(random.Random(1), "whole")
    start = hill_climb(problem, restarts=0).mapping
    first = couple(problem, start, rounds=1)
    assert (first.proven, first.rounds, first.subtrees) == (False, 1, 31)
    # 30 left after the first round's 31: the second is not begun
    short = couple(problem, start, subtrees=61)
    assert (short.status, short.proven, short.rounds, short.subtrees) == ("subtrees", False, 1, 31)
    # 31 left: the second round is begun and runs out of subtrees in the middle
    cut = couple(problem, start, subtrees=62)
    assert (cut.status, cut.proven, cut.rounds, cut.subtrees) == ("subtrees", False, 2, 62)
    # with the default limit the third round proves it
    whole = couple(problem, start)
    assert (whole.status, whole.proven, whole.rounds, whole.subtrees) == ("bound", True, 3, 102)
