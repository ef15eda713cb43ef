"""Triples exactly as the spec defines them."""

from __future__ import annotations

from amreval import loads_graph
from amreval.match import graph_triples


def triples(text):
    return sorted(graph_triples(loads_graph(text)).as_strings())


def test_instance_attribute_relation_and_top():
    assert triples('(w / Want-01 :ARG0 (b / boy) :polarity - :op1 "Paris")') == sorted(
        [
            ("instance", "w", "want-01"),
            ("instance", "b", "boy"),
            ("TOP", "w", "top"),
            ("polarity", "w", "-"),
            ("op1", "w", "paris"),
            ("arg0", "w", "b"),
        ]
    )


def test_inverse_roles_and_mod():
    assert triples("(a / x :ARG0-of (b / y) :mod (c / z))") == sorted(
        [
            ("instance", "a", "x"),
            ("instance", "b", "y"),
            ("instance", "c", "z"),
            ("TOP", "a", "top"),
            ("arg0", "b", "a"),
            ("domain", "c", "a"),
        ]
    )


def test_mod_to_a_constant_is_kept():
    # smatch 1.0.4 drops this triple; the spec keeps it
    assert ("mod", "a", "1") in triples("(a / chapter :mod 1)")


def test_duplicates_count_once():
    t = graph_triples(loads_graph("(a / x :ARG0 (b / y) :ARG0 b :polarity - :polarity -)"))
    assert t.count == 5  # 2 instances, TOP, one polarity, one ARG0


def test_quoted_and_unquoted_constants_are_equal():
    assert triples('(a / x :polarity "-" :op1 "Paris")') == triples("(a / x :polarity - :op1 Paris)")


def test_mod_of_is_read_as_penman_means_it():
    # the third correction to smatch 1.0.4: (x :mod-of b) is (b :mod x), so both strings are one relation,
    # (domain, x, b); smatch 1.0.4 turns :mod-of round to (mod, b, x) and matches only the two instances
    from amreval import smatch

    assert ("domain", "x", "b") in triples("(x / big :mod-of (b / boy))")
    assert ("domain", "x", "b") in triples("(b / boy :mod (x / big))")
    result = smatch(["(x / big :mod-of (b / boy))"], ["(b / boy :mod (x / big))"])
    assert (result.match, result.test, result.gold) == (3, 4, 4)  # the TOPs differ: x against b
