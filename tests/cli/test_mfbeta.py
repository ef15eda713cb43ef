"""`amreval mfbeta`: MFβ of text files from the command line, with a tiny real language model."""

from __future__ import annotations

import json
import logging

import pytest

from amreval.cli import main

SENTENCES = "the boy wants to go .\nthe girl sleeps .\n"
GOLD = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))\n\n(s / sleep-01 :ARG0 (g / girl))\n"
PARSES = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))\n\n(s / sleep-01 :ARG0 (g / boy))\n"
VECTORS = "boy 1.0 0.0\ngirl 0.0 1.0\n"


@pytest.fixture
def files(tmp_path, make_tiny_gpt2):
    for name, text in (("gen.txt", SENTENCES), ("ref.txt", SENTENCES), ("gold.amr", GOLD), ("parses.amr", PARSES)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "vectors.txt").write_text(VECTORS, encoding="utf-8")
    lm = make_tiny_gpt2(tmp_path / "lm", SENTENCES.splitlines(), seed=8)
    return tmp_path, lm


def _args(folder, lm, *extra):
    return [
        "mfbeta",
        str(folder / "gen.txt"),
        str(folder / "ref.txt"),
        "--gold",
        str(folder / "gold.amr"),
        "--parses",
        str(folder / "parses.amr"),
        "--vectors",
        str(folder / "vectors.txt"),
        "--lm",
        lm,
        "--device",
        "cpu",
        *extra,
    ]


def test_scores_by_hand(files, capsys):
    folder, lm = files
    assert main(_args(folder, lm, "--beta", "3")) == 0
    # Meaning: pair 1 earns 6.5 of 7 (go-01 for go-02: half), pair 2 earns 3 of 4 (boy for girl: 0);
    # M = 9.5 / 11 = 19/22. Form: each generation is its reference (prefScore 0.5): F = 1.
    # MF_1 = 2M/(M+1) = 38/41, MF_0.5 = 1.25M/(0.25M+1) = 23.75/26.75, MF_2 = 5M/(4M+1) = 95/98,
    # MF_3 = 10M/(9M+1) = 190/193
    assert capsys.readouterr().out.splitlines() == [
        "MF_1: 0.9268",
        "MF_0.5: 0.8879",
        "MF_2: 0.9694",
        "MF_3: 0.9845",
        "Meaning: 0.8636",
        "Form: 1.0000",
        "Parse failures: 0 of 2",
    ]


def test_json_and_a_disk_cache_that_a_second_run_reuses(files, capsys, caplog):
    folder, lm = files
    cache = folder / "cache"
    assert main(["-v", *_args(folder, lm, "--json", "--cache", str(cache), "--dtype", "float32")]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["meaning"] == pytest.approx(19 / 22) and first["pref_scores"] == [0.5, 0.5]
    assert (cache / "mfbeta-cache.sqlite").is_file()
    from amreval.mfbeta.cache import MEMORY
    from amreval.mfbeta.lm import clear_cache

    clear_cache()  # as a new process: nothing in memory
    assert len(MEMORY) == 0
    with caplog.at_level(logging.INFO, logger="amreval"):
        assert main(["-v", *_args(folder, lm, "--json", "--cache", str(cache))]) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert "language model: 0 sentences scored, 4 reused" in caplog.text


def test_bad_files_are_named(files, capsys):
    folder, lm = files
    (folder / "short.txt").write_text("one line\n", encoding="utf-8")
    (folder / "latin1.txt").write_bytes("caf\xe9 .\nthe girl sleeps .\n".encode("latin-1"))
    args = _args(folder, lm)
    args[2] = str(folder / "short.txt")
    assert main(args) == 1
    assert "gen.txt has 2 lines but" in capsys.readouterr().err
    args[2] = str(folder / "latin1.txt")
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "latin1.txt" in err and "UTF-8" in err
    for bad in (["--dtype", "int8"], ["--max-tokens", "0"]):
        with pytest.raises(SystemExit) as stop:
            main([*_args(folder, lm), *bad])
        assert stop.value.code == 2


def test_missing_inputs_and_bad_options_name_what_to_pass(files, capsys):
    folder, lm = files
    no_parses = [a for a in _args(folder, lm) if a not in ("--parses", str(folder / "parses.amr"))]
    assert main(no_parses) == 2
    assert "pass --parses FILE or --parser DIR" in capsys.readouterr().err
    (folder / "one.amr").write_text("(s / sleep-01)\n", encoding="utf-8")
    args = _args(folder, lm)
    args[args.index("--gold") + 1] = str(folder / "one.amr")
    assert main(args) == 1
    assert f"{folder / 'one.amr'} has 1 graph but {folder / 'gen.txt'} has 2 lines" in capsys.readouterr().err
    for bad in (["--beta", "0"], ["--beta", "nan"], ["--tolerance", "0.6"]):
        with pytest.raises(SystemExit) as stop:
            main([*_args(folder, lm), *bad])
        assert stop.value.code == 2
    assert "--tolerance: must be in [0, 0.5], got 0.6" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--device", "gpu", "unknown device 'gpu'; expected cpu, cuda, cuda:N, mps or auto"),
        ("--lm", "./no-such-model", "./no-such-model: no such folder"),
        ("--lm-kind", "masked", "cannot load it as a masked language model"),
    ],
)
def test_language_model_mistakes_are_named(files, capsys, option, value, message):
    folder, lm = files
    args = _args(folder, lm)
    if option in args:
        args[args.index(option) + 1] = value
    else:
        args += [option, value]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_malformed_parses_are_failed_parses_and_sentence_errors_name_file_and_line(files, capsys):
    folder, lm = files
    (folder / "bad.amr").write_text("(w / want-01 :ARG0 (b / boy\n\n(s / sleep-01 :ARG0 (g / boy))\n", "utf-8")
    args = _args(folder, lm, "--json")
    args[args.index("--parses") + 1] = str(folder / "bad.amr")
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["parse_failures"] == 1
    (folder / "long.txt").write_text(" ".join(["the boy"] * 40) + "\nthe girl sleeps .\n", "utf-8")
    args = _args(folder, lm)
    args[1] = str(folder / "long.txt")
    assert main(args) == 1
    assert f"{folder / 'long.txt'}, line 1: " in capsys.readouterr().err


def test_a_damaged_disk_cache_is_named(files, capsys):
    folder, lm = files
    (folder / "cache").mkdir()
    (folder / "cache" / "mfbeta-cache.sqlite").write_bytes(b"this is not a database" * 100)
    assert main(_args(folder, lm, "--cache", str(folder / "cache"))) == 1
    err = capsys.readouterr().err
    assert "mfbeta-cache.sqlite: the MFβ cache cannot be used" in err and "delete it" in err


def test_pairs_over_the_memory_budget_are_scored_counted_and_named(files, capsys, monkeypatch):
    from amreval.match import problem as problem_module

    folder, lm = files
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 0)
    # every pair is over a budget of nothing: aligned over each node's best candidate, which here finds the
    # optimum (6.5 of 7 and 3 of 4, as in test_scores_by_hand), counted and named in one warning each
    assert main(_args(folder, lm, "--json", "--dimensions", "s2align")) == 0
    printed = capsys.readouterr()
    out = json.loads(printed.out)
    assert (out["meaning"], out["n_over_budget"], out["dimension_n_over_budget"]) == (pytest.approx(19 / 22), 2, 2)
    assert "2 of 2 pairs were over the alignment's memory budget (0.0 GiB) and were aligned" in printed.err
    assert "2 of 2 pairs were over the alignment's memory budget (0.0 GiB) in Meaning by dimension (s2align)" in (
        printed.err
    )
    assert main(_args(folder, lm)) == 0
    assert capsys.readouterr().out.splitlines()[3] == "Meaning: 0.8636"
    assert main(_args(folder, lm, "--strict")) == 1
    err = capsys.readouterr().err
    assert f"amreval: error: pair #1 ({folder / 'parses.amr'}, graph #1, line 1 against {folder / 'gold.amr'}" in err
    assert "the alignment problem of 3 x 3 nodes" in err and "Traceback" not in err
