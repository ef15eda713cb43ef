"""Smatch as a ``datasets`` batch function: per-example counts that sum to the command line's."""

from __future__ import annotations

import json
import warnings

import pytest

from amreval import InputError, read_graphs
from amreval.cli import main
from amreval.hub.batch import corpus_counts, smatch_batch


def test_a_batch_gives_each_example_its_counts():
    batch = {
        "prediction": ["(w / want-01 :ARG0 (b / boy))", "(d / dog :ARG0 (x / )", "(a / apple)"],
        "reference": ["(w / want-01 :ARG0 (g / girl))", "(d / dog)", "(a / apple :mod (r / red))"],
    }
    out = smatch_batch(batch, [10, 11, 12])
    # want-01, TOP and :ARG0 match; the unreadable prediction is an empty graph; apple and TOP match
    assert out == {
        "match": [3, 0, 2],
        "test": [4, 0, 2],
        "gold": [4, 2, 4],
        "optimal": [True, True, True],
        "unreadable": [False, True, False],
        "over_budget": [False, False, False],
        "timed_out": [False, False, False],
    }
    totals = corpus_counts(out)
    assert (totals["match"], totals["test"], totals["gold"], totals["n_unreadable"]) == (5, 6, 10, 1)
    assert totals["f1"] == pytest.approx(2 * 5 / 16)


def test_a_pair_over_the_memory_budget_is_scored_and_counted(monkeypatch):
    from amreval.match import problem as problem_module

    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 0)
    # roles swapped: 4 of 6 under the node bound 5 (a with p earns x, TOP and half of each relation: 3; b
    # with q and c with t a concept each); the same text: proven, no problem
    batch = {
        "prediction": ["(a / x :r (b / y) :s (c / z))", "(a / b)"],
        "reference": ["(p / x :s (q / y) :r (t / z))", "(a / b)"],
    }
    out = smatch_batch(batch, [0, 1])
    assert (out["match"], out["optimal"], out["over_budget"]) == ([4, 2], [False, True], [True, False])
    assert corpus_counts(out)["n_over_budget"] == 1


def test_the_same_text_on_both_sides_is_scored_without_the_search(monkeypatch):
    import amreval.scores.smatch as smatch_module

    def no_search(*args, **kwargs):
        raise AssertionError("searched")

    monkeypatch.setattr(smatch_module, "score_smatch_pair", no_search)
    same = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"
    # 3 instances, TOP, 3 relations: every triple matches, proven
    out = smatch_batch({"prediction": [same], "reference": [same]})
    assert (out["match"], out["test"], out["gold"], out["optimal"]) == ([7], [7], [7], [True])
    with pytest.raises(AssertionError, match="searched"):
        smatch_batch({"prediction": [same], "reference": ["(w / want-01)"]})
    with pytest.raises(AssertionError, match="searched"):  # the shortcut is the certified search's
        smatch_batch({"prediction": [same], "reference": [same]}, solver="hillclimb")


def test_bad_batches_are_named():
    with pytest.raises(InputError, match="the batch has no column 'reference'; it has 'prediction', 'gold'"):
        smatch_batch({"prediction": ["(a / b)"], "gold": ["(a / b)"]})
    with pytest.raises(InputError, match="2 predictions but 1 reference in the batch"):
        smatch_batch({"prediction": ["(a / b)", "(c / d)"], "reference": ["(a / b)"]})
    with pytest.raises(InputError, match=r"^reference #8: empty string; expected a PENMAN graph"):
        smatch_batch({"prediction": ["(a / b)"], "reference": [""]}, [7])
    out = smatch_batch({"pred": ["(a / b)"], "gold": ["(a / b)"]}, prediction_column="pred", reference_column="gold")
    assert out["match"] == [2]


def test_dataset_map_with_two_processes_gives_the_command_lines_counts(data_dir, capsys):
    pytest.importorskip("datasets.builder", reason="the hub extra (datasets) is not installed")
    import datasets

    pred, gold = data_dir / "parses" / "bart_sys.amr", data_dir / "parses" / "gold.amr"
    assert main(["smatch", "-f", str(pred), str(gold), "--json", "--no-progress"]) == 0
    cli = json.loads(capsys.readouterr().out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # bart_sys.amr graph #155 points to an undefined variable
        texts = {
            "prediction": [g.to_string(indent=None) for g in read_graphs(pred)],
            "reference": [g.to_string(indent=None) for g in read_graphs(gold)],
        }
        ds = datasets.Dataset.from_dict(texts)
        scored = ds.map(smatch_batch, batched=True, batch_size=32, with_indices=True, num_proc=2)
    assert [(r["match"], r["test"], r["gold"]) for r in cli["pairs"]] == list(
        zip(scored["match"], scored["test"], scored["gold"])
    )
    totals = corpus_counts(scored)
    assert (totals["match"], totals["test"], totals["gold"], totals["n_pairs"]) == (2957, 3973, 3933, 200)
    assert (totals["match"], totals["test"], totals["gold"], totals["f1"]) == (
        cli["match"],
        cli["test"],
        cli["gold"],
        cli["f1"],
    )
