"""Standardization as a choice of the reader: hand-checked triples and counts, SMATCH++ 1.8 parity."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from amreval import AmrevalWarning, InputError, smatch, smatch_pair
from amreval.amr.read import loads_graph, read_graphs
from amreval.amr.standardize import STANDARDIZATIONS, standardized, written_triples
from amreval.match.standard import loose_matches, standard_triples, to_triples

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "smatchpp_counts.json"
HAS_SMATCHPP = importlib.util.find_spec("smatchpp") is not None
#: the fixture's corpora: predictions, gold (written by tests/fixtures/smatchpp_counts.py)
CORPORA = {
    "bart": ("parses/bart_sys.amr", "parses/gold.amr"),
    "t5": ("parses/t5_sys.amr", "parses/gold.amr"),
    "lpp": ("lpp/amr-bank-struct-v1.6.txt", "lpp/amr-bank-struct-v3.0.txt"),
}
#: pairs that exercise every step of SMATCH++'s standardizations, with its ILP's [match, test, gold]
TRICKY = [
    (
        "(c / Cat :ARG1-of (l / be-located-at-91 :ARG2 (h / house)))",
        "(c / cat :location (h / house))",
        {"none": [2, 6, 4], "smatchpp-generic": [3, 6, 4], "smatchpp-amr": [4, 4, 4]},
    ),
    (
        "(w / want-01 :ARG0 (b / boy) :ARG0 (b2 / boy) :ARG1-of (x / say-01 :ARG0 b))",
        "(w / want-01 :ARG0 (b / boy) :ARG1-of (s / say-01 :ARG0 b) :ARG0 b)",
        {"none": [7, 9, 8], "smatchpp-generic": [7, 9, 8], "smatchpp-amr": [7, 9, 7]},
    ),
    (
        "(d / dog :domain (n / nice))",
        "(n / nice :mod (d / dog))",
        {"none": [2, 4, 4], "smatchpp-generic": [2, 4, 4], "smatchpp-amr": [3, 4, 4]},
    ),
    (
        '(p / person :name (n / name :op1 "Paris" :op2 "Rome") :ARG0-of "foo")',
        "(p / person :name (n / name :op1 paris :op2 rome) :ARG0-of foo)",
        {"none": [4, 7, 7], "smatchpp-generic": [7, 7, 7], "smatchpp-amr": [7, 7, 7]},
    ),
    (
        "(a / and :op1 (b / b :polarity -) :op1 (b2 / b :polarity -))",
        "(a / and :op1 (b / b :polarity -))",
        {"none": [5, 8, 5], "smatchpp-generic": [5, 8, 5], "smatchpp-amr": [5, 8, 5]},
    ),
    (
        "(i / i :consist-of (j / j) :ARG0-of-of (k / k))",
        "(i / i :consist (j / j) :ARG0 (k / k))",
        {"none": [4, 6, 6], "smatchpp-generic": [5, 6, 6], "smatchpp-amr": [5, 6, 6]},
    ),
    (
        "(t / thing :ARG1-of (h / have-polarity-91 :ARG2 -) :root (r / r))",
        "(t / thing :polarity - :root (r / r))",
        {"none": [4, 7, 5], "smatchpp-generic": [4, 7, 5], "smatchpp-amr": [5, 5, 5]},
    ),
]


def test_the_names():
    assert STANDARDIZATIONS == ("none", "smatch", "smatchpp-generic", "smatchpp-amr")
    with pytest.raises(InputError, match="standardize: expected one of none, smatch"):
        smatch_pair("(a / b)", "(a / b)", standardize="amr")


def test_triples_as_written_and_standardized():
    g = loads_graph('(c / Cat :ARG1-of (l / be-located-at-91 :ARG2 (h / "House")) :mod "Big")')
    assert written_triples(g) == [
        ("ROOT_OF_GRAPH", ":root", "c"),
        ("c", ":instance", "Cat"),
        ("l", ":instance", "be-located-at-91"),
        ("h", ":instance", '"House"'),
        ("c", ":ARG1-of", "l"),
        ("l", ":ARG2", "h"),
        ("c", ":mod", '"Big"'),
    ]
    assert standardized(g, "none") == written_triples(g)
    assert standardized(g, "smatchpp-generic") == [
        ("root_of_graph", ":root", "c"),
        ("c", ":instance", "cat"),
        ("l", ":instance", "be-located-at-91"),
        ("h", ":instance", "house"),
        ("l", ":arg1", "c"),
        ("l", ":arg2", "h"),
        ("c", ":mod", "big"),
    ]
    # the root triple holds the top concept; the reified node is read as its role
    assert standardized(g, "smatchpp-amr") == [
        ("c", ":root", "cat"),
        ("c", ":instance", "cat"),
        ("h", ":instance", "house"),
        ("c", ":mod", "big"),
        ("c", ":location", "h"),
    ]
    with pytest.raises(InputError, match="graph_triples"):
        standardized(g, "smatch")


def test_domain_is_the_inverse_of_mod_only_for_amr():
    g = loads_graph("(d / dog :domain (n / nice))")
    assert standardized(g, "smatchpp-generic")[-1] == ("d", ":domain", "n")
    assert standardized(g, "smatchpp-amr")[-1] == ("n", ":mod", "d")


def test_a_reified_node_with_an_edge_into_it_stays():
    g = loads_graph("(s / see-01 :ARG1 (l / be-located-at-91 :ARG1 (c / cat) :ARG2 (h / house)))")
    assert ("l", ":instance", "be-located-at-91") in standardized(g, "smatchpp-amr")


def test_node_triples_constants_into_variables_and_repeats():
    g = loads_graph('(a / and :op1 (b / b :polarity -) :op1 b :ARG0-of "X")')
    t, loose = standard_triples(g, "smatchpp-generic")
    assert t.variables == ["a", "b"] and t.concepts == ["and", "b"]
    assert t.relations == [(":op1", 0, 1), (":op1\x002", 0, 1)]
    assert t.attributes == [("^:root", 0, "root_of_graph"), (":polarity", 1, "-"), ("^:arg0", 0, "x")]
    assert (t.count, loose) == (7, [])
    t, _ = standard_triples(g, "smatchpp-amr")  # duplicates removed
    assert t.relations == [(":op1", 0, 1)] and t.count == 6


def test_triples_with_no_variable_match_whatever_the_alignment():
    t, loose = to_triples([("x", ":instance", "a"), ("p", ":r", "q"), ("p", ":r", "q"), ("x", ":s", "k")], "x")
    assert (t.count, loose) == (2, [("p", ":r", "q"), ("p", ":r", "q")])
    assert loose_matches(loose, [("p", ":r", "q")]) == 1
    assert loose_matches(loose, loose) == 2
    assert loose_matches(loose, []) == 0


@pytest.mark.parametrize("pred,gold,counts", TRICKY)
def test_counts_of_each_reading(pred, gold, counts):
    for mode, expected in counts.items():
        s = smatch_pair(pred, gold, standardize=mode)
        assert [s.match, s.test, s.gold] == expected, mode
        assert s.optimal


def test_the_default_reading_is_smatch_and_unrecorded():
    pred, gold = TRICKY[0][0], TRICKY[0][1]
    default = smatch([pred], [gold])
    assert (default.match, default.test, default.gold) == (3, 6, 4)  # TOP and the two instances
    assert "standardize" not in default.config.as_string()
    amr = smatch([pred], [gold], standardize="smatchpp-amr")
    assert (amr.match, amr.test, amr.gold) == (4, 4, 4)
    assert ",standardize=smatchpp-amr," in amr.config.as_string()
    assert amr.config.as_dict()["standardize"] == "smatchpp-amr"


def _fixture() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def _corpus(data_dir: Path, name: str) -> tuple[list, list]:
    a, b = CORPORA[name]
    if name != "bart":
        return read_graphs(data_dir / a), read_graphs(data_dir / b)
    with pytest.warns(AmrevalWarning, match="'z11' looks like a variable"):  # a constant for SMATCH++ too
        return read_graphs(data_dir / a), read_graphs(data_dir / b)


def _script():  # type: ignore[no-untyped-def]
    """tests/fixtures/smatchpp_counts.py, the script that wrote the fixture."""
    from fixtures import smatchpp_counts

    return smatchpp_counts


@pytest.mark.parametrize("mode", ["none", "smatchpp-generic", "smatchpp-amr"])
@pytest.mark.parametrize("name", ["bart", "t5", "lpp"])
def test_smatchpp_ilp_counts_pair_by_pair(data_dir, mode, name):
    """SMATCH++ 1.8's ILP counts (tests/fixtures/smatchpp_counts.py), every pair, every reading."""
    expected = _fixture()[mode][name]
    pred, gold = _corpus(data_dir, name)
    result = smatch(pred, gold, standardize=mode, progress=False)
    assert [[p.match, p.test, p.gold] for p in result.pairs] == expected
    assert result.n_optimal == len(expected)


def test_smatchpp_totals_as_published():
    fixture = _fixture()
    total = {m: {n: [sum(c[k] for c in v) for k in range(3)] for n, v in d.items()} for m, d in fixture.items()}
    assert total["smatchpp-generic"]["lpp"] == [22512, 23247, 23518]
    assert total["smatchpp-amr"]["lpp"][0] == 22497
    assert total["smatchpp-amr"]["bart"][0] == 2922 and total["smatchpp-amr"]["t5"][0] == 2930
    assert total["none"]["bart"][0] == 2921


@pytest.mark.skipif(not HAS_SMATCHPP, reason="smatchpp (SMATCH++) is not installed: no live parity check")
@pytest.mark.parametrize("mode", ["none", "smatchpp-generic", "smatchpp-amr"])
def test_live_against_smatchpp(data_dir, mode):
    """SMATCH++'s own ILP on the tricky pairs and the first BART parses."""
    script = _script()
    scorer = script.smatchpp_scorer(script.MODES[mode])
    pairs = [(p, g) for p, g, _ in TRICKY]
    bart = script.graph_strings(data_dir / "parses/bart_sys.amr")[:5]
    gold = script.graph_strings(data_dir / "parses/gold.amr")[:5]
    for pred, ref in [*pairs, *zip(bart, gold)]:
        s = smatch_pair(pred, ref, standardize=mode)
        assert [s.match, s.test, s.gold] == script.pair_counts(scorer, pred, ref), pred


DOC_PRED = "(d / document :snt1 (a / Cat :ARG1-of (l / be-located-at-91 :ARG2 (h / house))))"
DOC_GOLD = "(d / document :snt1 (c / cat :location (h / house)))"


def test_docsmatch_reads_its_main_score_the_chosen_way():
    from amreval.scores.docsmatch import docsmatch, docsmatch_pair

    default = docsmatch([DOC_PRED], [DOC_GOLD])
    assert (default.match, default.test, default.gold) == (5, 8, 6)  # d, cat, house, TOP, :snt1
    amr = docsmatch([DOC_PRED], [DOC_GOLD], standardize="smatchpp-amr")
    assert (amr.match, amr.test, amr.gold) == (6, 6, 6)
    assert ",standardize=smatchpp-amr," in amr.config.as_string()
    assert docsmatch_pair(DOC_PRED, DOC_GOLD, standardize="smatchpp-generic").match == 5
    with pytest.raises(InputError, match="applies to the main DocSmatch score only"):
        docsmatch([DOC_PRED], [DOC_GOLD], standardize="none", coref=True)


def test_compare_and_the_command_line_take_the_reading(tmp_path, capsys):
    from amreval.cli import main
    from amreval.scores.compare import compare_systems

    pred, gold = TRICKY[0][0], TRICKY[0][1]
    cmp = compare_systems({"A": [pred, gold], "B": [gold, gold]}, [gold, gold], standardize="smatchpp-amr")
    assert "standardize=smatchpp-amr" in cmp.as_dict()["config"]
    with pytest.raises(InputError, match="only the smatch score"):
        compare_systems({"A": [pred], "B": [gold]}, [gold], score="s2match", standardize="none")
    (tmp_path / "p.amr").write_text(pred + "\n", encoding="utf-8")
    (tmp_path / "g.amr").write_text(gold + "\n", encoding="utf-8")
    files = ["-f", str(tmp_path / "p.amr"), str(tmp_path / "g.amr")]
    assert main(["smatch", *files, "--standardize", "smatchpp-generic", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["match"], out["test"], out["gold"]) == (3, 6, 4)
    assert "standardize=smatchpp-generic" in out["config"]
    assert main(["smatch", *files, "--pr"]) == 0
    assert "F-score: 0.60" in capsys.readouterr().out  # smatch's reading: 3 of 6 and 4


@pytest.mark.skipif(importlib.util.find_spec("evaluate") is None, reason="the hub extra (evaluate) is not installed")
def test_the_docsmatch_metric_takes_the_reading(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path))
    from amreval.hub.metrics import load_metric

    metric = load_metric("docsmatch")
    out = metric.compute(predictions=[DOC_PRED], references=[DOC_GOLD], coref=False, standardize="smatchpp-amr")
    assert (out["match"], out["test"], out["gold"]) == (6, 6, 6)
    assert "standardize=smatchpp-amr" in out["config"]


def test_compare_on_the_command_line(tmp_path, capsys):
    from amreval.cli import main

    pred, gold = TRICKY[0][0], TRICKY[0][1]
    for name, text in (("a", f"{pred}\n\n{gold}\n"), ("b", f"{gold}\n\n{gold}\n"), ("g", f"{gold}\n\n{gold}\n")):
        (tmp_path / f"{name}.amr").write_text(text, encoding="utf-8")
    files = ["-f", str(tmp_path / "a.amr"), str(tmp_path / "b.amr"), "--gold", str(tmp_path / "g.amr")]
    assert main(["compare", *files, "--standardize", "smatchpp-amr", "--json", "--resamples", "100"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "standardize=smatchpp-amr" in out["config"]
    assert main(["compare", *files, "--standardize", "none", "--score", "mfbeta", "--form", "x", "y"]) == 1
    assert "--standardize: only the smatch score" in capsys.readouterr().err
