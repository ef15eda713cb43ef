"""Fine-grained scores (Damonte et al. 2017): each measure by hand, as Damonte's current code defines it."""

from __future__ import annotations

import pytest

from amreval import AmrevalWarning, docsmatch, read_graphs
from amreval.amr.read import loads_graph
from amreval.match.alignment import align_triples
from amreval.match.options import SearchOptions
from amreval.match.triples import graph_triples
from amreval.scores.finegrained import MEASURES, fine_grained_counts


def exact(a, b, allowed, init):
    return int(round(align_triples(a, b, SearchOptions("exact", 0), allowed=allowed).score))


def counts(pred: str, gold: str) -> dict[str, list[int]]:
    p, g = loads_graph(pred), loads_graph(gold)
    return fine_grained_counts(p, g, graph_triples(p), graph_triples(g), None, exact)


def test_unlabeled_keeps_parallel_edges_and_the_written_direction():
    # the boy sees himself: two edges from see-01 to boy; the gold writes the second one from boy
    # (:ARG1-of), so unlabeled it points the other way. Each side: 2 instances, TOP, 2 edges.
    # Matched: see-01, boy, TOP and one see-01 -> boy edge (one of the two parallel ones)
    pred = "(s / see-01 :ARG0 (b / boy) :ARG1 b)"
    gold = "(s / see-01 :ARG0 (b / boy :ARG1-of s))"
    assert counts(pred, gold)["unlabeled"] == [4, 5, 5]
    # labelled, both are ARG0 s b and ARG1 s b: everything matches
    assert counts(pred, gold)["no_wsd"] == [5, 5, 5]
    # two parallel edges against two: both match
    assert counts(pred, pred)["unlabeled"] == [5, 5, 5]
    # attributes lose their role too: :quant 2 and :value 2 are the same unlabeled triple
    assert counts("(t / thing :quant 2)", "(t / thing :value 2)")["unlabeled"] == [3, 3, 3]


def test_no_wsd_replaces_senses_with_01():
    # go-02 and go-01 both become go-01; run stays run and run-02 becomes run-01, so they differ.
    # 3 instances, TOP and 2 edges each; all but run/run-01 match
    pred = "(g / go-02 :ARG0 (b / boy) :ARG1 (r / run))"
    gold = "(g / go-01 :ARG0 (b / boy) :ARG1 (r / run-02))"
    assert counts(pred, gold)["no_wsd"] == [5, 6, 6]
    assert counts("(h / have-org-role-91)", "(h / have-org-role-92)")["no_wsd"] == [2, 2, 2]


def test_concepts_are_multisets():
    # two boy nodes against one: P 2/3, R 2/2
    c = counts("(a / and :op1 (b / boy) :op2 (b2 / boy))", "(a / and :op1 (b / boy))")
    assert c["concepts"] == [2, 3, 2]


def test_named_entities_are_the_concepts_with_a_name():
    pred = '(a / and :op1 (p / person :name (n / name :op1 "Al")) :op2 (p2 / person :name (n2 / name :op1 "Bo")))'
    gold = '(a / and :op1 (p / person :name (n / name :op1 "Al")) :op2 (c / city :name (n2 / name :op1 "Rome")))'
    # [person, person] against [person, city]
    assert counts(pred, gold)["named_ent"] == [1, 2, 2]
    # the source of :name, however the edge is written
    inverted = counts('(n / name :op1 "Al" :name-of (p / person))', "(p / person :name (n / name))")
    assert inverted["named_ent"] == [1, 1, 1]


def test_negations_are_all_polarity_triples():
    # any :polarity counts, also an amr-unknown node (a yes-no question): [go-02, see-01] against
    # [go-02, go-02, see-01]
    pred = "(a / and :op1 (g / go-02 :polarity -) :op2 (s / see-01 :polarity (u / amr-unknown)))"
    gold = (
        "(a / and :op1 (g / go-02 :polarity -) :op2 (g2 / go-02 :polarity -)"
        " :op3 (s / see-01 :polarity (u / amr-unknown)))"
    )
    assert counts(pred, gold)["negations"] == [2, 2, 3]


def test_wikification_counts_wiki_values_as_multisets():
    pred = '(a / and :op1 (c / city :wiki "Rome") :op2 (c2 / city :wiki "Rome") :op3 (p / person :wiki -))'
    gold = '(a / and :op1 (c / city :wiki "Rome") :op2 (p / person :wiki "Al_Gore"))'
    # [rome, rome, -] against [rome, al_gore]
    assert counts(pred, gold)["wikification"] == [1, 3, 2]


def test_reentrancies():
    # a :mod edge points from the modified node to the modifier: a tree has no reentrancy
    tree = "(g / go-02 :ARG0 (b / boy :mod (l / little)))"
    assert counts(tree, tree)["reentrancies"] == [0, 0, 0]
    # b has two parents on both sides: their 2 edges, the 3 concepts and (TOP, w, want-01) on the
    # first edge's source; go-02 and go-01 differ, the little modifier is no parent of go-01
    pred = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"
    gold = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b :mod (l / little)))"
    assert counts(pred, gold)["reentrancies"] == [5, 6, 6]
    # the subgraph's TOP triple carries the concept: want-01 and wish-01 differ, so it does not match
    wish = "(w / wish-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"
    assert counts(pred, wish)["reentrancies"] == [4, 6, 6]
    # our reading: consist-of is a role, not the inverse of consist (curl has two parents, not three)
    curl = "(t / toss-01 :ARG0 (h / he :part c) :ARG1 (c / curl :consist-of (g / gold)))"
    assert counts(curl, curl)["reentrancies"] == [6, 6, 6]
    # and an edge written twice counts once: no reentrancy
    twice = "(s / see-01 :ARG0 (b / boy) :ARG0 b)"
    assert counts(twice, twice)["reentrancies"] == [0, 0, 0]


def test_srl():
    # ARGn triples only (:time is not one), an :ARG1 to a constant included, :ARG0-of turned round;
    # the TOP triple sits on the source of the first one, the attribute: (TOP, s, say-01).
    # 3 concepts + TOP + ARG1 "hi" + 2 edges each; go-02 and go-01 differ
    pred = '(s / say-01 :ARG0 (b / boy :ARG0-of (g / go-02)) :ARG1 "hi" :time (n / now))'
    gold = '(s / say-01 :ARG0 (b / boy :ARG0-of (g / go-01)) :ARG1 "hi")'
    assert counts(pred, gold)["srl"] == [6, 7, 7]
    # the subgraph's TOP is not the graph's: both put it on go-02, the source of the only edge
    assert counts("(b / boy :ARG0-of (g / go-02))", "(g / go-02 :ARG0 (b / boy))")["srl"] == [4, 4, 4]


@pytest.mark.slow
def test_the_200_bart_parses(data_dir):
    with pytest.warns(AmrevalWarning, match="'z11' looks like a variable"):
        pred = read_graphs(data_dir / "parses" / "bart_sys.amr")
    gold = read_graphs(data_dir / "parses" / "gold.amr")
    r = docsmatch(pred, gold, fine_grained=True, solver="exact")
    f = r.fine_grained
    assert list(f) == list(MEASURES)
    # Damonte's code gives these counts too
    assert f["concepts"] == [1466, 1788, 1774] and f["named_ent"] == [3, 6, 5]
    assert f["negations"] == [38, 49, 57] and f["wikification"] == [0, 0, 0]
    assert f["srl"] == [1846, 2440, 2569]
    # it turns consist-of round, which changes the reentrant nodes of four graphs: 1110 of 1614 and 1635
    assert f["reentrancies"] == [1107, 1609, 1633]
    # Unlabeled and No WSD are Smatch of relabelled graphs: T and G are Smatch's
    assert f["unlabeled"] == [3138, 3973, 3933] and f["no_wsd"] == [2988, 3973, 3933]
    assert (r.match, r.test, r.gold) == (2957, 3973, 3933)
