"""The repair of generated PENMAN: each rule on a hand-made generation, and well-formed graphs left alone."""

from __future__ import annotations

import re

import pytest

from amreval import loads_graph, smatch
from amreval.amr.repair import penman_tokens, repair_penman

GOLD = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"


@pytest.mark.parametrize(
    ("generation", "repaired", "changes"),
    [
        # cut at max_length in a role, in a node, after a slash, before a concept
        (
            "(w / want-01 :ARG0 (b / boy) :ARG1",
            "(w / want-01 :ARG0 (b / boy))",
            ("dropped a dangling role", "closed 1 bracket"),
        ),
        ("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b", GOLD, ("closed 2 brackets",)),
        (
            "(w / want-01 :ARG0 (b /",
            "(w / want-01)",
            ("dropped a node without a variable or concept", "dropped a dangling role", "closed 2 brackets"),
        ),
        (
            "(w / want-01 :ARG0 (b",
            "(w / want-01)",
            ("dropped a node without a variable or concept", "dropped a dangling role", "closed 2 brackets"),
        ),
        # a string cut short is closed
        ('(n / name :op1 "Little Pri', '(n / name :op1 "Little Pri")', ("closed 1 bracket",)),
        # one bracket too many, a second graph, text before the first bracket
        (GOLD + ")) (x / y)", GOLD, ("dropped text after the graph",)),
        ("AMR: " + GOLD, GOLD, ("dropped text before the graph (2×)",)),
        # a duplicate variable, an unbound variable
        (
            "(a / and :op1 (b / boy) :op2 (b / girl) :op3 b)",
            "(a / and :op1 (b / boy) :op2 (b_2 / girl) :op3 b)",
            ("renamed a duplicate variable",),
        ),
        ("(w / want-01 :ARG0 e)", '(w / want-01 :ARG0 "e")', ("an unbound variable made a constant",)),
        # a value with no role, a role with no value
        (
            "(w / want-01 boy :ARG0 :ARG1 (b / boy))",
            "(w / want-01 :ARG1 (b / boy))",
            ("dropped a stray token", "dropped a dangling role"),
        ),
    ],
)
def test_each_repair_is_made_and_named(generation, repaired, changes):
    r = repair_penman(generation)
    assert (r.text, r.changes) == (repaired, changes)
    loads_graph(r.text)  # the reader takes it


def test_repair_scores_the_prefix_where_the_empty_graph_rule_scores_nothing():
    cut = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02"
    # gold: 3 instances, 3 relations, TOP = 7 triples; the prefix: 3 instances, 2 relations, TOP = 6, all matched
    assert smatch([repair_penman(cut).text], [GOLD]).as_dict()["match"] == 6
    with pytest.warns(UserWarning, match="1 of 1 predicted graphs could not be read"):
        assert smatch([cut], [GOLD]).match == 0


def test_a_node_written_again_without_its_concept_is_the_same_node():
    r = repair_penman("(w / want-01 :ARG0 (b / boy) :ARG1 (b :ARG0-of (g / go-02)))")
    assert (r.text, r.changes) == ("(w / want-01 :ARG0 (b / boy :ARG0-of (g / go-02)) :ARG1 b)", ())


def test_nothing_readable_has_no_tree():
    for text in ("", "boy", "(", "(w", "(/ boy)", ")))"):
        assert repair_penman(text).tree is None, text
        assert repair_penman(text).text is None


def test_tokens_leave_out_comments_and_alignments():
    assert penman_tokens('# ::snt hi\n(w~e.1 / want-01~e.2 :ARG0 "x")') == [
        "(",
        "w",
        "/",
        "want-01",
        ":ARG0",
        '"x"',
        ")",
    ]


def test_well_formed_graphs_come_back_unchanged(data_dir):
    text = (data_dir / "lpp" / "amr-bank-struct-v1.6.txt").read_text(encoding="utf-8")
    blocks = [b for b in re.split(r"\n\s*\n", text) if re.search(r"^\s*\(", b, re.M)]
    assert len(blocks) == 1562
    for block in blocks:
        r = repair_penman(block)
        assert r.changes == ()
        got, want = loads_graph(r.text), loads_graph(block)
        assert (got.top, got.instances, got.edges, got.attributes) == (
            want.top,
            want.instances,
            want.edges,
            want.attributes,
        )
