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
