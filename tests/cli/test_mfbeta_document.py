"""`amreval mfbeta --level document`: paragraphs against DocAMR references, with a tiny real language model."""

from __future__ import annotations

import json

import pytest

from amreval.cli import main

GEN = "The boy slept. He woke up."
REF = "The boy slept. The boy woke up early."
PARSES = (
    "# ::tok The boy slept .\n(s / sleep-01~e.2 :ARG0 (b / boy~e.1))\n\n"
    "# ::tok He woke up .\n(w / wake-up-02~e.1 :ARG0 (h / he~e.0))\n"
)
GOLD = "(d / document :snt1 (a / sleep-01 :ARG0 (b / boy)) :snt2 (c / wake-up-02 :ARG0 b :time (e / early)))\n"
COREF = (
    '{"doc_key": "D", "sentences": [["The", "boy", "slept", "."], ["He", "woke", "up", "."]], '
    '"clusters": [[[1, 1], [4, 4]]]}\n'
)


@pytest.fixture
def files(tmp_path, make_tiny_gpt2):
    texts = (("gen.txt", GEN + "\n"), ("ref.txt", REF + "\n"), ("gold.amr", GOLD), ("parses.amr", PARSES))
    for name, text in (*texts, ("coref.jsonl", COREF)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path, make_tiny_gpt2(tmp_path / "lm", [GEN, REF], seed=3)


def _args(folder, lm, *extra):
    names = ("gen.txt", "ref.txt")
    return ["mfbeta", *(str(folder / n) for n in names), "--level", "document", "--gold", str(folder / "gold.amr"),
            "--parses", str(folder / "parses.amr"), "--lm", lm, "--device", "cpu", *extra]  # fmt: skip


def test_scores_by_hand(files, capsys):
    folder, lm = files
    assert main(_args(folder, lm, "--coref", str(folder / "coref.jsonl"), "--json")) == 0
    out = json.loads(capsys.readouterr().out)
    # Meaning: the DocSmatch of the derived DocAMR (tests/mfbeta/test_document.py): 9 of 9 predicted, 11 gold
    assert out["meaning"] == pytest.approx(0.9) and out["coreference"] == 1.0 and out["sentences"] == [2]
    assert ",level=document," in out["config"] and ",window=64,stride=32," in out["config"]
    pref = out["pref_scores"][0]
    assert main(_args(folder, lm, "--coref", str(folder / "coref.jsonl"))) == 0
    form = float(pref >= 0.45)
    mf = 2 * 0.9 * form / (0.9 + form)
    assert capsys.readouterr().out.splitlines() == [
        f"MF_1: {mf:.4f}",
        f"MF_0.5: {1.25 * 0.9 * form / (0.25 * 0.9 + form):.4f}",
        f"MF_2: {5 * 0.9 * form / (4 * 0.9 + form):.4f}",
        "Meaning: 0.9000",
        "Coreference: 1.0000",
        f"Form: {form:.4f}",
        "Sentence count mismatches: 0 of 1 document",
        "Parse failures: 0 of 2 sentences",
    ]


def test_bad_files_are_named(files, capsys):
    folder, lm = files
    (folder / "three.amr").write_text(PARSES + "\n(x / eat-01)\n", encoding="utf-8")
    (folder / "empty.txt").write_text("\n", encoding="utf-8")
    assert main([*_args(folder, lm), "--parses", str(folder / "three.amr")]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"amreval: error: {folder / 'three.amr'} has 3 graphs but the paragraphs of {folder / 'gen.txt'} have 2 "
        "sentences (split_sentences); they are taken in order, paragraph by paragraph"
    )
    args = _args(folder, lm)
    args[1] = str(folder / "empty.txt")
    args[args.index("--parses") + 1 :] = [str(folder / "empty.txt"), "--lm", lm, "--device", "cpu"]
    assert main(args) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"amreval: error: {folder / 'empty.txt'}, line 1: empty paragraph; a document needs at least one sentence"
    )
    (folder / "two.txt").write_text(GEN + "\n" + GEN + "\n", encoding="utf-8")
    args = _args(folder, lm)
    args[1] = str(folder / "two.txt")
    assert main(args) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"amreval: error: {folder / 'two.txt'} has 2 lines but {folder / 'ref.txt'} has 1; they are paired by line"
    )
    with pytest.raises(SystemExit) as stop:
        main([*_args(folder, lm), "--window", "0"])
    assert stop.value.code == 2
    assert "--window: must be an integer >= 1, got 0" in capsys.readouterr().err


def test_lines_end_at_newlines_only(files, capsys):
    # a Unicode line separator inside a paragraph keeps it one line, paired with the one reference line
    folder, lm = files
    (folder / "gen.txt").write_text(GEN.replace(" He", "\u2028He") + "\n", encoding="utf-8")
    assert main(_args(folder, lm, "--json")) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sentences"] == [2] and len(out["pref_scores"]) == 1


def test_a_malformed_parse_is_a_failed_parse_not_the_end(files, capsys):
    # the second sentence's parse is cut short: counted as a failed parse, as the sentence level counts it
    folder, lm = files
    (folder / "bad.amr").write_text(PARSES.replace("(h / he~e.0))", "(h / he~e.0)"), encoding="utf-8")
    assert main([*_args(folder, lm), "--parses", str(folder / "bad.amr"), "--json"]) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert (result["parse_failures"], result["sentences"]) == (1, [2])
    assert f"1 of 2 parses in {folder / 'bad.amr'} could not be read and count as failed parses" in err
