"""``amreval compare``: systems scored once, paired tests, rankings, CSV and SVG, on the command line."""

from __future__ import annotations

import csv
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from amreval.cli import main
from amreval.scores.f1 import prf

DOCS = Path(__file__).resolve().parents[2] / "metrics" / "docsmatch" / "examples"
GOLD = """# ::id s1
(w / want-01 :ARG0 (b / boy))

# ::id s2
(g / go-02 :ARG0 (g2 / girl))

# ::id s3
(c / cat :mod (b / big))
"""
PRED = "(w / want-01 :ARG0 (b / boy))\n\n(g / go-02 :ARG0 (g2 / girl))\n\n(c / cat)\n"
OTHER = "(w / want-01 :ARG0 (b / boy))\n\n(g / go-01 :ARG0 (g2 / girl))\n\n(d / dog)\n"


@pytest.fixture
def files(tmp_path):
    paths = {}
    for name, text in (("gold", GOLD), ("pred", PRED), ("other", OTHER)):
        paths[name] = tmp_path / f"{name}.amr"
        paths[name].write_text(text, encoding="utf-8")
    return {k: str(v) for k, v in paths.items()}


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_two_systems_as_text_csv_and_svg(capsys, files, tmp_path):
    code, out, err = run(
        capsys,
        "compare",
        "-f",
        files["pred"],
        files["other"],
        "--gold",
        files["gold"],
        "--csv",
        tmp_path / "items.csv",
        "--svg",
        tmp_path / "items.svg",
        "--top",
        2,
    )
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == (
        "Smatch F1 of 3 items; permutation test (two-sided, exact, all 8 swaps, seed 0); intervals: paired bootstrap"
    )
    # pred (10, 10, 12): 20/22; other (8, 10, 12): 16/22; items 2 and 3 swapped alone give d = 0: p = 4/8
    assert lines[3].split()[:3] == ["1", "pred", "0.9091"] and lines[4].split()[:3] == ["2", "other", "0.7273"]
    assert lines[6].startswith("pred - other: F1 difference +0.1818, 95% CI [") and lines[6].endswith("p = 0.5000")
    # s3: 2 of 2 and 4 (2/3) against 1 of 2 and 4 (1/3); s2: 1 against 3/4
    assert lines[-3:] == [
        "item  id    pred   other  difference",
        "   3  s3  0.6667  0.3333     +0.3333",
        "   2  s2  1.0000  0.7500     +0.2500",
    ]
    rows = list(csv.reader((tmp_path / "items.csv").open(encoding="utf-8")))
    assert [r[:2] for r in rows] == [["position", "id"], ["3", "s3"], ["2", "s2"], ["1", "s1"]]
    assert rows[2][5:] == ["4", "4", "4", "3", "4", "4"]
    svg = ET.parse(tmp_path / "items.svg").getroot()
    assert len(svg.findall(".//{http://www.w3.org/2000/svg}rect[@class='item']")) == 2


def test_json_three_systems_names_and_options(capsys, files):
    code, out, err = run(
        capsys,
        "compare",
        "-f",
        files["pred"],
        files["other"],
        files["gold"],
        "--gold",
        files["gold"],
        "--names",
        "P",
        "O",
        "G",
        "--json",
        "--test",
        "bootstrap",
        "--resamples",
        500,
        "--seed",
        3,
        "--statistic",
        "recall",
    )
    assert code == 0, err
    data = json.loads(out)
    assert (data["score"], data["statistic"], data["n_items"]) == ("smatch", "recall", 3)
    systems = {s["name"]: s for s in data["systems"]}
    assert systems["P"]["recall"] == prf(10, 10, 12)[1] and systems["O"]["counts"] == [8, 10, 12]
    assert [s["rank"] for s in data["systems"]] == [2, 3, 1]
    assert [(t["a"], t["b"]) for t in data["tests"]] == [("P", "O"), ("P", "G"), ("O", "G")]
    assert all(t["test"] == "bootstrap" and t["n_resamples"] == 500 and t["seed"] == 3 for t in data["tests"])
    # three systems: Holm over the three p-values (sorted p1 <= p2 <= p3: 3 p1, max(.., 2 p2), max(.., p3))
    ps = sorted(t["p_value"] for t in data["tests"])
    holm = sorted([min(1, 3 * ps[0]), min(1, max(3 * ps[0], 2 * ps[1])), min(1, max(3 * ps[0], 2 * ps[1], ps[2]))])
    assert sorted(t["p_holm"] for t in data["tests"]) == holm
    assert data["items"][0]["id"] == "s1" and data["items"][2]["counts"]["O"] == [1, 2, 4]
    assert data["config"].startswith("solver=exact,restarts=19,seed=3")


def test_docsmatch_breakdown(capsys):
    files = [DOCS / "pred.docamr.amr", DOCS / "pred2.docamr.amr"]
    code, out, err = run(capsys, "compare", "-f", *files, "--gold", DOCS / "gold.docamr.amr", "--score", "docsmatch")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("DocSmatch F1 of 2 items; permutation test (two-sided, exact, all 4 swaps, seed 0)")
    start = lines.index("Breakdown (F1, pred - pred2):")
    assert [line.split()[0] for line in lines[start + 2 : start + 8]] == [
        "docsmatch",
        "coref",
        "coref_named_entity",
        "coref_bridging",
        "coref_other",
        "noncoref",
    ]


def test_mfbeta_from_parses_and_form_files(capsys, files, tmp_path):
    vectors = tmp_path / "glove.txt"
    vectors.write_text("cat 1 0\nkitten 0.8 0.6\n", encoding="utf-8")
    (tmp_path / "pred.form").write_text("0.5\n0.3\n0.5\n", encoding="utf-8")
    (tmp_path / "other.form").write_text("1\n0\n0\n", encoding="utf-8")
    code, out, err = run(
        capsys,
        "compare",
        "-f",
        files["pred"],
        files["other"],
        "--gold",
        files["gold"],
        "--score",
        "form",
        "--form",
        tmp_path / "pred.form",
        tmp_path / "other.form",
        "--vectors",
        vectors,
        "--json",
    )
    assert code == 0, err
    data = json.loads(out)
    # acceptable at 0.45: pred 2 of 3, other 1 of 3; they differ on item 3 only: every swap gives +-1/3
    assert {s["name"]: s["form"] for s in data["systems"]} == {"pred": 2 / 3, "other": 1 / 3}
    assert data["tests"][0]["p_value"] == 1.0 and data["tests"][0]["exact"]
    assert [t["score"] for t in data["breakdown"]] == ["mfbeta", "meaning", "form"]
    code, out, err = run(
        capsys, "compare", "-f", files["pred"], files["other"], "--gold", files["gold"], "--score", "mfbeta"
    )
    assert code == 1 and "needs --form with one file per system (2)" in err


def test_bad_command_lines(capsys, files):
    with pytest.raises(SystemExit) as exc:
        main(["compare", "-f", files["pred"], "--gold", files["gold"]])
    assert exc.value.code == 2 and "-f needs at least two systems' files, got 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["compare", "-f", files["pred"], files["other"], "--gold", files["gold"], "--resamples", "0"])
    assert "must be an integer >= 1, got 0" in capsys.readouterr().err
    for option, value, message in (
        ("--beta", "0", "must be finite and > 0"),
        ("--tolerance", "0.7", "must be in [0, 0.5]"),
    ):
        with pytest.raises(SystemExit) as exc:
            main(["compare", "-f", files["pred"], files["other"], "--gold", files["gold"], option, value])
        assert exc.value.code == 2 and f"{option}: {message}" in capsys.readouterr().err
    code, _, err = run(capsys, "compare", "-f", files["pred"], files["other"], "--gold", files["gold"], "--names", "a")
    assert code == 1 and "1 names for 2 systems" in err
    code, _, err = run(capsys, "compare", "-f", files["pred"], files["pred"], "--gold", files["gold"])
    assert code == 1 and "the systems' names must differ" in err


@pytest.mark.slow
def test_bart_against_t5(capsys, data_dir):
    data = data_dir / "parses"
    code, out, err = run(
        capsys, "compare", "-f", data / "bart_sys.amr", data / "t5_sys.amr", "--gold", data / "gold.amr", "--top", 3
    )
    assert code == 0 and "'z11' looks like a variable" in err
    # the README's worked comparison
    lines = out.splitlines()
    assert lines[3:5] == ["   1  t5_sys    0.7481  [0.7273, 0.7678]", "   2  bart_sys  0.7480  [0.7281, 0.7671]"]
    assert lines[6] == "bart_sys - t5_sys: F1 difference -0.0001, 95% CI [-0.0173, +0.0175], p = 0.9891"
    # item 36: BART 3 of 15 and 7 (P 1/5, R 3/7: F 3/11), T5 6 of 10 and 7 (F 12/17)
    assert lines[-3] == "  36  lpp_1943.657    0.2727  0.7059     -0.4332"


def test_smatch_ci_gives_precision_and_recall_intervals_too(capsys, files):
    code, out, err = run(capsys, "smatch", "-f", files["pred"], files["gold"], "--ci", 1000, "--pr")
    assert code == 0, err
    # items (4, 4, 4), (4, 4, 4), (2, 2, 4): precision is 1 in every resample; three copies of the
    # third item (chance 1/27, above 2.5%) give recall 1/2 and F 2/3, none of it 1
    assert out.splitlines()[-3:] == [
        "Precision 95% CI: 1.00 - 1.00",
        "Recall 95% CI: 0.50 - 1.00",
        "F-score 95% CI: 0.67 - 1.00",
    ]
    code, out, err = run(capsys, "smatch", "-f", files["pred"], files["gold"], "--ci", 1000, "--json")
    data = json.loads(out)
    assert (data["precision_ci_low"], data["recall_ci_low"], data["recall_ci_high"]) == (1.0, 0.5, 1.0)
    assert data["f1_ci_low"] == pytest.approx(2 / 3)


def test_meaning_needs_no_form_files(capsys, files, tmp_path):
    from amreval.amr.read import read_graphs
    from amreval.scores.s2match import s2match

    vectors = tmp_path / "glove.txt"
    vectors.write_text("cat 1 0\nkitten 0.8 0.6\ndog 0.6 0.8\n", encoding="utf-8")
    argv = ["compare", "-f", files["pred"], files["other"], "--gold", files["gold"], "--score", "meaning"]
    code, out, err = run(capsys, *argv, "--vectors", vectors, "--json", "--csv", tmp_path / "items.csv")
    assert code == 0, err
    data = json.loads(out)
    gold = read_graphs(files["gold"])
    expected = {name: s2match(read_graphs(files[name]), gold, vectors=str(vectors)).f1 for name in ("pred", "other")}
    assert {s["name"]: s["meaning"] for s in data["systems"]} == expected
    # Meaning alone: no Form or MFβ in the breakdown, the items' counts are (match, test, gold)
    assert [t["score"] for t in data["breakdown"]] == ["meaning"]
    header = (tmp_path / "items.csv").read_text().splitlines()[0]
    assert (
        header == "position,id,pred,other,difference,pred_match,pred_test,pred_gold,other_match,other_test,other_gold"
    )
    # --form given anyway: the MFβ breakdown as before
    forms = [tmp_path / "a.form", tmp_path / "b.form"]
    for path in forms:
        path.write_text("1\n1\n1\n", encoding="utf-8")
    code, out, err = run(capsys, *argv, "--vectors", vectors, "--json", "--form", *forms)
    assert code == 0, err
    assert [t["score"] for t in json.loads(out)["breakdown"]] == ["mfbeta", "meaning", "form"]
