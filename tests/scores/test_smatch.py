"""Corpus Smatch: exact values, invariances, determinism, real data."""

from __future__ import annotations

import json
import random

import pytest

from amreval import AmrevalWarning, DecodeError, InputError, read_graphs, smatch, smatch_pair
from amreval.scores.f1 import bootstrap_f1, prf

SENT = """(w / want-01
   :ARG0 (b / boy)
   :ARG1 (g / go-02 :ARG0 b :ARG4 (c / city :name (n / name :op1 "Paris")))
   :polarity -)"""


def test_self_match_is_one():
    s = smatch_pair(SENT, SENT)
    assert (s.match, s.test, s.gold, s.f1, s.optimal) == (13, 13, 13, 1.0, True)


def test_duplicate_triple_does_not_push_f_above_one():
    dup = "(w / want-01 :ARG0 (b / boy) :ARG0 b :ARG0 b)"
    s = smatch_pair(dup, dup)
    assert (s.match, s.test, s.gold, s.f1) == (4, 4, 4, 1.0)
    s = smatch_pair(dup, "(w / want-01 :ARG0 (b / boy))")
    assert s.f1 == 1.0


def test_renaming_reordering_and_inversion_do_not_change_the_score():
    # 5 instances, TOP, :op1, :polarity, 5 relations = 13 triples
    renamed = """(x1 / want-01 :polarity -
        :ARG1 (x3 / go-02 :ARG4 (x4 / city :name (x5 / name :op1 "Paris")) :ARG0 x2)
        :ARG0 (x2 / boy))"""
    inverted = """(w / want-01 :polarity -
        :ARG0 (b / boy :ARG0-of (g / go-02 :ARG4 (c / city :name (n / name :op1 "Paris"))))
        :ARG1 g)"""
    for variant in (renamed, inverted):
        s = smatch_pair(variant, SENT)
        assert (s.match, s.test, s.gold) == (13, 13, 13)
    # a different top is a different TOP triple: 12 of 13
    other_top = """(b / boy
        :ARG0-of (w / want-01 :polarity - :ARG1 (g / go-02 :ARG0 b :ARG4 (c / city :name (n / name :op1 "Paris")))))"""
    s = smatch_pair(other_top, SENT)
    assert (s.match, s.test, s.gold) == (12, 13, 13)


def test_quoted_equals_unquoted():
    s = smatch_pair('(a / x :polarity "-" :op1 "Paris")', "(b / x :polarity - :op1 Paris)")
    assert s.f1 == 1.0


def test_hand_checked_partial_match():
    # pred: want-01 boy, ARG0; gold: want-01 girl, ARG0 -> instance want, TOP, ARG0 match
    s = smatch_pair("(w / want-01 :ARG0 (b / boy))", "(w / want-01 :ARG0 (g / girl))")
    assert (s.match, s.test, s.gold) == (3, 4, 4)
    assert s.precision == 0.75 and s.recall == 0.75


def test_empty_and_mismatched_inputs():
    with pytest.raises(InputError, match="2 predictions but 1 reference"):
        smatch([SENT, SENT], [SENT])
    with pytest.raises(InputError, match="nothing to score: predictions and references are empty"):
        smatch([], [])
    with pytest.raises(InputError, match="^prediction #2: empty string"):
        smatch([SENT, "  "], [SENT, SENT], strict=True)
    with pytest.raises(DecodeError, match="^reference #1, graph #1, line 1: malformed PENMAN"):
        smatch([SENT], ["(a / b"])
    with pytest.raises(InputError, match="unknown solver 'fast'"):
        smatch([SENT], [SENT], solver="fast")


def test_prf_guards_zero():
    assert prf(0, 0, 5) == (0.0, 0.0, 0.0)
    assert prf(0, 3, 5) == (0.0, 0.0, 0.0)


def test_same_seed_same_result_and_solver_agreement():
    rng = random.Random(7)
    preds, golds = _random_corpus(rng, 30)
    r1 = smatch(preds, golds, seed=3, restarts=2)
    r2 = smatch(preds, golds, seed=3, restarts=2)
    assert [p.match for p in r1.pairs] == [p.match for p in r2.pairs]
    exact = smatch(preds, golds, solver="exact")
    assert exact.n_optimal == 30
    assert all(h.match <= e.match for h, e in zip(r1.pairs, exact.pairs))


def test_bootstrap_interval_is_reproducible():
    rng = random.Random(1)
    preds, golds = _random_corpus(rng, 20)
    r = smatch(preds, golds, ci=True, n_resamples=200, seed=5)
    again = smatch(preds, golds, ci=True, n_resamples=200, seed=5)
    assert r.ci == again.ci
    lo, hi = r.ci
    assert 0.0 <= lo <= r.f1 <= hi <= 1.0
    with pytest.raises(InputError, match="at least 2 pairs"):
        bootstrap_f1(r.pairs[:1])


def _random_graph(rng: random.Random, n: int, concepts: str = "abcd", roles: str = "xyz") -> str:
    """A random connected PENMAN graph of n nodes (a tree plus a re-entrancy)."""
    names = [f"v{k}" for k in range(n)]
    children: dict[int, list[tuple[str, str]]] = {k: [] for k in range(n)}
    for k in range(1, n):
        parent = rng.randrange(k)
        children[parent].append((rng.choice(roles), k))
    extra = []
    if n > 2:
        a, b = rng.sample(range(n), 2)
        extra.append((a, rng.choice(roles), names[b]))

    def write(k: int) -> str:
        parts = [f"({names[k]} / {rng.choice(concepts)}"]
        if rng.random() < 0.3:
            parts.append(":polarity -")
        for role, child in children[k]:
            parts.append(f":{role} {write(child)}")
        for src, role, tgt in extra:
            if src == k:
                parts.append(f":{role} {tgt}")
        return " ".join(parts) + ")"

    return write(0)


def _random_corpus(rng: random.Random, n: int):
    preds = [_random_graph(rng, rng.randint(1, 9)) for _ in range(n)]
    golds = [_random_graph(rng, rng.randint(1, 9)) for _ in range(n)]
    return preds, golds


# ---------------------------------------------------------------- real data


def test_smatch_examples_25_of_30_29(data_dir):
    d = data_dir / "smatch-examples"
    r = smatch(read_graphs(d / "test_input1.txt"), read_graphs(d / "test_input2.txt"))
    assert (r.match, r.test, r.gold) == (25, 30, 29)
    assert round(r.f1, 5) == 0.84746


def test_unbound_variable_pair_scores_with_a_warning(data_dir):
    d = data_dir / "metric-suite-examples"
    with pytest.warns(AmrevalWarning, match="'e' looks like a variable"):
        a = read_graphs(d / "a.txt")
    b = read_graphs(d / "b.txt")
    r = smatch(a, b, solver="exact")
    # pair 6: predicate-01 with ARG1/ARG2 entities and ARG3 to the constant e
    assert [(p.match, p.test, p.gold) for p in r.pairs][5] == (6, 7, 7)


@pytest.mark.slow
@pytest.mark.parametrize("system,match,test", [("bart_sys", 2957, 3973), ("t5_sys", 2955, 3967)])
def test_parser_outputs_reach_the_exact_optimum_with_defaults(data_dir, system, match, test):
    with pytest.warns(AmrevalWarning) if system == "bart_sys" else _nothing():
        pred = read_graphs(data_dir / "parses" / f"{system}.amr")
    gold = read_graphs(data_dir / "parses" / "gold.amr")
    r = smatch(pred, gold)
    assert (r.match, r.test, r.gold) == (match, test, 3933)


@pytest.mark.slow
def test_lpp_self_match_is_exactly_one_for_every_graph(data_dir):
    graphs = read_graphs(data_dir / "lpp" / "amr-bank-struct-v3.0.txt")
    r = smatch(graphs, graphs)
    assert len(r.pairs) == 1562
    assert all(p.f1 == 1.0 and p.optimal for p in r.pairs)


@pytest.mark.slow
def test_lpp_exact_optimum(data_dir):
    a = read_graphs(data_dir / "lpp" / "amr-bank-struct-v1.6.txt")
    b = read_graphs(data_dir / "lpp" / "amr-bank-struct-v3.0.txt")
    exact = smatch(a, b, solver="exact")
    # the reference optimum 22486 of T 23220, G 23491 plus the 27 ':mod <constant>' triples
    assert (exact.match, exact.test, exact.gold, exact.n_optimal) == (22513, 23247, 23518, 1562)
    default = smatch(a, b)
    assert default.match == 22513


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_hand_built_graph_objects_are_checked_and_named():
    from amreval import Graph
    from amreval.amr import Edge

    bad = Graph(top="a", instances={"a": "want-01"}, edges=[Edge("a", "ARG0", "zz", "ARG0")])
    with pytest.raises(InputError, match=r"^prediction #2: edge a :ARG0 zz names the unknown variable 'zz'"):
        smatch(["(a / b)", bad], ["(a / b)", "(a / b)"])
    with pytest.raises(InputError, match=r"^reference #1: the top 'q' is not a variable"):
        smatch(["(a / b)"], [Graph(top="q", instances={"a": "b"})])


def test_pairs_not_proven_in_time_are_listed_with_their_gap(monkeypatch, tmp_path, capsys):
    """When the bounds and the integer program stop at their work limits, the result says so instead of
    pretending."""
    import numpy as np

    from amreval.cli import main
    from amreval.match import alignment
    from amreval.match.certify.bounds import LPSolution

    # the exact search gives up (too large), the LP relaxation and the integer program both stop at
    # their work limits without a proof
    monkeypatch.setattr(alignment, "BRANCH_MAX_PAIRS", 0)
    monkeypatch.setattr(alignment, "solve_lp", lambda problem, **limits: LPSolution(problem.bound, None, 9, False))
    monkeypatch.setattr(
        alignment,
        "solve_milp",
        lambda problem, **limits: alignment.Alignment(np.full(problem.n_a, -1), 0.0, problem.bound, False, "milp"),
    )
    pred, gold = "(a / x :r (b / y) :s (c / z))", "(p / x :s (q / y) :r (t / z))"
    r = smatch([pred, "(a / b)"], [gold, "(x / b)"])
    # pair 1: the climb finds 4 of 6 and the assignment bound stops at 5; pair 2 is proven (2 of 2)
    assert (r.match, r.unproven, r.gap, r.n_optimal) == (6, [0], 1.0, 1)
    assert (r.as_dict()["n_unproven"], r.as_dict()["gap"]) == (1, 1.0)
    import json

    assert json.loads(json.dumps(r.as_dict()))["n_optimal"] == 1  # plain ints, ready for JSON
    (tmp_path / "p.amr").write_text(pred + "\n\n(a / b)\n")
    (tmp_path / "g.amr").write_text(gold + "\n\n(x / b)\n")
    assert main(["smatch", "-f", str(tmp_path / "p.amr"), str(tmp_path / "g.amr")]) == 0
    out = capsys.readouterr().out
    assert "Not proven optimal (work limit): 1 of 2 (#1)\nGap: at most 1 more matched triples\n" in out
    assert "time limit" not in out
    # hill climbing alone never claims more than its simple bound proves
    fast = smatch([pred], [gold], solver="hillclimb")
    assert (fast.match, fast.unproven, fast.gap) == (4, [0], 2.0)


def test_a_fractional_bound_proves_a_whole_count(monkeypatch):
    """Smatch counts are whole numbers: a bound of 4.5 proves a count of 4."""
    from amreval.match import alignment
    from amreval.match.certify.bounds import LPSolution

    monkeypatch.setattr(alignment, "BRANCH_MAX_PAIRS", 0)
    monkeypatch.setattr(alignment, "solve_lp", lambda problem, **limits: LPSolution(4.5, None, 9, False))
    r = smatch(["(a / x :r (b / y) :s (c / z))"], ["(p / x :s (q / y) :r (t / z))"])
    assert (r.match, r.n_optimal, r.unproven, r.gap, r.pairs[0].bound) == (4, 1, [], 0, 4.0)


def test_graphs_are_taken_wherever_penman_strings_are():
    from pathlib import Path

    from amreval import compare_systems, docsmatch, docsmatch_pair, loads_graph, s2match
    from amreval.scores.vectors import WordVectors

    examples = Path(__file__).resolve().parents[2] / "examples"
    pred, gold = read_graphs(examples / "pred.amr"), read_graphs(examples / "gold.amr")
    as_text = [g.to_string() for g in pred], [g.to_string() for g in gold]
    by_graph, by_text = smatch(pred, gold), smatch(*as_text)
    # the pairs of test_cli_scores_unreadable_predictions_in_their_place: 9 of 9 and 9, 7 of 9 and 9, 9 of 9 and 10
    assert (by_graph.match, by_graph.test, by_graph.gold) == (by_text.match, by_text.test, by_text.gold) == (25, 27, 28)
    assert smatch_pair(pred[0], gold[0]).match == smatch_pair(as_text[0][0], as_text[1][0]).match
    vectors = WordVectors.from_dict({"boy": [1.0, 0.0], "girl": [0.8, 0.6]})
    assert s2match(pred, gold, vectors=vectors).f1 == s2match(*as_text, vectors=vectors).f1
    doc = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 b))"
    sentences = [loads_graph("(w / want-01 :ARG0 (b / boy))"), "(g / go-02)"]
    assert (
        docsmatch([sentences], [loads_graph(doc)]).match
        == docsmatch([[s if isinstance(s, str) else s.to_string() for s in sentences]], [doc]).match
        == 8
    )
    assert docsmatch_pair(loads_graph(doc), doc).match == 9  # 4 instances, TOP, :snt1, :snt2, two :ARG0
    compared = compare_systems({"a": pred, "b": as_text[0]}, gold, n_resamples=50)
    assert compared.scores["a"] == compared.scores["b"] == by_text.f1


def test_an_interval_of_one_pair_is_undefined_not_an_error(tmp_path, capsys):
    from amreval.cli import main

    one = smatch(["(a / cat)"], ["(a / dog)"], bootstrap=50)
    assert (one.f1, one.ci) == (0.5, None)
    (tmp_path / "p.amr").write_text("(a / cat)\n", encoding="utf-8")
    (tmp_path / "g.amr").write_text("(a / dog)\n", encoding="utf-8")
    files = ["-f", str(tmp_path / "p.amr"), str(tmp_path / "g.amr")]
    assert main(["smatch", *files, "--ci", "50", "--pr"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Precision: 0.50",
        "Recall: 0.50",
        "F-score: 0.50",
        "Precision 95% CI: n/a (an interval needs at least 2 pairs)",
        "Recall 95% CI: n/a (an interval needs at least 2 pairs)",
        "F-score 95% CI: n/a (an interval needs at least 2 pairs)",
    ]
    assert main(["smatch", *files, "--averages"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "Micro F-score: 0.50 (95% CI n/a (an interval needs at least 2 pairs))",
        "Macro F-score: 0.50 (95% CI n/a (an interval needs at least 2 pairs))",
    ]
    assert main(["smatch", *files, "--averages", "--ci", "50", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["f1_ci_low"], out["f1_ci_high"], out["averages"]["macro_f1_ci_low"]) == (None, None, None)
