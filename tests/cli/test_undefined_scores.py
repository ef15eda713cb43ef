"""The one rule of a score with nothing to score (0/0), on every path a user reads it from the command line:
``n/a`` in text, tables and CSV, ``null`` in JSON (valid JSON: no NaN), never 0.0 or 1.0 in its place; a
score that is genuinely 0 (something predicted or gold, nothing matched) stays 0."""

from __future__ import annotations

import json

import pytest

from amreval.cli import main
from amreval.scores.f1 import UNDEFINED_TEXT, defined_or_none, score_text, undefined

# neither side has a :wiki, a :name or coreference; only the gold has a negation
PRED = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))\n\n(s / sleep-01 :ARG0 (c / cat))\n"
GOLD = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))\n\n(s / sleep-01 :ARG0 (c / cat) :polarity -)\n"


def _no_nan(constant: str) -> None:
    raise ValueError(f"not valid JSON: {constant}")


def strict_json(text: str):
    """``json.loads`` that refuses NaN and Infinity, as standard JSON readers do."""
    return json.loads(text, parse_constant=_no_nan)


@pytest.fixture
def files(tmp_path):
    pred, gold = tmp_path / "pred.amr", tmp_path / "gold.amr"
    pred.write_text(PRED, encoding="utf-8")
    gold.write_text(GOLD, encoding="utf-8")
    return str(pred), str(gold)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_the_rule_in_one_place():
    assert UNDEFINED_TEXT == "n/a"
    assert [undefined(w, 0, 0) for w in ("precision", "recall", "f1")] == [True, True, True]
    assert [undefined(w, 0, 2) for w in ("precision", "recall", "f1")] == [True, False, False]
    assert (score_text(None), score_text(float("nan"), 2), score_text(0.0, 2), score_text(-0.5, 1, signed=True)) == (
        "n/a",
        "n/a",
        "0.00",
        "-0.5",
    )
    assert (defined_or_none(float("nan")), defined_or_none(1), defined_or_none(None)) == (None, 1.0, None)


def test_fine_grained_and_coref_text(capsys, files):
    out = run(capsys, "docsmatch", "-f", *files, "--fine-grained", "--coref-subscore").splitlines()
    # 10 of 11 predicted and 12 gold triples; no coref item on either side
    assert out[:8] == [
        "Overall Score:",
        "Precision: 0.9091",
        "Recall: 0.8333",
        "F-score: 0.8696",
        "Coref Score",
        "Precision: n/a",
        "Recall: n/a",
        "F-score: n/a",
    ]
    # one gold negation, none predicted: precision undefined, recall and F genuinely 0
    assert "Negations -> P: n/a, R: 0.0000, F: 0.0000" in out
    assert "Wikification -> P: n/a, R: n/a, F: n/a" in out
    assert "Named Ent. -> P: n/a, R: n/a, F: n/a" in out


def test_docsmatch_json_is_null_and_valid(capsys, files):
    data = strict_json(run(capsys, "docsmatch", "-f", *files, "--fine-grained", "--coref-subscore", "--json"))
    assert (data["wikification_precision"], data["wikification_recall"], data["wikification_f1"]) == (None,) * 3
    assert (data["negations_precision"], data["negations_recall"], data["negations_f1"]) == (None, 0.0, 0.0)
    assert (data["coref_precision"], data["coref_f1"], data["coref_test"]) == (None, None, 0)
    assert data["f1"] == pytest.approx(20 / 23, abs=1e-15)
    # the intervals of a sub-score with nothing to score are undefined too; a genuine 0 has its interval
    data = strict_json(run(capsys, "docsmatch", "-f", *files, "--fine-grained", "--ci", "--resamples", "50", "--json"))
    assert (data["wikification_f1_ci_low"], data["wikification_f1_ci_high"]) == (None, None)
    assert (data["coref_bridging_recall_ci_low"], data["negations_precision_ci_high"]) == (None, None)
    assert (data["negations_f1_ci_low"], data["negations_f1_ci_high"]) == (0.0, 0.0)
    assert data["f1_ci_low"] <= data["f1"] <= data["f1_ci_high"]


def test_aspects_text_and_json(capsys, files):
    out = run(capsys, "smatch", "-f", *files, "--aspects", "onealign").splitlines()
    assert "WIKI               -> F: n/a  (0 of 0 test, 0 gold)" in out
    assert "POLARITY           -> F: 0.00  (0 of 0 test, 2 gold)" in out  # genuinely 0
    assert out[1] == "main               -> F: 0.87  (10 of 11 test, 12 gold)"
    data = strict_json(run(capsys, "smatch", "-f", *files, "--aspects", "onealign", "--json"))
    assert data["aspects"]["WIKI"] == {"match": 0, "test": 0, "gold": 0, "precision": None, "recall": None, "f1": None}
    assert data["aspects"]["POLARITY"]["f1"] == 0.0 and data["aspects"]["POLARITY"]["precision"] is None


def test_comparison_table_csv_and_json(capsys, files, tmp_path):
    pred, gold = files
    csv_path = tmp_path / "items.csv"
    argv = ["compare", "--gold", gold, "-f", pred, gold, "--names", "p", "g", "--score", "wikification"]
    out = run(capsys, *argv, "--csv", str(csv_path)).splitlines()
    assert out[2:5] == ["rank  system   F1  95% CI", "   1  p       n/a  n/a", "   2  g       n/a  n/a"]
    assert out[6] == "p - g: F1 difference n/a (nothing to score on a side), p = n/a"
    breakdown = {line.split()[0]: line.split()[1:] for line in out if line.startswith(("wikification", "negations"))}
    assert breakdown["wikification"] == ["n/a"] * 5
    # negations: the gold has one, p none: 0 against 1, a real difference
    assert breakdown["negations"] == ["0.0000", "1.0000", "-1.0000", "[-1.0000,", "+0.0000]", "1.0000"]
    assert csv_path.read_text(encoding="utf-8").splitlines() == [
        "position,id,p,g,difference,p_match,p_test,p_gold,g_match,g_test,g_gold",
        "1,1,n/a,n/a,n/a,0,0,0,0,0,0",
        "2,2,n/a,n/a,n/a,0,0,0,0,0,0",
    ]
    data = strict_json(run(capsys, *argv, "--json"))
    assert [(s["name"], s["f1"], s["ci_low"], s["ci_high"]) for s in data["systems"]] == [
        ("p", None, None, None),
        ("g", None, None, None),
    ]
    t = data["tests"][0]
    assert (t["score_a"], t["score_b"], t["difference"], t["ci_low"], t["ci_high"], t["p_value"]) == (None,) * 6
    assert data["items"][0]["scores"] == {"p": None, "g": None}
    assert data["largest_differences"][0] == {
        "index": 0,
        "id": "1",
        "score_a": None,
        "score_b": None,
        "difference": None,
    }


def test_an_empty_prediction_is_still_zero(capsys, tmp_path):
    """Only 0/0 is undefined: an unreadable prediction (an empty graph) against a non-empty gold graph is
    F 0.0, as smatch has it."""
    pred, gold = tmp_path / "pred.amr", tmp_path / "gold.amr"
    gold.write_text("(w / want-01 :ARG0 (b / boy))\n", encoding="utf-8")
    pred.write_text("(x / cat\n", encoding="utf-8")
    data = strict_json(run(capsys, "smatch", "-f", str(pred), str(gold), "--json"))
    assert (data["test"], data["gold"], data["f1"], data["n_unreadable"]) == (0, 4, 0.0, 1)
    assert run(capsys, "smatch", "-f", str(pred), str(gold)) == "F-score: 0.00\n"
