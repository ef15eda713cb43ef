"""DocSmatch: sentence groups, the candidate restriction, reference parity."""

from __future__ import annotations

import pytest

from amreval import InputError, graph_triples, read_graph, read_graphs, smatch
from amreval.docsmatch import docsmatch, docsmatch_pair, sentence_constraint, sentence_groups

DOC = """(d / document
   :snt1 (w / want-01 :ARG0 (b / boy :coref-of (r / coref-entity)) :ARG1 (c / city :mod (o / old)))
   :snt2 (s / sleep-01 :ARG0 (h / he :coref-of r) :location (p / park :part-of c)))"""


def groups_by_var(text):
    g = read_graph(text)
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
    pred = read_graph("(d / document :snt1 (a / boy :ARG0-of (r / run-01)) :snt2 (b / girl))")
    gold = read_graph("(d / document :snt1 (x / girl) :snt2 (y / boy :ARG0-of (q / run-01)))")
    ta, tb = graph_triples(pred), graph_triples(gold)
    allowed = sentence_constraint(pred, gold, ta, tb)
    # rows d, a, r, b; columns d, x, y, q
    assert allowed.tolist() == [
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
    with pytest.raises(InputError, match="1 predictions but 2 references; they are paired by position"):
        docsmatch([DOC], [DOC, DOC])
    with pytest.raises(InputError, match="nothing to score"):
        docsmatch([], [])
    with pytest.raises(InputError, match="reference #1: empty string"):
        docsmatch([DOC, DOC], [DOC, ""])
