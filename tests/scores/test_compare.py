"""Paired tests over items: exact permutation p-values, the bootstrap, intervals, Holm, rankings, real data."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from amreval import AmrevalWarning, InputError, read_graphs, smatch
from amreval.scores.bootstrap import bootstrap_interval, bootstrap_prf, score_intervals
from amreval.scores.compare import compare_counts, compare_systems, paired_test
from amreval.scores.corpus_statistics import prf_statistic
from amreval.scores.docsmatch import docsmatch
from amreval.scores.f1 import bootstrap_f1, prf
from amreval.scores.paired_tests import bootstrap_p as _bootstrap_p
from amreval.scores.paired_tests import holm
from amreval.scores.result_parts import part_counts
from amreval.scores.results import PairScore

A3 = [[3, 4, 4], [5, 5, 6], [2, 4, 3]]
B3 = [[2, 4, 4], [5, 6, 6], [1, 4, 3]]


def exact_f(m, t, g, which="f1"):
    """P, R or F of summed counts as a fraction (0 where undefined, as prf)."""
    if t <= 0 or g <= 0:
        return Fraction(0)
    if which == "precision":
        return Fraction(m, t)
    if which == "recall":
        return Fraction(m, g)
    return Fraction(2 * m, t + g)


def enumerated_p(a, b, which, alternative):
    """The permutation p-value by enumerating all 2**n swaps of items between the two systems, in fractions."""
    n = len(a)

    def stat(x, y):
        sx = [sum(r[j] for r in x) for j in range(3)]
        sy = [sum(r[j] for r in y) for j in range(3)]
        return exact_f(*sx, which) - exact_f(*sy, which)

    observed = stat(a, b)
    null = []
    for swaps in itertools.product((False, True), repeat=n):
        x = [b[k] if s else a[k] for k, s in enumerate(swaps)]
        y = [a[k] if s else b[k] for k, s in enumerate(swaps)]
        null.append(stat(x, y))
    greater = Fraction(sum(d >= observed for d in null), 2**n)
    less = Fraction(sum(d <= observed for d in null), 2**n)
    # the swaps come in mirror pairs (d, -d), so two-sided is also P(|d| >= |observed|)
    assert min(1, 2 * min(greater, less)) == Fraction(sum(abs(d) >= abs(observed) for d in null), 2**n)
    return {"greater": greater, "less": less, "two-sided": min(Fraction(1), 2 * min(greater, less))}


def test_three_items_by_hand():
    # A sums to (10, 13, 13): F = 20/26; B to (8, 14, 13): F = 16/27
    t = paired_test(A3, B3)
    assert (t.score_a, t.score_b) == (prf(10, 13, 13)[2], prf(8, 14, 13)[2]) == pytest.approx((20 / 26, 16 / 27))
    assert t.difference == t.score_a - t.score_b
    # the 8 swaps (item 1 and item 3 swap alike): none 20/26-16/27, {1} or {3} 18/26-18/27,
    # {2} 20/27-16/26, {1,3} 16/26-20/27, {1,2} or {2,3} 18/27-18/26, all -(20/26-16/27):
    # one is >= the observed, all 8 are <=; two-sided 2 * 1/8
    assert (t.exact, t.n_items, t.p_value) == (True, 3, 0.25)
    assert paired_test(A3, B3, alternative="greater").p_value == 0.125
    assert paired_test(A3, B3, alternative="less").p_value == 1.0
    # precision 10/13 - 8/14; swapping {2} gives 10/14 - 8/13, {1} 9/13 - 9/14: no swap reaches it, 1 of 8
    assert paired_test(A3, B3, statistic="precision", alternative="greater").p_value == 0.125


@pytest.mark.parametrize("n", [5, 7, 9])
@pytest.mark.parametrize("which", ["f1", "precision", "recall"])
def test_exact_permutation_p_value_equals_enumeration(n, which):
    rng = np.random.default_rng(n)
    gold = rng.integers(1, 12, n)
    test = rng.integers(1, 12, n)
    a = np.column_stack([rng.integers(0, np.minimum(test, gold) + 1), test, gold]).tolist()
    b = np.column_stack([rng.integers(0, np.minimum(test, gold) + 1), rng.integers(1, 12, n), gold]).tolist()
    b[0] = a[0]  # an item both systems score alike: its swap changes nothing
    for alternative in ("two-sided", "greater", "less"):
        t = paired_test(a, b, statistic=which, alternative=alternative)
        assert t.exact
        assert t.p_value == float(enumerated_p(a, b, which, alternative)[alternative])


def test_random_permutation_test_is_close_to_the_exact_one():
    rng = np.random.default_rng(1)
    a = np.column_stack([rng.integers(3, 8, 12), np.full(12, 8), np.full(12, 9)]).tolist()
    b = np.column_stack([rng.integers(2, 7, 12), np.full(12, 8), np.full(12, 9)]).tolist()
    exact = float(enumerated_p(a, b, "f1", "two-sided")["two-sided"])
    t = paired_test(a, b, n_resamples=3000)
    assert not t.exact and t.p_value == pytest.approx(exact, abs=0.03)


def test_same_seed_same_result():
    rng = np.random.default_rng(7)
    a = np.column_stack([rng.integers(5, 20, 60), rng.integers(20, 25, 60), rng.integers(20, 25, 60)])
    b = a + np.column_stack([rng.integers(-3, 3, 60), np.zeros(60, int), np.zeros(60, int)])
    b[:, 0] = np.clip(b[:, 0], 0, None)
    for test in ("permutation", "bootstrap"):
        first = paired_test(a, b, test=test, n_resamples=500, seed=3)
        assert paired_test(a, b, test=test, n_resamples=500, seed=3) == first
        other = paired_test(a, b, test=test, n_resamples=500, seed=4)
        assert (other.ci_low, other.ci_high, other.p_value) != (first.ci_low, first.ci_high, first.p_value)


def test_bootstrap_p_value_from_the_shifted_distribution():
    distribution = np.arange(1, 10) / 10  # 0.1 ... 0.9
    # observed 0.5: the shifted values -0.4 ... 0.4; none >= 0.5, all 9 <= 0.5
    assert _bootstrap_p(distribution, 0.5, "greater") == 1 / 10
    assert _bootstrap_p(distribution, 0.5, "less") == 10 / 10
    assert _bootstrap_p(distribution, 0.5, "two-sided") == 2 / 10
    # observed 0.3: shifted -0.2 ... 0.6; 4 are >= 0.3 (0.3 itself counts), 6 are <= 0.3
    assert _bootstrap_p(distribution, 0.3, "greater") == 5 / 10
    assert _bootstrap_p(distribution, 0.3, "less") == 7 / 10
    assert _bootstrap_p(distribution, 0.3, "two-sided") == 1.0


def test_identical_systems():
    a = [[3, 4, 5], [1, 2, 2], [0, 3, 1], [4, 4, 4]]
    for test in ("permutation", "bootstrap"):
        t = paired_test(a, a, test=test, n_resamples=200)
        assert (t.difference, t.ci_low, t.ci_high, t.p_value) == (0.0, 0.0, 0.0, 1.0)


def test_two_item_interval_by_hand():
    # resamples hold (1,1,1) twice (F 1), once (F 1/2) or never (F 0), with chances 1/4, 1/2, 1/4:
    # the 2.5% and 97.5% percentiles of 1000 resamples are 0 and 1
    assert bootstrap_interval([[1, 1, 1], [0, 1, 1]], n_resamples=1000) == (0.0, 1.0)
    assert bootstrap_prf([[1, 1, 1], [0, 1, 1]], n_resamples=1000) == {
        "precision": (0.0, 1.0),
        "recall": (0.0, 1.0),
        "f1": (0.0, 1.0),
    }


def test_prf_intervals_share_resamples_with_bootstrap_f1():
    rng = np.random.default_rng(2)
    gold = rng.integers(5, 40, 80)
    test = gold + rng.integers(-4, 5, 80)
    match = np.minimum(rng.binomial(test, 0.8), gold)
    pairs = [PairScore(int(m), int(t), int(g), True, 0.0) for m, t, g in zip(match, test, gold)]
    counts = np.column_stack([match, test, gold])
    intervals = bootstrap_prf(counts, n_resamples=700, seed=5)
    # the same resamples; F1 is computed as prf does (2PR/(P+R)), the harness as 2M/(T+G)
    assert intervals["f1"] == pytest.approx(bootstrap_f1(pairs, n_resamples=700, seed=5), rel=1e-14)
    assert intervals["precision"] == bootstrap_interval(counts, "precision", n_resamples=700, seed=5)
    p, r, f = prf(match.sum(), test.sum(), gold.sum())
    for key, value in (("precision", p), ("recall", r), ("f1", f)):
        low, high = intervals[key]
        assert low < value < high < 1


def test_holm_by_hand():
    # sorted 0.001, 0.03, 0.04, 0.2: 4 x 0.001, 3 x 0.03 = 0.09, max(0.09, 2 x 0.04), max(0.09, 0.2)
    assert holm([0.04, 0.001, 0.03, 0.2]) == [0.09, 0.004, 0.09, 0.2]
    assert holm([0.5, 0.4]) == [0.8, 0.8]
    assert holm([0.9]) == [0.9] and holm([]) == []
    assert holm([0.6, 0.7, 0.01]) == [1.0, 1.0, 0.03]


def test_three_systems_ranked_with_holm():
    a = [[3, 4, 4], [5, 5, 6], [2, 4, 3], [4, 4, 4]]
    b = [[2, 4, 4], [5, 6, 6], [1, 4, 3], [4, 4, 4]]
    c = [[4, 4, 4], [6, 6, 6], [3, 3, 3], [4, 4, 4]]
    cmp = compare_counts({"a": a, "b": b, "c": c}, ids=["w", "x", "y", "z"], n_resamples=2000)
    # a: 14 of 17 and 17: 28/34; b: 12 of 18 and 17: 24/35; c: 17 of 17 and 17: 1
    assert cmp.scores == {"a": prf(14, 17, 17)[2], "b": prf(12, 18, 17)[2], "c": 1.0}
    assert cmp.scores == pytest.approx({"a": 28 / 34, "b": 24 / 35, "c": 1.0})
    assert cmp.ranking() == ["c", "a", "b"]
    assert [(t.a, t.b) for t in cmp.tests] == [("a", "b"), ("a", "c"), ("b", "c")]
    assert [t.p_holm for t in cmp.tests] == holm([t.p_value for t in cmp.tests])
    # 4 items: exact; a against c: c is better on items 1-3, item 4 is alike: of the 16 swaps only
    # none or all of items 1-3 swapped reach |d| (swapping item 1 alone gives 30/34 - 32/34), 4 of 16
    assert cmp.test("a", "c").p_value == 4 / 16 and cmp.test("a", "c").exact
    # item scores: each item's F alone
    f = [prf(*x)[2] for x in a]
    assert cmp.item_scores["a"].tolist() == f == pytest.approx([0.75, 10 / 11, 4 / 7, 1.0])
    rows = cmp.differences("a", "b")
    # a - b: 3/4 - 1/2, 10/11 - 10/12, 4/7 - 2/7, 0
    assert [(r.id, r.difference) for r in rows] == [
        ("y", f[2] - prf(1, 4, 3)[2]),
        ("w", 0.75 - 0.5),
        ("x", f[1] - prf(5, 6, 6)[2]),
        ("z", 0.0),
    ]
    with pytest.raises(InputError, match="no test of 'c' against 'a'"):
        cmp.test("c", "a")
    out = cmp.as_dict()
    assert [s["rank"] for s in out["systems"]] == [2, 3, 1]
    assert out["items"][1]["counts"]["b"] == [5.0, 6.0, 6.0]


def test_bad_inputs():
    with pytest.raises(InputError, match="at least 2 items"):
        paired_test([[1, 2, 2]], [[1, 2, 2]])
    with pytest.raises(InputError, match=r"expected items × 3 counts \(match, test, gold\)"):
        paired_test([[1, 2], [1, 2]], [[1, 2], [1, 2]])
    with pytest.raises(InputError, match="system A has 3 items but B has 2"):
        paired_test(A3, B3[:2])
    with pytest.raises(InputError, match="finite and not negative"):
        paired_test(A3, [[-1, 4, 4], [5, 6, 6], [1, 4, 3]])
    with pytest.raises(InputError, match="unknown test 'sign'"):
        paired_test(A3, B3, test="sign")
    with pytest.raises(InputError, match="unknown alternative"):
        paired_test(A3, B3, alternative="better")
    with pytest.raises(InputError, match="n_resamples must be an integer >= 1"):
        paired_test(A3, B3, n_resamples=0)
    with pytest.raises(InputError, match="confidence must be"):
        paired_test(A3, B3, confidence=95)
    with pytest.raises(InputError, match="at least two systems"):
        compare_counts({"a": A3})
    with pytest.raises(InputError, match="unknown statistic"):
        prf_statistic("accuracy")


PRED = ["(w / want-01 :ARG0 (b / boy))", "(g / go-02 :ARG0 (g2 / girl))", "(c / cat)"]
OTHER = ["(w / want-01 :ARG0 (b / boy))", "(g / go-01 :ARG0 (g2 / girl))", "(d / dog)"]
GOLD = ["(w / want-01 :ARG0 (b / boy))", "(g / go-02 :ARG0 (g2 / girl))", "(c / cat :mod (b / big))"]


def test_compare_systems_scores_each_once_and_compares():
    cmp = compare_systems({"p": PRED, "o": OTHER}, GOLD)
    # 2 instances, TOP and a relation; cat: 2 of the 4 gold triples, dog only TOP
    assert cmp.counts["p"].tolist() == [[4, 4, 4], [4, 4, 4], [2, 2, 4]]
    assert cmp.counts["o"].tolist() == [[4, 4, 4], [3, 4, 4], [1, 2, 4]]
    assert cmp.scores == {"p": smatch(PRED, GOLD).f1, "o": smatch(OTHER, GOLD).f1}
    assert cmp.scores == pytest.approx({"p": 20 / 22, "o": 16 / 22})
    t = cmp.test()
    # item 1 is alike; swapping item 2 or item 3 alone gives 9 against 9 matches (d = 0), both -d: 4 of 8
    assert (t.difference, t.p_value, t.exact) == (cmp.scores["p"] - cmp.scores["o"], 0.5, True)
    assert cmp.ids == ["1", "2", "3"] and cmp.breakdown == []
    assert cmp.config.startswith("solver=exact,restarts=19,seed=0")
    # a list of systems is named A, B, ...
    assert compare_systems([PRED, OTHER, GOLD], GOLD, n_resamples=100).names == ["A", "B", "C"]
    with pytest.raises(InputError, match="system o has 2 items but there are 3 references"):
        compare_systems({"p": PRED, "o": OTHER[:2]}, GOLD)
    with pytest.raises(InputError, match="unknown score 'bleu'"):
        compare_systems({"p": PRED, "o": OTHER}, GOLD, score="bleu")


def test_docsmatch_breakdown_and_parts():
    from pathlib import Path

    examples = Path(__file__).resolve().parents[2] / "metrics" / "docsmatch" / "examples"
    pred, other, gold = (read_graphs(examples / f) for f in ("pred.docamr.amr", "pred2.docamr.amr", "gold.docamr.amr"))
    cmp = compare_systems({"pred": pred, "pred2": other}, gold, score="coref", fine_grained=True)
    r1, r2 = docsmatch(pred, gold, coref=True, fine_grained=True), docsmatch(other, gold, coref=True, fine_grained=True)
    assert cmp.ids == ["demo", "trip"]
    assert cmp.scores == {"pred": r1.coref_f1, "pred2": r2.coref_f1}
    parts = [t.score for t in cmp.breakdown]
    assert parts[:6] == ["docsmatch", "coref", "coref_named_entity", "coref_bridging", "coref_other", "noncoref"]
    assert parts[6:] == [
        "unlabeled",
        "no_wsd",
        "concepts",
        "named_ent",
        "negations",
        "wikification",
        "reentrancies",
        "srl",
    ]
    by_part = {t.score: t for t in cmp.breakdown}
    assert by_part["coref"] == cmp.test()
    assert (by_part["docsmatch"].score_a, by_part["docsmatch"].score_b) == (r1.f1, r2.f1)
    assert by_part["srl"].score_b == prf(*r2.fine_grained["srl"])[2]
    # neither system nor the gold has bridging coreference: nothing to score, so nothing to test (not
    # 0.0 against 0.0 with p = 1.0)
    assert list(r1.coref.bridging) == list(r2.coref.bridging) == [0, 0, 0]
    assert [t.score for t in cmp.breakdown if t.p_value is None] == ["coref_bridging"]
    b = by_part["coref_bridging"]
    assert (b.score_a, b.score_b, b.difference, b.ci_low, b.ci_high, b.p_value, b.exact) == (None,) * 6 + (False,)
    # two documents: 4 swaps, exact
    assert all(t.exact for t in cmp.breakdown if t.p_value is not None)
    assert part_counts(r1.pairs, "coref_bridging").tolist() == [list(p.coref.bridging) for p in r1.pairs]
    assert part_counts(r1.pairs, "noncoref").tolist() == [
        list(p.coref.noncoref(p.match, p.test, p.gold)) for p in r1.pairs
    ]
    with pytest.raises(InputError, match="score DocSmatch with coref=True"):
        part_counts(docsmatch(pred, gold, coref=False).pairs, "coref")
    with pytest.raises(InputError, match="unknown part 'bleu'"):
        part_counts(r1.pairs, "bleu")


def test_score_intervals_of_every_part():
    doc = "(d / document :snt1 (a / go-02 :ARG0 (c / coref-entity)) :snt2 (b / sleep-01 :ARG0 c))"
    bad = "(d / document :snt1 (a / go-02 :ARG0 (c / boy)) :snt2 (b / sleep-01 :ARG0 (e / boy)))"
    r = docsmatch([doc, bad, doc], [doc, doc, doc], coref=True, ci=True, n_resamples=300)
    out = score_intervals(r, n_resamples=300)
    assert (out["f1_ci_low"], out["f1_ci_high"]) == pytest.approx(r.ci, rel=1e-14)
    assert sorted(k[: -len("_ci_low")] for k in out if k.endswith("_ci_low")) == sorted(
        f"{prefix}{w}"
        for prefix in ("", "coref_", "coref_named_entity_", "coref_bridging_", "coref_other_", "noncoref_")
        for w in ("precision", "recall", "f1")
    )
    # coref: a good document (3, 3, 3), the bad one (0, 0, 3): three good ones (chance 8/27) give 1,
    # three bad ones (chance 1/27, above 2.5%) give 0
    assert out["coref_recall_ci_high"] == 1.0 and out["coref_recall_ci_low"] == 0.0


@pytest.fixture
def parses(data_dir):
    with pytest.warns(AmrevalWarning, match="'z11' looks like a variable"):
        bart = read_graphs(data_dir / "parses" / "bart_sys.amr")
    return bart, read_graphs(data_dir / "parses" / "t5_sys.amr"), read_graphs(data_dir / "parses" / "gold.amr")


@pytest.mark.slow
def test_bart_against_t5(parses):
    bart, t5, gold = parses
    cmp = compare_systems({"bart": bart, "t5": t5}, gold)
    assert tuple(cmp.counts["bart"].sum(axis=0)) == (2957, 3973, 3933)
    assert tuple(cmp.counts["t5"].sum(axis=0)) == (2955, 3967, 3933)
    t = cmp.test()
    assert t.difference == prf(2957, 3973, 3933)[2] - prf(2955, 3967, 3933)[2]
    assert t.difference == pytest.approx(5914 / 7906 - 5910 / 7900)
    # the README's figures (10000 resamples, seed 0)
    assert round(t.p_value, 4) == 0.9891
    assert (round(t.ci_low, 4), round(t.ci_high, 4)) == (-0.0173, 0.0175)
    assert cmp.ids[0] == "lpp_1943.646"
    boot = compare_systems({"bart": bart, "t5": t5}, gold, test="bootstrap").test()
    assert (boot.ci_low, boot.ci_high) == (t.ci_low, t.ci_high)
    assert round(boot.p_value, 4) == 0.9779


def test_a_part_with_nothing_to_score_is_not_tested():
    from amreval.scores.compare import compare_against
    from amreval.scores.corpus_statistics import prf_statistic

    f1, precision = prf_statistic("f1"), prf_statistic("precision")
    # the first system predicts nothing where the gold has 3 items: precision 0/0, F1 genuinely 0
    a = {"f1": (f1, [[0, 0, 1], [0, 0, 2]]), "precision": (precision, [[0, 0, 1], [0, 0, 2]])}
    b = {"f1": (f1, [[1, 1, 1], [1, 2, 2]]), "precision": (precision, [[1, 1, 1], [1, 2, 2]])}
    out = compare_against(a, b)
    # b: 2 of 3 and 3; swapping item 1 or 2 alone gives -0.1 or +0.1, both swaps +2/3: p = 2/4
    assert out["compare_f1"] == 2 / 3 and out["f1_difference"] == -2 / 3 and out["f1_p_value"] == 0.5
    assert [out[f"precision{k}"] for k in ("_difference", "_difference_ci_low", "_difference_ci_high", "_p_value")] == [
        None
    ] * 4
    assert out["compare_precision"] == 2 / 3
