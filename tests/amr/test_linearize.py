"""Linearizations: PENMAN, SPRING's DFS with pointers, amrlib's variable-free serialization.

The SPRING and amrlib examples are written by hand from the projects' own descriptions
(SapienzaNLP/spring: ``tokenization_bart.py``, PENMAN with ``<pointer:N>`` for variables, the
slash left out and quoted strings as ``<lit> ... </lit>``; bjascob/amrlib:
``parse_xfm/penman_serializer.py``, concepts for variables, ``_N`` suffixes on shared concepts).
"""

from __future__ import annotations

import pytest

from amreval import loads_graph, read_graphs, smatch
from amreval.amr.linearize import amrlib_to_penman, delinearize, linearize, spring_to_penman
from amreval.errors import InputError
from amreval.hub.trainer import score_generations

WANT = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"
NAMES = '(a / and :op1 (p / person :name (n / name :op1 "Little" :op2 "Prince")) :op2 (p2 / person :polarity -))'


def test_penman_on_one_line_or_indented():
    assert linearize("(w / want-01\n   :ARG0 (b / boy))") == "(w / want-01 :ARG0 (b / boy))"
    assert linearize(loads_graph(WANT), indent=4) == (
        "(w / want-01\n    :ARG0 (b / boy)\n    :ARG1 (g / go-02\n        :ARG0 b))"
    )


def test_spring_dfs_with_pointers_and_literals():
    assert linearize(WANT, "spring") == (
        "( <pointer:0> want-01 :ARG0 ( <pointer:1> boy ) :ARG1 ( <pointer:2> go-02 :ARG0 <pointer:1> ) )"
    )
    assert linearize(NAMES, "spring") == (
        "( <pointer:0> and :op1 ( <pointer:1> person :name ( <pointer:2> name :op1 <lit> Little </lit>"
        " :op2 <lit> Prince </lit> ) ) :op2 ( <pointer:3> person :polarity - ) )"
    )
    # as a model writes it: framing tokens, no spaces around brackets, a literal of two words
    tokens = spring_to_penman("<s>(<pointer:0> name :op1 <lit> New York </lit>)</s>")
    assert tokens == ["(", "p0", "/", "name", ":op1", '"New York"', ")"]


def test_amrlib_variable_free_with_numbered_shared_concepts():
    assert linearize(WANT, "amrlib") == "( want-01 :ARG0 ( boy ) :ARG1 ( go-02 :ARG0 boy ) )"
    assert linearize(NAMES, "amrlib") == (
        '( and :op1 ( person_0 :name ( name :op1 "Little" :op2 "Prince" ) ) :op2 ( person_1 :polarity - ) )'
    )
    # amrlib's reading: a concept after a role that no bracket opens is a new node; modes are constants
    assert " ".join(amrlib_to_penman("( go-02 :ARG0 boy :mode imperative )")) == (
        "( v0 / go-02 :ARG0 ( v1 / boy ) :mode imperative )"
    )
    # a reference before the node is opened
    assert " ".join(amrlib_to_penman("( want-01 :ARG1 ( go-02 :ARG0 boy ) :ARG0 ( boy ) )")) == (
        "( v0 / want-01 :ARG1 ( v1 / go-02 :ARG0 v2 ) :ARG0 ( v2 / boy ) )"
    )


@pytest.mark.parametrize("style", ["penman", "spring", "amrlib"])
def test_each_style_reads_back_the_graph(style):
    for graph in (WANT, NAMES):
        back = delinearize(linearize(graph, style), style)
        assert back.status == "intact" and back.changes == ()
        assert smatch([back.penman], [graph]).f1 == 1.0


@pytest.mark.parametrize(
    ("style", "generation", "penman"),
    [
        ("penman", "(w / want-01 :ARG0 (b / boy) :ARG1", "(w / want-01 :ARG0 (b / boy))"),
        ("spring", "( <pointer:0> want-01 :ARG0 ( <pointer:1> boy ) :ARG1", "(p0 / want-01 :ARG0 (p1 / boy))"),
        ("amrlib", "( want-01 :ARG0 ( boy ) :ARG1", "(v0 / want-01 :ARG0 (v1 / boy))"),
        ("spring", "( <pointer:0> name :op1 <lit> Little Pri", '(p0 / name :op1 "Little Pri")'),
        (
            "spring",
            "( <pointer:0> want-01 :ARG0 ( <pointer:1> boy ) :ARG1 <pointer:1",
            "(p0 / want-01 :ARG0 (p1 / boy))",
        ),
    ],
)
def test_a_generation_cut_short_is_repaired_or_unreadable(style, generation, penman):
    repaired = delinearize(generation, style)
    assert (repaired.penman, repaired.status) == (penman, "repaired")
    assert repaired.changes[-1] == "closed 1 bracket"
    assert delinearize(generation, style, repair=False).status == "unreadable"


def test_nothing_readable_and_unknown_styles():
    assert delinearize("<s> </s>", "spring").status == "unreadable"
    assert delinearize("", "penman", repair=False).status == "unreadable"
    with pytest.raises(InputError, match="unknown linearization 'bfs': expected one of penman, spring, amrlib"):
        linearize(WANT, "bfs")
    with pytest.raises(InputError, match="not a well-formed PENMAN graph"):
        linearize("(w / want-01")


@pytest.mark.parametrize("style", ["penman", "spring", "amrlib"])
def test_the_little_prince_round_trips_in_each_style(data_dir, style):
    graphs = read_graphs(data_dir / "lpp" / "amr-bank-struct-v1.6-test.txt")
    back = [delinearize(linearize(g, style), style) for g in graphs]
    assert {d.status for d in back} == {"intact"}
    result = smatch([d.penman for d in back], graphs)
    assert result.match == result.test == result.gold


def test_a_uid_alone_is_a_concept_in_the_amrlib_reading():
    # nothing is left when the uid suffix comes off ``_1``: the token as written is the node's concept
    d = delinearize("( want-01 :ARG0 _1 )", "amrlib")
    assert (d.penman, d.status) == ("(v0 / want-01 :ARG0 (v1 / _1))", "intact")
    numbers = score_generations(["( want-01 :ARG0 _1 )"], ["(w / want-01 :ARG0 (b / boy))"], linearization="amrlib")
    assert (numbers["smatch_match"], numbers["smatch_test"], numbers["smatch_gold"]) == (3, 4, 4)


@pytest.mark.parametrize("generation", ['(a / b : "x\ny")', '(a / b : "x\ny'])
def test_a_generation_scored_as_an_empty_graph_is_counted_unreadable(generation):
    # an empty role before a string across lines: the reader cannot read it, so it is scored empty
    with pytest.warns(UserWarning, match="1 of 1 predicted graph could not be read"):
        numbers = score_generations([generation], ["(a / b)"])
    assert (numbers["smatch_test"], numbers["smatch_match"]) == (0, 0)
    assert (numbers["smatch_n_intact"], numbers["smatch_n_repaired"], numbers["smatch_n_unreadable"]) == (0, 0, 1)
    assert delinearize(generation).status == "unreadable"


def test_indented_penman_is_written_at_any_depth():
    # 500 levels: penman.format recurses too deep there; Graph.to_string writes it (on one line)
    deep = loads_graph("(a0 / x" + "".join(f" :ARG0 (a{i} / x" for i in range(1, 500)) + ")" * 500)
    text = linearize(deep, "penman", indent=4)
    lines = text.split("\n")
    assert len(lines) == 500 and lines[0] == "(a0 / x" and lines[-1] == " " * 4 * 499 + ":ARG0 (a499 / x)" + ")" * 499
    assert loads_graph(text).edges == deep.edges


@pytest.mark.parametrize("indent", [-1, 0, 2, 4])
def test_indented_penman_is_penman_formats_layout(indent):
    import penman

    for graph in (WANT, NAMES, "(a / b :ARG0 (c :ARG1 (d)) :op1 (e / f :polarity -))"):
        assert linearize(graph, indent=indent) == penman.format(penman.parse(linearize(graph)), indent=indent)
