"""Word vectors: the readers of GloVe text, and the authors' GloVe 6B 100-d from the Hugging Face Hub, tested on a
small repository in the HF cache layout."""

from __future__ import annotations

import importlib.util
import zipfile

import numpy as np
import pytest

import amreval.scores.vectors as vectors_module
from amreval.errors import DecodeError, InputError
from amreval.scores.s2match import s2match, s2match_pair
from amreval.scores.vectors import (
    GLOVE_ARCHIVE,
    GLOVE_REPO,
    hub_vectors,
    loads_vectors,
    named_vectors,
    read_vectors,
    resolve_vectors,
)

needs_hub = pytest.mark.skipif(
    importlib.util.find_spec("huggingface_hub") is None, reason="huggingface_hub is not installed (the s2match extra)"
)
COMMIT = "0123456789abcdef0123456789abcdef01234567"
DIM = 100


def _row(word: str, x: float, y: float) -> str:
    values = [x, y] + [0.0] * (DIM - 2)
    return word + " " + " ".join(f"{v:g}" for v in values)


# cat and kitten: cosine 0.8; hit and punch: cosine 0.6
TEXT = "\n".join(
    [_row("cat", 1, 0), _row("kitten", 0.8, 0.6), _row("hit", 0, 1), _row("punch", 0.8, 0.6), _row("the", 1, 1)]
)


def test_loads_vectors_takes_text_bytes_and_byte_lines(tmp_path):
    text = "\ufeffcat 1 0\r\nkitten 0.8 0.6\n\nlonely\n"  # a byte-order mark, CRLF, lines without values
    tables = [
        loads_vectors(text),
        loads_vectors(text.encode("utf-8")),
        loads_vectors([b"cat 1 0\n", b"kitten 0.8 0.6"], name="lines"),
    ]
    for v in tables:
        assert v.index == {"cat": 0, "kitten": 1} and v.matrix.dtype == np.float32
        np.testing.assert_array_equal(v.matrix, np.float32([[1, 0], [0.8, 0.6]]))
    assert [v.name for v in tables] == ["<string>", "<string>", "lines"]
    path = tmp_path / "vec.txt"
    path.write_text(text, encoding="utf-8")
    from_file = read_vectors(path)
    assert from_file.name == str(path) and from_file.index == tables[0].index
    with pytest.raises(DecodeError, match=r"^<string>, line 2: lines have different numbers of values: 1 here, 2 on"):
        loads_vectors("cat 1 0\ndog 1\n")
    with pytest.raises(DecodeError, match=r"^v.txt, line 2: not UTF-8 text \(byte b'\\xe9'\)"):
        loads_vectors(b"cat 1\ncaf\xe9 1\n", name="v.txt")
    with pytest.raises(DecodeError, match=r"^<string>, line 1: a binary file, not GloVe text \(a NUL byte\)"):
        loads_vectors("cat 1\0\n")
    with pytest.raises(InputError, match=r"^<string>: no word vectors found; expected lines 'word v1 v2 \.\.\.'$"):
        loads_vectors("\n\nword\n")


@pytest.fixture
def hub_cache(tmp_path, monkeypatch):
    """A Hugging Face cache holding stanfordnlp/glove at one commit (as a download leaves it), used offline."""
    repo = tmp_path / "hub" / "models--stanfordnlp--glove"
    snapshot = repo / "snapshots" / COMMIT
    snapshot.mkdir(parents=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(COMMIT)
    with zipfile.ZipFile(snapshot / GLOVE_ARCHIVE, "w") as archive:
        archive.writestr("glove.6B.100d.txt", TEXT + "\n")
        archive.writestr("glove.6B.50d.txt", "cat 1 0\n")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    import huggingface_hub.constants as constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    vectors_module._LOADED.pop("glove-6b-100d", None)
    yield tmp_path / "hub"
    vectors_module._LOADED.pop("glove-6b-100d", None)


@needs_hub
def test_read_from_the_cache_offline(hub_cache):
    vectors = hub_vectors()
    assert vectors.dim == DIM and len(vectors) == 5
    assert vectors.name == f"{GLOVE_REPO}/{GLOVE_ARCHIVE}#glove.6B.100d.txt"
    np.testing.assert_array_equal(vectors.vector("kitten")[:3], np.float32([0.8, 0.6, 0.0]))  # stored as float32
    assert named_vectors("glove-6b-50d").dim == 2


@needs_hub
def test_s2match_with_the_named_vectors(hub_cache):
    # two triples a side: kitten for cat earns the cosine 0.8, and so does the TOP triple (graded by the
    # roots' similarity): 1.6 of 2
    score = s2match_pair("(k / kitten)", "(c / cat)", vectors="glove-6b-100d")
    assert score.match == pytest.approx(1.6) and (score.test, score.gold) == (2, 2)
    assert resolve_vectors("glove-6b-100d") is resolve_vectors("glove-6b-100d")  # read once
    result = s2match(["(k / kitten)"], ["(c / cat)"], vectors="glove-6b-100d")
    assert "vectors=stanfordnlp/glove/glove.6B.zip#glove.6B.100d.txt" in result.config.as_string()


@needs_hub
def test_missing_from_the_cache_offline_says_what_to_do(tmp_path, monkeypatch):
    import huggingface_hub.constants as constants

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "empty"))
    with pytest.raises(InputError, match=r"stanfordnlp/glove/glove.6B.zip: not in the Hugging Face cache .*offline"):
        hub_vectors(cache_dir=tmp_path / "empty")


@needs_hub
def test_a_missing_member_and_bad_text_are_named(hub_cache):
    with pytest.raises(InputError, match=r"#glove.6B.42d.txt: no such file in the archive; its text files: "):
        hub_vectors(member="glove.6B.42d.txt")
    snapshot = hub_cache / "models--stanfordnlp--glove" / "snapshots" / COMMIT
    with zipfile.ZipFile(snapshot / GLOVE_ARCHIVE, "a") as archive:
        archive.writestr("glove.6B.300d.txt", "cat 1 0\ndog 1 x\n")
    with pytest.raises(DecodeError, match=r"glove.6B.300d.txt.*line 2"):
        hub_vectors(member="glove.6B.300d.txt")
    with pytest.raises(InputError, match="unknown word vectors 'glove-7b'"):
        named_vectors("glove-7b")


@needs_hub
def test_a_damaged_archive_and_bad_numbers_are_named(hub_cache, tmp_path):
    snapshot = hub_cache / "models--stanfordnlp--glove" / "snapshots" / COMMIT
    (snapshot / GLOVE_ARCHIVE).write_bytes(b"PK\x03\x04" + b"\x00" * 60)
    with pytest.raises(InputError, match="is damaged .*delete it to download it again|is not a GloVe|damaged"):
        hub_vectors()
    (tmp_path / "nan.txt").write_text("boy 1 1\ncat nan 1\n", encoding="utf-8")
    with pytest.raises(DecodeError, match=r"nan.txt, line 2: a value that is not a finite float32 number"):
        read_vectors(tmp_path / "nan.txt")
    with zipfile.ZipFile(tmp_path / "local.zip", "w") as archive:
        archive.writestr("v.txt", "boy 1 1\n")
    with pytest.raises(InputError, match="local.zip: a zip archive; expected a GloVe text file"):
        read_vectors(tmp_path / "local.zip")
