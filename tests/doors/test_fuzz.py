"""Every reader, fed random bytes and mutated PENMAN, XML and jsonlines, gives a result or an amreval error.

Never another exception, never a hang (each example has a deadline).
"""

from __future__ import annotations

import os
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amreval import AmrevalError, docsmatch, loads_graphs, read_graphs, smatch
from amreval.amr.token_alignments import loads_aligned_amrs, read_aligned_amrs
from amreval.docamr import convert_document, loads_msamr_xml, read_msamr_xml, read_sentence_amrs
from amreval.docamr.corefiles import loads_coref, read_coref
from amreval.docamr.document import document_graph
from amreval.scores.vectors import read_vectors

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
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
SETTINGS = settings(
    max_examples=60, deadline=5000, suppress_health_check=[HealthCheck.too_slow], derandomize=True, database=None
)


@pytest.fixture(scope="module", autouse=True)
def warm() -> None:
    # the kernels are compiled (or loaded) once here, not inside an example's deadline
    smatch(["(a / b :ARG0 (c / d))"], ["(a / b :ARG0 (c / e))"], solver="hillclimb", restarts=1)
    docsmatch(["(d / document :snt1 (a / b))"], ["(d / document :snt1 (a / b))"], coref=True, restarts=1)


@st.composite
def mutated(draw, seeds: list[bytes]) -> bytes:
    """A seed text with a few bytes deleted, inserted or replaced (parentheses, quotes, colons favoured)."""
    data = bytearray(draw(st.sampled_from(seeds)))
    special = st.sampled_from(list(b'()/:"~<>{}[],\n \t#\\') + [0x00, 0xE9, 0xFF, 0xC3])
    for _ in range(draw(st.integers(1, 8))):
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


@SETTINGS
@given(inputs(PENMAN))
def test_scorers_take_any_prediction(data):
    text = text_of(data)
    gold = "(d / document :snt1 (b / boy) :snt2 (g / go-02 :ARG0 b))"
    for door in (
        lambda: smatch([text], ["(b / boy)"], solver="hillclimb", restarts=1),
        lambda: docsmatch([text], [gold], coref=True, solver="hillclimb", restarts=1),
        lambda: docsmatch([[text, "(x / y)"]], [gold], solver="hillclimb", restarts=1),
    ):
        check(door)


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
    assert [len(loads_msamr_xml(seed).sentence_ids) for seed in XML] == [3, 1]
    assert [len(loads_coref(seed.decode())) for seed in JSONLINES] == [1]
    path = as_file(VECTORS[0], ".txt")
    try:
        assert len(read_vectors(path)) == 2
    finally:
        os.unlink(path)
