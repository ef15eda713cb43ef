"""Every reader, fed random bytes and mutated PENMAN, XML and jsonlines, gives a result or an amreval error.

Never another exception, never a hang (each example has a deadline). The scorers take any prediction and their
scores keep their invariants: within [0, 1], no more matches than triples on either side, a graph or document
against itself 1, prediction and reference swapped precision and recall swapped, and the unreadable predictions
those that do not read.
"""

from __future__ import annotations

import os
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amreval import AmrevalError, SmatchResult, docsmatch, loads_graph, loads_graphs, read_graphs, smatch
from amreval.amr.linearize import STYLES, delinearize, linearize
from amreval.amr.read import UnreadableGraph
from amreval.amr.token_alignments import loads_aligned_amrs, read_aligned_amrs
from amreval.amr.tsv import loads_tsv, read_tsv
from amreval.docamr import convert_document, loads_msamr_xml, read_msamr_xml, read_sentence_amrs
from amreval.docamr.corefiles import loads_coref, read_coref
from amreval.docamr.document import document_graph
from amreval.hub.trainer import score_generations
from amreval.scores.vectors import read_vectors

T = TypeVar("T")

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PENMAN = [
    (EXAMPLES / "gold.amr").read_bytes(),
    (EXAMPLES / "gold.docamr.amr").read_bytes(),
    b'# ::id a\n# ::tok The boy went\n(g / go-02~e.2 :ARG0 (b / boy~e.1) :polarity - :name "x y")\n',
]
XML = [
    (EXAMPLES / "msamr_demo.xml").read_bytes(),
    b'<?xml version="1.0" encoding="ISO-8859-1"?>\n<document><sentences docid="D"><amr id="D.1"/></sentences>'
    b'<relations><identity><identchain relationid="rel-0"><mention id="D.1" variable="b"/>'
    b'<implicitrole id="D.1" parentvariable="w" argument="ARG1"/></identchain></identity></relations></document>',
]
JSONLINES = [b'{"doc_key": "D", "sentences": [["Obama", "slept"], ["He", "woke"]], "clusters": [[[0, 0], [2, 2]]]}\n']
VECTORS = [b"boy 1 0\ngirl 0.8 0.6\n"]
TSV = [b"ROOT_OF_GRAPH\tw\t:root\nw\twant-01\t:instance\nb\tboy\t:instance\nw\tb\t:ARG0\n\n# c\na\tb\t:instance\n"]
# one graph each: the three of gold.amr, the document of gold.docamr.amr and the aligned graph
GRAPHS = [block.encode() for block in PENMAN[0].decode().split("\n\n")[1:]] + PENMAN[1:]
GOLD_DOCUMENT = "(d / document :snt1 (b / boy) :snt2 (g / go-02 :ARG0 b))"
SETTINGS = settings(
    max_examples=60, deadline=5000, suppress_health_check=[HealthCheck.too_slow], derandomize=True, database=None
)


@pytest.fixture(scope="module", autouse=True)
def warm() -> None:
    # the kernels are compiled (or loaded) once here, not inside an example's deadline
    smatch(["(a / b :ARG0 (c / d))"], ["(a / b :ARG0 (c / e))"], solver="hillclimb", restarts=1)
    docsmatch(["(d / document :snt1 (a / b))"], ["(d / document :snt1 (a / b))"], coref=True, restarts=1)


@st.composite
def mutated(draw, seeds: list[bytes], changes: int = 8) -> bytes:
    """A seed text with 1 to ``changes`` bytes deleted, inserted or replaced (parentheses, quotes, colons favoured)."""
    data = bytearray(draw(st.sampled_from(seeds)))
    special = st.sampled_from(list(b'()/:"~<>{}[],\n \t#\\') + [0x00, 0xE9, 0xFF, 0xC3])
    for _ in range(draw(st.integers(1, changes))):
        pos = draw(st.integers(0, len(data)))
        op = draw(st.sampled_from(["delete", "insert", "replace"]))
        byte = draw(st.one_of(special, st.integers(0, 255)))
        if op == "delete" and pos < len(data):
            del data[pos]
        elif op == "insert":
            data.insert(pos, byte)
        elif pos < len(data):
            data[pos] = byte
    return bytes(data)


def inputs(seeds: list[bytes]) -> st.SearchStrategy[bytes]:
    return st.one_of(st.binary(max_size=300), mutated(seeds))


def check(read: Callable[[], object]) -> None:
    """``read()`` gives a result or raises an amreval error, and nothing else."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            read()
        except AmrevalError:
            pass


def as_file(data: bytes, suffix: str) -> str:
    fd, path = tempfile.mkstemp(suffix=suffix)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    return path


def text_of(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


@SETTINGS
@given(inputs(PENMAN))
def test_penman_readers(data):
    path = as_file(data, ".amr")
    try:
        check(lambda: read_graphs(path))
        check(lambda: read_graphs(path, errors=[]))
        check(lambda: read_sentence_amrs(path))
        check(lambda: read_aligned_amrs(path))
    finally:
        os.unlink(path)
    text = text_of(data)
    check(lambda: loads_graphs(text))
    check(lambda: loads_aligned_amrs(text))
    check(lambda: document_graph(text, "prediction", 0))


def quiet(score: Callable[[], T]) -> T:
    """``score()`` with amreval's warnings (which fuzzed input gives many of) silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return score()


def readable(text: str) -> bool:
    """Whether ``text`` is one graph, as the scorers take a prediction or a reference."""
    try:
        quiet(lambda: loads_graph(text))
    except AmrevalError:
        return False
    return True


def assert_bounded(result: SmatchResult) -> None:
    """0 <= P, R, F <= 1 and match <= min(test, gold): the corpus and every pair."""
    for score in (result, *result.pairs):
        assert 0 <= score.precision <= 1 and 0 <= score.recall <= 1 and 0 <= score.f1 <= 1, score
        assert 0 <= score.match <= min(score.test, score.gold), score


@SETTINGS
@given(st.lists(inputs(PENMAN), min_size=1, max_size=3))
def test_scorers_take_any_prediction(datas):
    texts = [text_of(data) for data in datas]
    unreadable = [k for k, text in enumerate(texts) if not readable(text)]
    n = len(texts)
    for door, failed in (
        (lambda: smatch(texts, ["(b / boy)"] * n, solver="hillclimb", restarts=1), unreadable),
        (lambda: docsmatch(texts, [GOLD_DOCUMENT] * n, coref=True, solver="hillclimb", restarts=1), unreadable),
        # a sentence that is an empty string is an empty sentence, not an unreadable one
        (
            lambda: docsmatch([[t, "(x / y)"] for t in texts], [GOLD_DOCUMENT] * n, solver="hillclimb", restarts=1),
            [k for k in unreadable if texts[k].strip()],
        ),
    ):
        result = quiet(door)
        assert_bounded(result)
        assert result.unreadable_predictions == failed


@SETTINGS
@given(mutated(GRAPHS, changes=2), mutated(GRAPHS, changes=2))
def test_a_graph_against_itself_and_two_graphs_swapped(data_a, data_b):
    a, b = text_of(data_a), text_of(data_b)
    if not readable(a):
        return
    same = quiet(lambda: smatch([a], [a]))
    assert same.f1 == 1.0 and same.match == same.test == same.gold > 0
    document = quiet(lambda: docsmatch([a], [a], coref=True))
    assert document.f1 == 1.0 and document.match == document.test == document.gold > 0
    m, t, g = document.coref.total
    assert m == t == g
    if not readable(b):
        return
    forward = quiet(lambda: smatch([a], [b]))
    backward = quiet(lambda: smatch([b], [a]))
    assert_bounded(forward)
    assert backward.match == forward.match
    assert (backward.precision, backward.recall) == (forward.recall, forward.precision)
    assert backward.f1 == pytest.approx(forward.f1, abs=1e-12)
    sentences = quiet(lambda: docsmatch([[a, b]], [[a, b]], coref=True))
    assert sentences.f1 == 1.0 and sentences.match == sentences.test == sentences.gold > 0


@SETTINGS
@given(inputs(XML))
def test_xml_readers(data):
    path = as_file(data, ".xml")
    try:
        check(lambda: read_msamr_xml(path))
    finally:
        os.unlink(path)
    check(lambda: loads_msamr_xml(data))
    check(lambda: loads_msamr_xml(text_of(data)))
    try:
        doc = loads_msamr_xml(data)
    except AmrevalError:
        return
    amrs = {sid: graph for sid, graph in zip(doc.sentence_ids, loads_graphs(PENMAN[0].decode()))}
    for rep in ("no-merge", "docamr"):
        check(lambda rep=rep: loads_graphs(convert_document(doc, amrs, rep).to_string()))


@SETTINGS
@given(inputs(JSONLINES))
def test_coreference_readers(data):
    path = as_file(data, ".jsonlines")
    try:
        check(lambda: read_coref(path))
        check(lambda: read_coref(path, "conll"))
    finally:
        os.unlink(path)
    check(lambda: loads_coref(text_of(data)))
    check(lambda: loads_coref(text_of(data), "conll"))


@SETTINGS
@given(inputs(VECTORS))
def test_vector_reader(data):
    path = as_file(data, ".txt")
    try:
        check(lambda: read_vectors(path))
    finally:
        os.unlink(path)


def test_the_seeds_themselves_are_read():
    # the mutations start from inputs that the readers take whole
    assert [len(loads_graphs(seed.decode())) for seed in PENMAN] == [3, 1, 1]
    assert [readable(seed.decode()) for seed in GRAPHS] == [True] * 5
    assert [len(loads_msamr_xml(seed).sentence_ids) for seed in XML] == [3, 1]
    assert [len(loads_coref(seed.decode())) for seed in JSONLINES] == [1]
    assert [len(loads_tsv(seed.decode())) for seed in TSV] == [2]
    path = as_file(VECTORS[0], ".txt")
    try:
        assert len(read_vectors(path)) == 2
    finally:
        os.unlink(path)


LINEAR_TOKENS = st.sampled_from(
    ["(", ")", "/", ":ARG0", ":op1", ":", "boy", "want-01", "boy_0", "_1", "-", "1.5", '"x', '"x y"', "~", "~e.2"]
    + ["<pointer:0>", "<pointer:1", "<lit>", "</lit>", "<s>", "#", "\n", "b", "p0", "v1"]
)


@SETTINGS
@given(st.lists(LINEAR_TOKENS, max_size=25), st.sampled_from([" ", ""]), st.booleans())
def test_repair_and_linearization_readers_are_total(tokens, joiner, repair):
    """Every token sequence in every linearization reads, and its status is what the scorers make of it:
    a generation that is not ``unreadable`` is one graph, an ``unreadable`` one scores as empty."""
    text = joiner.join(tokens)
    for style in STYLES:
        read = delinearize(text, style, repair=repair)
        assert read.status in ("intact", "repaired", "unreadable")
        assert readable(read.penman) == (read.status != "unreadable"), (style, text, read)
        if repair and read.status != "unreadable":
            assert read.status == ("repaired" if read.changes else "intact")
            check(lambda style=style, read=read: linearize(read.penman, style))
    numbers = quiet(lambda: score_generations([text, text], ["(b / boy)", "(b / boy)"], linearization="amrlib"))
    assert numbers["smatch_n_generations"] == 2


@SETTINGS
@given(inputs(TSV))
def test_tsv_reader(data):
    path = as_file(data, ".tsv")
    try:
        check(lambda: read_tsv(path))
        check(lambda: read_tsv(path, errors=[]))
    finally:
        os.unlink(path)
    check(lambda: loads_tsv(text_of(data)))
    errors: list[AmrevalError] = []
    graphs = quiet(lambda: loads_tsv(text_of(data), errors=errors))
    # leniently read, every graph is in its place: an unreadable one as an empty graph, its error kept
    assert len(errors) == sum(isinstance(g, UnreadableGraph) for g in graphs)
