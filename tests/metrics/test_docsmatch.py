"""The `docsmatch` evaluate metric, loaded the way users load it (offline)."""

from __future__ import annotations

import doctest
import json
import math
import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
evaluate = pytest.importorskip("evaluate", reason="the hub extra (evaluate, datasets) is not installed")

from amreval import InputError, loads_graph, read_graphs
from amreval.scores.docsmatch import docsmatch

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "metrics" / "docsmatch"
GOLD = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 b))"
PRED = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 (b2 / boy)))"


@pytest.fixture(scope="module")
def metric():
    return evaluate.load(str(SCRIPT))


def test_loads_as_the_docsmatch_metric(metric):
    assert type(metric).__name__ == "Docsmatch" and metric.name == "docsmatch"


def test_compute_equals_the_core(metric):
    out = metric.compute(predictions=[PRED], references=[GOLD])
    core = docsmatch([PRED], [GOLD], coref=True).as_dict()
    # the core's dict, with its score's name in config only: the same, a 0/0 score None in both
    assert set(out) == set(core) - {"score"} and core["score"] == "docsmatch"
    assert out == {k: v for k, v in core.items() if k != "score"}
    # no coref item predicted (precisions), none of the named-entity or bridging kind on either side (all)
    assert sorted(k for k, v in out.items() if v is None) == [
        *(f"coref_{kind}_{w}" for kind in ("bridging", "named_entity") for w in ("f1", "precision", "recall")),
        "coref_other_precision",
        "coref_precision",
    ]
    # zero_division=0.0 is Smatch's convention: 0 where the core has None
    zero = metric.compute(predictions=[PRED], references=[GOLD], zero_division=0.0)
    assert zero == {k: 0.0 if v is None else v for k, v in core.items() if k != "score"}
    # pred: 5 concepts, TOP, 2 snt, 2 ARG0 = 10; gold 9; matched: 4 concepts, TOP, snt1, snt2, ARG0 w b
    assert (out["match"], out["test"], out["gold"]) == (8, 10, 9)
    # gold b is merged: (w ARG0 b), (g ARG0 b) are its coref edges; the prediction has none: precision 0/0
    assert out["coref_precision"] is None and (out["coref_recall"], out["coref_f1"]) == (0.0, 0.0)
    assert (out["coref_match"], out["coref_test"], out["coref_gold"]) == (0, 0, 2)  # the two edges into b
    assert out["config"].startswith(
        "solver=exact,restarts=19,seed=0,time_limit=600,work_limit=50000,score=docsmatch,coref=tiebreak"
    )
    assert all(v is None or v <= 1.0 for k, v in out.items() if k.endswith(("precision", "recall", "f1")))


def test_lists_of_sentences_and_keywords(metric):
    out = metric.compute(
        predictions=[["(w / want-01 :ARG0 (b / boy))", "(g / go-02)"]],
        references=[GOLD],
        coref=False,
        fine_grained=True,
        per_document=True,
        restarts=3,
        seed=7,
        solver="exact",
    )
    assert (out["match"], out["test"], out["gold"]) == (8, 8, 9)
    assert "coref_f1" not in out and out["per_document_f1"] == [pytest.approx(16 / 17)]
    # SRL: gold want-01, boy, go-02, two ARG0 edges and (TOP, w, want-01); the prediction has all
    # but go-02 and the ARG0 from it
    assert out["srl_recall"] == pytest.approx(4 / 6) and out["srl_precision"] == 1.0
    assert out["config"] == (
        "solver=exact,restarts=3,seed=7,time_limit=600,work_limit=50000,score=docsmatch,fine_grained=True,amreval=0.1.0"
    )


def test_add_batch_then_compute_equals_one_compute(metric, reference_dir):
    base = reference_dir / "docamr"
    pred = [g.to_string() for g in read_graphs(base / "synth.docAMR.pred.amr")]
    gold = [g.to_string() for g in read_graphs(base / "expected" / "synth.docAMR.amr")]
    once = metric.compute(predictions=pred, references=gold)
    for p, g in zip(pred, gold):
        metric.add_batch(predictions=[p], references=[g])
    assert metric.compute() == once
    assert (round(once["f1"], 4), round(once["coref_f1"], 4)) == (0.8966, 0.8235)
    two = metric.compute(predictions=pred, references=gold, num_workers=2)
    assert two == once


def test_bad_input_raises_value_errors_naming_the_index(metric):
    with pytest.raises(InputError, match=r"^2 predictions but 1 reference; they are paired by position$"):
        metric.compute(predictions=[PRED, PRED], references=[GOLD])
    with pytest.raises(ValueError, match="nothing to score"):
        metric.compute(predictions=[], references=[])
    with pytest.raises(ValueError, match=r"^prediction #2, graph #1, line 1: malformed PENMAN"):
        metric.compute(predictions=[PRED, "(a / b"], references=[GOLD, GOLD], strict=True)
    with pytest.raises(ValueError, match=r"^reference #2, graph #1, line 1: malformed PENMAN"):
        metric.compute(predictions=[PRED, PRED], references=[GOLD, "(a / b"])
    with pytest.raises(ValueError, match=r"^reference #1: empty string"):
        metric.compute(predictions=[PRED], references=[""])
    with pytest.raises(ValueError, match=r"^prediction #1: empty list"):
        metric.compute(predictions=[[]], references=[[GOLD]])


def test_docstring_examples_run(metric, monkeypatch):
    monkeypatch.chdir(ROOT)
    module = __import__(type(metric).__module__, fromlist=["_KWARGS_DESCRIPTION"])
    test = doctest.DocTestParser().get_doctest(module._KWARGS_DESCRIPTION, {"evaluate": evaluate}, "docsmatch", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False) == doctest.TestResults(failed=0, attempted=8)


@pytest.mark.parametrize("name", ["exact", "hillclimb", "auto"])
def test_config_name_is_the_default_solver(name):
    metric = evaluate.load(str(SCRIPT), name)
    out = metric.compute(predictions=[PRED], references=[GOLD])
    assert out["config"].startswith(f"solver={name},restarts=19,seed=0,")
    assert (out["match"], out["test"], out["gold"]) == (8, 10, 9)
    # a solver given to compute still wins
    assert metric.compute(predictions=[PRED], references=[GOLD], solver="exact")["config"].startswith("solver=exact,")


def test_unknown_config_name_is_an_error():
    with pytest.raises(
        ValueError, match=r"unknown config name 'fast' for docsmatch; expected one of hillclimb, exact, auto"
    ):
        evaluate.load(str(SCRIPT), "fast")


def _is_number(value):
    return isinstance(value, (int, float))


def test_every_value_is_a_number_but_config(metric):
    # no coref item of the named-entity or bridging kind, no wikification: 0/0 sub-scores everywhere
    out = metric.compute(
        predictions=[PRED, GOLD],
        references=[GOLD, GOLD],
        fine_grained=True,
        bootstrap=20,
        compare_predictions=[GOLD, PRED],
        n_resamples=50,
    )
    assert all(v is None or isinstance(v, (int, float)) for k, v in out.items() if k != "config")
    assert isinstance(out["config"], str) and "score" not in out
    # the bootstrap bounds of a 0/0 score are 0/0 too (every resample has no items), and so is a test of it
    assert [out[k] for k in ("coref_bridging_test", "coref_bridging_gold", "wikification_gold")] == [0, 0, 0]
    undefined = ["coref_bridging_f1", "coref_bridging_f1_ci_low", "coref_bridging_recall_ci_high", "wikification_f1"]
    undefined += ["compare_wikification_f1", "wikification_f1_difference", "wikification_f1_p_value"]
    assert [out[k] for k in undefined] == [None] * len(undefined)
    nans = metric.compute(predictions=[PRED], references=[GOLD], zero_division=float("nan"))
    assert math.isnan(nans["coref_bridging_f1"]) and nans["coref_recall"] == 0.0
    assert out["f1_ci_low"] == pytest.approx(16 / 19) and out["f1_ci_high"] == 1.0  # 16 of 19: pair 0's 2 × 8 / 19
    ones = metric.compute(predictions=[PRED], references=[GOLD], zero_division=1.0, per_document=True)
    assert (ones["coref_precision"], ones["coref_bridging_f1"], ones["coref_f1"]) == (1.0, 1.0, 0.0)
    assert ones["per_document_f1"] == [pytest.approx(16 / 19)] and all(
        _is_number(v) for k, v in ones.items() if k not in ("config", "per_document_f1")
    )
    with pytest.raises(InputError, match=r'^zero_division must be None, 0.0, 1.0 or float\("nan"\), got \'warn\'$'):
        metric.compute(predictions=[PRED], references=[GOLD], zero_division="warn")


def test_graphs_are_taken_where_strings_are(metric, reference_dir):
    base = reference_dir / "docamr"
    pred_graphs = read_graphs(base / "synth.docAMR.pred.amr")
    gold_graphs = read_graphs(base / "expected" / "synth.docAMR.amr")
    as_text = metric.compute(
        predictions=[g.to_string() for g in pred_graphs], references=[g.to_string() for g in gold_graphs]
    )
    assert metric.compute(predictions=pred_graphs, references=gold_graphs) == as_text
    sentences = [loads_graph("(w / want-01 :ARG0 (b / boy))"), "(g / go-02)"]
    out = metric.compute(predictions=[sentences], references=[loads_graph(GOLD)], coref=False)
    assert (out["match"], out["test"], out["gold"]) == (8, 8, 9)
    metric.add(prediction=loads_graph(PRED), reference=GOLD)
    assert metric.compute()["f1"] == pytest.approx(16 / 19)


def test_saved_results_are_valid_json(metric, tmp_path):
    """``evaluate.save`` of the results writes undefined scores as ``null``: standard JSON readers take it."""

    def no_nan(constant):
        raise ValueError(f"not valid JSON: {constant}")

    out = metric.compute(predictions=[PRED, GOLD], references=[GOLD, GOLD], fine_grained=True, ci=True, n_resamples=20)
    path = evaluate.save(str(tmp_path), **out)
    saved = json.loads(Path(path).read_text(encoding="utf-8"), parse_constant=no_nan)
    assert (saved["wikification_f1"], saved["wikification_f1_ci_low"], saved["coref_bridging_recall"]) == (None,) * 3
    # the gold has 2 coref items in each document; the first prediction has none of them: 2 of 4
    assert saved["f1"] == out["f1"] and saved["coref_recall"] == out["coref_recall"] == 0.5
