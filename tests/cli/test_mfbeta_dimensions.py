"""``amreval mfbeta --dimensions`` and ``amreval compare --score ... --dimensions``: MFβ by fine-grained measure."""

from __future__ import annotations

import json

import pytest

from amreval.cli import main

SENTENCES = "the boy wants to go .\nthe girl sleeps .\n"
GOLD = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))\n\n(s / sleep-01 :ARG0 (g / girl))\n"
PARSES = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))\n\n(s / sleep-01 :ARG0 (g / boy))\n"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def folder(tmp_path):
    for name, text in (("gen.txt", SENTENCES), ("ref.txt", SENTENCES), ("gold.amr", GOLD), ("parses.amr", PARSES)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "vectors.txt").write_text("boy 1.0 0.0\ngirl 0.0 1.0\n", encoding="utf-8")
    return tmp_path


def test_mfbeta_prints_every_measure(folder, make_tiny_gpt2, capsys):
    lm = make_tiny_gpt2(folder / "lm", SENTENCES.splitlines(), seed=8)
    f = folder
    args = ["mfbeta", f / "gen.txt", f / "ref.txt", "--gold", f / "gold.amr", "--parses", f / "parses.amr"]
    args += ["--vectors", f / "vectors.txt", "--lm", lm, "--device", "cpu", "--dimensions", "s2align"]
    code, out, err = run(capsys, *args)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[:7] == ["MF_1: 0.9268", "MF_0.5: 0.8879", "MF_2: 0.9694", "Meaning: 0.8636", "Form: 1.0000"] + [
        "Parse failures: 0 of 2",
        "Dimension                  P         R   Meaning      MF_1",
    ]
    rows = {line[:18].strip(): line[18:].split() for line in lines[7:]}
    # Form is 1 (each generation is its reference), so MF_1 = 2M / (M + 1). Pair 1 as in the module's
    # example; pair 2 (sleep-01 :ARG0 boy against girl, orthogonal vectors): unlabeled 3 of 4, concepts
    # {sleep-01, boy} / {sleep-01, girl}, srl 2 of 4 (sleep-01 and the edge; boy/girl and (arg0, s, boy) not)
    assert rows["Unlabeled"] == ["0.8636", "0.8636", "0.8636", "0.9268"]  # 9.5 / 11
    assert rows["No WSD"] == ["0.9091", "0.9091", "0.9091", "0.9524"]  # 10 / 11
    assert rows["Concepts"] == ["0.6000", "0.6000", "0.6000", "0.7500"]  # 3 / 5
    assert rows["Frames"] == ["0.6667", "0.6667", "0.6667", "0.8000"]  # {want-01, go-0x} and {sleep-01}: 2 / 3
    assert rows["Non_sense_frames"] == ["1.0000"] * 4
    # no name and no :wiki on either side: nothing to score (the authors' script prints 1.00)
    assert rows["Named Ent."] == rows["Wikification"] == ["n/a"] * 4
    assert rows["IgnoreVars"] == ["0.5000", "0.5000", "0.5000", "0.6667"]  # 3 / 6
    assert rows["Reentrancies"] == ["0.9286", "0.9286", "0.9286", "0.9630"]  # 6.5 / 7
    assert rows["SRL"] == ["0.7308", "0.7308", "0.7308", "0.8444"]  # 9.5 / 13
    code, out, err = run(capsys, *args, "--json")
    data = json.loads(out)
    assert data["meaning_srl"] == pytest.approx(9.5 / 13) and data["mf_beta_srl"] == pytest.approx(19 / 22.5)
    assert "dimensions=s2align" in data["config"]


def test_compare_tests_each_measure(folder, capsys, tmp_path):
    (tmp_path / "gold3.amr").write_text("(c / cat)\n\n(c / cat)\n\n(c / cat)\n", encoding="utf-8")
    (tmp_path / "a.amr").write_text("(c / cat)\n\n(c / cat :polarity -)\n\n(k / kitten)\n", encoding="utf-8")
    (tmp_path / "b.amr").write_text("(c / cat)\n\n(c / cat)\n\n(c / cat)\n", encoding="utf-8")
    (tmp_path / "a.form").write_text("0.5\n0.5\n0.5\n", encoding="utf-8")
    (tmp_path / "b.form").write_text("0.5\n0.5\n0.5\n", encoding="utf-8")
    args = ["compare", "-f", tmp_path / "a.amr", tmp_path / "b.amr", "--gold", tmp_path / "gold3.amr"]
    args += [
        "--score",
        "meaning",
        "--form",
        tmp_path / "a.form",
        tmp_path / "b.form",
        "--vectors",
        folder / "vectors.txt",
    ]
    code, out, err = run(capsys, *args, "--dimensions", "s2align", "--json")
    assert code == 0, err
    breakdown = {t["score"]: t for t in json.loads(out)["breakdown"]}
    assert list(breakdown)[:5] == ["mfbeta", "meaning", "form", "meaning_unlabeled", "mfbeta_unlabeled"]
    assert len(breakdown) == 3 + 2 * 11
    # negations: a has one where the gold has none (F 0), b none on either side (nothing to score): no test
    negations = breakdown["meaning_negations"]
    assert (negations["score_a"], negations["score_b"], negations["difference"], negations["p_value"]) == (
        0.0,
        None,
        None,
        None,
    )
    # concepts: a's sets {cat}, {cat}, {kitten} against {cat}: 2 of 3; Form 1: MF_1 = 0.8
    assert breakdown["meaning_concepts"]["score_a"] == pytest.approx(2 / 3)
    assert breakdown["mfbeta_concepts"]["score_a"] == pytest.approx(0.8)
    code, out, err = run(capsys, *args[:6], "--dimensions", "smatch")
    assert code == 1 and "--dimensions breaks down the MFβ scores (mfbeta, meaning, form); got smatch" in err
