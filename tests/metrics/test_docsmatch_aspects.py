"""The `docsmatch` evaluate metric's aspect scores and averages, loaded the way users load it (offline)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
evaluate = pytest.importorskip("evaluate", reason="the hub extra (evaluate, datasets) is not installed")

from amreval import InputError
from amreval.scores.averages import averages
from amreval.scores.docsmatch import docsmatch

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "metrics" / "docsmatch"
# the boy is in both sentences; the prediction negates the wanting, the gold the girl; see-01's roles swapped
PRED = "(d / document :snt1 (w / want-01 :ARG0 (b / boy) :polarity -) :snt2 (s / see-01 :ARG0 b :ARG1 (g / girl)))"
GOLD = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (s / see-01 :ARG0 (g / girl :polarity -) :ARG1 b))"
SAME = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (s / sleep-01 :ARG0 b))"


@pytest.fixture(scope="module")
def metric():
    return evaluate.load(str(SCRIPT))


def test_aspect_scores_are_flat_numbers(metric):
    out = metric.compute(predictions=[PRED], references=[GOLD], coref=False, aspects="multialign")
    # the counts of tests/scores/test_doc_aspects.py's hand-checked pair
    assert (out["aspect_main_match"], out["aspect_main_test"], out["aspect_main_gold"]) == (9, 12, 12)
    assert (out["aspect_patient_match"], out["aspect_patient_test"], out["aspect_patient_gold"]) == (2, 3, 3)
    assert (out["aspect_agent_match"], out["aspect_agent_test"], out["aspect_agent_gold"]) == (4, 5, 7)
    assert out["aspect_agent_precision"] == 0.8 and out["aspect_agent_recall"] == 4 / 7
    assert out["aspect_polarity_f1"] == 0.0 and out["aspect_srl_core_f1"] == 10 / 15
    # nothing to score: None (zero_division's default), as every other 0/0 score of the metric
    assert out["aspect_wiki_f1"] is None and out["aspect_wiki_test"] == 0 and out["aspect_n_unproven"] == 0
    assert ",score=docsmatch,aspects=multialign,amreval=" in out["config"]
    one = metric.compute(predictions=[PRED], references=[GOLD], coref=False, aspects="onealign", zero_division=0.0)
    assert one["aspect_patient_match"] == 1 and one["aspect_wiki_f1"] == 0.0
    assert all(isinstance(v, (int, float)) for k, v in one.items() if k != "config")
    core = docsmatch([PRED], [GOLD], aspects="onealign").as_dict()
    assert {k: v for k, v in core.items() if k.startswith("aspect_") and v is not None} == {
        k: v for k, v in one.items() if k.startswith("aspect_") and k in core and core[k] is not None
    }
    assert not any(k.startswith("aspect_") for k in metric.compute(predictions=[PRED], references=[GOLD]))


def test_frames_intervals_and_the_paired_test(metric, tmp_path):
    frames = tmp_path / "frames.txt"
    frames.write_text("See-01  ARG0: viewer  ARG1: topic seen\n", encoding="utf-8")
    out = metric.compute(
        predictions=[PRED, SAME],
        references=[GOLD, SAME],
        coref=False,
        aspects="multialign",
        frames=str(frames),
        bootstrap=200,
        compare_predictions=[GOLD, SAME],
    )
    assert "frames=True" in out["config"]
    # see-01's :ARG1 is a :topic: PATIENT is empty, TOPIC maps g to b (s :topic b and s); the second
    # document has no see-01
    assert (out["aspect_topic_match"], out["aspect_topic_test"], out["aspect_topic_gold"]) == (2, 3, 3)
    assert out["aspect_patient_test"] == out["aspect_patient_gold"] == 0
    # AGENT: 4 of 5 and 7 in the first document, 5 of 5 in the second (w :arg0 b, s :arg0 b, w, b, s)
    assert (out["aspect_agent_match"], out["aspect_agent_test"], out["aspect_agent_gold"]) == (9, 10, 12)
    lo, hi = out["aspect_agent_f1_ci_low"], out["aspect_agent_f1_ci_high"]
    assert 2 / 3 <= lo <= 18 / 22 <= hi <= 1.0 and "aspect_main_precision_ci_low" in out
    # the gold as the second system: its every aspect is whole
    assert out["compare_aspect_agent_f1"] == 1.0 and out["aspect_agent_f1_difference"] == 18 / 22 - 1
    assert 0 <= out["aspect_agent_f1_p_value"] <= 1
    with pytest.raises(InputError, match="aspects: expected None, 'onealign' or 'multialign', got 'both'"):
        metric.compute(predictions=[PRED], references=[GOLD], aspects="both")
    with pytest.raises(InputError, match="frames: the PropBank frames rename roles for the aspect scores"):
        metric.compute(predictions=[PRED], references=[GOLD], frames=str(frames))


def test_averages_over_documents(metric):
    out = metric.compute(predictions=[PRED, SAME], references=[GOLD, SAME], coref=False, averages=True, seed=3)
    # DocSmatch under smatch's reading: the first document 9 of 12 and 12 (F1 0.75), the second 9 of 9
    assert (out["micro_f1"], out["macro_f1"]) == (out["f1"], (0.75 + 1.0) / 2) and out["micro_f1"] == 18 / 21
    core = averages(docsmatch([PRED, SAME], [GOLD, SAME]), n_resamples=10000, seed=3).as_dict()
    assert {k: out[k] for k in core} == core and len(core) == 18
    few = metric.compute(predictions=[PRED, SAME], references=[GOLD, SAME], averages=True, ci=True, n_resamples=50)
    assert few["macro_f1_ci_low"] == averages(docsmatch([PRED, SAME], [GOLD, SAME]), n_resamples=50).macro.f1_ci[0]
    with pytest.raises(InputError, match="averages"):
        metric.compute(predictions=[PRED], references=[GOLD], averages="yes")
