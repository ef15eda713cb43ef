"""Coreference files of text coreference systems: clusters of token spans.

An off-the-shelf coreference system gives, for each document, its sentences
(as tokens) and clusters of mentions, each mention a ``(start, end)`` span of
document-level token offsets, both inclusive. Two formats are read
(:data:`COREF_FORMATS`): jsonlines (:func:`read_coref_jsonlines`, one JSON
document per line, as written by most neural coreference systems) and
CoNLL-2012 (:func:`read_coref_conll`, ``*_conll`` files). Every document is
a :class:`CorefDocument`, checked on reading (:meth:`CorefDocument.validate`).

Sources follow the rule of :mod:`amreval.amr.read`: the ``read_coref*``
functions read **files** (a path or an open text file; a string is always a
path) or a list of lines (any iterable of strings that is not itself a
string); :func:`loads_coref` reads the **text** of a file.

Example:
    >>> [d] = loads_coref('{"doc_key": "D", "sentences": [["Obama", "slept"], ["He", "woke"]], '
    ...                   '"clusters": [[[0, 0], [2, 2]]]}')
    >>> d.doc_key, d.tokens, d.offsets, d.clusters
    ('D', ['Obama', 'slept', 'He', 'woke'], [0, 2], [[(0, 0), (2, 2)]])
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Union

from amreval.amr.read import FileSource, read_text
from amreval.errors import InputError

__all__ = [
    "COREF_FORMATS",
    "CorefDocument",
    "CorefSource",
    "check_coref_format",
    "loads_coref",
    "read_coref",
    "read_coref_conll",
    "read_coref_jsonlines",
]

#: A token span ``(start, end)``, both inclusive.
Span = tuple[int, int]
#: What the ``read_coref*`` functions read: a file (a path, a string always
#: being a path, or an open text file) or the file's lines (not a string).
CorefSource = Union[FileSource, Iterable[str]]

#: The coreference file formats :func:`read_coref` understands.
COREF_FORMATS = ("jsonlines", "conll")


@dataclass
class CorefDocument:
    """One document of a text coreference system's output.

    Attributes:
        doc_key: the document's id.
        sentences: the tokens of each sentence.
        clusters: each cluster a list of ``(start, end)`` spans, both
            inclusive, over document-level token offsets.
        source: the file it was read from.
        line: the 1-based line where the document starts.
    """

    doc_key: str
    sentences: list[list[str]]
    clusters: list[list[Span]] = field(default_factory=list)
    source: str = "<string>"
    line: int | None = None

    @property
    def tokens(self) -> list[str]:
        """All tokens of the document."""
        return [t for s in self.sentences for t in s]

    @property
    def offsets(self) -> list[int]:
        """The document-level offset of each sentence's first token."""
        out, n = [], 0
        for s in self.sentences:
            out.append(n)
            n += len(s)
        return out

    @property
    def where(self) -> str:
        at = f", line {self.line}" if self.line is not None else ""
        return f"{self.source}{at}: document {self.doc_key}"

    def validate(self) -> None:
        """Check every span: integers, ``0 <= start <= end < number of tokens``.

        Raises:
            InputError: naming the document, the cluster (0-based) and the span.
        """
        n = sum(len(s) for s in self.sentences)
        for c, cluster in enumerate(self.clusters):
            for span in cluster:
                if (
                    not isinstance(span, (tuple, list))
                    or len(span) != 2
                    or not all(isinstance(x, int) and not isinstance(x, bool) for x in span)
                ):
                    raise InputError(f"{self.where}, cluster {c}: span {span!r} is not a pair of token offsets")
                start, end = span
                if start < 0 or end < 0:
                    raise InputError(f"{self.where}, cluster {c}: span [{start}, {end}] has a negative offset")
                if start > end:
                    raise InputError(f"{self.where}, cluster {c}: span [{start}, {end}] starts after it ends")
                if end >= n:
                    raise InputError(
                        f"{self.where}, cluster {c}: span [{start}, {end}] is beyond the document, "
                        f"which has {n} tokens (0 to {n - 1})"
                    )


def _lines_of(source: CorefSource) -> tuple[list[str], str]:
    """The lines of a coreference file (read through :func:`~amreval.amr.read.read_text`) and its label."""
    if isinstance(source, (str, os.PathLike, bytes, bytearray)) or hasattr(source, "read"):
        text, label = read_text(source, what="coreference file")  # type: ignore[arg-type]
        return text.splitlines(), label
    try:
        lines = list(source)
    except TypeError:
        raise InputError(
            f"expected a coreference file (a path or an open text file) or a list of its lines, "
            f"got {type(source).__name__}"
        ) from None
    bad = next((line for line in lines if not isinstance(line, str)), None)
    if bad is not None:
        raise InputError(f"expected the lines of a coreference file as strings, got {type(bad).__name__}")
    return [line.rstrip("\n") for line in lines], getattr(source, "name", "<lines>")


def _is_token_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(t, str) for t in value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_coref_jsonlines(source: CorefSource) -> list[CorefDocument]:
    """Read coreference clusters in the jsonlines format, one document per line.

    Fields of a document (a JSON object):

    * ``doc_key`` (or ``document_id``): the id; default ``doc<k>`` for the
      k-th document of the file;
    * the tokens, either ``sentences`` (a list of token lists) or ``tokens``
      (a flat token list); with ``sentence_map`` (the sentence index of every
      token, non-decreasing) the sentences are cut where it changes, whatever
      ``sentences`` groups (so segment-based files work); ``tokens`` without
      ``sentence_map`` is an error;
    * ``clusters``: a list of clusters, each a list of ``[start, end]``
      document-level token offsets, both inclusive.

    Tokens must be words (the AMR tokens), not subword pieces: a document
    with ``subtoken_map`` is refused.

    Args:
        source: a path (a string is always a path), an open text file, or
            the file's lines (see :data:`CorefSource`); text goes to
            :func:`loads_coref`.

    Raises:
        InputError: no such file, malformed JSON or a missing field (file and
            line), or a bad span (document, cluster and span).
        DecodeError: the file is not UTF-8 text.

    Example:
        >>> import io
        >>> [d] = read_coref_jsonlines(io.StringIO(
        ...     '{"doc_key": "D", "tokens": ["He", "ran", ".", "He", "fell", "."], '
        ...     '"sentence_map": [0, 0, 0, 1, 1, 1], "clusters": [[[0, 0], [3, 3]]]}'))
        >>> d.sentences, d.clusters
        ([['He', 'ran', '.'], ['He', 'fell', '.']], [[(0, 0), (3, 3)]])
    """
    return _jsonlines_documents(*_lines_of(source))


def _jsonlines_documents(lines: list[str], label: str) -> list[CorefDocument]:
    docs: list[CorefDocument] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{label}, line {n}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where}: malformed JSON: {exc.msg} (column {exc.colno})") from None
        if not isinstance(obj, dict):
            raise InputError(f"{where}: expected a JSON object (one document per line)")
        key = obj.get("doc_key", obj.get("document_id"))
        doc_key = str(key) if key is not None else f"doc{len(docs) + 1}"
        if "subtoken_map" in obj:
            raise InputError(
                f"{where}: document {doc_key} is over subword tokens (subtoken_map); "
                "map its clusters to word offsets first"
            )
        if "tokens" in obj:
            tokens = obj["tokens"]
            if not _is_token_list(tokens):
                raise InputError(f"{where}: document {doc_key}: 'tokens' must be a list of strings")
        elif "sentences" in obj:
            sents = obj["sentences"]
            if not isinstance(sents, list) or not all(_is_token_list(s) for s in sents):
                raise InputError(f"{where}: document {doc_key}: 'sentences' must be a list of token lists")
            tokens = [t for s in sents for t in s]
        else:
            raise InputError(f"{where}: document {doc_key}: expected 'sentences' or 'tokens' with 'sentence_map'")
        if "sentence_map" in obj:
            smap = obj["sentence_map"]
            if (
                not isinstance(smap, list)
                or not all(_is_int(x) for x in smap)
                or len(smap) != len(tokens)
                or any(b < a for a, b in zip(smap, smap[1:]))
            ):
                raise InputError(
                    f"{where}: document {doc_key}: 'sentence_map' must give a non-decreasing "
                    f"sentence index for each of its {len(tokens)} tokens"
                )
            sentences: list[list[str]] = []
            previous = None
            for tok, s in zip(tokens, smap):
                if s != previous:
                    sentences.append([])
                    previous = s
                sentences[-1].append(tok)
        elif "sentences" in obj:
            sentences = [list(s) for s in obj["sentences"]]
        else:
            raise InputError(f"{where}: document {doc_key}: 'tokens' needs 'sentence_map'")
        raw = obj.get("clusters")
        if not isinstance(raw, list) or not all(isinstance(c, list) for c in raw):
            raise InputError(f"{where}: document {doc_key}: expected 'clusters', a list of lists of [start, end]")
        clusters: list[list[Span]] = []
        for c, cluster in enumerate(raw):
            spans: list[Span] = []
            for span in cluster:
                if not isinstance(span, list) or len(span) != 2 or not all(_is_int(x) for x in span):
                    raise InputError(
                        f"{where}: document {doc_key}, cluster {c}: span {span!r} "
                        "is not [start, end] with integer offsets"
                    )
                spans.append((span[0], span[1]))
            clusters.append(spans)
        doc = CorefDocument(doc_key, sentences, clusters, label, n)
        doc.validate()
        docs.append(doc)
    return docs


_BEGIN = re.compile(r"^#begin document\s*\(?(.*?)\)?\s*;?\s*(?:part\s+(\d+))?\s*$")
_OPEN_CLOSE = re.compile(r"^\((\d+)\)$")
_OPEN = re.compile(r"^\((\d+)$")
_CLOSE = re.compile(r"^(\d+)\)$")


def read_coref_conll(source: CorefSource) -> list[CorefDocument]:
    """Read coreference clusters in the CoNLL-2012 format (``*_conll`` files).

    A document runs from ``#begin document (<id>); part <n>`` to
    ``#end document``; its key is ``<id>_<n>`` (``<id>`` without a part).
    A token line has whitespace-separated columns: document id, part, word
    index, word, ..., and the coreference column last (``(3``, ``3)``,
    ``(3)``, ``-``, several joined by ``|``). A blank line ends a sentence;
    other ``#`` lines are comments. Clusters come in the order of their first
    mention, spans sorted.

    Args:
        source: a path (a string is always a path), an open text file, or
            the file's lines (see :data:`CorefSource`); text goes to
            :func:`loads_coref`.

    Raises:
        InputError: no such file, a malformed line, an unmatched bracket or a
            missing ``#end document``; the message names the file and line.
        DecodeError: the file is not UTF-8 text.

    Example:
        >>> lines = ["#begin document (d); part 000", "d 0 0 Obama (0)", "d 0 1 slept -", "",
        ...          "d 0 0 He (0)", "d 0 1 woke -", "#end document"]
        >>> [d] = read_coref_conll(lines)
        >>> d.doc_key, d.sentences, d.clusters
        ('d_0', [['Obama', 'slept'], ['He', 'woke']], [[(0, 0), (2, 2)]])
    """
    return _conll_documents(*_lines_of(source))


def _conll_documents(lines: list[str], label: str) -> list[CorefDocument]:
    docs: list[CorefDocument] = []
    current: dict | None = None
    for n, raw_line in enumerate(lines, 1):
        line = raw_line.strip()
        where = f"{label}, line {n}"
        if line.startswith("#begin document"):
            current = _conll_begin(line, n, where, current)
        elif line.startswith("#end document"):
            if current is None:
                raise InputError(f"{where}: '#end document' without '#begin document'")
            docs.append(_conll_end(current, label))
            current = None
        elif not line:
            _conll_end_sentence(current)
        elif not line.startswith("#"):
            if current is None:
                raise InputError(f"{where}: a token line outside '#begin document' ... '#end document'")
            _conll_token(current, line, n, where)
    if current is not None:
        raise InputError(f"{label}, line {current['line']}: document {current['key']} has no '#end document'")
    return docs


def _conll_begin(line: str, n: int, where: str, current: dict | None) -> dict:
    """The document that a ``#begin document`` line (line ``n``) begins, while ``current`` is open."""
    if current is not None:
        raise InputError(
            f"{where}: '#begin document' inside document {current['key']} "
            f"(begun on line {current['line']}) without '#end document'"
        )
    m = _BEGIN.match(line)
    if not m or not m.group(1):
        raise InputError(f"{where}: expected '#begin document (<id>); part <n>'")
    key = m.group(1) if m.group(2) is None else f"{m.group(1)}_{int(m.group(2))}"
    return {"key": key, "line": n, "sentences": [], "sentence": [], "open": {}, "spans": {}, "ntok": 0}


def _conll_end_sentence(current: dict | None) -> None:
    if current is not None and current["sentence"]:
        current["sentences"].append(current["sentence"])
        current["sentence"] = []


def _conll_end(current: dict, label: str) -> CorefDocument:
    """The document that ends at an ``#end document`` line, checked."""
    _conll_end_sentence(current)
    if any(current["open"].values()):
        cid, (start_line, _) = next((c, s[-1]) for c, s in current["open"].items() if s)
        raise InputError(
            f"{label}, line {start_line}: document {current['key']}: mention of cluster "
            f"{cid} opened here is never closed"
        )
    clusters = sorted((sorted(set(spans)) for spans in current["spans"].values()), key=lambda c: c[0])
    doc = CorefDocument(current["key"], current["sentences"], clusters, label, current["line"])
    doc.validate()
    return doc


def _conll_token(current: dict, line: str, n: int, where: str) -> None:
    """Add a token line (line ``n``) to the document: its word, and the mentions its last column opens or closes."""
    cols = line.split()
    if len(cols) < 5:
        raise InputError(
            f"{where}: expected at least 5 columns (document, part, word index, word, ..., "
            f"coreference), found {len(cols)}"
        )
    index = current["ntok"]
    current["ntok"] += 1
    current["sentence"].append(cols[3])
    tag = cols[-1]
    if tag == "-":
        return
    for part in tag.split("|"):
        m = _OPEN_CLOSE.match(part)
        if m:
            current["spans"].setdefault(int(m.group(1)), []).append((index, index))
            continue
        m = _OPEN.match(part)
        if m:
            current["open"].setdefault(int(m.group(1)), []).append((n, index))
            current["spans"].setdefault(int(m.group(1)), [])
            continue
        m = _CLOSE.match(part)
        if m:
            cid = int(m.group(1))
            if not current["open"].get(cid):
                raise InputError(f"{where}: closes a mention of cluster {cid} that is not open")
            _, start = current["open"][cid].pop()
            current["spans"][cid].append((start, index))
            continue
        raise InputError(f"{where}: malformed coreference column {tag!r}; expected (n, n), (n) or - joined by |")


_READERS = {"jsonlines": _jsonlines_documents, "conll": _conll_documents}


def check_coref_format(coref_format: str) -> str:
    """``coref_format`` if it is one of :data:`COREF_FORMATS`.

    Raises:
        InputError: an unknown format (the message lists the known ones).
    """
    if coref_format not in _READERS:
        raise InputError(f"unknown coreference format {coref_format!r}; expected one of {', '.join(COREF_FORMATS)}")
    return coref_format


def read_coref(source: CorefSource, coref_format: str = "jsonlines") -> list[CorefDocument]:
    """Read a coreference file in one of :data:`COREF_FORMATS`.

    Args:
        source: a path (a string is always a path), an open text file, or
            the file's lines (see :data:`CorefSource`); text goes to
            :func:`loads_coref`.
        coref_format: ``jsonlines`` (default) or ``conll``.

    Raises:
        InputError: an unknown format (the message lists the known ones), no
            such file, or what the format's reader raises.
        DecodeError: the file is not UTF-8 text.
    """
    reader = _READERS[check_coref_format(coref_format)]
    return reader(*_lines_of(source))


def loads_coref(text: str, coref_format: str = "jsonlines", *, name: str = "<string>") -> list[CorefDocument]:
    """Read the text of a coreference file in one of :data:`COREF_FORMATS` (never a file name).

    Args:
        text: the file's content.
        coref_format: ``jsonlines`` (default) or ``conll``.
        name: what to call the text in messages.

    Raises:
        InputError: an unknown format, ``text`` that is not a string, or what
            the format's reader raises (naming ``name`` and the line).

    Example:
        >>> [d] = loads_coref("#begin document (d); part 000\\nd 0 0 Obama (0)\\nd 0 1 slept -\\n\\n"
        ...                   "d 0 0 He (0)\\nd 0 1 woke -\\n#end document\\n", "conll")
        >>> d.doc_key, d.sentences, d.clusters, d.where
        ('d_0', [['Obama', 'slept'], ['He', 'woke']], [[(0, 0), (2, 2)]], '<string>, line 1: document d_0')
    """
    reader = _READERS[check_coref_format(coref_format)]
    if not isinstance(text, str):
        raise InputError(
            f"{name}: expected the text of a coreference file, got {type(text).__name__} (files go to read_coref)"
        )
    return reader(text.splitlines(), name)
