"""The coreference sub-score: items per graph, counts, tie-break, reference parity."""

from __future__ import annotations

import pytest

from amreval import loads_graph, read_graphs
from amreval.docamr.document import sentence_groups
from amreval.match import graph_triples
from amreval.match.diff import triple_diff
from amreval.scores.coref import coref_items, count_coref
from amreval.scores.docsmatch import docsmatch, docsmatch_pair

GOLD = """(d / document
   :snt1 (w / want-01 :ARG0 (b / boy) :ARG1 (c / city :name (n / name :op1 "Rome")))
   :snt2 (s / sleep-01 :ARG0 b :location c)
   :snt3 (g / go-02 :ARG0 (r / coref-entity) :ARG1 (p / park :part-of c)))"""

# the boy of sentence 2 is not merged with the boy of sentence 1
PRED = """(d / document
   :snt1 (w / want-01 :ARG0 (b / boy) :ARG1 (c / city :name (n / name :op1 "Rome")))
   :snt2 (s / sleep-01 :ARG0 (b2 / boy) :location c)
   :snt3 (g / go-02 :ARG0 (r / coref-entity) :ARG1 (p / park :part-of c)))"""


def items_of(text):
    g = loads_graph(text)
    t = graph_triples(g)
    items = coref_items(g, t, sentence_groups(g, t.variables))
    names = t.variables
    return (
        t,
        items,
        sorted(names[k] for k in items.nodes.nonzero()[0]),
        sorted(names[k] for k in items.merged.nonzero()[0]),
        sorted((r, names[s], names[o]) for r, s, o in (t.relations[k] for k in items.edges.nonzero()[0])),
    )


def test_coref_nodes_merged_nodes_and_coref_edges_by_hand():
    _, items, nodes, merged, edges = items_of(GOLD)
    assert nodes == ["r"]
    # b and c have parents in sentences 1 and 2; p's only parent (as written) is g
    assert merged == ["b", "c"]
    # the part edge c-p joins sentence sets that are equal ({1,2,3} both: part edges are followed
    # both ways), so it is not a coref edge
    assert edges == [
        ("arg0", "g", "r"),
        ("arg0", "s", "b"),
        ("arg0", "w", "b"),
        ("arg1", "w", "c"),
        ("location", "s", "c"),
    ]
    assert items.count == 6


def test_bridging_edges_count_by_their_ends():
    _, items, _, merged, edges = items_of(
        "(d / document :snt1 (a / see-01 :ARG1 (t / team)) :snt2 (b / win-01 :ARG0 (m / member :subset-of t)))"
    )
    # subset edges are followed both ways, so t and m are in both sentences: equal sets, so the
    # edge is not a coref edge by the different-sets rule, and neither end is merged
    assert merged == [] and edges == []
    _, items, nodes, _, edges = items_of(
        "(d / document :snt1 (a / see-01 :ARG1 (t / team)) :snt2 (b / win-01 :ARG0 (m / member))"
        " :snt3 (c / lose-01 :ARG0 (x / coref-entity :subset t)))"
    )
    # into nothing special and between equal sets: x subset t is no coref edge, (c ARG0 x) is
    assert nodes == ["x"] and edges == [("arg0", "c", "x")]
    _, items, _, _, edges = items_of(
        "(d / document :snt1 (a / see-01 :ARG1 (t / team :part (x / coref-entity))) :snt2 (b / win-01 :ARG0 x))"
    )
    assert edges == [("arg0", "b", "x"), ("part", "t", "x")]
    assert int(items.bridging[items.edges].sum()) == 1


def test_named_entity_chain_in_no_merge_form():
    t, items, nodes, _, _ = items_of(
        '(d / document :snt1 (a / see-01 :ARG1 (p / person :name (n / name :op1 "Bob")))'
        " :snt2 (b / go-02 :ARG0 (h / he)) :snt3 (x / say-01 :ARG0 (r / coref-entity :coref p :coref h)))"
    )
    # the chain node points to a named node: it, its :coref edges and edges into it are named-entity items
    assert nodes == ["r"] and items.named[t.variables.index("r")]
    named = sorted(
        (role, t.variables[s], t.variables[o])
        for k, (role, s, o) in enumerate(t.relations)
        if items.edges[k] and items.named_edges[k]
    )
    assert named == [("arg0", "x", "r"), ("coref", "r", "h"), ("coref", "r", "p")]


def test_named_entity_coref_nodes():
    _, items, nodes, _, _ = items_of(
        '(d / document :snt1 (a / see-01 :ARG1 (e / coref-entity :name (n / name :op1 "Bob")))'
        " :snt2 (b / go-02 :ARG0 e))"
    )
    assert nodes == ["e"] and items.named.nonzero()[0].tolist() == [2]


def test_a_chain_named_on_one_side_only_counts_in_the_total_and_in_no_category():
    gold = (
        "(d / document :snt1 (a / arrive-01 :ARG1 (c / city)) :snt2 (b / like-01 :ARG1 (e / city))"
        " :snt3 (r / coref-entity :coref c :coref e))"
    )
    pred = gold.replace("(c / city)", '(c / city :name (n / name :op1 "Paris"))')
    r = docsmatch([pred], [gold], coref=True, solver="exact")
    # the same chain: r and its two :coref edges, and the :snt3 edge into r; named in the prediction only
    # (its node points to a named city), so each of the 4 matches is across categories
    assert r.coref.total == (4, 4, 4) and r.coref.across == 4 and r.coref.mixed == 0
    assert (r.coref.named_entity, r.coref.other, r.coref.bridging) == ([0, 4, 0], [0, 0, 4], [0, 0, 0])
    d = r.as_dict()
    assert (d["coref_precision"], d["coref_recall"]) == (1.0, 1.0)
    assert (d["coref_named_entity_precision"], d["coref_named_entity_recall"]) == (0.0, None)
    assert (d["coref_other_precision"], d["coref_other_recall"]) == (None, 0.0)
    # summed over documents, as a corpus is
    both = docsmatch([pred, gold], [gold, gold], coref=True, solver="exact")
    assert both.coref.total == (8, 8, 8) and both.coref.across == 4 and both.coref.other == [4, 4, 8]


def test_counts_under_the_best_mapping_by_hand():
    r = docsmatch([PRED], [GOLD], coref=True, solver="exact")
    # gold: r + 5 edges = 6; predicted: r + (w, c), (s, c), (g, r) = 4, all matched
    assert r.coref.total == (4, 4, 6)
    # the edges into the merged, named city are named-entity items; the boy's and r's are other
    assert r.coref.named_entity == [2, 2, 2] and r.coref.other == [2, 2, 4] and r.coref.bridging == [0, 0, 0]
    assert (r.coref_precision, r.coref_recall) == (1.0, 4 / 6)
    d = r.as_dict()
    assert d["coref_f1"] == pytest.approx(0.8)
    # overall: 23 predicted, 22 gold triples; all gold ones but (s ARG0 b) match
    assert (r.match, r.test, r.gold) == (21, 23, 22)
    # (w ARG0 b) is a coref edge in the gold only (b is merged there, not in the prediction):
    # a mixed match, in neither part; non-coref = (21 - 4 - 1, 23 - 4, 22 - 6)
    assert r.coref.mixed == 1
    assert (d["noncoref_precision"], d["noncoref_recall"]) == (16 / 19, 1.0)


def test_self_match_is_one_overall_and_coref():
    for doc in (GOLD, PRED):
        r = docsmatch([doc], [doc], coref=True)
        assert (r.f1, r.coref_f1) == (1.0, 1.0)


# z (merged in the prediction) can map to r or to p for the same overall count (one ARG0 triple
# either way); only z -> r matches a gold coref edge with a predicted coref edge.
TIE_GOLD = "(d / document :snt1 (a / see-01 :ARG0 (r / coref-entity) :ARG0 (p / person)) :snt2 (b / sleep-01))"
TIE_PRED = "(d / document :snt1 (a / see-01 :ARG0 (z / thing)) :snt2 (b / sleep-01 :ARG0 z))"


def test_tie_break_prefers_coref_matches_for_every_seed_and_solver():
    seen = set()
    for seed in range(12):
        for restarts in (0, 3):
            s = docsmatch_pair(TIE_PRED, TIE_GOLD, coref=True, seed=seed, restarts=restarts)
            seen.add((s.match, s.test, s.gold, s.coref.total))
    s = docsmatch_pair(TIE_PRED, TIE_GOLD, coref=True, solver="exact")
    seen.add((s.match, s.test, s.gold, s.coref.total))
    # 7 of 9 / 10: document, TOP, snt1, snt2, see-01, sleep-01, one ARG0;
    # coref: gold r and (arg0 a r); predicted (arg0 a z), (arg0 b z); one matched
    assert seen == {(7, 9, 10, (1, 2, 2))}


def test_triple_diff_recounts_smatch():
    a, b = graph_triples(loads_graph(PRED)), graph_triples(loads_graph(GOLD))
    s = docsmatch_pair(PRED, GOLD, solver="exact")
    mapping = [b.variables.index(v) if v in b.variables else -1 for v in a.variables]
    mapping[a.variables.index("b2")] = -1
    diff = triple_diff(a, b, mapping)
    assert diff.match == s.match
    items_a = coref_items(loads_graph(PRED), a, sentence_groups(loads_graph(PRED), a.variables))
    items_b = coref_items(loads_graph(GOLD), b, sentence_groups(loads_graph(GOLD), b.variables))
    assert count_coref(a, b, items_a, items_b, diff).total == (4, 4, 6)


def test_reference_parity_coref_subscore(reference_dir):
    base = reference_dir / "docamr"
    pred = read_graphs(base / "synth.docAMR.pred.amr")
    gold = read_graphs(base / "expected" / "synth.docAMR.amr")
    for solver in ("hillclimb", "exact"):
        r = docsmatch(pred, gold, coref=True, solver=solver)
        assert (round(r.precision, 4), round(r.recall, 4), round(r.f1, 4)) == (0.9286, 0.8667, 0.8966)
        assert (round(r.coref_precision, 4), round(r.coref_recall, 4), round(r.coref_f1, 4)) == (1.0, 0.7, 0.8235)
        # 14 of 14 predicted and 20 gold coref items; the one bridging item is the missing :part
        assert r.coref.total == (14, 14, 20) and r.coref.bridging == [0, 0, 1]
    for docs in (pred, gold):
        r = docsmatch(docs, docs, coref=True)
        assert (r.f1, r.coref_f1) == (1.0, 1.0)
