"""SMATCH++'s tab-separated triple format: read, written, and read by SMATCH++ itself."""

from __future__ import annotations

import importlib.util

import pytest

from amreval import InputError, smatch
from amreval.amr.read import loads_graph, read_graphs
from amreval.amr.standardize import standardized
from amreval.amr.tsv import dumps_tsv, loads_tsv, read_tsv, write_tsv
from amreval.errors import DecodeError

GRAPH = '(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :polarity -) :mod (n / name :op1 "Big Ben"))'


def test_written_as_smatchpp_writes_it():
    g = loads_graph(GRAPH)
    assert dumps_tsv([g]).splitlines() == [
        "ROOT_OF_GRAPH\tw\t:root",
        "w\twant-01\t:instance",
        "b\tboy\t:instance",
        "g\tgo-02\t:instance",
        "n\tname\t:instance",
        "w\tb\t:ARG0",
        "w\tg\t:ARG1",
        "g\tb\t:ARG0",
        "w\tn\t:mod",
        "g\t-\t:polarity",
        'n\t"Big Ben"\t:op1',
    ]
    amr = dumps_tsv([g], standardize="smatchpp-amr").splitlines()
    assert amr[0] == "w\twant-01\t:root" and "n\tbig ben\t:op1" in amr


def test_read_back_the_same_graph(tmp_path):
    g = loads_graph(GRAPH)
    other = loads_graph('(c / Cat :ARG1-of (l / be-located-at-91 :ARG2 (h / house)) :ARG0-of "foo")')
    write_tsv(tmp_path / "g.tsv", [g, other])
    back = read_tsv(tmp_path / "g.tsv")
    assert [(x.top, x.instances, x.edges, x.attributes) for x in back] == [
        (y.top, y.instances, y.edges, y.attributes) for y in (g, other)
    ]
    for mode in ("none", "smatchpp-generic", "smatchpp-amr"):
        assert [standardized(x, mode) for x in back] == [standardized(y, mode) for y in (g, other)]
    # the amr standardization's triples read back as a graph with the same triples
    again = loads_tsv(dumps_tsv([other], standardize="smatchpp-amr"))[0]
    assert sorted(standardized(again, "smatchpp-amr")) == sorted(standardized(other, "smatchpp-amr"))


def test_a_constant_into_a_variable_is_its_inverse_role():
    g = loads_tsv("ROOT_OF_GRAPH\tc\t:root\nc\tcat\t:instance\nfoo\tc\t:arg0\n\n# a comment\n")[0]
    assert [tuple(a) for a in g.attributes] == [("c", "arg0-of", "foo")]
    assert standardized(g, "smatchpp-generic")[-1] == ("foo", ":arg0", "c")


@pytest.mark.parametrize(
    "text,message",
    [
        ("a\tb\n", "line 1: expected source, target and role, got 2 fields"),
        ("a\tx\t:instance\na\tb\tARG0\n", "line 2: expected a role that starts with ':'"),
        ("a\tx\t:instance\np\tq\t:r\n", "line 2: neither 'p' nor 'q' is a variable"),
        ("ROOT_OF_GRAPH\tz\t:root\na\tx\t:instance\n", "the root 'z' has no :instance triple"),
    ],
)
def test_bad_lines(text, message):
    with pytest.raises(InputError, match=message):
        loads_tsv(text)


def test_scores_from_tsv_equal_scores_from_penman(data_dir):
    gold = read_graphs(data_dir / "parses/gold.amr")[:40]
    t5 = read_graphs(data_dir / "parses/t5_sys.amr")[:40]
    for mode in ("smatch", "smatchpp-amr"):
        a = smatch(t5, gold, standardize=mode)
        b = smatch(loads_tsv(dumps_tsv(t5)), loads_tsv(dumps_tsv(gold)), standardize=mode)
        assert (a.match, a.test, a.gold) == (b.match, b.test, b.gold)


@pytest.mark.skipif(importlib.util.find_spec("smatchpp") is None, reason="smatchpp (SMATCH++) is not installed")
def test_smatchpp_reads_what_amreval_writes():
    from smatchpp.data_helpers import PenmanReader, TSVReader

    g = loads_graph(GRAPH.replace('"Big Ben"', '"Ben"'))
    ours = TSVReader().string2graph(dumps_tsv([g]).rstrip("\n"))
    assert sorted(ours) == sorted(PenmanReader().string2graph(GRAPH.replace('"Big Ben"', '"Ben"')))


def test_the_command_line_reads_tsv(tmp_path, capsys):
    from amreval.cli import main

    pred = loads_graph("(c / Cat :ARG1-of (l / be-located-at-91 :ARG2 (h / house)))")
    gold = loads_graph("(c / cat :location (h / house))")
    write_tsv(tmp_path / "p.tsv", [pred])
    write_tsv(tmp_path / "g.tsv", [gold])
    files = ["-f", str(tmp_path / "p.tsv"), str(tmp_path / "g.tsv"), "--tsv", "--pr"]
    assert main(["smatch", *files, "--standardize", "smatchpp-amr"]) == 0
    assert capsys.readouterr().out.splitlines()[:3] == ["Precision: 1.00", "Recall: 1.00", "F-score: 1.00"]


def test_a_file_that_is_not_utf8_is_named_not_a_traceback(tmp_path):
    # the one reading rule of every reader: the file, the line, the byte
    (tmp_path / "latin.tsv").write_bytes(b"ROOT_OF_GRAPH\tc\t:root\nc\tcaf\xe9\t:instance\n")
    with pytest.raises(DecodeError, match=r"latin\.tsv, line 2: not UTF-8 text \(byte 27: b'\\xe9'\)"):
        read_tsv(tmp_path / "latin.tsv")
    # a byte-order mark and Windows line ends are read as every other reader reads them
    (tmp_path / "bom.tsv").write_bytes(b"\xef\xbb\xbfROOT_OF_GRAPH\tc\t:root\r\nc\tcat\t:instance\r\n")
    assert read_tsv(tmp_path / "bom.tsv")[0].instances == {"c": "cat"}
    with pytest.raises(InputError, match="no such file"):
        read_tsv(tmp_path / "missing.tsv")


def test_a_malformed_graph_read_leniently_keeps_its_place():
    text = "a\tx\t:instance\n\na\tb\n\nb\ty\t:instance\n"
    errors: list[InputError] = []
    graphs = loads_tsv(text, "p.tsv", errors=errors)
    assert [type(g).__name__ for g in graphs] == ["Graph", "UnreadableGraph", "Graph"]
    assert graphs[1].origin == "p.tsv, graph #2, line 3"
    assert [str(e) for e in errors] == ["p.tsv, line 3: expected source, target and role, got 2 fields"]


def test_the_command_line_scores_a_malformed_tsv_prediction_as_empty(tmp_path, capsys):
    from amreval.cli import main

    (tmp_path / "p.tsv").write_text("a\tcat\t:instance\n\nb\n", encoding="utf-8")
    (tmp_path / "g.tsv").write_text("a\tcat\t:instance\n\nb\tdog\t:instance\n", encoding="utf-8")
    files = ["-f", str(tmp_path / "p.tsv"), str(tmp_path / "g.tsv"), "--tsv", "--pr"]
    assert main(["smatch", *files]) == 0
    # the cat pair: ROOT + instance, both matched; the unreadable one: nothing of the dog's 2 triples
    out, err = capsys.readouterr()
    assert out.splitlines()[:3] == ["Precision: 1.00", "Recall: 0.50", "F-score: 0.67"]
    assert "1 of 2 predicted graphs could not be read and was scored as an empty graph" in err
    assert main(["smatch", *files, "--strict"]) == 1
    assert "line 3: expected source, target and role, got 1 fields" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("value", "what"),
    [('"a\tb"', "a tab"), ('"a\nb"', "a tab"), ('"a\u2028b"', "a tab"), ('"a\ud800"', "surrogate")],
)
def test_a_value_the_format_cannot_hold_is_refused_naming_the_graph(value, what):
    from amreval.amr.graph import Attribute, Graph

    g = Graph(top="n", instances={"n": "name"}, attributes=[Attribute("n", "op1", value)], origin="gold.amr, graph #3")
    with pytest.raises(InputError, match=f"gold.amr, graph #3: the value .* {what}"):
        dumps_tsv([g])


def test_what_is_written_reads_back_as_written():
    g = loads_graph('(n / name :op1 "Big  Ben" :op2 "x:y")')
    assert loads_tsv(dumps_tsv([g]))[0].attributes == g.attributes
