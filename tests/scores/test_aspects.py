"""SMATCH++'s aspect scores (amreval.scores.aspects): hand-checked subgraphs and counts on tiny graphs,
the command line, and parity with SMATCH++ 1.8 itself on the BART and T5 parses."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from amreval.amr.read import loads_graph, read_graphs
from amreval.amr.standardize import VAR, marked_triples, standardized
from amreval.cli import main
from amreval.errors import AmrevalWarning, InputError
from amreval.scores.aspects import (
    ASPECT_KEYS,
    ASPECTS,
    aspect_pair,
    aspect_scores,
    aspect_subgraphs,
    counts_under,
    read_frames,
    role_rules,
)
from amreval.scores.compare import compare_systems
from conftest import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "smatchpp_aspects.json"
HAS_SMATCHPP = importlib.util.find_spec("smatchpp") is not None
FRAMES = "Control-01  ARG0: controller  ARG1: controlled  ARG2: instrumental, controlled with\n"
GOLD_CONTROL = "(c / control-01 :ARG0 (p / person) :ARG2 (r / remote))"


def _subgraphs(text: str, rules: dict | None = None) -> dict[str, list]:
    g = loads_graph(text)
    return {n: sorted(s) for n, s in aspect_subgraphs(standardized(g, "smatchpp-amr"), rules).items()}


def test_the_aspects_and_their_words():
    assert ASPECTS[0] == "AGENT" and ASPECTS[-1] == "REENTRANCIES" and len(ASPECTS) == 19
    assert ASPECT_KEYS["location"] == "LOCATION (spatial)" and ASPECT_KEYS["srl-core"] == "SRL-core"


def test_seeds_context_and_instances():
    a = _subgraphs('(d / drive-01 :ARG0 (p / person) :location (c / city :name (n / name :op1 "Paris")))')
    # the :location edge, the city's triples (its concept is a location), two steps on, the instances
    assert a["LOCATION (spatial)"] == [
        ("c", ":instance", "city"),
        ("c", ":name", "n"),
        ("d", ":instance", "drive-01"),
        ("d", ":location", "c"),
        ("n", ":instance", "name"),
        ("n", ":op1", "paris"),
    ]
    assert a["NER"] == [
        ("c", ":instance", "city"),
        ("c", ":name", "n"),
        ("n", ":instance", "name"),
        ("n", ":op1", "paris"),
    ]
    assert a["FOCUS"] == [("d", ":instance", "drive-01"), ("d", ":root", "drive-01")]
    assert len(a["CONCEPT"]) == 4 and a["POLARITY"] == [] and a["REENTRANCIES"] == []


def test_a_concept_group_member_also_seeds_through_the_root_triple():
    assert _subgraphs("(c / city)")["LOCATION (spatial)"] == [("c", ":instance", "city"), ("c", ":root", "city")]
    # SMATCH++'s list has the single entry "forest moon": a forest is no location
    assert _subgraphs("(f / forest)")["LOCATION (spatial)"] == []


def test_a_predicate_of_a_node_joins_its_aspect():
    # s has no incoming and one outgoing triple (sing-01 :ARG0 p, turned round): a predicate of p
    assert _subgraphs("(p / person :polarity - :ARG0-of (s / sing-01))")["POLARITY"] == [
        ("p", ":instance", "person"),
        ("p", ":polarity", "-"),
        ("s", ":arg0", "p"),
        ("s", ":instance", "sing-01"),
    ]


def test_question_takes_the_parents_and_reentrancies_the_edges_into_a_shared_node():
    q = _subgraphs("(s / say-01 :ARG0 (p / person) :ARG1 (k / know-01 :ARG1 (a / amr-unknown)))")["QUESTION"]
    assert q == [
        ("a", ":instance", "amr-unknown"),
        ("k", ":arg1", "a"),
        ("k", ":instance", "know-01"),
        ("s", ":arg1", "k"),
        ("s", ":instance", "say-01"),
    ]
    r = _subgraphs("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))")["REENTRANCIES"]
    assert r == [
        ("b", ":instance", "boy"),
        ("g", ":arg0", "b"),
        ("g", ":instance", "go-02"),
        ("w", ":arg0", "b"),
        ("w", ":instance", "want-01"),
    ]


def test_frames_rename_core_roles(tmp_path):
    path = tmp_path / "frames.txt"
    path.write_text(FRAMES, encoding="utf-8")
    frames = read_frames(path)
    assert frames == {
        "control-01": {":arg0": " controller ", ":arg1": " controlled ", ":arg2": " instrumental controlled with "}
    }
    rules = role_rules(frames)
    assert rules == {"control-01": {":arg2": ":instrument"}}
    text = "(c / control-01 :ARG0 (p / person) :ARG2 (r / remote))"
    with_frames, without = _subgraphs(text, rules), _subgraphs(text)
    assert with_frames["INSTRUMENT"] == [
        ("c", ":instance", "control-01"),
        ("c", ":instrument", "r"),
        ("r", ":instance", "remote"),
    ]
    assert without["INSTRUMENT"] == [] and len(without["SRL-core"]) == 5 and len(with_frames["SRL-core"]) == 3
    # of two words that fit, the later aspect's wins (POSSESSION comes after INSTRUMENT)
    assert role_rules({"x-01": {":arg1": " owner of a tool "}}) == {"x-01": {":arg1": ":poss"}}


def test_a_bad_frame_file(tmp_path):
    path = tmp_path / "frames.txt"
    path.write_text("x-01  ARG0 controller\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"frames.txt, line 1: expected 'ARGn: description', got 'arg0 controller'"):
        read_frames(path)["x-01"]  # a line is read when its predicate is looked up
    with pytest.raises(InputError, match="cannot read the frame file"):
        read_frames(tmp_path / "missing.txt")


def test_one_alignment_against_one_per_aspect():
    pred = loads_graph("(a / and :op1 (b / boy :polarity -) :op2 (g / girl))")
    gold = loads_graph("(a / and :op1 (b / boy) :op2 (g / girl :polarity -))")
    one, multi = aspect_pair(pred, gold, "onealign"), aspect_pair(pred, gold, "multialign")
    assert one.main == multi.main == (6, 7, 7)
    # the whole graphs map boy to boy: the negated boy is no negated girl; aligned anew, the negations meet
    assert one.counts["POLARITY"] == (0, 2, 2) and multi.counts["POLARITY"] == (1, 2, 2)
    assert one.counts["CONCEPT"] == multi.counts["CONCEPT"] == (3, 3, 3)
    assert one.optimal and multi.optimal


def test_counts_under_an_alignment():
    x, y = VAR + "x", VAR + "y"
    a = {(x, ":instance", "cat"), (x, ":polarity", "-")}
    b = {(y, ":instance", "cat"), (y, ":polarity", "-"), (y, ":quant", "2")}
    assert counts_under(a, b, {x: y}) == (2, 2, 3)
    assert counts_under(a, b, {}) == (0, 2, 3)


def test_corpus_sums_and_errors():
    pred = ["(a / and :op1 (b / boy :polarity -) :op2 (g / girl))", "(c / city)"]
    gold = ["(a / and :op1 (b / boy) :op2 (g / girl :polarity -))", "(c / town)"]
    r = aspect_scores(pred, gold, alignment="multialign")
    assert r.counts["POLARITY"] == (1, 2, 2) and r.counts["LOCATION (spatial)"] == (0, 2, 0)
    assert r.main == (6, 9, 9) and r.optimal and not r.frames
    assert r.as_dict()["aspects"]["POLARITY"] == {
        "match": 1, "test": 2, "gold": 2, "precision": 0.5, "recall": 0.5, "f1": 0.5
    }  # fmt: skip
    with pytest.raises(InputError, match="expected a SMATCH\\+\\+ reading, got 'smatch'"):
        aspect_scores(pred, gold, standardize="smatch")
    with pytest.raises(InputError, match="expected an alignment in onealign, multialign, got 'two'"):
        aspect_scores(pred, gold, alignment="two")
    with pytest.raises(InputError, match="expected equal, non-empty lists; got 2 and 1 graph"):
        aspect_scores(pred, gold[:1])


def test_the_command_line(tmp_path, capsys):
    p, g = tmp_path / "p.amr", tmp_path / "g.amr"
    p.write_text("(a / and :op1 (b / boy :polarity -) :op2 (g / girl))\n", encoding="utf-8")
    g.write_text("(a / and :op1 (b / boy) :op2 (g / girl :polarity -))\n", encoding="utf-8")
    assert main(["smatch", "-f", str(p), str(g), "--aspects", "multialign", "--pr"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "SMATCH++ aspects (multialign, smatchpp-amr, frames: no):"
    assert out[1] == "main               -> P: 0.86, R: 0.86, F: 0.86  (6 of 7 test, 7 gold)"
    assert out[11] == "POLARITY           -> P: 0.50, R: 0.50, F: 0.50  (1 of 2 test, 2 gold)"
    assert len(out) == 21
    assert main(["smatch", "-f", str(p), str(g), "--aspects", "onealign", "--json", "--ms"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["aspects"]["POLARITY"]["match"] == 0 and data["pair_counts"][0]["POLARITY"] == [0, 2, 2]
    assert main(["smatch", "-f", str(p), str(g), "--aspects", "onealign", "--averages"]) == 2
    assert "--aspects: not with --averages or --ci" in capsys.readouterr().err


def test_compare_tests_each_aspect():
    gold = ["(a / and :op1 (b / boy) :op2 (g / girl :polarity -))", "(c / city)"]
    a = ["(a / and :op1 (b / boy) :op2 (g / girl :polarity -))", "(c / city)"]
    b = ["(a / and :op1 (b / boy :polarity -) :op2 (g / girl))", "(c / town)"]
    cmp = compare_systems({"a": a, "b": b}, gold, score="aspects-multialign", n_resamples=100)
    parts = {row.score: row for row in cmp.breakdown}
    assert len(parts) == len(ASPECTS)
    assert parts["POLARITY"].score_a == 1.0 and parts["POLARITY"].score_b == 0.5
    assert cmp.tests[0].score_a == 1.0 and round(cmp.tests[0].score_b, 4) == round(6 / 9, 4)


def test_compare_with_frames_moves_a_role_between_aspects(tmp_path, capsys):
    frames, gold, a, b = (tmp_path / n for n in ("frames.txt", "gold.amr", "a.amr", "b.amr"))
    frames.write_text(FRAMES, encoding="utf-8")
    gold.write_text("(c / control-01 :ARG0 (p / person) :ARG2 (r / remote))\n\n" * 2, encoding="utf-8")
    a.write_text(gold.read_text(encoding="utf-8"), encoding="utf-8")
    b.write_text("(c / control-01 :ARG0 (p / person) :ARG1 (r / remote))\n\n" * 2, encoding="utf-8")
    argv = ["compare", "-f", str(a), str(b), "--gold", str(gold), "--score", "aspects-multialign", "--json"]
    rows = {}
    for extra in ([], ["--frames", str(frames)]):
        assert main([*argv, "--resamples", "100", *extra]) == 0
        data = json.loads(capsys.readouterr().out)
        rows[bool(extra)] = {
            r["score"]: (r["score_a"], None if r["score_b"] is None else round(r["score_b"], 4))
            for r in data["breakdown"]
        }
    assert data["config"] == "aspects-multialign,standardize=smatchpp-amr,frames=True"
    # without frames :ARG2 is a patient: gold c :arg2 r with c, r; b's c :arg1 r shares the instances (2 of 3)
    # (no instrument on any side: nothing to score)
    assert rows[False]["PATIENT"] == (1.0, 0.6667) and rows[False]["INSTRUMENT"] == (None, None)
    # control-01's :ARG2 is instrumental: the gold triple moves to INSTRUMENT, which b misses; b's :ARG1 is left
    # a patient the gold has none of (F 0; a has none either: nothing to score); SRL-core keeps c :arg0 p (3 of
    # b's 5 triples, all 3 of the gold's)
    assert rows[True]["INSTRUMENT"] == (1.0, 0.0) and rows[True]["PATIENT"] == (None, 0.0)
    assert rows[False]["SRL-core"] == (1.0, 0.8) and rows[True]["SRL-core"] == (1.0, 0.75)
    cmp = compare_systems(
        {"a": [GOLD_CONTROL] * 2, "b": [GOLD_CONTROL] * 2}, [GOLD_CONTROL] * 2, score="aspects-onealign", frames=frames
    )
    assert {r.score: r.score_a for r in cmp.breakdown}["INSTRUMENT"] == 1.0
    with pytest.raises(InputError, match=r"frames: the frames rename roles for the aspect scores \(aspects-onealign"):
        compare_systems({"a": [GOLD_CONTROL] * 2, "b": [GOLD_CONTROL] * 2}, [GOLD_CONTROL] * 2, frames=frames)
    assert main(["compare", "-f", str(a), str(b), "--gold", str(gold), "--frames", str(frames)]) == 2
    assert "amreval: error: frames: the frames rename roles for the aspect scores (aspects-onealign" in (
        capsys.readouterr().err
    )


def _fixture() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def _corpus(data_dir: Path, name: str) -> tuple[list, list]:
    path = data_dir / "parses" / f"{name}_sys.amr"
    if name == "bart":
        with pytest.warns(AmrevalWarning, match="'z11' looks like a variable"):
            return read_graphs(path), read_graphs(data_dir / "parses" / "gold.amr")
    return read_graphs(path), read_graphs(data_dir / "parses" / "gold.amr")


def _frames_rules() -> dict:
    if not HAS_SMATCHPP:
        pytest.skip("smatchpp (SMATCH++) is not installed: its PropBank frame file is not here")
    from smatchpp.formalism.amr import tools

    return role_rules(read_frames(Path(tools.__file__).parent / "resource" / "propbank-amr-frames-arg-descr.txt"))


def _ours(data_dir: Path, name: str, alignment: str) -> list:
    pred, gold = _corpus(data_dir, name)
    return aspect_scores(pred, gold, alignment=alignment, frames=_frames_rules()).pairs


@pytest.mark.parametrize("name", ["bart", "t5"])
def test_multialign_counts_as_smatchpp_pair_by_pair(data_dir, name):
    """SMATCH++'s ILP (tests/fixtures/smatchpp_aspect_counts.py) finds each aspect's optimum on every pair."""
    fixture = _fixture()
    assert fixture["aspects"] == list(ASPECTS)
    pairs = _ours(data_dir, name, "multialign")
    assert [[list(p.counts[n]) for n in ASPECTS] for p in pairs] == fixture["multialign"][name]
    assert all(p.optimal for p in pairs)


@pytest.mark.parametrize("name", ["bart", "t5"])
def test_onealign_counts_under_smatchpps_alignment(data_dir, name):
    """Under SMATCH++'s own alignment of the whole graphs, amreval's subgraphs count as SMATCH++'s on every
    pair; amreval's certified alignment differs only where the whole graphs have several optimal ones."""
    fixture, rules = _fixture(), _frames_rules()
    pred, gold = _corpus(data_dir, name)
    ours = aspect_scores(pred, gold, alignment="onealign", frames=rules).pairs
    ties = 0
    for k, (p, g) in enumerate(zip(pred, gold)):
        a, b = marked_triples(p, "smatchpp-amr"), marked_triples(g, "smatchpp-amr")
        sa, sb = aspect_subgraphs(a, rules), aspect_subgraphs(b, rules)
        mapping = {VAR + x: VAR + y for x, y in fixture[f"alignment_{name}"][k]}
        theirs = [list(counts_under(sa[n], sb[n], mapping)) for n in ASPECTS]
        assert theirs == fixture["onealign"][name][k], k
        assert counts_under(set(a), set(b), mapping)[0] == ours[k].main[0], k  # both alignments are optimal
        assert [list(ours[k].counts[n])[1:] for n in ASPECTS] == [c[1:] for c in theirs], k
        ties += [list(ours[k].counts[n]) for n in ASPECTS] != theirs
    assert 0 < ties < len(pred) // 10


@pytest.mark.skipif(not HAS_SMATCHPP, reason="smatchpp (SMATCH++) is not installed: no live parity check")
@pytest.mark.parametrize("mode", ["onealign", "multialign"])
def test_live_against_smatchpp(data_dir, mode):
    """SMATCH++ itself, through its Python API, on the first BART and T5 parses. ``multialign``: the fixture's
    counts. ``onealign``: amreval's counts under the alignment SMATCH++ chose in that run (its ILP may pick
    another optimal alignment of tied graphs from one run to the next), and the fixture's subgraph sizes."""
    from fixtures import smatchpp_aspect_counts as script

    scorer, fixture, rules = script.aspect_scorer(mode), _fixture(), _frames_rules()
    for name, (a, b) in script.CORPORA.items():
        texts = list(zip(script.graph_strings(data_dir / a), script.graph_strings(data_dir / b)))[:8]
        if mode == "multialign":
            assert [script.pair_counts(scorer, p, g) for p, g in texts] == fixture[mode][name][:8]
            continue
        pred, gold = _corpus(data_dir, name)
        for k, (p, g) in enumerate(texts):
            counts, alignment = script.onealign_pair(scorer, p, g)
            sa, sb = (aspect_subgraphs(marked_triples(x[k], "smatchpp-amr"), rules) for x in (pred, gold))
            mapping = {VAR + x: VAR + y for x, y in alignment}
            assert [list(counts_under(sa[n], sb[n], mapping)) for n in ASPECTS] == counts, (name, k)
            assert [c[1:] for c in counts] == [c[1:] for c in fixture[mode][name][k]], (name, k)


@pytest.mark.parametrize("alignment", ["onealign", "multialign"])
def test_aspects_do_not_depend_on_the_variables_names(alignment):
    # gold lpp_1943.1501: a concept spelt as a variable (vx1 / vx1); under the reading ``none`` its instance
    # triple was taken for a second edge into vx1 (a reentrancy), and onealign matched names, not nodes
    gold = loads_graph("(vx0 / look-01 :ARG0 (vx1 / vx1 :mod (vx2 / too)) :ARG1 (vx3 / star))")
    renamed = loads_graph("(a / look-01 :ARG0 (b / vx1 :mod (c / too)) :ARG1 (d / star))")
    same = aspect_pair(gold, gold, alignment, standardize="none")
    other = aspect_pair(renamed, gold, alignment, standardize="none")
    assert same.counts["REENTRANCIES"] == other.counts["REENTRANCIES"] == (0, 0, 0)
    assert same.counts == other.counts
    assert other.main == (8, 8, 8) and other.counts["CONCEPT"] == (4, 4, 4)


def test_an_unreadable_prediction_is_scored_empty_and_counted(tmp_path, capsys):
    with pytest.warns(UserWarning, match="1 of 2 predicted graphs could not be read"):
        result = aspect_scores(["(a / cat)", "(b / dog"], ["(a / cat)", "(b / dog)"])
    assert result.unreadable_predictions == [1] and result.as_dict()["n_unreadable"] == 1
    assert result.main == (2, 2, 4)  # the cat: root and instance; the dog scored as an empty graph
    with pytest.raises(InputError, match="^prediction #2, graph #1, line 1: malformed PENMAN"):
        aspect_scores(["(a / cat)", "(b / dog"], ["(a / cat)", "(b / dog)"], strict=True)
    (tmp_path / "p.amr").write_text("(a / cat)\n\n(b / dog\n", encoding="utf-8")
    (tmp_path / "g.amr").write_text("(a / cat)\n\n(b / dog)\n", encoding="utf-8")
    files = ["-f", str(tmp_path / "p.amr"), str(tmp_path / "g.amr"), "--aspects", "onealign"]
    assert main(["smatch", *files]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[1] == "main               -> F: 0.67  (2 of 2 test, 4 gold)"
    assert "1 of 2 predicted graphs could not be read" in err
    assert main(["smatch", *files, "--strict"]) == 1


# roles swapped: 4 of 6 whichever way b and c are mapped (smatchpp-amr's root triple is Smatch's TOP)
CROSSED = ("(a / x :r (b / y) :s (c / z))", "(p / x :s (q / y) :r (t / z))")


def test_a_pair_over_the_memory_budget_is_scored_counted_and_named(tmp_path, capsys, monkeypatch):
    from amreval.errors import TooLargeError
    from amreval.match import problem as problem_module

    # a problem of nothing fits (the empty prediction's), any other does not (the cat's is proven without one)
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", problem_module.memory_estimate(0, 0))
    preds, golds = [CROSSED[0], "(a / cat)", "(b / dog"], [CROSSED[1], "(a / cat)", "(b / dog)"]
    with pytest.warns(AmrevalWarning) as caught:
        result = aspect_scores(preds, golds)
    assert [str(w.message).split(" (")[0] for w in caught] == [
        "1 of 3 predicted graphs could not be read and was scored as an empty graph",
        "1 of 3 pairs was over the alignment's memory budget",
    ]
    assert str(caught[1].message).startswith(
        "1 of 3 pairs was over the alignment's memory budget (0.0 GiB) in the aspect scores (onealign) and was "
        "aligned within it, scores not proven optimal (pair #1 (prediction #1, graph #1, line 1 against "
        "reference #1, graph #1, line 1)); "
    )
    # the crossed pair 4 of 6, the cat 2 of 2, the dog 0 of 2; over the budget the climb over each node's one
    # best candidate maps b to t and c to q (the relations': the same 4), so CONCEPT has x alone of x, y, z
    assert (result.main, result.counts["CONCEPT"], result.over_budget, result.optimal) == (
        (6, 8, 10),
        (2, 4, 5),
        [0],
        False,
    )
    out = result.as_dict()
    assert (out["n_unreadable"], out["n_over_budget"]) == (1, 1)
    with pytest.raises(TooLargeError, match=r"^pair #1 \(prediction #1, .*the alignment problem of 3 x 3 nodes"):
        aspect_scores(preds[:2], golds[:2], strict=True)
    (tmp_path / "p.amr").write_text("\n\n".join(preds) + "\n", encoding="utf-8")
    (tmp_path / "g.amr").write_text("\n\n".join(golds) + "\n", encoding="utf-8")
    files = ["-f", str(tmp_path / "p.amr"), str(tmp_path / "g.amr")]
    assert main(["smatch", *files, "--aspects", "multialign", "--json"]) == 0
    printed = capsys.readouterr()
    out = json.loads(printed.out)
    assert (out["n_unreadable"], out["n_over_budget"], out["aspects"]["CONCEPT"]["match"]) == (1, 1, 4)
    assert (
        "in the aspect scores (multialign) and was aligned within it, scores not proven optimal (pair #1 ("
        + (f"{tmp_path / 'p.amr'}, graph #1, line 1 against {tmp_path / 'g.amr'}, graph #1, line 1))")
        in printed.err
    )
    # docsmatch --aspects: the same counts, of the documents' aspect alignments (n_unreadable was 0 there)
    from amreval.scores.docsmatch import docsmatch

    with pytest.warns(AmrevalWarning, match="in the aspect scores"):
        flat = docsmatch(preds, golds, aspects="onealign", coref=False).as_dict()
    assert (flat["n_unreadable"], flat["aspect_n_over_budget"], flat["aspect_n_unproven"]) == (1, 1, 1)
    assert main(["docsmatch", *files, "--aspects", "onealign", "--json"]) == 0
    printed = capsys.readouterr()
    out = json.loads(printed.out)
    assert (out["n_unreadable"], out["n_over_budget"], out["aspects"]["main"]["match"]) == (1, 1, 6)
    assert "in the aspect scores (onealign) and was aligned within it" in printed.err
    (tmp_path / "p.amr").write_text("\n\n".join(preds[:2]) + "\n", encoding="utf-8")
    (tmp_path / "g.amr").write_text("\n\n".join(golds[:2]) + "\n", encoding="utf-8")
    for command in ("smatch", "docsmatch"):
        assert main([command, *files, "--aspects", "onealign", "--strict"]) == 1
        assert f"pair #1 ({tmp_path / 'p.amr'}, graph #1, line 1 against" in capsys.readouterr().err
