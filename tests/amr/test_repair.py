"""The repair of generated PENMAN: each rule on a hand-made generation, and well-formed graphs left alone."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amreval import loads_graph, smatch
from amreval.amr.linearize import linearize
from amreval.amr.repair import penman_tokens, repair_penman
from amreval.hub.trainer import score_generations

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
    with pytest.warns(UserWarning, match="1 of 1 predicted graph could not be read"):
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


def test_an_alignment_marker_before_a_bracket_keeps_the_bracket():
    # the marker ends where its digits end, as the reader's ALIGNMENT token does: ``y~e.2)`` closes b
    text = "(a / and :op1 (b / y~e.2) :op2 (c / z))"
    assert penman_tokens("(b / y~e.2)") == ["(", "b", "/", "y", ")"]
    r = repair_penman(text)
    assert (r.text, r.changes) == ("(a / and :op1 (b / y) :op2 (c / z))", ())
    assert score_generations([text], [text])["smatch_f1"] == 1.0
    assert linearize(text, "spring") == "( <pointer:0> and :op1 ( <pointer:1> y ) :op2 ( <pointer:2> z ) )"


def test_a_stray_tilde_is_a_named_change_not_a_silent_one():
    # the reader cannot read ``~`` alone (an unexpected character), so the repair names what it drops
    assert repair_penman("(a / b ~ :ARG0 (c / d))").changes == ("dropped a stray token",)


def test_duplicate_variables_are_renamed_in_linear_time():
    # each name's next free number is remembered: 16,000 copies no longer try 1 + 2 + ... + 16,000 names
    text = "(r / x" + " :op1 (a / x)" * 16000 + ")"
    start = time.perf_counter()
    r = repair_penman(text)
    elapsed = time.perf_counter() - start
    assert r.changes == ("renamed a duplicate variable (15999×)",)
    assert r.text.endswith(":op1 (a_15999 / x) :op1 (a_16000 / x))")
    assert elapsed < 1.0, elapsed


def with_markers(block: str, marks: list[int]) -> str:
    """``block`` with ISI alignment markers where PENMAN allows them (after a role, a concept, a constant or a
    string; never after a variable), on the tokens ``marks`` picks (cycled)."""
    out: list[str] = []
    k = before = 0
    previous = ""
    for line in block.split("\n"):
        if line.lstrip().startswith("#"):
            out.append(line)
            continue
        parts = []
        for tok in TOKEN.findall(line):
            markable = tok[0] == ":" or (tok[0] not in " ()/" and (previous == "/" or previous.startswith(":")))
            if tok.strip():
                previous = tok
            if markable:
                before, k = k, k + 1
                tok += f"~e.{before}" if marks[before % len(marks)] else ""
            parts.append(tok)
        out.append("".join(parts))
    return "\n".join(out)


TOKEN = re.compile(r'\s+|"(?:[^"\\]|\\.)*"|[()/]|:[^\s"()/:~]*|[^\s"()/:~]+')


@pytest.fixture(scope="module")
def lpp_blocks() -> list[str]:
    from tests.conftest import DATA, need

    text = (need(DATA) / "lpp" / "amr-bank-struct-v1.6.txt").read_text(encoding="utf-8")
    return [b for b in re.split(r"\n\s*\n", text) if re.search(r"^\s*\(", b, re.M)]


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(st.data())
def test_a_well_formed_graph_with_alignment_markers_is_never_changed(lpp_blocks, data):
    # the shared data has no ISI markers: they are put after variables, concepts, constants and strings
    block = data.draw(st.sampled_from(lpp_blocks))
    marks = data.draw(st.lists(st.booleans(), min_size=1, max_size=8))
    marked = with_markers(block, marks)
    r = repair_penman(marked)
    assert r.changes == ()
    got, want = loads_graph(r.text), loads_graph(marked)
    assert (got.top, got.instances, got.edges, got.attributes) == (
        want.top,
        want.instances,
        want.edges,
        want.attributes,
    )


def test_markers_are_put_where_the_reader_takes_them():
    marked = with_markers('(n / name :op1 "Little" :op2 (p / prince))', [True])
    assert marked == '(n / name~e.0 :op1~e.1 "Little"~e.2 :op2~e.3 (p / prince~e.4))'
    assert loads_graph(marked).attributes == loads_graph('(n / name :op1 "Little")').attributes
