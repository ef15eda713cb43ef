"""What a new user meets first on the command line: the help of ``--significant``, ``amreval space``'s
refusal naming the option of the command line."""

from __future__ import annotations

import re

import pytest

from amreval.cli import main


def help_text(capsys, command: str) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(
    ("command", "default"),
    [("smatch", 2), ("s2match", 2), ("docsmatch", 4), ("mfbeta", 4), ("mfbeta-robustness", 4), ("compare", 4)],
)
def test_every_command_states_its_significant_default(capsys, command, default):
    text = help_text(capsys, command)
    found = re.search(r"--significant D digits after the decimal point \(default (\d)", text)
    assert found and int(found.group(1)) == default


def test_smatch_says_why_it_prints_two_digits(capsys):
    for command in ("smatch", "s2match"):
        text = help_text(capsys, command)
        assert (
            "(default 2, as smatch.py prints them, so that scripts reading its output keep working; two parsers "
            "that differ in the third digit print the same score: pass --significant 4, as the other commands print)"
        ) in text
    assert "two digits after the point by default (smatch.py's)" in help_text(capsys, "smatch")


def test_space_names_force_on_the_command_line(tmp_path, capsys):
    out = tmp_path / "space"
    out.mkdir()
    (out / "old.txt").write_text("x", encoding="utf-8")
    assert main(["space", "docsmatch", str(out), "--hub-id", "someone/docsmatch"]) == 2
    err = capsys.readouterr().err
    assert f"{out} is not empty (pass --force to write into it)" in err and "overwrite" not in err


PRED = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))\n\n(s / sleep-01 :ARG0 (c / cat))\n"
GOLD = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))\n\n(s / sleep-01 :ARG0 (c / cat) :polarity -)\n"


@pytest.fixture
def files(tmp_path):
    pred, gold = tmp_path / "pred.amr", tmp_path / "gold.amr"
    pred.write_text(PRED, encoding="utf-8")
    gold.write_text(GOLD, encoding="utf-8")
    return str(pred), str(gold)


@pytest.fixture
def fresh_warnings(monkeypatch):
    """Each old name warns once per process: forget the ones warned about before this test."""
    monkeypatch.setattr("amreval._warn._WARNED", set())


def scored(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out, err


def test_num_workers_is_the_one_spelling_and_workers_still_works(capsys, files, fresh_warnings):
    for command in ("smatch", "docsmatch", "mfbeta", "mfbeta-robustness", "compare"):
        assert "-j N, --num-workers N" in help_text(capsys, command) and "--workers" not in help_text(capsys, command)
    new, err = scored(capsys, "smatch", "-f", *files, "-j", "2")
    assert err == ""
    old, err = scored(capsys, "smatch", "-f", *files, "--workers", "2")
    assert old == new == "F-score: 0.87\n"
    assert err == "amreval: warning: --workers is deprecated; use --num-workers\n"
    _, err = scored(capsys, "smatch", "-f", *files, "--workers", "2")
    assert err == ""  # once per process
    from amreval.cli import build_parser

    args = build_parser("mfbeta").parse_args(["mfbeta", "gen.txt", "ref.txt", "--workers", "3"])
    assert args.num_workers == 3 and args.renamed_options == [("--workers", "--num-workers")]


def test_ci_is_a_switch_and_resamples_its_number(capsys, files, fresh_warnings):
    new, err = scored(capsys, "smatch", "-f", *files, "--ci", "--resamples", "200", "--significant", "4")
    assert err == "" and new.splitlines() == ["F-score: 0.8696", "F-score 95% CI: 0.8571 - 0.8889"]
    old, err = scored(capsys, "smatch", "-f", *files, "--ci", "200", "--significant", "4")
    assert old == new and err == "amreval: warning: --ci N is deprecated; use --ci --resamples N\n"
    # the default number of resamples is every resampling's, 10000
    assert scored(capsys, "smatch", "-f", *files, "--ci", "--significant", "4")[0] == new
    assert scored(capsys, "smatch", "-f", *files, "--ci", "0")[0] == "F-score: 0.87\n"  # the old "no interval"


def test_the_coreference_sub_score_is_on_by_default(capsys, files):
    out, _ = scored(capsys, "docsmatch", "-f", *files)
    assert out.splitlines()[4:] == ["Coref Score", "Precision: n/a", "Recall: n/a", "F-score: n/a"]
    assert scored(capsys, "docsmatch", "-f", *files, "--coref-subscore")[0] == out
    # the reference docSmatch's default layout
    plain, _ = scored(capsys, "docsmatch", "-f", *files, "--no-coref-subscore")
    assert plain.splitlines() == out.splitlines()[:4]
    # another reading of the triples than smatch's: the sub-score (which reads smatch's) is off by default
    assert scored(capsys, "docsmatch", "-f", *files, "--standardize", "smatchpp-amr")[0].count("Coref") == 0
