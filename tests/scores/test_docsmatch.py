"""DocSmatch: sentence groups, the candidate restriction, reference parity."""

from __future__ import annotations

import pytest

from amreval import AmrevalWarning, InputError, loads_graph, read_graphs, smatch
from amreval.docamr.document import sentence_groups
from amreval.match import graph_triples
from amreval.scores.docsmatch import docsmatch, docsmatch_pair, sentence_constraint

DOC = """(d / document
   :snt1 (w / want-01 :ARG0 (b / boy :coref-of (r / coref-entity)) :ARG1 (c / city :mod (o / old)))
   :snt2 (s / sleep-01 :ARG0 (h / he :coref-of r) :location (p / park :part-of c)))"""


def groups_by_var(text):
    g = loads_graph(text)
    t = graph_triples(g)
    m = sentence_groups(g, t.variables)
    return {v: [k for k in range(m.shape[1]) if m[i, k]] for i, v in enumerate(t.variables)}


def test_sentence_groups_follow_the_reference_reachability_rule():
    groups = groups_by_var(DOC)
    assert groups["d"] == [0]
    assert groups["w"] == groups["b"] == [1]
    # the chain node is reached from each mention's sentence (coref edges go target -> source)
    assert groups["r"] == [1, 2]
    # part edges go both ways: the park reaches the city and the city the park, and the
    # city's :mod child comes along (c :mod o is followed as written, c -> o)
    assert groups["c"] == groups["p"] == groups["o"] == [1, 2]
    assert groups["s"] == groups["h"] == [2]


def test_mod_is_followed_as_written_only():
    groups = groups_by_var("(d / document :snt1 (a / x :mod (m / y)) :snt2 (b / z :domain m))")
    # a :mod m -> a reaches m; b :domain m -> b reaches m; m reaches neither back
    assert groups["m"] == [1, 2] and groups["a"] == [1] and groups["b"] == [2]


def test_candidates_are_restricted_to_aligned_sentences():
    pred = loads_graph("(d / document :snt1 (a / boy :ARG0-of (r / run-01)) :snt2 (b / girl))")
    gold = loads_graph("(d / document :snt1 (x / girl) :snt2 (y / boy :ARG0-of (q / run-01)))")
    ta, tb = graph_triples(pred), graph_triples(gold)
    allowed = sentence_constraint(pred, gold, ta, tb)
    # rows d, a, r, b; columns d, x, y, q
    assert [[allowed.allows(i, j) for j in range(4)] for i in range(4)] == [
        [True, False, False, False],
        [False, True, False, False],
        [False, True, False, False],
        [False, False, True, True],
    ]
    # unconstrained Smatch matches the concepts across sentences: 3 concepts, ARG0, document, TOP
    assert smatch([pred], [gold], solver="exact").match == 6
    # DocSmatch keeps sentence k with sentence k: document, TOP, snt1, snt2
    r = docsmatch_pair(pred, gold, solver="exact")
    assert (r.match, r.test, r.gold) == (4, 8, 8)


def test_fewer_predicted_sentences_are_scored_not_rejected():
    pred = "(d / document :snt1 (a / boy))"
    gold = "(d / document :snt1 (x / boy) :snt2 (y / girl))"
    r = docsmatch_pair(pred, gold)
    # d, TOP, snt1, boy match; girl and snt2 have no partner
    assert (r.match, r.test, r.gold) == (4, 4, 6)


def test_graphs_without_snt_edges_are_plain_smatch():
    a, b = "(w / want-01 :ARG0 (b / boy))", "(x / want-01 :ARG0 (y / girl))"
    assert docsmatch_pair(a, b).match == smatch([a], [b]).match == 3


def test_reference_parity_on_the_synthetic_prediction(reference_dir):
    base = reference_dir / "docamr"
    pred = read_graphs(base / "synth.docAMR.pred.amr")
    gold = read_graphs(base / "expected" / "synth.docAMR.amr")
    for solver in ("hillclimb", "exact"):
        r = docsmatch(pred, gold, solver=solver)
        assert (round(r.precision, 4), round(r.recall, 4), round(r.f1, 4)) == (0.9286, 0.8667, 0.8966)
        assert (r.match, r.test, r.gold) == (78, 84, 90)


def test_self_match_of_every_reference_docamr_is_one(reference_dir):
    for path in sorted((reference_dir / "docamr" / "expected").glob("synth.*.amr*")):
        graphs = read_graphs(path)
        r = docsmatch(graphs, graphs)
        assert r.f1 == 1.0 and all(p.f1 == 1.0 for p in r.pairs), path


def test_bad_inputs():
    with pytest.raises(InputError, match="1 prediction but 2 references; they are paired by position"):
        docsmatch([DOC], [DOC, DOC])
    with pytest.raises(InputError, match="nothing to score"):
        docsmatch([], [])
    with pytest.raises(InputError, match="^reference #2: empty string"):
        docsmatch([DOC, DOC], [DOC, ""])


def test_lists_of_sentences_are_joined_without_coreference():
    from amreval.docamr.document import document_graph

    g = document_graph(["(w / want-01 :ARG0 (b / boy))", "(g / go-02 :ARG0-of (x / run-01))"], "prediction", 3)
    assert g.to_string(indent=None) == (
        "(d / document :snt1 (s1.w / want-01 :ARG0 (s1.b / boy)) :snt2 (s2.g / go-02 :ARG0-of (s2.x / run-01)))"
    )
    # the written direction is kept, so sentence groups see s2.x from s2.g
    assert groups_by_var(g.to_string())["s2.x"] == [2]
    r = docsmatch([["(a / boy)", "(b / girl)"]], ["(d / document :snt1 (x / boy) :snt2 (y / girl))"])
    assert (r.match, r.test, r.gold) == (6, 6, 6)


def test_bad_documents_name_their_index():
    from amreval import AmrevalWarning
    from amreval.docamr.document import document_graph

    with pytest.raises(InputError, match=r"^prediction #3: empty list"):
        docsmatch(["(a / b)", "(a / b)", []], ["(a / b)"] * 3)
    with pytest.raises(InputError, match=r"^reference #2, sentence #2, graph #1, line 1: malformed PENMAN"):
        docsmatch([["(a / b)"]] * 2, [["(a / b)"], ["(a / b)", "(a / b"]])
    with pytest.raises(InputError, match=r"^reference #1: expected a DocAMR string"):
        docsmatch(["(a / b)"], [42])
    with pytest.warns(AmrevalWarning, match=r"^prediction #1, sentence #2: empty string"):
        g = document_graph(["(a / b)", " ", "(c / d)"], "prediction", 0)
    # the empty sentence keeps its number
    assert [e.role for e in g.edges] == ["snt1", "snt3"]


def test_worker_processes_give_the_same_result():
    docs = [
        f"(d / document :snt1 (a / see-01 :ARG0 (b / boy{k % 3}) :ARG1 (c / coref-entity)) :snt2 (e / go-02 :ARG0 c))"
        for k in range(6)
    ]
    gold = ["(d / document :snt1 (a / see-01 :ARG0 (b / boy0) :ARG1 (c / coref-entity)) :snt2 (e / go-02 :ARG0 c))"] * 6
    one = docsmatch(docs, gold, coref=True, fine_grained=True)
    two = docsmatch(docs, gold, coref=True, fine_grained=True, num_workers=2)
    assert one.as_dict() == two.as_dict()
    # two of six documents have boy0; the others miss one instance triple each
    assert (one.match, one.test, one.gold) == (6 * 11 - 4, 66, 66)
    with pytest.raises(InputError, match="num_workers"):
        docsmatch(docs, gold, num_workers=0)


def test_fine_grained_scores_by_hand():
    pred = (
        "(d / document :snt1 (w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b)) :snt2 (s / sleep-01 :polarity -))"
    )
    gold = (
        "(d / document :snt1 (w / want-02 :ARG0 (b / boy :wiki -) :ARG1 (g / go-02 :ARG1 b))"
        ' :snt2 (s / sleep-01 :polarity - :ARG0 (p / person :name (n / name :op1 "Al"))))'
    )
    r = docsmatch([pred], [gold], fine_grained=True, solver="exact")
    f = r.fine_grained
    # concepts: pred {document, want-01, boy, go-01, sleep-01}, gold adds person and name, other senses
    assert f["concepts"] == [3, 5, 7]
    assert f["named_ent"] == [0, 0, 1] and f["negations"] == [1, 1, 1] and f["wikification"] == [0, 0, 1]
    # overall: pred 5 concepts + TOP + polarity + 5 relations = 12; gold 7 + 4 attributes + 7 = 18;
    # matched: document, boy, sleep-01, TOP, polarity, snt1, snt2, ARG0 w b, ARG1 w g = 9
    assert (r.match, r.test, r.gold) == (9, 12, 18)
    # no WSD: want and go match too
    assert f["no_wsd"] == [11, 12, 18]
    # unlabeled: 5 and 7 unlabeled edges, all 5 predicted ones match; the polarity and wiki
    # attributes both become (label, -), of which the one on sleep-01 matches
    assert f["unlabeled"] == [3 + 1 + 1 + 5, 5 + 1 + 1 + 5, 7 + 4 + 7]
    # SRL: pred ARG0 w b, ARG1 w g, ARG0 g b + 3 concepts + (TOP, w, want-01); gold ARG0 w b, ARG1 w g,
    # ARG1 g b, ARG0 s p + 5 concepts + (TOP, w, want-02); matched: boy, ARG0 w b, ARG1 w g (the senses differ)
    assert f["srl"] == [3, 7, 10]
    # reentrancies: b has two parents on both sides (2 edges + 3 concepts + TOP on w); boy and ARG0 w b match
    assert f["reentrancies"] == [2, 6, 6]


def test_one_graph_without_snt_edges_gives_plain_smatch():
    pred, gold = "(w / want-01 :ARG0 (b / boy))", "(d / document :snt1 (x / want-01 :ARG0 (y / boy)))"
    # the prediction is one group, free to map anywhere: want-01, boy and ARG0 match (not TOP, whose
    # node is the document on the gold side); confined to the gold top it would match TOP alone
    r = docsmatch_pair(pred, gold, solver="exact")
    assert (r.match, r.test, r.gold) == (3, 4, 6)
    assert r.match == smatch([pred], [gold], solver="exact").match


def test_bad_snt_numbering_is_an_error():
    with pytest.raises(InputError, match=r"^prediction, graph #1, line 1: two :snt1 edges"):
        docsmatch_pair("(d / document :snt1 (a / boy) :snt1 (b / girl))", "(d / document :snt1 (a / boy))")
    with pytest.raises(InputError, match=r"^reference, graph #1, line 1: sentences are numbered from :snt1"):
        docsmatch_pair("(d / document :snt1 (a / boy))", "(d / document :snt0 (a / boy))")


def test_sentence_numbers_cost_nothing_and_nodes_in_no_sentence_align():
    """A huge :sntK number allocates nothing per number; the constraint is per node, never per node pair."""
    from amreval.docamr.document import sentence_membership

    doc = "(d / document :snt1 (a / boy) :snt2000000000 (b / girl :ARG0-of (r / run-01)))"
    g = loads_graph(doc)
    assert sentence_membership(g) == [(0,), (1,), (2000000000,), (2000000000,)]
    with pytest.warns(AmrevalWarning, match=r"no :snt2, :snt3, :snt4, :snt5, :snt6, \.\.\. below :snt2000000000"):
        r = docsmatch_pair(doc, doc)
    assert (r.match, r.test, r.gold, r.optimal) == (8, 8, 8, True)  # 4 concepts, TOP, 2 :snt, ARG0
    with pytest.raises(InputError, match=r":snt2000000000 is beyond the 100000 sentences a picture can show"):
        sentence_groups(g)
    # a node no sentence reaches (written under the top by another role) may align only with such nodes
    pred = loads_graph("(d / document :snt1 (a / boy) :mod (x / note))")
    gold = loads_graph("(d / document :snt1 (a / boy) :mod (y / note))")
    allowed = sentence_constraint(pred, gold, graph_triples(pred), graph_triples(gold))
    assert [[allowed.allows(i, j) for j in range(3)] for i in range(3)] == [
        [True, False, False],
        [False, True, False],
        [False, False, True],
    ]


def test_nodes_in_no_sentence_beside_a_coreference_node():
    # x and y hang from the document node, in no sentence (group -1), beside b in both sentences
    pred = (
        "(d / document :snt1 (a / go-02 :ARG0 (b / boy)) :snt2 (s / sleep-01 :ARG0 b)"
        " :mod (x / thing) :mod (y / thing))"
    )
    gold = "(d / document :snt1 (a / go-02 :ARG0 (b / boy)) :snt2 (s / sleep-01 :ARG0 (c / boy)) :mod (x / thing))"
    r = docsmatch([pred], [gold], coref=True, progress=False).as_dict()
    # test: 6 instances, TOP, 6 relations = 13; gold: 6 + 1 + 5 = 12; matched: d a b s x, TOP, :snt1, :snt2,
    # :mod x, and one :ARG0 (b goes to b or to c, not both) = 10
    assert (r["match"], r["test"], r["gold"]) == (10, 13, 12)


def test_a_tie_break_not_proven_over_a_proven_main_count_is_counted_and_named(monkeypatch, tmp_path, capsys):
    """Where a work limit stops the coreference tie-break after the main count is proven, the pair stays proven
    (its main count is), and the documents whose coref counts are only a lower bound are counted
    (``coref_n_unproven``) and named in one warning, in the API, the stream and the command line."""
    import json
    import warnings
    from dataclasses import replace
    from pathlib import Path

    from amreval.cli import main
    from amreval.scores import docsmatch as docsmatch_module

    real = docsmatch_module.tie_break

    def stopped(problem, eps, bonus_bound, search):  # the graded optimum found, its proof cut short
        found = real(problem, eps, bonus_bound, search)
        return replace(found, optimal=False, bound=found.score + eps / 2)

    monkeypatch.setattr(docsmatch_module, "tie_break", stopped)
    monkeypatch.chdir(Path(__file__).resolve().parents[2])  # the checkout: its examples
    pred, gold = "examples/pred.docamr.amr", "examples/gold.docamr.amr"
    with pytest.warns(UserWarning, match=r"the coreference tie-break of 1 of 1 document pair was not proven \(pair #1"):
        r = docsmatch(read_graphs(pred), read_graphs(gold), coref=True)
    d = r.as_dict()
    # the same numbers as proven (30 matches; coref 3 of 3 and 6), the main count still proven
    assert (d["match"], d["n_optimal"], d["coref_match"], d["coref_test"], d["coref_gold"]) == (30, 1, 3, 3, 6)
    assert (r.coref_unproven, d["coref_n_unproven"]) == ([0], 1)
    assert docsmatch(read_graphs(pred), read_graphs(gold), coref=False).as_dict().get("coref_n_unproven") is None
    assert main(["docsmatch", "-f", pred, gold, "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["coref_n_unproven"] == 1 and json.loads(out)["n_optimal"] == 1
    assert "the coreference tie-break of 1 of 1 document pair was not proven (pair #1 (examples/pred.docamr.amr" in err
    # the hill climbing certifies no tie-break: its documents are counted (as its unproven pairs are), not warned about
    monkeypatch.setattr(docsmatch_module, "tie_break", real)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        climbed = docsmatch(read_graphs(pred), read_graphs(gold), coref=True, solver="hillclimb")
    counted = climbed.as_dict()
    assert (climbed.coref_unproven, counted["coref_n_unproven"], counted["coref_match"]) == ([0], 1, 3)
