"""`amreval mfbeta-robustness`: systems under several parse sets from files, with a tiny real language model."""

from __future__ import annotations

import json

import pytest

from amreval.cli import main

REF = "the boy wants to go .\nthe girl sleeps .\n"
GOLD = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))\n\n(s / sleep-01 :ARG0 (g / girl))\n"
# parts of the gold graphs by their triples (7 and 4 in the gold graphs): Meaning = 2t / (t + 11)
S1 = {
    7: GOLD.split("\n\n")[0],
    6: "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02))",
    4: "(w / want-01 :ARG0 (b / boy))",
}
S2 = {4: "(s / sleep-01 :ARG0 (g / girl))", 2: "(s / sleep-01)"}
# gsii: A 11, B 10, C 9 triples (A > B > C); gpla: A 10, B 11, C 8 (B > A > C)
SETS = {"gsii": {"A": (7, 4), "B": (6, 4), "C": (7, 2)}, "gpla": {"A": (6, 4), "B": (7, 4), "C": (4, 4)}}


@pytest.fixture
def folder(tmp_path, make_tiny_gpt2):
    (tmp_path / "ref.txt").write_text(REF, encoding="utf-8")
    (tmp_path / "gold.amr").write_text(GOLD, encoding="utf-8")
    (tmp_path / "vectors.txt").write_text("boy 1.0 0.0\ngirl 0.0 1.0\n", encoding="utf-8")
    for system in "ABC":  # every system writes the references: each prefScore is 0.5, Form is 1
        (tmp_path / f"{system}.txt").write_text(REF, encoding="utf-8")
    for setting, by in SETS.items():
        (tmp_path / setting).mkdir()
        for system, (t1, t2) in by.items():
            (tmp_path / setting / f"{system}.amr").write_text(f"{S1[t1]}\n\n{S2[t2]}\n", encoding="utf-8")
    (tmp_path / "gsii" / "ref.amr").write_text(f"{S1[4]}\n\n(x / ???\n", encoding="utf-8")
    lm = make_tiny_gpt2(tmp_path / "lm", REF.splitlines(), seed=3)
    return tmp_path, lm


def _args(tmp_path, lm, *extra):
    return [
        "mfbeta-robustness",
        str(tmp_path / "ref.txt"),
        *(str(tmp_path / f"{s}.txt") for s in "ABC"),
        "--gold",
        str(tmp_path / "gold.amr"),
        "--parses",
        f"gsii={tmp_path}/gsii/{{system}}.amr",
        "--parses",
        f"gpla={tmp_path}/gpla/{{system}}.amr",
        "--lm",
        lm,
        "--device",
        "cpu",
        "--vectors",
        str(tmp_path / "vectors.txt"),
        *extra,
    ]


def test_table_and_json(folder, capsys):
    tmp_path, lm = folder
    assert main(_args(tmp_path, lm, "--reference-parses", f"gsii={tmp_path}/gsii/ref.amr", "--significant", "3")) == 0
    lines = capsys.readouterr().out.splitlines()
    # Meaning: gsii 1, 20/21, 18/20; gpla 20/21, 1, 16/19; gsii/ref (sentence 1 matches the 4 reference
    # triples, the failed second parse nothing): 8/17, 8/16, 8/15
    assert lines[0].split() == ["Meaning", "gsii", "gsii/ref", "gpla"]
    assert [line.split() for line in lines[1:4]] == [
        ["A", "1.000", "0.471", "0.952"],
        ["B", "0.952", "0.500", "1.000"],
        ["C", "0.900", "0.533", "0.842"],
    ]
    assert "Form (every setting): A 1.000, B 1.000, C 1.000" in lines
    assert "Parse failures: gsii 0, gsii/ref 0 (references 1), gpla 0" in lines
    # by Meaning, gsii vs gpla: rho 1/2, tau 1/3, A and B switch; gsii vs gsii/ref: reversed, -1, -1
    rows = [line.split() for line in lines if " vs " in line][:3]
    assert rows[0][:5] == ["gsii", "vs", "gsii/ref", "-1.000", "-1.000"] and rows[0][6:] == ["A>B,", "A>C,", "B>C"]
    assert rows[1][:5] == ["gsii", "vs", "gpla", "0.500", "0.333"] and rows[1][6:] == ["A>B"]
    assert main(_args(tmp_path, lm, "--json")) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["settings"] == ["gsii", "gpla"] and out["systems"] == ["A", "B", "C"]
    assert out["scores"]["gpla"]["C"]["meaning"] == pytest.approx(16 / 19)
    assert out["agreement"][0]["switches"] == [["A", "B"]] and out["agreement"][0]["score"] == "meaning"


def test_bad_command_lines_are_named(folder, capsys):
    tmp_path, lm = folder
    base = _args(tmp_path, lm)
    assert main([*base, "--parses", "ttsa=nowhere.amr"]) == 1
    assert "the pattern needs {system}" in capsys.readouterr().err
    assert main([*base, "--parses", "gsii=x/{system}.amr"]) == 1
    assert "setting 'gsii' is named twice" in capsys.readouterr().err
    assert main([*base, "--reference-parses", "gsii"]) == 1
    assert "expected SETTING=VALUE" in capsys.readouterr().err
    (tmp_path / "short.amr").write_text(S1[4] + "\n", encoding="utf-8")
    assert main([*base, "--reference-parses", f"gsii={tmp_path}/short.amr"]) == 1
    assert "short.amr has 1 graph but" in capsys.readouterr().err
    assert main([*base[:2], str(tmp_path / "A.txt"), *base[5:]]) == 1
    assert "two or more systems" in capsys.readouterr().err
    (tmp_path / "B.txt").write_text("the boy wants to go .\n", encoding="utf-8")  # one line of the two
    assert main(base) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"amreval: error: {tmp_path / 'B.txt'} has 1 line but {tmp_path / 'ref.txt'} has 2; they are paired by line"
    )
