"""The steps both metrics add to a core result (amreval.hub.metric_compute), with values worked out by hand."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from amreval.hub.metric_compute import (
    DOCUMENT_KEYWORDS,
    SENTENCE_KEYWORDS,
    DocsmatchScored,
    MfbetaScored,
    docsmatch_results,
    door_results,
    mfbeta_results,
)
from amreval.scores.corpus_statistics import prf_statistic

# system A: items (match, test, gold) (3, 4, 4) and (5, 5, 6): F1 2 * 8 / (9 + 10) = 16/19
# system B: (2, 4, 4) and (5, 6, 6): F1 2 * 7 / (10 + 10) = 14/20
A = [(3, 4, 4), (5, 5, 6)]
B = [(2, 4, 4), (5, 6, 6)]


class Counts:
    """A system of per-item counts that records which steps read it."""

    def __init__(self, items, calls, name, intervals=None):
        self.items, self.calls, self.name, self.bounds = items, calls, name, intervals or {}

    def results(self):
        self.calls.append(f"{self.name}.results")
        match, test, gold = (sum(c) for c in zip(*self.items))
        f1 = None if test + gold == 0 else 2 * match / (test + gold)
        return {"f1": f1, "match": match, "test": test, "gold": gold, "score": "toy", "config": "score=toy"}

    def item_scores(self):
        return {"per_item_f1": [2 * m / (t + g) for m, t, g in self.items]}

    def intervals(self, n_resamples, *, seed, confidence):
        self.calls.append(f"{self.name}.intervals({n_resamples}, {seed}, {confidence})")
        return self.bounds

    def parts(self):
        self.calls.append(f"{self.name}.parts")
        return {"f1": (prf_statistic("f1"), self.items)}


def test_without_steps_only_the_results_are_read():
    calls: list[str] = []
    out = door_results(Counts(A, calls, "a"))
    assert out == {"f1": 16 / 19, "match": 8, "test": 9, "gold": 10, "config": "score=toy"}  # no "score"
    assert calls == ["a.results"]


def test_the_paired_test_and_the_second_systems_item_scores():
    calls: list[str] = []

    def other():
        calls.append("other scored")
        return Counts(B, calls, "b")

    out = door_results(Counts(A, calls, "a"), other)
    # the first system's parts are read before the second system is scored
    assert calls == ["a.results", "a.parts", "other scored", "b.parts"]
    assert out["compare_f1"] == 0.7 and out["f1_difference"] == pytest.approx(16 / 19 - 0.7, abs=1e-15)
    # the four swaps of two items: differences +-0.1421 (none or both swapped) and +-0.0632 (one swapped,
    # 14/19 against 16/20): half are as far from 0 as the observed one
    assert out["f1_p_value"] == 0.5
    assert out["compare_per_item_f1"] == [0.5, 10 / 12]
    assert list(out)[-6:] == [
        "compare_f1",
        "f1_difference",
        "f1_difference_ci_low",
        "f1_difference_ci_high",
        "f1_p_value",
        "compare_per_item_f1",
    ]


def test_intervals_keep_the_cores_own_and_come_before_what_the_metric_adds():
    calls: list[str] = []
    bounds = {"f1": 0.0, "f1_ci_low": 0.25, "f1_ci_high": 0.75}  # "f1" is the core's: kept
    out = door_results(
        Counts(A, calls, "a", bounds),
        intervals=7,
        seed=3,
        confidence=0.9,
        added=lambda: {"f1_ci_high": 1.0, "macro_f1": 0.5},
    )
    assert calls == ["a.results", "a.intervals(7, 3, 0.9)"]
    assert out["f1"] == 16 / 19 and out["f1_ci_low"] == 0.25
    assert out["f1_ci_high"] == 1.0 and out["macro_f1"] == 0.5  # added after the intervals
    assert list(out) == ["f1", "match", "test", "gold", "config", "f1_ci_low", "f1_ci_high", "macro_f1"]


def test_zero_division_applies_to_scores_and_their_bounds():
    calls: list[str] = []
    empty = Counts([(0, 0, 0)], calls, "a", {"f1_ci_low": 0.0, "f1_ci_high": 0.0})
    out = door_results(empty, intervals=5)
    assert (out["f1"], out["f1_ci_low"], out["f1_ci_high"]) == (None, None, None)  # undefined: JSON null
    out = door_results(empty, intervals=5, zero_division=math.nan)
    assert math.isnan(out["f1"]) and math.isnan(out["f1_ci_low"]) and math.isnan(out["f1_ci_high"])
    out = door_results(empty, intervals=5, zero_division=1.0)
    assert (out["f1"], out["f1_ci_low"], out["f1_ci_high"]) == (1.0, 1.0, 1.0)


GOLD = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 b))"
# the boy of the second sentence is a new node: 10 predicted triples (5 instances, 4 edges, the top) of
# which 8 match the gold's 9 (all but the :ARG0 into the merged boy): F1 16/19
PRED = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 (b2 / boy)))"


def test_docsmatch_results_per_document_and_against_a_second_system():
    out = docsmatch_results([GOLD, PRED], [GOLD, GOLD], compare_predictions=[GOLD, GOLD], per_document=True)
    assert (out["match"], out["test"], out["gold"]) == (17, 19, 18)
    assert out["f1"] == pytest.approx(34 / 37, abs=1e-15)
    assert out["per_document_f1"] == [1.0, pytest.approx(16 / 19, abs=1e-15)]
    assert out["compare_f1"] == 1.0 and out["compare_per_document_f1"] == [1.0, 1.0]
    assert out["f1_difference"] == pytest.approx(34 / 37 - 1, abs=1e-15)
    # resampled documents: the difference is 16/19 - 1 (the second twice) to 0 (the first twice)
    assert out["f1_difference_ci_low"] == pytest.approx(16 / 19 - 1, abs=1e-15) and out["f1_difference_ci_high"] == 0
    # only the second document differs: every swap gives -3/37 or +3/37, as far from 0 as the observed one
    assert out["f1_p_value"] == 1.0
    assert "score" not in out and "score=docsmatch" in out["config"].split(",")


def test_docsmatch_results_intervals_and_averages():
    out = docsmatch_results([GOLD, PRED], [GOLD, GOLD], intervals=200, averages=True)
    # two documents, resampled: F1 1.0 (the first twice), 16/19 (the second twice) or 34/37; precision
    # 8/10 to 1, recall 8/9 to 1
    assert out["f1_ci_low"] == pytest.approx(16 / 19, abs=1e-15) and out["f1_ci_high"] == 1.0
    assert (out["precision_ci_low"], out["recall_ci_low"]) == (0.8, pytest.approx(8 / 9, abs=1e-15))
    assert out["macro_f1"] == pytest.approx((1 + 16 / 19) / 2, abs=1e-15)
    assert out["micro_f1"] == pytest.approx(34 / 37, abs=1e-15) and out["micro_f1_ci_high"] == 1.0


def test_docsmatch_results_zero_division():
    # the gold's coref items: the boy merged across the sentences and the :ARG0 into it; none predicted
    out = docsmatch_results([PRED], [GOLD], coref=True)
    assert (out["coref_match"], out["coref_test"], out["coref_gold"]) == (0, 0, 2)
    assert out["coref_precision"] is None and (out["coref_recall"], out["coref_f1"]) == (0.0, 0.0)
    out = docsmatch_results([PRED], [GOLD], coref=True, zero_division=1.0)
    assert (out["coref_precision"], out["coref_recall"], out["coref_f1"]) == (1.0, 0.0, 0.0)


def test_docsmatch_scored_reads_a_result():
    result = SimpleNamespace(
        pairs=[SimpleNamespace(match=3, test=4, gold=4), SimpleNamespace(match=0, test=0, gold=0)],
        aspects=None,
        as_dict=lambda: {"f1": 0.75},
    )
    assert DocsmatchScored(result).results() == {"f1": 0.75}
    scored = DocsmatchScored(result, per_item=True)
    assert scored.results()["per_document_f1"][0] == 0.75 and scored.item_scores()["per_document_f1"][1] is None


def mf_result(meaning_items, acceptable, beta=1.0):
    return SimpleNamespace(
        meaning_items=meaning_items,
        acceptable=acceptable,
        beta=beta,
        dimensions=None,
        dimension_items=None,
        as_dict=lambda per_example=False: {"mf_beta": 0.5, **({"pref_scores": [0.9, 0.1]} if per_example else {})},
    )


def test_mfbeta_scored_items_once_from_the_result():
    scored = MfbetaScored(mf_result([(1, 1, 1), (0, 1, 1)], [True, False]), ["(a / a)"] * 2, ["(a / a)"] * 2)
    assert scored.items.tolist() == [[1.0, 1.0, 1.0, 1.0], [0.0, 1.0, 1.0, 0.0]]
    assert scored.items is scored.items  # computed once, for both the intervals and the test
    assert sorted(scored.parts()) == ["form", "meaning", "mf_beta"]
    assert scored.results() == {"mf_beta": 0.5} and scored.item_scores() == {}
    assert MfbetaScored(mf_result([], []), None, None, per_example=True).results()["pref_scores"] == [0.9, 0.1]
    # resampling the two items: Form 1, 1/2 or 0; the interval at 95 % of 400 resamples spans both ends
    bounds = scored.intervals(400, seed=0, confidence=0.95)
    assert (bounds["form_ci_low"], bounds["form_ci_high"]) == (0.0, 1.0)


@pytest.mark.parametrize("level", ["sentence", "document"])
def test_mfbeta_results_passes_each_level_its_own_keywords(level, monkeypatch):
    import amreval.mfbeta.document
    import amreval.mfbeta.score

    seen: dict = {}

    def record(predictions, references, **kw):
        seen.update(kw)
        return SimpleNamespace(as_dict=lambda per_example=False: {"mf_beta": 1.0, "config": "score=mfbeta"})

    monkeypatch.setattr(amreval.mfbeta.score, "mfbeta", record)
    monkeypatch.setattr(amreval.mfbeta.document, "document_mfbeta", record)
    settings = {name: f"<{name}>" for name in (*SENTENCE_KEYWORDS, *DOCUMENT_KEYWORDS, "parser", "beta")}
    out = mfbeta_results(["a"], ["b"], scorer="<lm>", level=level, seed=4, device="cpu", **settings)
    assert out == {"mf_beta": 1.0, "config": "score=mfbeta"}
    left_out = DOCUMENT_KEYWORDS if level == "sentence" else SENTENCE_KEYWORDS
    assert not set(left_out) & set(seen) and "batch_size" not in seen  # None: MFβ's default
    kept = SENTENCE_KEYWORDS if level == "sentence" else DOCUMENT_KEYWORDS
    assert {k: seen[k] for k in kept} == {k: f"<{k}>" for k in kept}
    assert (seen["scorer"], seen["seed"], seen["device"], seen["prediction_amrs"]) == ("<lm>", 4, "cpu", None)


def test_the_module_needs_no_evaluate():
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['evaluate'] = None; import amreval.hub.metric_compute; "
        "print('amreval.mfbeta.score' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"  # nor MFβ's modules, until MFβ is scored
