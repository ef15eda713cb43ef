"""The metrics' intervals (``bootstrap=``) and paired comparisons (``compare_predictions=``)."""

from __future__ import annotations

import itertools
import os
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
evaluate = pytest.importorskip("evaluate", reason="the hub extra (evaluate, datasets) is not installed")

from amreval.mfbeta.counts import bootstrap_mfbeta, mfbeta_item_parts, mfbeta_items
from amreval.mfbeta.score import mfbeta
from amreval.scores.bootstrap import score_intervals
from amreval.scores.compare import compare_against
from amreval.scores.docsmatch import docsmatch
from amreval.scores.result_parts import part_counts, result_parts
from amreval.scores.vectors import WordVectors

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "metrics" / "docsmatch" / "examples"


def blocks(path: Path) -> list[str]:
    return [b.strip() for b in path.read_text(encoding="utf-8").split("\n\n") if "(d / document" in b]


PRED, PRED2, GOLD = (blocks(EXAMPLES / f) for f in ("pred.docamr.amr", "pred2.docamr.amr", "gold.docamr.amr"))


@pytest.fixture(scope="module")
def docsmatch_metric():
    return evaluate.load(str(ROOT / "metrics" / "docsmatch"))


def exact_two_sided(a, b):
    """Two-sided permutation p-value of the F1 difference, all swaps enumerated, in fractions."""

    def f(rows):
        m, t, g = (sum(r[j] for r in rows) for j in range(3))
        return Fraction(2 * m, t + g)

    observed = abs(f(a) - f(b))
    swaps = list(itertools.product((False, True), repeat=len(a)))
    hits = 0
    for s in swaps:
        x = [b[k] if s[k] else a[k] for k in range(len(a))]
        y = [a[k] if s[k] else b[k] for k in range(len(a))]
        hits += abs(f(x) - f(y)) >= observed
    return Fraction(hits, len(swaps))


def test_docsmatch_intervals_of_every_score(docsmatch_metric):
    out = docsmatch_metric.compute(predictions=PRED, references=GOLD, ci=True, n_resamples=300, seed=2)
    core = docsmatch(PRED, GOLD, coref=True, ci=True, n_resamples=300, seed=2)
    # F1's interval is the core's; the others come from the same resamples
    assert (out["f1_ci_low"], out["f1_ci_high"]) == core.ci
    intervals = score_intervals(core, n_resamples=300, seed=2)
    for key in ("precision", "recall", "coref_f1", "coref_named_entity_recall", "noncoref_precision"):
        assert (out[f"{key}_ci_low"], out[f"{key}_ci_high"]) == (
            intervals[f"{key}_ci_low"],
            intervals[f"{key}_ci_high"],
        )
        assert out[f"{key}_ci_low"] <= out[key] <= out[f"{key}_ci_high"]
    assert "precision_ci_low" not in docsmatch_metric.compute(predictions=PRED, references=GOLD)


def test_docsmatch_compare_predictions(docsmatch_metric):
    out = docsmatch_metric.compute(predictions=PRED, references=GOLD, compare_predictions=PRED2, per_document=True)
    first, second = docsmatch(PRED, GOLD, coref=True), docsmatch(PRED2, GOLD, coref=True)
    assert out["compare_f1"] == second.f1 and out["f1_difference"] == first.f1 - second.f1
    assert out["compare_coref_f1"] == second.coref_f1
    assert out["compare_per_document_f1"] == [p.f1 for p in second.pairs]
    expected = compare_against(
        result_parts(first), result_parts(second), test="permutation", n_resamples=10000, seed=0, confidence=0.95
    )
    assert {k: out[k] for k in expected} == expected
    # two documents: the four swaps, by hand
    for part in ("overall", "coref", "noncoref"):
        a, b = part_counts(first.pairs, part).astype(int).tolist(), part_counts(second.pairs, part).astype(int).tolist()
        key = "f1_p_value" if part == "overall" else f"{part}_f1_p_value"
        assert out[key] == float(exact_two_sided(a, b))
    less = docsmatch_metric.compute(
        predictions=PRED, references=GOLD, compare_predictions=PRED2, alternative="less", test="bootstrap"
    )
    # per document: demo +0.0028, trip -0.0643; a resample lies between them, never at or below 2 d = -0.0669
    assert less["f1_difference"] == out["f1_difference"] and less["f1_p_value"] == 1 / 10001
    with pytest.raises(ValueError, match="2 predictions but 1 reference"):
        docsmatch_metric.compute(predictions=PRED[:1], references=GOLD[:1], compare_predictions=PRED2)


V = WordVectors.from_dict({"cat": [1.0, 0.0], "kitten": [0.8, 0.6]})
AMRS = ["(c / cat)", "(w / want-01 :ARG0 (b / boy))", "(s / sleep-01 :ARG0 (g / girl))"]
PARSES = ["(k / kitten)", "(w / want-01 :ARG0 (b / boy))", None]
PARSES2 = ["(c / cat)", "(w / want-01 :ARG0 (g / girl))", "(s / sleep-01 :ARG0 (g / girl))"]
GEN, GEN2, REF = ["a kitten", "boy wants", "x"], ["a cat", "girl wants", "girl sleeps"], ["a cat", "boy wants", "y"]


class Fixed:
    def sentence_scores(self, sentences, *, progress=None):
        return np.array([{"x": 0.1, "girl wants": 0.2}.get(s, 1.0) for s in sentences])


@pytest.fixture(scope="module")
def mfbeta_metric():
    metric = evaluate.load(str(ROOT / "metrics" / "mfbeta"))
    metric._scorer = lambda *args: Fixed()
    return metric


def test_mfbeta_intervals_and_compare(mfbeta_metric):
    kw = dict(predictions=GEN, references=REF, reference_amrs=AMRS, prediction_amrs=PARSES, vectors=V)
    out = mfbeta_metric.compute(**kw, bootstrap=200, compare_predictions=GEN2, compare_prediction_amrs=PARSES2)
    first = mfbeta(GEN, REF, reference_amrs=AMRS, prediction_amrs=PARSES, scorer=Fixed(), vectors=V)
    second = mfbeta(GEN2, REF, reference_amrs=AMRS, prediction_amrs=PARSES2, scorer=Fixed(), vectors=V)
    # Form: prefScore x 0.1/1.1 fails, girl wants 0.2/1.2 fails
    assert (first.acceptable, second.acceptable) == ([True, True, False], [True, False, True])
    items = mfbeta_items(PARSES, AMRS, first.acceptable, vectors=V)
    items2 = mfbeta_items(PARSES2, AMRS, second.acceptable, vectors=V)
    assert tuple(items[:, :3].sum(axis=0)) == first.meaning_counts
    intervals = bootstrap_mfbeta(items, n_resamples=200)
    assert {k: out[k] for k in intervals} == intervals
    assert out["mf_beta_ci_low"] <= out["mf_beta"] <= out["mf_beta_ci_high"]
    expected = compare_against(
        mfbeta_item_parts(items), mfbeta_item_parts(items2), test="permutation", n_resamples=10000, seed=0
    )
    assert {k: out[k] for k in expected} == expected
    assert out["compare_mf_beta"] == pytest.approx(second.mf_beta) and out["compare_form"] == second.form == 2 / 3
    # Form: both 2/3, differing on items 2 and 3: every swap gives 0 or +-2/3, all as far from 0 as 0 is
    assert out["form_difference"] == 0.0 and out["form_p_value"] == 1.0


def test_mfbeta_intervals_need_the_parses(mfbeta_metric):
    calls = []

    def parse(sentences):
        calls.append(sentences)
        return ["(c / cat)"] * len(sentences)

    with pytest.raises(ValueError, match="need its precomputed parts"):
        mfbeta_metric.compute(
            predictions=GEN, references=REF, reference_amrs=AMRS, parser=parse, vectors=V, bootstrap=10
        )
    with pytest.raises(ValueError, match="compare_prediction_amrs"):
        mfbeta_metric.compute(
            predictions=GEN, references=REF, reference_amrs=AMRS, prediction_amrs=PARSES, compare_predictions=GEN2
        )
    assert calls == []
