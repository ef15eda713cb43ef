"""Parser robustness of MFβ: three systems under three hand-made parse sets, rankings known by construction."""

from __future__ import annotations

import math
from fractions import Fraction as Fr

import numpy as np
import pytest

from amreval import InputError
from amreval.mfbeta.robustness import (
    average_ranks,
    kendall,
    parser_robustness,
    pearson,
    rank_switches,
    spearman,
)
from amreval.mfbeta.score import mfbeta
from amreval.scores.vectors import WordVectors

V = WordVectors.from_dict({"cat": [1.0, 0.0], "kitten": [0.8, 0.6]})
REF = ["the boy wants to go .", "the girl sleeps ."]
GOLD = ["(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))", "(s / sleep-01 :ARG0 (g / girl))"]
# Parses that are parts of the gold graphs, by their number of triples: every triple of them matches, so
# Meaning = 2t / (t + 11) for t triples in all (the gold graphs have 7 + 4 = 11).
S1 = {
    7: GOLD[0],
    6: "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02))",
    4: "(w / want-01 :ARG0 (b / boy))",
    2: "(w / want-01)",
}
S2 = {4: GOLD[1], 2: "(s / sleep-01)"}


def parse_set(a, b, c):
    """System → its two parses, each system given by its (sentence 1, sentence 2) triple counts."""
    return {name: [S1[t1], S2[t2]] for name, (t1, t2) in zip("ABC", (a, b, c))}


# gsii: A 11, B 10, C 9 triples: A > B > C. gpla: A 10, B 11, C 8: B > A > C. ttsa: A 6, B 8, C 8: B = C > A.
PARSES = {
    "gsii": parse_set((7, 4), (6, 4), (7, 2)),
    "gpla": parse_set((6, 4), (7, 4), (4, 4)),
    "ttsa": parse_set((2, 4), (4, 4), (6, 2)),
}
MEANING = {
    "gsii": {"A": Fr(1), "B": Fr(20, 21), "C": Fr(18, 20)},
    "gpla": {"A": Fr(20, 21), "B": Fr(1), "C": Fr(16, 19)},
    "ttsa": {"A": Fr(12, 17), "B": Fr(16, 19), "C": Fr(16, 19)},
}
GEN = {name: [f"{name.lower()} one", f"{name.lower()} two"] for name in "ABC"}


class FixedScores:
    """A stand-in language model: a fixed score per sentence; it records each call."""

    def __init__(self, scores):
        self.scores = scores
        self.calls = []

    def sentence_scores(self, sentences, *, progress=None):
        self.calls.append(list(sentences))
        return np.array([self.scores[s] for s in sentences])


def fixed_lm():
    # references 0.3 each; B's second sentence 0.1 (prefScore 0.25, not acceptable): Form A 1, B 1/2, C 1
    scores = dict.fromkeys(REF, 0.3) | {s: 0.3 for gen in GEN.values() for s in gen}
    scores["b two"] = 0.1
    return FixedScores(scores)


def mf1(m, f):
    return 2 * m * f / (m + f)


def pearson_by_hand(x, y):
    x, y = [Fr(v) for v in x], [Fr(v) for v in y]
    mx, my = sum(x) / len(x), sum(y) / len(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx, syy = sum((a - mx) ** 2 for a in x), sum((b - my) ** 2 for b in y)
    return float(sxy) / math.sqrt(float(sxx * syy))


@pytest.fixture(scope="module")
def report():
    lm = fixed_lm()
    r = parser_robustness(GEN, REF, PARSES, reference_amrs=GOLD, scorer=lm, vectors=V)
    return r, lm


def test_scores_per_setting_by_construction(report):
    r, lm = report
    assert r.systems == ["A", "B", "C"] and r.settings == ["gsii", "gpla", "ttsa"] and r.ablation == []
    for setting, by in MEANING.items():
        for system, m in by.items():
            assert r.results[setting][system].meaning == pytest.approx(float(m), abs=1e-12)
    # Form is computed once per system (three calls of the language model, not nine) and is every setting's
    assert len(lm.calls) == 3
    assert r.form == {"A": 1.0, "B": 0.5, "C": 1.0}
    assert {res.form for res in r.results["ttsa"].values()} == {1.0, 0.5}
    # MF_1 = 2MF / (M + F): gsii A 1, B (40/21) / (61/42) = 40/61, C 18/19
    gsii = r.scores("mf_beta")["gsii"]
    assert gsii == pytest.approx({"A": 1.0, "B": 40 / 61, "C": 18 / 19}, abs=1e-12)
    for setting, by in MEANING.items():
        for system, m in by.items():
            assert r.results[setting][system].mf_beta == pytest.approx(float(mf1(m, Fr(r.form[system]))), abs=1e-12)
    # each setting's result is mfbeta()'s for the same parses
    direct = mfbeta(
        GEN["B"], REF, reference_amrs=GOLD, prediction_amrs=PARSES["gpla"]["B"], scorer=fixed_lm(), vectors=V
    )
    assert r.results["gpla"]["B"].as_dict(per_example=True) == direct.as_dict(per_example=True)


def test_rank_agreement_of_meaning_by_hand(report):
    r, _ = report
    # gsii vs gpla: ranks (3, 2, 1) and (2, 3, 1), d = (1, -1, 0): rho = 1 - 6 * 2 / (3 * 8) = 1/2;
    # pairs AB discordant, AC and BC concordant: tau = (2 - 1) / 3 = 1/3; one switch, A ahead in gsii
    a = r.agreement_of("gsii", "gpla", "meaning")
    assert (a.a, a.b) == ("gsii", "gpla")
    assert a.spearman == pytest.approx(0.5) and a.kendall == pytest.approx(1 / 3)
    x, y = [MEANING["gsii"][s] for s in "ABC"], [MEANING["gpla"][s] for s in "ABC"]
    # r = Sxy / sqrt(Sxx Syy) of (1, 20/21, 9/10) and (20/21, 1, 16/19): 0.70065...
    assert a.pearson == pytest.approx(pearson_by_hand(x, y)) and a.pearson == pytest.approx(0.70065, abs=1e-5)
    assert a.switches == [("A", "B")]
    # gsii vs ttsa: ttsa ties B and C, ranks (1, 2.5, 2.5): centred (1, 0, -1) and (-1, 1/2, 1/2):
    # rho = -3/2 / sqrt(2 * 3/2) = -sqrt(3)/2; AB and AC discordant, BC tied in ttsa only:
    # tau-b = (0 - 2) / sqrt((0 + 2 + 0)(0 + 2 + 1)) = -2/sqrt(6); A falls behind both, BC is no switch
    a = r.agreement_of("gsii", "ttsa", "meaning")
    assert a.spearman == pytest.approx(-math.sqrt(3) / 2) and a.kendall == pytest.approx(-2 / math.sqrt(6))
    assert a.switches == [("A", "B"), ("A", "C")]
    # gpla vs ttsa: centred ranks (0, 1, -1) and (-1, 1/2, 1/2): rho = 0; AB concordant, AC discordant,
    # BC tied in ttsa: tau-b = 0 / sqrt(2 * 3) = 0
    a = r.agreement_of("ttsa", "gpla", "meaning")
    assert a.spearman == pytest.approx(0, abs=1e-12) and a.kendall == 0.0
    assert a.switches == [("A", "C")]


def test_rank_agreement_of_mf_beta_by_hand(report):
    r, _ = report
    # MF_1: gsii (1, 40/61, 18/19) and gpla (40/41, 2/3, 32/35) both order A > C > B, although their
    # Meaning swaps A and B (B's Form is 1/2): rho = tau = 1, no switch
    a = r.agreement_of("gsii", "gpla")
    assert (a.spearman, a.kendall, a.switches) == (pytest.approx(1.0), pytest.approx(1.0), [])
    assert a.pearson == pytest.approx(pearson_by_hand([1, Fr(40, 61), Fr(18, 19)], [Fr(40, 41), Fr(2, 3), Fr(32, 35)]))
    # ttsa (24/29, 32/51, 32/35) orders C > A > B: ranks (3, 1, 2) and (2, 1, 3), d = (1, 0, -1):
    # rho = 1/2, tau = (2 - 1) / 3 = 1/3, the one switch A over C
    a = r.agreement_of("gsii", "ttsa", "mf_beta")
    assert a.spearman == pytest.approx(0.5) and a.kendall == pytest.approx(1 / 3) and a.switches == [("A", "C")]
    assert len(r.agreement) == 3 * 2  # three pairs of settings, Meaning and MFβ


def test_agreement_equals_scipy(report):
    stats = pytest.importorskip("scipy.stats")
    r, _ = report
    for a in r.agreement:
        x = [getattr(r.results[a.a][s], a.score) for s in r.systems]
        y = [getattr(r.results[a.b][s], a.score) for s in r.systems]
        assert a.spearman == pytest.approx(stats.spearmanr(x, y).statistic, abs=1e-12)
        assert a.kendall == pytest.approx(stats.kendalltau(x, y).statistic, abs=1e-12)
        assert a.pearson == pytest.approx(stats.pearsonr(x, y).statistic, abs=1e-12)


def test_statistics_with_ties_equal_scipy():
    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(0)
    for n in (2, 3, 5, 8, 13):
        for _ in range(20):
            x, y = rng.integers(0, 4, n).astype(float), rng.integers(0, 4, n) + rng.random(n) * (rng.random() < 0.5)
            assert np.array_equal(average_ranks(x), stats.rankdata(x))
            for ours, theirs in ((spearman, stats.spearmanr), (kendall, stats.kendalltau), (pearson, stats.pearsonr)):
                if len(set(x)) == 1 or len(set(y)) == 1:
                    assert math.isnan(ours(x, y))
                else:
                    assert ours(x, y) == pytest.approx(theirs(x, y).statistic, abs=1e-12)


def test_statistics_by_hand_and_bad_input():
    assert average_ranks([0.3, 0.1, 0.3, 0.2]).tolist() == [3.5, 1.0, 3.5, 2.0]
    # tau-b of (1, 1, 2) and (1, 2, 3): P = 2, Q = 0, T = 1 (the first pair ties in x only): 2 / sqrt(2 * 3)
    assert kendall([1, 1, 2], [1, 2, 3]) == pytest.approx(2 / math.sqrt(6))
    assert pearson([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0) and math.isnan(spearman([1, 1], [1, 2]))
    assert rank_switches(["A", "B", "C"], [3, 2, 1], [1, 2, 3]) == [("A", "B"), ("A", "C"), ("B", "C")]
    assert rank_switches(["A", "B"], [1, 1], [2, 1]) == []  # a tie is no switch
    with pytest.raises(InputError, match="at least two scores"):
        spearman([1.0], [1.0])
    with pytest.raises(InputError, match="3 scores against 2"):
        kendall([1, 2, 3], [1, 2])
    with pytest.raises(InputError, match="finite"):
        pearson([1, float("nan")], [1, 2])
    with pytest.raises(InputError, match="2 systems but 3 scores"):
        rank_switches(["A", "B"], [1, 2, 3], [1, 2, 3])


def test_gold_ablation_with_given_reference_parses():
    # gsii's parse of the references: sentence 1's 4-triple part; sentence 2 failed (the 2-triple dummy graph).
    # Meaning against it: sentence 1 matches the 4 reference triples (every parse holds them), sentence 2
    # nothing: 2 * 4 / (t + 6): A 8/17, B 8/16, C 8/15 (C > B > A, the reverse of gsii with the gold AMRs)
    ref_parses = {"gsii": [S1[4], None]}
    r = parser_robustness(
        GEN,
        REF,
        {"gsii": PARSES["gsii"]},
        reference_amrs=GOLD,
        reference_parses=ref_parses,
        scorer=fixed_lm(),
        vectors=V,
    )
    assert r.settings == ["gsii", "gsii/ref"] and r.ablation == ["gsii/ref"]
    assert r.scores("meaning")["gsii/ref"] == pytest.approx({"A": 8 / 17, "B": 0.5, "C": 8 / 15}, abs=1e-12)
    res = r.results["gsii/ref"]["A"]
    assert (res.reference_parse_failures, res.parse_failures) == (1, 0)
    a = r.agreement_of("gsii", "gsii/ref", "meaning")
    assert (a.spearman, a.kendall) == (pytest.approx(-1.0), pytest.approx(-1.0))
    assert a.switches == [("A", "B"), ("A", "C"), ("B", "C")]
    d = r.as_dict()
    assert d["scores"]["gsii/ref"]["A"]["reference_parse_failures"] == 1 and d["ablation"] == ["gsii/ref"]
    assert d["agreement"][0] == {
        "a": "gsii",
        "b": "gsii/ref",
        "score": "meaning",
        "spearman": pytest.approx(-1.0),
        "kendall": pytest.approx(-1.0),
        "pearson": pytest.approx(pearson_by_hand([1, Fr(20, 21), Fr(9, 10)], [Fr(8, 17), Fr(1, 2), Fr(8, 15)])),
        "switches": [["A", "B"], ["A", "C"], ["B", "C"]],
    }
    # without gold AMRs the gold-ablation settings are all there is
    only = parser_robustness(
        GEN, REF, {"gsii": PARSES["gsii"]}, reference_parses=ref_parses, scorer=fixed_lm(), vectors=V
    )
    assert only.settings == ["gsii/ref"] and only.agreement == []
    assert only.scores("meaning")["gsii/ref"] == r.scores("meaning")["gsii/ref"]


def test_a_parser_setting_parses_every_system_and_the_references_in_one_run():
    table = {s: p for name in "ABC" for s, p in zip(GEN[name], PARSES["gpla"][name])}
    table.update(zip(REF, [S1[4], "(x / ???"]))  # the second reference's parse is malformed: a failed parse
    calls = []

    def parse(sentences):
        calls.append(list(sentences))
        return [table[s] for s in sentences]

    settings = {"gpla": PARSES["gpla"], "mine": parse}
    r = parser_robustness(
        GEN,
        REF,
        settings,
        reference_amrs=GOLD,
        ablation=True,
        reference_parses={"gpla": [S1[4], None]},
        scorer=fixed_lm(),
        vectors=V,
    )
    assert calls == [[*GEN["A"], *GEN["B"], *GEN["C"], *REF]]
    assert r.settings == ["gpla", "gpla/ref", "mine", "mine/ref"]
    assert r.scores("meaning")["mine"] == r.scores("meaning")["gpla"]
    assert r.scores("meaning")["mine/ref"] == r.scores("meaning")["gpla/ref"]
    assert r.results["mine/ref"]["C"].reference_parse_failures == 1
    a = r.agreement_of("gpla", "mine")
    assert (a.spearman, a.kendall, a.pearson, a.switches) == (
        pytest.approx(1.0),
        pytest.approx(1.0),
        pytest.approx(1.0),
        [],
    )


def test_table_lists_scores_agreements_and_switches(report):
    r, _ = report
    lines = r.table(digits=3).splitlines()
    assert lines[0].split() == ["Meaning", "gsii", "gpla", "ttsa"]
    assert lines[1].split() == ["A", "1.000", "0.952", "0.706"]
    assert "Form (every setting): A 1.000, B 0.500, C 1.000" in lines
    assert "Parse failures: gsii 0, gpla 0, ttsa 0" in lines
    row = next(line for line in lines if line.startswith("gsii vs ttsa") and "A>B" in line)
    assert row.split() == ["gsii", "vs", "ttsa", "-0.866", "-0.816", row.split()[5], "A>B,", "A>C"]
    assert next(line for line in lines if line.startswith("gsii vs gpla")).split()[3:] == [
        "0.500",
        "0.333",
        "0.701",
        "A>B",
    ]


def test_bad_settings_are_named():
    lm = fixed_lm()
    kw = dict(reference_amrs=GOLD, scorer=lm, vectors=V)
    with pytest.raises(InputError, match="at least two systems, got 1"):
        parser_robustness({"A": GEN["A"]}, REF, {"gsii": {"A": PARSES["gsii"]["A"]}}, **kw)
    with pytest.raises(InputError, match="no parser settings"):
        parser_robustness(GEN, REF, {}, **kw)
    with pytest.raises(InputError, match=r"parse set 'gsii' names systems \['A', 'B'\]"):
        parser_robustness(GEN, REF, {"gsii": {k: PARSES["gsii"][k] for k in "AB"}}, **kw)
    with pytest.raises(InputError, match="reference parses for 'x', which is not a parser setting"):
        parser_robustness(GEN, REF, PARSES, reference_parses={"x": [None, None]}, **kw)
    with pytest.raises(
        InputError, match=r"setting 'gpla' needs the parses of the reference sentences \(ablation=True\)"
    ):
        parser_robustness(GEN, REF, PARSES, ablation=True, reference_parses={"gsii": [None, None]}, **kw)
    with pytest.raises(InputError, match=r"needs the parses of the reference sentences \(no gold AMRs\)"):
        parser_robustness(GEN, REF, PARSES, scorer=lm, vectors=V)
    with pytest.raises(InputError, match="a name ending in '/ref'"):
        parser_robustness(GEN, REF, {"a/ref": PARSES["gsii"]}, **kw)
    with pytest.raises(InputError, match="B: 1 generated sentences but 2 references"):
        parser_robustness({**GEN, "B": ["b one"]}, REF, PARSES, **kw)
    with pytest.raises(InputError, match="setting 'gsii': 1 reference parses but 2 references"):
        parser_robustness(GEN, REF, PARSES, reference_parses={"gsii": [None]}, **kw)
    with pytest.raises(InputError, match="parse set 'gpla', system 'C': 1 parses but 2 references"):
        parser_robustness(GEN, REF, {**PARSES, "gpla": {**PARSES["gpla"], "C": [S1[7]]}}, **kw)
    with pytest.raises(InputError, match="beta must be"):
        parser_robustness(GEN, REF, PARSES, beta=0, **kw)
    assert lm.calls == []  # every check comes before any work


def second_to_first(sentences):
    return [s.replace("two", "one") for s in sentences]


def test_cleaning_comes_before_form_and_is_recorded():
    # cleaned, B's "b two" (0.1) is "b one" (0.3): prefScore 0.5, acceptable, so B's Form is 1
    lm = fixed_lm()
    r = parser_robustness(GEN, REF, PARSES, reference_amrs=GOLD, scorer=lm, vectors=V, clean=second_to_first)
    assert r.form == {"A": 1.0, "B": 1.0, "C": 1.0} and lm.calls[1] == ["b one", "b one", *REF]
    assert r.results["gsii"]["B"].config.as_dict()["clean"] == "second_to_first"
    assert ",clean=second_to_first," in r.as_dict()["config"]
