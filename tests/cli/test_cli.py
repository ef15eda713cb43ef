"""The amreval command line: smatch-like output, docamr conversion, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from amreval import read_graphs
from amreval.cli import main
from amreval.match import graph_triples

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_smatch_prints_what_smatch_prints(capsys):
    code, out, _ = run(capsys, "smatch", "-f", str(EXAMPLES / "pred.amr"), str(EXAMPLES / "gold.amr"), "--pr")
    # hand-checked: pair 1 9/9, pair 2 7 of 9 and 9, pair 3 9 of 9 and 10 -> 25 of 27 and 28
    assert code == 0
    assert out == "Precision: 0.93\nRecall: 0.89\nF-score: 0.91\n"


def test_smatch_per_pair_and_significant_digits(capsys):
    code, out, _ = run(
        capsys, "smatch", "-f", str(EXAMPLES / "pred.amr"), str(EXAMPLES / "gold.amr"), "--ms", "--significant", "4"
    )
    assert out.splitlines() == [
        "Pair 1 (id demo.1):",
        "F-score: 1.0000",
        "Pair 2 (id demo.2):",
        "F-score: 0.7778",
        "Pair 3 (id demo.3):",
        "F-score: 0.9474",
    ]


def test_smatch_json_has_counts_and_config(capsys):
    code, out, _ = run(
        capsys,
        "smatch",
        "-f",
        str(EXAMPLES / "pred.amr"),
        str(EXAMPLES / "gold.amr"),
        "--json",
        "--solver",
        "exact",
        "--seed",
        "3",
    )
    data = json.loads(out)
    assert (data["match"], data["test"], data["gold"], data["n_optimal"]) == (25, 27, 28, 3)
    assert data["config"].startswith(
        "solver=exact,restarts=19,seed=3,time_limit=600,work_limit=50000,score=smatch,amreval="
    )
    assert [p["match"] for p in data["pairs"]] == [9, 7, 9]


def test_smatch_errors_name_the_file(capsys, tmp_path):
    bad = tmp_path / "bad.amr"
    bad.write_text("# ::id x\n(a / b :ARG0 (c / d)\n")
    code, _, err = run(capsys, "smatch", "-f", str(bad), str(EXAMPLES / "gold.amr"), "--strict")
    assert code == 1
    assert f"amreval: error: {bad}, graph #1 (id x), line 2: malformed PENMAN: Unexpected end of input" in err
    code, _, err = run(capsys, "smatch", "-f", str(EXAMPLES / "gold.amr"), str(bad))
    assert code == 1  # a gold graph that cannot be read is an error without --strict too
    assert f"amreval: error: {bad}, graph #1 (id x), line 2: malformed PENMAN: Unexpected end of input" in err
    one = tmp_path / "one.amr"
    one.write_text("(a / b)\n")
    code, _, err = run(capsys, "smatch", "-f", str(one), str(EXAMPLES / "gold.amr"))
    assert code == 1 and "has 1 graph but" in err


def test_an_unknown_option_is_said_with_the_commands_usage(capsys):
    files = ["-f", str(EXAMPLES / "pred.amr"), str(EXAMPLES / "gold.amr")]
    for command in ("smatch", "docsmatch"):
        with pytest.raises(SystemExit) as stop:
            main([command, *files, "--bogus", "x"])
        err = capsys.readouterr().err
        assert stop.value.code == 2
        assert err.startswith(f"usage: amreval {command} [-h] -f PRED GOLD")
        assert err.endswith(f"amreval {command}: error: unrecognized arguments: --bogus x\n")


def test_a_file_that_cannot_be_written_is_named_with_the_reason(capsys, tmp_path):
    other = tmp_path / "other.amr"
    other.write_text((EXAMPLES / "pred.amr").read_text())
    out = tmp_path / "missing" / "items.csv"
    code, _, err = run(
        capsys,
        "compare",
        "-f",
        str(EXAMPLES / "pred.amr"),
        str(other),
        "--gold",
        str(EXAMPLES / "gold.amr"),
        "--csv",
        str(out),
    )
    assert (code, err) == (1, f"amreval: error: {out}: No such file or directory\n")


def test_a_library_that_prints_its_own_messages_is_printed_once(tmp_path):
    # as huggingface_hub does: a handler of its own, and its messages passed on to the root logger too
    code = (
        "import logging; from amreval.cli.process import log_to_stderr; log_to_stderr(False); "
        "lib = logging.getLogger('somelib'); lib.addHandler(logging.StreamHandler()); "
        "logging.getLogger('somelib.http').warning('retrying'); logging.getLogger('amreval.x').warning('ours'); "
        "logging.getLogger('amreval.x').info('quiet'); "
        # as urllib3 does: a NullHandler, which prints nothing
        "logging.getLogger('otherlib').addHandler(logging.NullHandler()); "
        "logging.getLogger('otherlib.pool').warning('x')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stderr == "retrying\nWARNING: ours\nWARNING: x\n"


def test_docamr_from_xml_and_amrs(capsys, tmp_path, reference_dir):
    base = reference_dir / "docamr"
    out_file = tmp_path / "docs.amr"
    code, _, _ = run(
        capsys,
        "docamr",
        "--xml",
        *map(str, sorted((base / "xml").glob("*.xml"))),
        "--amrs",
        str(base / "amrs.txt"),
        "--rep",
        "merge-all",
        "-o",
        str(out_file),
    )
    assert code == 0
    graphs = read_graphs(out_file)
    assert [g.id for g in graphs] == ["SYNTH_DOC_001", "SYNTH_DOC_002"]
    assert [graph_triples(g).count for g in graphs] == [71, 18]


def test_docamr_bad_rep_and_missing_amrs(capsys, reference_dir):
    xml = str(reference_dir / "docamr" / "xml" / "msamr_synth_001.xml")
    code, _, err = run(
        capsys, "docamr", "--xml", xml, "--amrs", xml.replace("xml/msamr_synth_001.xml", "amrs.txt"), "--rep", "bogus"
    )
    assert code == 2 and "expected one of docamr, no-merge, merge-names, merge-all" in err
    code, _, err = run(capsys, "docamr", "--xml", xml)
    assert code == 2 and "--xml needs --amrs" in err


def test_docamr_amr3_root_must_exist(capsys, tmp_path):
    code, _, err = run(capsys, "docamr", "--amr3", str(tmp_path / "nope"), "--split", "test")
    assert code == 1 and "LDC2020T02" in err


def test_docsmatch_prints_the_reference_layout(capsys, reference_dir):
    base = reference_dir / "docamr"
    files = [str(base / "synth.docAMR.pred.amr"), str(base / "expected" / "synth.docAMR.amr")]
    # the reference docSmatch's default (without --coref-subscore) is --no-coref-subscore here
    code, out, _ = run(capsys, "docsmatch", "-f", *files, "--no-coref-subscore")
    assert code == 0
    assert out == "Overall Score:\nPrecision: 0.9286\nRecall: 0.8667\nF-score: 0.8966\n"
    # amreval's default prints the coreference sub-score too, as --coref-subscore (the reference's layout)
    code, out, _ = run(capsys, "docsmatch", "-f", *files)
    expected = (base / "expected" / "smatch_pred_vs_docAMR.txt").read_text().split("Time(s)")[0]
    assert out == expected


def test_docsmatch_coref_subscore_prints_the_reference_layout(capsys, reference_dir):
    base = reference_dir / "docamr"
    files = [str(base / "synth.docAMR.pred.amr"), str(base / "expected" / "synth.docAMR.amr")]
    code, out, _ = run(capsys, "docsmatch", "-f", *files, "--coref-subscore")
    assert code == 0
    # the reference's expected/smatch_pred_vs_docAMR.txt, without its timing line
    expected = (base / "expected" / "smatch_pred_vs_docAMR.txt").read_text().split("Time(s)")[0]
    assert out == expected
    code, out, _ = run(capsys, "docsmatch", "-f", *files, "--coref-subscore", "--ms", "--significant", "3", "-j", "2")
    assert out.split("\n")[:9] == [
        "Document 1 (id SYNTH_DOC_001):",
        "Overall Score:",
        "Precision: 0.913",
        "Recall: 0.851",
        "F-score: 0.881",
        "Coref Score",
        "Precision: 1.000",
        "Recall: 0.667",
        "F-score: 0.800",
    ]
    assert out.count("Overall Score:") == 2


def test_docsmatch_fine_grained_and_json(capsys, reference_dir):
    base = reference_dir / "docamr"
    files = [str(base / "synth.docAMR.pred.amr"), str(base / "expected" / "synth.docAMR.amr")]
    code, out, _ = run(capsys, "docsmatch", "-f", *files, "--fine-grained", "--significant", "3")
    assert code == 0
    # SRL 42 of 48 predicted and 50 gold triples, Reentrancies 38 of 43 and 48 (Damonte's code gives the same)
    assert "SRL -> P: 0.875, R: 0.840, F: 0.857" in out.splitlines()
    assert "Reentrancies -> P: 0.884, R: 0.792, F: 0.835" in out.splitlines()
    code, out, _ = run(capsys, "docsmatch", "-f", *files, "--coref-subscore", "--json")
    data = json.loads(out)
    # gold: the Paris chain (its coref-entity node, 2 :coref edges, ARG4 into it) and the 5 edges into
    # the merged Obama node are named-entity items: 9; the missing :part is bridging; 10 others
    assert data["coref_counts"] == {
        "named_entity": [5, 5, 9],
        "bridging": [0, 0, 1],
        "other": [9, 9, 10],
        "mixed": 0,
        "across": 0,
    }
    assert [(d["match"], d["test"], d["gold"]) for d in data["documents"]] == [(63, 69, 74), (15, 15, 16)]


def test_svg_pictures_from_the_cli(tmp_path, capsys):
    import shutil
    import xml.etree.ElementTree as ET

    pytest.importorskip("graphviz", reason="the graphviz Python package (draw extra) is not installed")
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot program is not installed (apt-get install graphviz)")
    examples = EXAMPLES
    out = tmp_path / "align.svg"
    code, _, _ = run(
        capsys,
        "docsmatch",
        "-f",
        str(examples / "pred.docamr.amr"),
        str(examples / "gold.docamr.amr"),
        "--svg",
        str(out),
    )
    assert code == 0
    svg = ET.parse(out).getroot()
    texts = "".join(svg.itertext())
    # the legend counts the triples of the DocSmatch alignment: 30 matched of 32 predicted and 34 gold
    assert "matched: 30" in texts and "missing (gold only): 4" in texts and "extra (prediction only): 2" in texts
    two = tmp_path / "two.amr"
    two.write_text((examples / "gold.docamr.amr").read_text() + "\n\n" + (examples / "gold.docamr.amr").read_text())
    code, _, _ = run(capsys, "docamr", "--no-merge", str(two), "--svg", str(tmp_path / "doc.svg"))
    assert code == 0
    for k in (1, 2):
        assert "sentence 3" in "".join(ET.parse(tmp_path / f"doc_{k}.svg").getroot().itertext())


def test_standardize_with_the_coreference_or_fine_grained_scores_is_a_usage_error(capsys):
    files = ["-f", str(EXAMPLES / "pred.docamr.amr"), str(EXAMPLES / "gold.docamr.amr")]
    code, _, err = run(capsys, "docsmatch", *files, "--standardize", "none", "--coref-subscore")
    assert (code, err) == (
        2,
        "amreval: error: standardize='none' applies to the main DocSmatch score only; the coreference and "
        "fine-grained scores read triples as smatch does (set coref and fine_grained off)\n",
    )
    code, out, _ = run(capsys, "docsmatch", *files, "--standardize", "none")
    assert code == 0 and out.splitlines()[-1] == "F-score: 0.9091"


def test_svg_into_a_folder_one_picture_per_document_with_progress(tmp_path, capsys):
    import shutil
    import xml.etree.ElementTree as ET

    pytest.importorskip("graphviz", reason="the graphviz Python package (draw extra) is not installed")
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot program is not installed (apt-get install graphviz)")
    docs = Path(__file__).resolve().parents[2] / "metrics" / "docsmatch" / "examples"
    out = tmp_path / "pictures"
    code, _, err = run(
        capsys,
        "docsmatch",
        "-f",
        str(docs / "pred.docamr.amr"),
        str(docs / "gold.docamr.amr"),
        "--svg",
        f"{out}/",
        "--progress",
    )
    assert code == 0, err
    # the two documents' ids name the files in the folder; the drawing has its progress bar
    assert sorted(p.name for p in out.iterdir()) == ["demo.svg", "trip.svg"]
    assert "matched:" in "".join(ET.parse(out / "demo.svg").getroot().itertext())
    assert "drawing" in err
    # docamr: a folder that exists takes the pictures too
    code, _, err = run(capsys, "docamr", "--no-merge", str(docs / "gold.docamr.amr"), "--svg", str(out))
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["demo.svg", "trip.svg"]
    assert "sentence 1" in "".join(ET.parse(out / "trip.svg").getroot().itertext())


def test_the_svg_help_says_how_pictures_are_named(capsys):
    for command in ("docsmatch", "docamr"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert "OUT with _<document id> before .svg" in text and "DIR/<document id>.svg for each document" in text
