"""Model-card reporting: DocSmatch numbers into `model-index` metadata, and `evaluate.save`."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
hub = pytest.importorskip("huggingface_hub", reason="the hub extra (huggingface_hub) is not installed")

from huggingface_hub import EvalResult, ModelCard

from amreval import read_graphs
from amreval.errors import InputError, MissingDependencyError
from amreval.hub.modelcard import eval_results, merge_eval_results, write_model_card
from amreval.scores.docsmatch import docsmatch
from amreval.scores.smatch import smatch

ROOT = Path(__file__).resolve().parents[2]
GOLD = "(d / document :snt1 (a / go-02 :ARG0 (c / coref-entity)) :snt2 (b / sleep-01 :ARG0 c))"
# the second sentence loses its ARG0, one of the two coref edges into c
PRED = "(d / document :snt1 (a / go-02 :ARG0 (c / coref-entity)) :snt2 (b / sleep-01))"
CONFIG = "solver=exact,restarts=19,seed=0,time_limit=600,work_limit=50000,score=docsmatch,coref=tiebreak,amreval="
BODY = "# my-parser\n\nA BART AMR parser fine-tuned on AMR 3.0.\n\n## Evaluation\n\nSee the metadata.\n"


@pytest.fixture(scope="module")
def hand():
    """DocSmatch of PRED against GOLD, countable by hand.

    PRED: 4 instances, TOP, :snt1, :snt2, (a ARG0 c) = 8 triples; GOLD adds (b ARG0 c) = 9; all 8 match:
    P = 1, R = 8/9, F1 = 16/17. Coref items: the coref-entity instance and the edges into it, 2 in PRED
    and 3 in GOLD, 2 matched: P = 1, R = 2/3, F1 = 0.8.
    """
    return docsmatch([PRED], [GOLD], coref=True)


def by_name(entries):
    return {e.metric_name: e for e in entries}


def test_eval_results_one_entry_per_number(hand):
    assert (hand.match, hand.test, hand.gold, hand.coref.total) == (8, 8, 9, (2, 2, 3))
    entries = eval_results(hand, dataset_config="docamr")
    # rounded to 4 decimals by default
    assert [(e.metric_type, e.metric_name, e.metric_value) for e in entries] == [
        ("docsmatch", "DocSmatch precision", 1.0),
        ("docsmatch", "DocSmatch recall", 0.8889),
        ("docsmatch", "DocSmatch F1", 0.9412),
        ("docsmatch", "DocSmatch coref precision", 1.0),
        ("docsmatch", "DocSmatch coref recall", 0.6667),
        ("docsmatch", "DocSmatch coref F1", 0.8),
    ]
    exact = eval_results(hand, dataset_config="docamr", digits=None)
    assert [e.metric_value for e in exact] == [1.0, 8 / 9, 16 / 17, 1.0, 2 / 3, 0.8]
    assert [e.metric_value for e in eval_results(hand, keys=("f1", "match"), digits=2)] == [0.94, 8]
    for e in entries:
        assert type(e.metric_value) is float
        assert e.metric_config.startswith(CONFIG) and e.metric_config == hand.config.as_string()
        assert (e.task_type, e.task_name) == ("text2text-generation", "AMR parsing")
        assert (e.dataset_type, e.dataset_name, e.dataset_config, e.dataset_split) == (
            "ms_amr",
            "MS-AMR (test)",
            "docamr",
            "test",
        )
    # the flat dict of as_dict() (what the evaluate metric returns) gives the same entries
    assert eval_results(hand.as_dict(), dataset_config="docamr") == entries


def test_keys_names_and_metric_inference(hand):
    entries = eval_results(hand, keys=("coref_other_f1", "noncoref_f1", "match", "n_pairs"))
    assert [(e.metric_name, e.metric_value) for e in entries] == [
        ("DocSmatch coref other F1", 0.8),
        ("DocSmatch non-coref F1", 1.0),
        ("DocSmatch match", 8),
        ("DocSmatch n pairs", 1),
    ]
    # without the coref sub-score the default keys are the overall ones; the metric comes from the
    # result's score entry, not from its keys (which look like Smatch's)
    plain = eval_results(docsmatch([PRED], [GOLD], coref=False))
    assert [e.metric_name for e in plain] == ["DocSmatch precision", "DocSmatch recall", "DocSmatch F1"]
    # a metric output (a plain mapping) is read the same way, and never by parsing the config line
    [s2] = eval_results({"f1": 0.5, "score": "s2match", "config": "score=docsmatch"}, keys=["f1"])
    assert (s2.metric_type, s2.metric_name, s2.metric_config) == ("s2match", "S²match F1", "score=docsmatch")
    # Smatch: 3 of 4 triples match each way
    r = smatch(["(w / want-01 :ARG0 (b / boy))"], ["(w / want-01 :ARG0 (g / girl))"])
    [f1] = eval_results(r, keys=["f1"], dataset_type="amr3", dataset_name="AMR 3.0", digits=2)
    assert (f1.metric_type, f1.metric_name, f1.metric_value, f1.dataset_type) == ("smatch", "Smatch F1", 0.75, "amr3")
    # MFβ: β = 1 makes mf_beta and mf_1 the same number under the same name, reported once
    mf = {
        "mf_beta": 0.6,
        "mf_1": 0.6,
        "mf_0.5": 0.7,
        "mf_2": 0.5,
        "meaning": 0.8,
        "form": 0.5,
        "beta": 1.0,
        "config": "solver=exact,restarts=19,seed=0,time_limit=30,score=mfbeta,beta=1.0,amreval=0.1.0",
    }
    entries = eval_results(mf, dataset_type="amr3", dataset_name="AMR 3.0 (test)")
    assert [(e.metric_type, e.metric_name, e.metric_value) for e in entries] == [
        ("mfbeta", "MFβ (β=1)", 0.6),
        ("mfbeta", "MFβ (β=0.5)", 0.7),
        ("mfbeta", "MFβ (β=2)", 0.5),
        ("mfbeta", "MFβ meaning (M)", 0.8),
        ("mfbeta", "MFβ form (F)", 0.5),
    ]
    assert {(e.task_type, e.task_name) for e in entries} == {("text-generation", "AMR-to-text generation")}
    [s2] = eval_results({"f1": 0.5}, metric="s2match", keys=["f1"], metric_args={"cutoff": 0.5})
    assert (s2.metric_name, s2.metric_config, s2.metric_args) == ("S²match F1", None, {"cutoff": 0.5})


def test_dataset_defaults_follow_the_metric_and_the_split(hand):
    [doc] = eval_results(hand, keys=["f1"], dataset_split="validation")
    assert (doc.dataset_type, doc.dataset_name, doc.dataset_split) == ("ms_amr", "MS-AMR (validation)", "validation")
    [doc] = eval_results(hand, keys=["f1"], dataset_split=None)
    assert (doc.dataset_type, doc.dataset_name, doc.dataset_split) == ("ms_amr", "MS-AMR", None)
    # sentence metrics default to AMR 3.0 (LDC2020T02)
    r = smatch(["(w / want-01 :ARG0 (b / boy))"], ["(w / want-01 :ARG0 (g / girl))"])
    [f1] = eval_results(r, keys=["f1"])
    assert (f1.dataset_type, f1.dataset_name, f1.dataset_split) == ("ldc2020t02", "AMR 3.0 (test)", "test")
    assert (f1.task_type, f1.task_name) == ("text2text-generation", "AMR parsing")
    [s2] = eval_results({"f1": 0.5, "score": "s2match"}, keys=["f1"], dataset_split="validation")
    assert (s2.dataset_type, s2.dataset_name) == ("ldc2020t02", "AMR 3.0 (validation)")
    [mf] = eval_results({"mf_beta": 0.6, "beta": 1.0}, keys=["mf_beta"])
    assert (mf.dataset_type, mf.dataset_name, mf.task_type) == ("ldc2020t02", "AMR 3.0 (test)", "text-generation")
    # a given id without a name: the id names it; a given name is kept as it is
    [other] = eval_results(hand, keys=["f1"], dataset_type="my_docs", dataset_split="train")
    assert (other.dataset_type, other.dataset_name) == ("my_docs", "my_docs (train)")
    [named] = eval_results(hand, keys=["f1"], dataset_name="DocAMR synthetic")
    assert (named.dataset_type, named.dataset_name) == ("ms_amr", "DocAMR synthetic")


def test_bad_keys_and_missing_hub(hand, monkeypatch):
    with pytest.raises(InputError, match=r"not in the result: 'bleu'"):
        eval_results(hand, keys=["f1", "bleu"])
    with pytest.raises(InputError, match=r"'config' is not a number"):
        eval_results(hand, keys=["config"])
    with pytest.raises(InputError, match="pass metric="):
        eval_results({"accuracy": 0.5})
    with pytest.raises(InputError, match="expected a result with as_dict"):
        eval_results([0.5])  # type: ignore[arg-type]
    monkeypatch.setitem(sys.modules, "huggingface_hub", None)
    with pytest.raises(
        MissingDependencyError,
        match=r"huggingface_hub is needed for model-card reporting: "
        r"pip install 'amreval\[hub\]'",
    ):
        eval_results(hand)
    with pytest.raises(ImportError):
        write_model_card("README.md", [], model_name="x")


def test_card_carries_the_numbers_exactly(hand, tmp_path):
    path = tmp_path / "README.md"
    written = write_model_card(
        path,
        eval_results(hand, dataset_config="docamr", digits=None),
        model_name="my-parser",
        text=BODY,
        metadata={"license": "apache-2.0", "tags": ["amr", "docamr"]},
    )
    card = ModelCard.load(path)
    assert card.data.model_name == "my-parser"
    assert (card.data.license, card.data.tags) == ("apache-2.0", ["amr", "docamr"])
    got = by_name(card.data.eval_results)
    assert got["DocSmatch F1"].metric_value == hand.f1 == 16 / 17
    assert got["DocSmatch coref F1"].metric_value == hand.coref_f1 == 0.8
    assert got["DocSmatch recall"].metric_value == 8 / 9 and got["DocSmatch coref recall"].metric_value == 2 / 3
    assert {e.metric_config for e in card.data.eval_results} == {hand.config.as_string()}
    assert card.text == BODY
    # what write_model_card returns is what the file holds
    assert written.data.to_dict() == card.data.to_dict()
    assert card.data.eval_results == eval_results(hand, dataset_config="docamr", digits=None)


def test_yaml_round_trips(hand, tmp_path):
    path = tmp_path / "README.md"
    write_model_card(path, eval_results(hand), model_name="my-parser", text=BODY, metadata={"language": "en"})
    first = path.read_text(encoding="utf-8")
    card = ModelCard.load(path)
    card.save(tmp_path / "again.md")
    again = ModelCard.load(tmp_path / "again.md")
    assert again.data.to_dict() == card.data.to_dict()
    assert again.data.eval_results == card.data.eval_results
    assert again.text == card.text == BODY
    assert (tmp_path / "again.md").read_text(encoding="utf-8") == first
    assert first.startswith("---\nlanguage: en\nmodel-index:\n- name: my-parser\n")


def test_update_replaces_the_same_metric_and_keeps_the_rest(hand, tmp_path):
    path = tmp_path / "README.md"
    path.write_text(
        "---\nlicense: mit\nbase_model: facebook/bart-large\nmodel-index:\n- name: old-name\n  results:\n"
        "  - task:\n      type: semantic-parsing\n      name: AMR parsing\n"
        "    dataset:\n      name: AMR 3.0 (test)\n      type: amr3\n      split: test\n"
        "    metrics:\n    - type: smatch\n      value: 0.84\n      name: Smatch F1\n"
        "---\n" + BODY,
        encoding="utf-8",
    )
    # first DocSmatch report: a perfect parse
    perfect = docsmatch([GOLD], [GOLD], coref=True)
    write_model_card(path, eval_results(perfect, keys=("f1", "coref_f1")), model_name="my-parser")
    card = ModelCard.load(path)
    assert [(e.metric_type, e.metric_name, e.metric_value) for e in card.data.eval_results] == [
        ("smatch", "Smatch F1", 0.84),
        ("docsmatch", "DocSmatch F1", 1.0),
        ("docsmatch", "DocSmatch coref F1", 1.0),
    ]
    # second report on the same task and dataset: the DocSmatch numbers are replaced in place, one is added
    write_model_card(path, eval_results(hand, keys=("coref_f1", "f1", "precision")), model_name="my-parser")
    card = ModelCard.load(path)
    assert [(e.metric_type, e.metric_name, e.metric_value) for e in card.data.eval_results] == [
        ("smatch", "Smatch F1", 0.84),
        ("docsmatch", "DocSmatch F1", 0.9412),
        ("docsmatch", "DocSmatch coref F1", 0.8),
        ("docsmatch", "DocSmatch precision", 1.0),
    ]
    assert (card.data.license, card.data.base_model) == ("mit", "facebook/bart-large")
    assert card.data.model_name == "my-parser"
    assert card.text == BODY
    # another split is another result, kept beside the test split
    write_model_card(
        path,
        eval_results(perfect, keys=["f1"], dataset_split="validation"),
        model_name="my-parser",
    )
    card = ModelCard.load(path)
    assert [(e.dataset_name, e.dataset_split, e.metric_name, e.metric_value) for e in card.data.eval_results][-3:] == [
        ("MS-AMR (test)", "test", "DocSmatch coref F1", 0.8),
        ("MS-AMR (test)", "test", "DocSmatch precision", 1.0),
        ("MS-AMR (validation)", "validation", "DocSmatch F1", 1.0),
    ]
    assert card.text == BODY
    # update=False starts over: one result, the default body
    write_model_card(path, eval_results(hand, keys=["f1"]), model_name="other", update=False)
    card = ModelCard.load(path)
    assert [(e.metric_name, e.metric_value) for e in card.data.eval_results] == [("DocSmatch F1", 0.9412)]
    assert card.data.license is None and card.text == "# other\n"


def test_update_a_card_without_front_matter_keeps_its_body(hand, tmp_path):
    (tmp_path / "README.md").write_text(BODY, encoding="utf-8")
    write_model_card(tmp_path, eval_results(hand), model_name="my-parser")
    card = ModelCard.load(tmp_path / "README.md")
    assert card.text == BODY and len(card.data.eval_results) == 6


def test_merge_shares_the_group_names():
    def entry(name, value, dataset_name="MS-AMR"):
        return EvalResult(
            task_type="text2text-generation",
            dataset_type="ms_amr",
            dataset_name=dataset_name,
            metric_type="docsmatch",
            metric_name=name,
            metric_value=value,
        )

    old = [entry("DocSmatch F1", 0.5), entry("DocSmatch precision", 0.6)]
    merged = merge_eval_results(old, [entry("DocSmatch F1", 0.7, "MS-AMR (test)")])
    assert [(e.metric_name, e.metric_value, e.dataset_name) for e in merged] == [
        ("DocSmatch F1", 0.7, "MS-AMR (test)"),
        ("DocSmatch precision", 0.6, "MS-AMR (test)"),
    ]
    assert old[1].dataset_name == "MS-AMR"  # the inputs are left alone


def test_reference_documents(reference_dir, tmp_path):
    base = reference_dir / "docamr"
    pred = list(read_graphs(base / "synth.docAMR.pred.amr"))
    gold = list(read_graphs(base / "expected" / "synth.docAMR.amr"))
    result = docsmatch(pred, gold, coref=True)
    assert (round(result.f1, 4), round(result.coref_f1, 4)) == (0.8966, 0.8235)
    write_model_card(tmp_path, eval_results(result, dataset_name="DocAMR synthetic example"), model_name="ref")
    got = by_name(ModelCard.load(tmp_path / "README.md").data.eval_results)
    assert result.f1 == 2 * 78 / (84 + 90)
    assert (got["DocSmatch F1"].metric_value, got["DocSmatch coref F1"].metric_value) == (0.8966, 0.8235)


def _no_nan(constant):
    raise ValueError(f"not valid JSON: {constant}")


def test_evaluate_save_writes_the_same_numbers(tmp_path):
    evaluate = pytest.importorskip("evaluate", reason="the hub extra (evaluate, datasets) is not installed")
    metric = evaluate.load(str(ROOT / "metrics" / "docsmatch"))
    results = metric.compute(predictions=[PRED, GOLD], references=[GOLD, GOLD])
    # 17 of 17 predicted and 18 gold triples; coref 5 of 5 and 6
    assert (results["f1"], results["coref_f1"]) == (34 / 35, 10 / 11)
    path = evaluate.save(tmp_path / "docsmatch.json", **results, model="my-parser")
    assert path == tmp_path / "docsmatch.json"
    with open(path, encoding="utf-8") as f:
        saved = json.load(f, parse_constant=_no_nan)  # valid JSON: a 0/0 sub-score is null, not NaN
    assert {k: saved[k] for k in results} == results
    assert saved["coref_bridging_f1"] is None and results["coref_bridging_test"] == 0
    # the metric's results name their score in config only (score=docsmatch): the metric is read from it
    entries = eval_results(results, keys=["f1", "coref_f1"])
    assert [(e.metric_name, e.metric_value) for e in entries] == [
        ("DocSmatch F1", 0.9714),
        ("DocSmatch coref F1", 0.9091),
    ]
    assert saved["config"].startswith(CONFIG) and saved["model"] == "my-parser"
    assert {"_timestamp", "_git_commit_hash", "_evaluate_version", "_python_version"} <= saved.keys()
    # a directory gets a time-stamped file name
    named = evaluate.save(tmp_path / "runs", **results)
    assert named.parent == tmp_path / "runs" and named.name.startswith("result-") and named.suffix == ".json"
    # the saved dict feeds the model card as the computed one does
    from_saved = eval_results({k: v for k, v in saved.items() if not k.startswith("_")})
    assert from_saved == eval_results(results)
    assert by_name(from_saved)["DocSmatch coref F1"].metric_value == 0.9091  # 10/11, to 4 decimals


def test_an_uncertified_score_says_so_in_the_card():
    values = {"f1": 0.5, "n_unproven": 2, "gap": 3.0, "score": "smatch", "config": "solver=exact,score=smatch"}
    [entry] = eval_results(values, keys=["f1"])
    assert entry.metric_config == "solver=exact,score=smatch,unproven=2,gap=3"
    [certified] = eval_results(dict(values, n_unproven=0, gap=0.0), keys=["f1"])
    assert certified.metric_config == "solver=exact,score=smatch"


def test_a_score_the_clock_stopped_says_so_in_the_card_and_both_config_lines_name_the_metric():
    # the config line before the work limit (time_limit=30, no work_limit) and after it name the same metric
    for config in (
        "solver=exact,restarts=19,seed=0,time_limit=30,score=docsmatch,coref=tiebreak,amreval=0.1.0",
        "solver=exact,restarts=19,seed=0,time_limit=600,work_limit=50000,score=docsmatch,coref=tiebreak,amreval=0.1.0",
    ):
        [entry] = eval_results({"f1": 0.5, "config": config}, keys=["f1"])
        assert (entry.metric_type, entry.metric_name, entry.metric_config) == ("docsmatch", "DocSmatch F1", config)
    # a pair the time limit (the safety net) stopped: its numbers can depend on the machine, said in the card
    values = {"f1": 0.5, "n_unproven": 1, "gap": 2.0, "n_timed_out": 1, "config": "solver=exact,score=smatch"}
    [entry] = eval_results(values, keys=["f1"])
    assert entry.metric_config == "solver=exact,score=smatch,unproven=1,gap=2,timed_out=1"
    [counted] = eval_results(dict(values, n_timed_out=0), keys=["f1"])
    assert counted.metric_config == "solver=exact,score=smatch,unproven=1,gap=2"
