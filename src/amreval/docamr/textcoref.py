"""DocAMR from sentence AMRs with alignments plus coreference found in the text.

This is the DocAMR paper's baseline pipeline: a sentence-level AMR parser
gives graphs whose nodes are aligned to tokens, an off-the-shelf text
coreference system gives clusters of token spans, and the two are joined as
``docamr.md`` ("The text-coreference pipeline") specifies:

1. **Node spans.** The span of a node is the smallest token span covering
   every token aligned to the node or to one of its descendants. Descendants
   are those of the PENMAN tree: a re-entrant reference (a bare variable) is
   no child, so each node is counted under the occurrence that carries its
   concept (the first one in the written graph) and there are no loops.
2. **Mention to node.** A mention (within one sentence) goes to the node with
   the shortest span that contains it; among ties, to the node with the
   greatest height (the one that subsumes the others, so "Barack Obama"
   becomes the ``person``, not its ``name``), then to the first in written
   order. Tokens at the edges of a mention that are aligned to no node at all
   (typically determiners: "*the* city") are trimmed first, since they can
   only push the mention onto a larger ancestor (pass
   ``trim_unaligned=False`` for the untrimmed rule).
3. **Within-sentence coreference is ignored.** Of the mentions of one cluster
   in one sentence only the first (in token order) that maps to a node is
   kept; a cluster whose mapped mentions all lie in one sentence gives no
   chain.
4. The clusters become identity chains ``rel-0``, ``rel-1`` ... of an
   :class:`~amreval.docamr.msamr.MsAmrDocument`, which goes through the same
   :func:`~amreval.docamr.convert.convert_document` as gold MS-AMR.

Mentions that map to no node (or that cross a sentence boundary) are never
dropped silently: they are listed in the :class:`MappingReport` and warned
about (:class:`~amreval.errors.AmrevalWarning`), or raise in strict mode.

Alignments are read from three notations, and their union is used:

* ISI markers in the graph: ``(b / boy~e.2)``; a marker on a constant
  (``:op1 "Obama"~e.1``) aligns the node holding the constant; markers on
  roles (``:ARG0~e.1``) and on re-entrant references (``:ARG0 b~e.7``) are
  ignored (the latter mark a second mention, which would stretch the node's
  span over the words between);
* JAMR node lines ``# ::node<TAB>0.1<TAB>city<TAB>3-4``;
* JAMR alignment lines ``# ::alignments 3-4|0.1 0-2|0.0+0.0.0`` (span end
  exclusive; nodes separated by ``+`` or ``|``; items starting with ``*`` are
  hand coreference alignments and skipped; a line without any ``|`` item is
  ISI's own metadata format and skipped, the graph's markers carry it).

JAMR node paths follow JAMR's documentation: the root is ``0`` and the k-th
child (0-based, written order) of ``p`` is ``p.k``, where children are new
nodes *and constants* (``:month 11`` is a child) but not re-entrant
references. A path that names a constant aligns the node holding it.

Tokens are ``# ::tok`` split on spaces, else ``# ::snt`` split on spaces; an
alignment to a token beyond them is an error.

Example:
    >>> amrs = '''# ::tok Barack Obama visited Paris .
    ... (v / visit-01~e.2 :ARG0 (p / person :name (n / name :op1 "Barack"~e.0 :op2 "Obama"~e.1))
    ...    :ARG1 (c / city :name (n2 / name :op1 "Paris"~e.3)))
    ...
    ... # ::tok He liked it .
    ... (l / like-01~e.1 :ARG0 (h / he~e.0) :ARG1 (i / it~e.2))'''
    >>> coref = '{"doc_key": "D", "sentences": [["Barack", "Obama", "visited", "Paris", "."], ' \\
    ...         '["He", "liked", "it", "."]], "clusters": [[[0, 1], [5, 5]], [[3, 3], [7, 7]]]}'
    >>> [doc] = text_coref_to_docamr(amrs, coref)
    >>> print(doc.to_string(indent=None))  # doctest: +NORMALIZE_WHITESPACE
    # ::id D
    # ::tok Barack Obama visited Paris . <next_sent> He liked it .
    # ::sentence_ids D.1 D.2
    (d / document :snt1 (s1.v / visit-01 :ARG0 (s1.p / person :name (s1.n / name :op1 "Barack" :op2 "Obama"))
        :ARG1 (s1.c / city :name (s1.n2 / name :op1 "Paris"))) :snt2 (s2.l / like-01 :ARG0 s1.p :ARG1 s1.c))
"""

from __future__ import annotations

import bisect
import json
import os
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping, Sequence, Union

import penman
from penman.surface import Alignment as _PenmanAlignment

from ..errors import AmrevalWarning, DecodeError, InputError
from .._progress import progress_bar
from ..graph import Graph, _blocks, read_graphs
from .convert import check_representation, convert_document
from .msamr import Chain, Mention, MsAmrDocument

__all__ = [
    "COREF_FORMATS",
    "AlignedSentence",
    "CorefDocument",
    "MappingReport",
    "MentionMapping",
    "chains_from_coref",
    "map_text_coref",
    "node_spans",
    "read_aligned_amrs",
    "read_alignments",
    "read_coref",
    "read_coref_conll",
    "read_coref_jsonlines",
    "text_coref_to_docamr",
]

PathLike = Union[str, "os.PathLike[str]"]
Span = tuple[int, int]

#: The coreference file formats :func:`read_coref` understands.
COREF_FORMATS = ("jsonlines", "conll")

# an ISI marker at the end of a concept, constant or role: ~e.3, ~e.3,4, ~3
_MARKER = re.compile(r"~[A-Za-z]*\.?\d+(?:,\d+)*$")
_PATH = re.compile(r"^\d+(?:\.\d+)*$")
_JAMR_SPAN = re.compile(r"^(\d+)-(\d+)$")


def _warn(message: str) -> None:
    warnings.warn(message, AmrevalWarning, stacklevel=4)


# ====================================================================== alignments


def _split_marker(text: str) -> tuple[str, tuple[int, ...]]:
    """``'"Obama"~e.1'`` -> ``('"Obama"', (1,))``; no marker -> ``(text, ())``."""
    m = _MARKER.search(text)
    if not m:
        return text, ()
    return text[: m.start()], _PenmanAlignment.from_string(m.group()).indices


def _unquote(value: str) -> str:
    return value[1:-1] if len(value) >= 2 and value[0] == '"' and value[-1] == '"' else value


class _Structure:
    """The tree of a PENMAN graph: children, JAMR paths, heights, ISI alignments."""

    def __init__(self, tree: penman.Tree) -> None:
        defined: set[str] = set()
        stack: list[tuple] = [tree.node]
        while stack:
            var, branches = stack.pop()
            defined.add(var)
            stack.extend(t for _, t in branches if isinstance(t, tuple))
        self.top: str = tree.node[0]
        self.order: list[str] = []
        self.concept: dict[str, str] = {}
        self.children: dict[str, list[str]] = {}
        # JAMR children: (variable, None) for a node, (holder, constant) for a constant
        self.jamr: dict[str, list[tuple[str, str | None]]] = {}
        self.own: dict[str, set[int]] = {}
        self._visit(tree.node, defined)
        self.height: dict[str, int] = {}
        for var in reversed(self.order):
            kids = self.children[var]
            self.height[var] = 1 + max(self.height[c] for c in kids) if kids else 0

    def _visit(self, root: tuple, defined: set[str]) -> None:
        # iterative preorder; a second definition of a variable counts as a re-entrancy
        stack: list[tuple] = [root]
        seen = {root[0]}
        while stack:
            var, branches = stack.pop()
            self.order.append(var)
            self.children[var] = []
            self.jamr[var] = []
            self.own[var] = set()
            self.concept.setdefault(var, "")
            pending: list[tuple] = []
            for role, target in branches:
                if role == "/":
                    concept, idx = _split_marker(target or "")
                    self.concept[var] = concept
                    self.own[var].update(idx)
                elif isinstance(target, tuple):
                    child = target[0]
                    if child in seen:
                        continue
                    seen.add(child)
                    self.children[var].append(child)
                    self.jamr[var].append((child, None))
                    pending.append(target)
                else:
                    value, idx = _split_marker(target or "")
                    if value in defined:
                        continue  # a re-entrant reference: no child, its marker is ignored
                    self.own[var].update(idx)
                    self.jamr[var].append((var, value))
            stack.extend(reversed(pending))

    def resolve(self, path: str) -> tuple[str, str | None] | None:
        """The node (and constant, if the path ends on one) a JAMR path names."""
        parts = path.split(".")
        if parts[0] != "0":
            return None
        current: tuple[str, str | None] = (self.top, None)
        for p in parts[1:]:
            if current[1] is not None:
                return None
            kids = self.jamr[current[0]]
            k = int(p)
            if k >= len(kids):
                return None
            current = kids[k]
        return current

    def spans(self, alignments: Mapping[str, Iterable[int]]) -> dict[str, Span]:
        out: dict[str, Span] = {}
        for var in reversed(self.order):
            idx = list(alignments.get(var, ()))
            lo = min(idx) if idx else None
            hi = max(idx) if idx else None
            for c in self.children[var]:
                if c in out:
                    s, e = out[c]
                    lo = s if lo is None else min(lo, s)
                    hi = e if hi is None else max(hi, e)
            if lo is not None and hi is not None:
                out[var] = (lo, hi)
        return out


def _metadata_fields(comment_lines: Iterable[str]) -> list[str]:
    """``::key value`` fields of comment lines, as ``"key value"`` strings."""
    fields: list[str] = []
    for line in comment_lines:
        text = line.lstrip().lstrip("#")
        if "::" not in text:
            continue
        for part in text.split("::")[1:]:
            if part.strip():
                fields.append(part.strip())
    return fields


def _fields_of_metadata(metadata: Mapping[str, str]) -> list[str]:
    # penman splits "::node<TAB>0<TAB>c<TAB>2-3" into the key "node<TAB>0<TAB>c<TAB>2-3"
    return [f"{k} {v}".strip() if v else k.strip() for k, v in metadata.items()]


def _field(fields: Sequence[str], key: str) -> list[str]:
    """The values of the fields named ``key`` (the name ends at the first space or tab)."""
    out = []
    for f in fields:
        m = re.match(r"(\S+)\s?(.*)$", f, flags=re.DOTALL)
        if m and m.group(1) == key:
            out.append(m.group(2) if key == "node" else m.group(2).strip())
    return out


def _tokens_of(fields: Sequence[str]) -> list[str] | None:
    for key in ("tok", "snt"):
        values = _field(fields, key)
        if values:
            return values[0].split()
    return None


def _jamr_alignments(structure: _Structure, fields: Sequence[str], label: str) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {}

    def add(path: str, start: int, end: int, what: str, concept: str | None = None) -> None:
        if not _PATH.match(path):
            raise InputError(f"{label}: {what}: {path!r} is not a JAMR node path (0, 0.1, 0.1.0 ...)")
        found = structure.resolve(path)
        if found is None:
            raise InputError(f"{label}: {what}: node path {path} is not in the graph")
        var, constant = found
        if concept is not None:
            actual = constant if constant is not None else structure.concept.get(var, "")
            if _unquote(concept).lower() != _unquote(actual).lower():
                raise InputError(f"{label}: {what}: node {path} is {concept!r} in the ::node line "
                                 f"but {actual!r} in the graph")
        out.setdefault(var, set()).update(range(start, end))

    for rest in _field(fields, "node"):
        parts = rest.strip("\n").split("\t") if "\t" in rest else rest.split()
        parts = [p.strip() for p in parts]
        while parts and not parts[-1]:
            parts.pop()
        what = "::node " + " ".join(parts)
        if len(parts) < 2:
            raise InputError(f"{label}: {what}: expected ::node<TAB>path<TAB>concept<TAB>start-end")
        if len(parts) < 3:
            continue  # unaligned node
        m = _JAMR_SPAN.match(parts[2])
        if not m or int(m.group(1)) >= int(m.group(2)):
            raise InputError(f"{label}: {what}: expected a token span start-end with start < end")
        add(parts[0], int(m.group(1)), int(m.group(2)), what, parts[1])
    for rest in _field(fields, "alignments"):
        items = rest.split()
        if not any("|" in item for item in items):
            continue  # ISI's own ::alignments format
        for item in items:
            if item.startswith("*"):
                continue  # a hand coreference alignment
            span, sep, nodes = item.partition("|")
            m = _JAMR_SPAN.match(span)
            if not sep or not m or int(m.group(1)) >= int(m.group(2)) or not nodes:
                raise InputError(f"{label}: ::alignments item {item!r}: expected start-end|path+path...")
            for path in re.split(r"[+|]", nodes):
                add(path, int(m.group(1)), int(m.group(2)), f"::alignments item {item!r}")
    return out


def _collect(structure: _Structure, fields: Sequence[str], label: str) -> dict[str, set[int]]:
    aligned: dict[str, set[int]] = {v: set(idx) for v, idx in structure.own.items() if idx}
    for var, idx in _jamr_alignments(structure, fields, label).items():
        aligned.setdefault(var, set()).update(idx)
    return aligned


def _check_range(alignments: Mapping[str, Iterable[int]], n_tokens: int, label: str) -> None:
    for var, idx in alignments.items():
        for i in idx:
            if i >= n_tokens:
                raise InputError(f"{label}: node {var} is aligned to token {i}, "
                                 f"but the sentence has {n_tokens} tokens (0 to {n_tokens - 1})")


def _tree_and_fields(source: str | penman.Tree | penman.Graph) -> tuple[penman.Tree, list[str], str]:
    if isinstance(source, penman.Tree):
        return source, _fields_of_metadata(source.metadata), _label("<tree>", source.metadata.get("id"))
    if isinstance(source, penman.Graph):
        return (penman.configure(source), _fields_of_metadata(source.metadata),
                _label("<graph>", source.metadata.get("id")))
    if not isinstance(source, str):
        raise InputError(f"expected PENMAN text, a penman.Tree or a penman.Graph, got {type(source).__name__}")
    comments = [line for line in source.splitlines() if line.lstrip().startswith("#")]
    try:
        trees = list(penman.iterparse(source))
    except penman.DecodeError as exc:
        raise DecodeError(f"malformed PENMAN: {exc.message}", source="<string>") from None
    if len(trees) != 1:
        raise DecodeError(f"expected exactly one graph, found {len(trees)}", source="<string>")
    fields = _metadata_fields(comments)
    gid = _field(fields, "id")
    return trees[0], fields, _label("<string>", gid[0] if gid else None)


def _label(where: str, gid: str | None) -> str:
    return f"{where} (id {gid})" if gid else where


def read_alignments(
    source: str | penman.Tree | penman.Graph, *, tokens: Sequence[str] | None = None
) -> dict[str, set[int]]:
    """Node-to-token alignments of one sentence graph.

    Args:
        source: PENMAN text of one graph (its ``#`` metadata lines included),
            or a :class:`penman.Tree` / :class:`penman.Graph` (metadata from
            its ``metadata``).
        tokens: the sentence's tokens, to check indices against (default:
            ``::tok``, else ``::snt``, split on spaces; no check without them).

    Returns:
        For each aligned variable, its 0-based token indices within the
        sentence (ISI markers, ``::node`` and ``::alignments`` lines joined).

    Raises:
        InputError: an index beyond the sentence's tokens, a JAMR path that is
            not in the graph, or a malformed JAMR line; the message names the
            graph (id) and the index, path or line.

    Example:
        >>> sorted(read_alignments('(v / visit-01~e.2 :ARG0~e.9 (p / person :name '
        ...                        '(n / name :op1 "Obama"~e.0)) :ARG1 p~e.5)').items())
        [('n', {0}), ('v', {2})]
        >>> read_alignments('# ::tok Barack Obama\\n# ::alignments 0-2|0+0.0+0.0.0\\n'
        ...                 '(p / person :name (n / name :op1 "Barack" :op2 "Obama"))')
        {'p': {0, 1}, 'n': {0, 1}}
    """
    tree, fields, label = _tree_and_fields(source)
    structure = _Structure(tree)
    aligned = _collect(structure, fields, label)
    toks = list(tokens) if tokens is not None else _tokens_of(fields)
    if toks is not None:
        _check_range(aligned, len(toks), label)
    return aligned


def node_spans(
    source: str | penman.Tree | penman.Graph, alignments: Mapping[str, Iterable[int]] | None = None
) -> dict[str, Span]:
    """The token span of every node: smallest span covering its tree's alignments.

    Args:
        source: one graph, as for :func:`read_alignments`.
        alignments: node-to-token alignments (default: read from ``source``).

    Returns:
        ``(start, end)`` (both inclusive) for every node that has an aligned
        token in its subtree; re-entrant references are not followed.

    Example:
        >>> sorted(node_spans('(v / visit-01~e.2 :ARG0 (p / person :name '
        ...                   '(n / name :op1 "Barack"~e.0 :op2 "Obama"~e.1)) :ARG1 p)').items())
        [('n', (0, 1)), ('p', (0, 1)), ('v', (0, 2))]
    """
    tree, fields, label = _tree_and_fields(source)
    structure = _Structure(tree)
    if alignments is None:
        alignments = _collect(structure, fields, label)
    return structure.spans(alignments)


# ====================================================================== aligned sentence graphs


@dataclass
class AlignedSentence:
    """A sentence graph with its tokens, alignments and node spans.

    Attributes:
        graph: the :class:`~amreval.graph.Graph` that conversion uses.
        tokens: ``::tok`` (else ``::snt``) split on spaces; ``None`` without both.
        alignments: variable -> aligned token indices.
        spans: variable -> ``(start, end)`` inclusive (nodes with aligned tokens below).
        heights: variable -> height in the tree (0 for a leaf).
        order: variable -> position in written (preorder) order.
        label: the graph's place (file, graph number, id) for messages.
    """

    graph: Graph
    tokens: list[str] | None
    alignments: dict[str, set[int]]
    spans: dict[str, Span]
    heights: dict[str, int]
    order: dict[str, int]
    label: str = "<string>"

    @classmethod
    def from_penman(cls, text: str, *, graph: Graph | None = None, label: str | None = None) -> AlignedSentence:
        """Build from the PENMAN text of one graph (metadata lines included).

        Example:
            >>> s = AlignedSentence.from_penman('# ::tok he slept\\n(s / sleep-01~e.1 :ARG0 (h / he~e.0))')
            >>> s.spans, s.node_for(0, 0), s.node_for(0, 1)
            ({'h': (0, 0), 's': (0, 1)}, 'h', 's')
        """
        tree, fields, default_label = _tree_and_fields(text)
        label = label or default_label
        if graph is None:
            graph = read_graphs(text, name=label)[0]
        structure = _Structure(tree)
        aligned = _collect(structure, fields, label)
        tokens = _tokens_of(fields)
        if tokens is not None:
            _check_range(aligned, len(tokens), label)
        return cls(graph, tokens, aligned, structure.spans(aligned), structure.height,
                   {v: k for k, v in enumerate(structure.order)}, label)

    def node_for(self, start: int, end: int, *, trim_unaligned: bool = True) -> str | None:
        """The node a mention ``[start, end]`` (inclusive, sentence tokens) maps to, or None.

        The node with the shortest span containing the mention; ties go to
        the greatest height, then to the first node in written order. With
        ``trim_unaligned``, tokens at the mention's edges aligned to no node
        are dropped first (a mention of unaligned tokens only maps to None).
        """
        if trim_unaligned:
            covered = self.aligned_tokens
            while start <= end and start not in covered:
                start += 1
            while end >= start and end not in covered:
                end -= 1
            if start > end:
                return None
        best: tuple[int, int, int] | None = None
        found = None
        for var, (s, e) in self.spans.items():
            if s <= start and end <= e:
                key = (e - s, -self.heights[var], self.order[var])
                if best is None or key < best:
                    best, found = key, var
        return found

    @property
    def aligned_tokens(self) -> set[int]:
        """Every token aligned to some node."""
        out: set[int] = set()
        for idx in self.alignments.values():
            out.update(idx)
        return out


def _split_blocks(text: str) -> list[tuple[str, int]]:
    """Blank-line separated blocks that hold a graph, with their 1-based first line."""
    return [(block.text, block.line) for block in _blocks(text)]


def _read_amr_text(source: PathLike | str) -> tuple[str, str]:
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "(" not in source and "\n" not in source):
        path = os.fspath(source)
        try:
            return Path(path).read_text(encoding="utf-8"), path
        except OSError as exc:
            raise InputError(f"{path}: cannot read the AMR file: {exc.strerror}") from None
    return source, "<string>"


def read_aligned_amrs(source: PathLike | str | Iterable[PathLike | str]) -> list[AlignedSentence]:
    """Read aligned sentence graphs from PENMAN files or text, in order.

    Args:
        source: a path, PENMAN text, or several of them (read one after the
            other). Blocks of comments without a graph (release headers) are
            skipped.

    Returns:
        One :class:`AlignedSentence` per graph.

    Raises:
        DecodeError: a malformed graph (file, graph number, id, line).
        InputError: a bad alignment (see :func:`read_alignments`).

    Example:
        >>> [s.graph.id for s in read_aligned_amrs("# ::id a\\n(x / y)\\n\\n# ::id b\\n(z / w~e.0)")]
        ['a', 'b']
    """
    sources = [source] if isinstance(source, (str, os.PathLike)) else list(source)
    out: list[AlignedSentence] = []
    for src in sources:
        text, name = _read_amr_text(src)
        graphs = read_graphs(text, name=name)
        blocks = _split_blocks(text)
        if len(blocks) != len(graphs):
            raise DecodeError(f"found {len(graphs)} graphs in {len(blocks)} blank-line separated blocks; "
                              "write one graph per block, with its metadata lines", source=name)
        for graph, (block, _) in zip(graphs, blocks):
            out.append(AlignedSentence.from_penman(block, graph=graph, label=graph.origin))
    return out


# ====================================================================== coreference documents


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
                if (not isinstance(span, (tuple, list)) or len(span) != 2
                        or not all(isinstance(x, int) and not isinstance(x, bool) for x in span)):
                    raise InputError(f"{self.where}, cluster {c}: span {span!r} is not a pair of token offsets")
                start, end = span
                if start < 0 or end < 0:
                    raise InputError(f"{self.where}, cluster {c}: span [{start}, {end}] has a negative offset")
                if start > end:
                    raise InputError(f"{self.where}, cluster {c}: span [{start}, {end}] starts after it ends")
                if end >= n:
                    raise InputError(f"{self.where}, cluster {c}: span [{start}, {end}] is beyond the document, "
                                     f"which has {n} tokens (0 to {n - 1})")


def _text_lines(source: PathLike | str | Iterable[str], looks_like_text: tuple[str, ...]) -> tuple[list[str], str]:
    if isinstance(source, os.PathLike) or (
        isinstance(source, str) and "\n" not in source and not source.lstrip().startswith(looks_like_text)
    ):
        path = os.fspath(source)
        try:
            return Path(path).read_text(encoding="utf-8").splitlines(), path
        except OSError as exc:
            raise InputError(f"{path}: cannot read the coreference file: {exc.strerror}") from None
    if isinstance(source, str):
        return source.splitlines(), "<string>"
    return [line.rstrip("\n") for line in source], getattr(source, "name", "<lines>")


def _is_token_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(t, str) for t in value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_coref_jsonlines(source: PathLike | str | Iterable[str]) -> list[CorefDocument]:
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
        source: a path, the text itself, or an iterable of lines.

    Raises:
        InputError: malformed JSON or a missing field (file and line), or a bad
            span (document, cluster and span).

    Example:
        >>> [d] = read_coref_jsonlines('{"doc_key": "D", "tokens": ["He", "ran", ".", "He", "fell", "."], '
        ...                            '"sentence_map": [0, 0, 0, 1, 1, 1], "clusters": [[[0, 0], [3, 3]]]}')
        >>> d.sentences, d.clusters
        ([['He', 'ran', '.'], ['He', 'fell', '.']], [[(0, 0), (3, 3)]])
    """
    lines, label = _text_lines(source, ("{",))
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
            raise InputError(f"{where}: document {doc_key} is over subword tokens (subtoken_map); "
                             "map its clusters to word offsets first")
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
            if (not isinstance(smap, list) or not all(_is_int(x) for x in smap) or len(smap) != len(tokens)
                    or any(b < a for a, b in zip(smap, smap[1:]))):
                raise InputError(f"{where}: document {doc_key}: 'sentence_map' must give a non-decreasing "
                                 f"sentence index for each of its {len(tokens)} tokens")
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
                    raise InputError(f"{where}: document {doc_key}, cluster {c}: span {span!r} "
                                     "is not [start, end] with integer offsets")
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


def read_coref_conll(source: PathLike | str | Iterable[str]) -> list[CorefDocument]:
    """Read coreference clusters in the CoNLL-2012 format (``*_conll`` files).

    A document runs from ``#begin document (<id>); part <n>`` to
    ``#end document``; its key is ``<id>_<n>`` (``<id>`` without a part).
    A token line has whitespace-separated columns: document id, part, word
    index, word, ..., and the coreference column last (``(3``, ``3)``,
    ``(3)``, ``-``, several joined by ``|``). A blank line ends a sentence;
    other ``#`` lines are comments. Clusters come in the order of their first
    mention, spans sorted.

    Args:
        source: a path, the text itself, or an iterable of lines.

    Raises:
        InputError: a malformed line, an unmatched bracket or a missing
            ``#end document``; the message names the file and line.

    Example:
        >>> text = '''#begin document (d); part 000
        ... d 0 0 Obama (0)
        ... d 0 1 slept -
        ...
        ... d 0 0 He (0)
        ... d 0 1 woke -
        ... #end document'''
        >>> [d] = read_coref_conll(text)
        >>> d.doc_key, d.sentences, d.clusters
        ('d_0', [['Obama', 'slept'], ['He', 'woke']], [[(0, 0), (2, 2)]])
    """
    lines, label = _text_lines(source, ("#",))
    docs: list[CorefDocument] = []
    current: dict | None = None

    def end_sentence() -> None:
        if current is not None and current["sentence"]:
            current["sentences"].append(current["sentence"])
            current["sentence"] = []

    for n, raw_line in enumerate(lines, 1):
        line = raw_line.strip()
        where = f"{label}, line {n}"
        if line.startswith("#begin document"):
            if current is not None:
                raise InputError(f"{where}: '#begin document' inside document {current['key']} "
                                 f"(begun on line {current['line']}) without '#end document'")
            m = _BEGIN.match(line)
            if not m or not m.group(1):
                raise InputError(f"{where}: expected '#begin document (<id>); part <n>'")
            key = m.group(1) if m.group(2) is None else f"{m.group(1)}_{int(m.group(2))}"
            current = {"key": key, "line": n, "sentences": [], "sentence": [], "open": {}, "spans": {},
                       "ntok": 0}
            continue
        if line.startswith("#end document"):
            if current is None:
                raise InputError(f"{where}: '#end document' without '#begin document'")
            end_sentence()
            if any(current["open"].values()):
                cid, (start_line, _) = next((c, s[-1]) for c, s in current["open"].items() if s)
                raise InputError(f"{label}, line {start_line}: document {current['key']}: mention of cluster "
                                 f"{cid} opened here is never closed")
            clusters = sorted((sorted(set(spans)) for spans in current["spans"].values()), key=lambda c: c[0])
            doc = CorefDocument(current["key"], current["sentences"], clusters, label, current["line"])
            doc.validate()
            docs.append(doc)
            current = None
            continue
        if not line:
            end_sentence()
            continue
        if line.startswith("#"):
            continue
        if current is None:
            raise InputError(f"{where}: a token line outside '#begin document' ... '#end document'")
        cols = line.split()
        if len(cols) < 5:
            raise InputError(f"{where}: expected at least 5 columns (document, part, word index, word, ..., "
                             f"coreference), found {len(cols)}")
        index = current["ntok"]
        current["ntok"] += 1
        current["sentence"].append(cols[3])
        tag = cols[-1]
        if tag == "-":
            continue
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
            raise InputError(f"{where}: malformed coreference column {tag!r}; expected (n, n), (n) or - "
                             "joined by |")
    if current is not None:
        raise InputError(f"{label}, line {current['line']}: document {current['key']} has no '#end document'")
    return docs


def read_coref(source: PathLike | str | Iterable[str], coref_format: str = "jsonlines") -> list[CorefDocument]:
    """Read a coreference file in one of :data:`COREF_FORMATS`.

    Raises:
        InputError: an unknown format (the message lists the known ones), or
            what the reader raises.
    """
    if coref_format == "jsonlines":
        return read_coref_jsonlines(source)
    if coref_format == "conll":
        return read_coref_conll(source)
    raise InputError(f"unknown coreference format {coref_format!r}; expected one of {', '.join(COREF_FORMATS)}")


# ====================================================================== mapping


@dataclass(frozen=True)
class MentionMapping:
    """What became of one mention.

    Attributes:
        cluster: the cluster's index in its document (0-based).
        span: ``(start, end)``, inclusive document-level token offsets.
        sentence: the sentence (0-based) holding the mention; ``None`` when
            it crosses a sentence boundary.
        variable: the node it maps to, or ``None``.
        status: ``chain`` (a member of a chain), ``same-sentence`` (left out:
            an earlier mention of its cluster in the same sentence is kept),
            ``within-sentence`` (its cluster's mapped mentions all lie in one
            sentence: no chain), ``no-node`` or ``crosses-sentences``
            (unmapped).
        text: the mention's words.
    """

    cluster: int
    span: Span
    sentence: int | None
    variable: str | None
    status: str
    text: str = ""


@dataclass
class MappingReport:
    """How the mentions of one document were mapped to nodes.

    Attributes:
        doc_key: the document.
        mentions: one :class:`MentionMapping` per mention, by cluster then span.
        chains: cluster index -> relation id of the chain it became.
    """

    doc_key: str
    mentions: list[MentionMapping] = field(default_factory=list)
    chains: dict[int, str] = field(default_factory=dict)

    @property
    def mapped(self) -> list[MentionMapping]:
        """Mentions that map to a node (whether or not they ended in a chain)."""
        return [m for m in self.mentions if m.variable is not None]

    @property
    def unmapped(self) -> list[MentionMapping]:
        """Mentions that map to no node."""
        return [m for m in self.mentions if m.variable is None]

    @property
    def n_clusters(self) -> int:
        return len({m.cluster for m in self.mentions})

    @property
    def within_sentence(self) -> list[int]:
        """Clusters left without a chain because their mapped mentions share one sentence."""
        return sorted({m.cluster for m in self.mentions if m.status == "within-sentence"})

    def summary(self) -> str:
        """One line: mentions, clusters, mapped, unmapped, chains."""
        return (f"document {self.doc_key}: {len(self.mentions)} mentions in {self.n_clusters} clusters, "
                f"{len(self.mapped)} mapped to nodes, {len(self.unmapped)} unmapped; {len(self.chains)} chains, "
                f"{len(self.within_sentence)} clusters within one sentence")


def _as_sentence(item: AlignedSentence | str) -> AlignedSentence:
    if isinstance(item, AlignedSentence):
        return item
    if isinstance(item, str):
        return AlignedSentence.from_penman(item)
    raise InputError(f"expected an AlignedSentence or PENMAN text, got {type(item).__name__}")


def chains_from_coref(
    doc: CorefDocument,
    sentence_graphs: Sequence[AlignedSentence | str],
    *,
    strict: bool = False,
    trim_unaligned: bool = True,
) -> tuple[MsAmrDocument, MappingReport]:
    """Map the clusters of a document onto its sentence graphs.

    Args:
        doc: the coreference document.
        sentence_graphs: one aligned graph per sentence of ``doc``, in order
            (:class:`AlignedSentence` or PENMAN text). A graph without
            ``::id`` gets ``<doc_key>.<k>`` (k 1-based), written into its
            metadata so that it can be looked up by that id.
        strict: raise on a mention that maps to no node or crosses a sentence
            boundary (default: warn and leave it out).
        trim_unaligned: drop unaligned tokens at a mention's edges before
            mapping (see the module docs).

    Returns:
        The identity chains as an :class:`~amreval.docamr.msamr.MsAmrDocument`
        (``rel-0``, ``rel-1`` ... in cluster order; mentions in token order)
        and the :class:`MappingReport`.

    Raises:
        InputError: a different number of sentences or of tokens in a
            sentence (names the document, the sentence and both counts), an
            alignment beyond a sentence, a bad span, duplicate sentence ids,
            or in strict mode an unmapped mention.

    Example:
        >>> doc = CorefDocument("D", [["Obama", "slept"], ["He", "woke"]], [[(0, 0), (2, 2)]])
        >>> ms, report = chains_from_coref(doc, ['(s / sleep-01~e.1 :ARG0 (p / person~e.0))',
        ...                                      '(w / wake-01~e.1 :ARG0 (h / he~e.0))'])
        >>> [(m.sentence_id, m.variable) for m in ms.chains[0].mentions], report.chains
        ([('D.1', 'p'), ('D.2', 'h')], {0: 'rel-0'})
    """
    doc.validate()
    sentences = [_as_sentence(s) for s in sentence_graphs]
    if len(sentences) != len(doc.sentences):
        raise InputError(f"{doc.where} has {len(doc.sentences)} sentences but {len(sentences)} AMR graphs were "
                         "given for it")
    ids: list[str] = []
    for k, (sent, words) in enumerate(zip(sentences, doc.sentences)):
        sid = sent.graph.id
        if not sid:
            sid = f"{doc.doc_key}.{k + 1}"
            sent.graph.metadata["id"] = sid
        if sid in ids:
            raise InputError(f"{doc.where}: sentences {ids.index(sid) + 1} and {k + 1} both have the id {sid}")
        ids.append(sid)
        if sent.tokens is not None and len(sent.tokens) != len(words):
            raise InputError(f"{doc.where}, sentence {k + 1} (id {sid}): the coreference file has {len(words)} "
                             f"tokens but the AMR graph {sent.label} has {len(sent.tokens)}")
        if sent.tokens is None:
            _check_range(sent.alignments, len(words), sent.label)
    offsets = doc.offsets
    tokens = doc.tokens
    report = MappingReport(doc.doc_key)
    ms = MsAmrDocument(doc.doc_key, ids, source=doc.source)
    for c, cluster in enumerate(doc.clusters):
        entries: list[MentionMapping] = []
        members: dict[int, MentionMapping] = {}
        for start, end in sorted(set(cluster)):
            text = " ".join(tokens[start:end + 1])
            # the last sentence starting at or before the mention (so never an empty one)
            k = bisect.bisect_right(offsets, start) - 1
            if end >= offsets[k] + len(doc.sentences[k]):
                entry = MentionMapping(c, (start, end), None, None, "crosses-sentences", text)
                _unmapped(doc, entry, f"crosses the boundary after sentence {k + 1} ({ids[k]})", strict)
                entries.append(entry)
                continue
            var = sentences[k].node_for(start - offsets[k], end - offsets[k], trim_unaligned=trim_unaligned)
            if var is None:
                entry = MentionMapping(c, (start, end), k, None, "no-node", text)
                _unmapped(doc, entry, f"maps to no node of sentence {k + 1} ({ids[k]})", strict)
                entries.append(entry)
                continue
            if k in members:
                entries.append(MentionMapping(c, (start, end), k, var, "same-sentence", text))
                continue
            entry = MentionMapping(c, (start, end), k, var, "chain", text)
            members[k] = entry
            entries.append(entry)
        if len(members) >= 2:
            rid = f"rel-{len(report.chains)}"
            report.chains[c] = rid
            ms.chains.append(Chain(rid, [
                Mention(ids[k], m.variable, sentences[k].graph.instances.get(m.variable, ""), m.text)  # type: ignore[arg-type]
                for k, m in sorted(members.items())
            ]))
        else:
            entries = [MentionMapping(e.cluster, e.span, e.sentence, e.variable, "within-sentence", e.text)
                       if e.variable is not None else e for e in entries]
        report.mentions.extend(entries)
    return ms, report


def _unmapped(doc: CorefDocument, entry: MentionMapping, why: str, strict: bool) -> None:
    msg = f"{doc.where}, cluster {entry.cluster}: mention [{entry.span[0]}, {entry.span[1]}] {entry.text!r} {why}"
    if strict:
        raise InputError(msg)
    _warn(msg + "; left out")


def map_text_coref(
    amr_source: PathLike | str | Iterable[PathLike | str],
    coref_source: PathLike | str | Iterable[str],
    *,
    coref_format: str = "jsonlines",
    strict: bool = False,
    trim_unaligned: bool = True,
) -> list[tuple[MsAmrDocument, dict[str, Graph], MappingReport]]:
    """Map a coreference file onto aligned sentence AMRs, document by document.

    The k-th document of the coreference file takes the next
    ``len(sentences)`` graphs of the AMR source; every graph must be used.

    Returns:
        For each document: its chains, its sentence graphs by id (ready for
        :func:`~amreval.docamr.convert.convert_document`) and its report.

    Raises:
        InputError: too few or too many graphs, and what
            :func:`chains_from_coref` and the readers raise.
    """
    sentences = read_aligned_amrs(amr_source)
    docs = read_coref(coref_source, coref_format)
    out: list[tuple[MsAmrDocument, dict[str, Graph], MappingReport]] = []
    used = 0
    for doc in docs:
        need = len(doc.sentences)
        if used + need > len(sentences):
            raise InputError(f"{doc.where} needs {need} sentence graphs, but only {len(sentences) - used} of the "
                             f"{len(sentences)} AMR graphs are left (graphs are taken in order, document by document)")
        mine = sentences[used:used + need]
        used += need
        ms, report = chains_from_coref(doc, mine, strict=strict, trim_unaligned=trim_unaligned)
        out.append((ms, {s.graph.id: s.graph for s in mine if s.graph.id}, report))  # type: ignore[misc]
    if used != len(sentences):
        raise InputError(f"the coreference file's {len(docs)} documents have {used} sentences, but there are "
                         f"{len(sentences)} AMR graphs")
    return out


def text_coref_to_docamr(
    amr_source: PathLike | str | Iterable[PathLike | str],
    coref_source: PathLike | str | Iterable[str],
    *,
    coref_format: str = "jsonlines",
    rep: str = "docamr",
    strict: bool = False,
    trim_unaligned: bool = True,
    reports: list[MappingReport] | None = None,
    progress: bool | None = None,
) -> list[Graph]:
    """DocAMR graphs from aligned sentence AMRs plus a text coreference file.

    Args:
        amr_source: PENMAN with alignments (a path, the text, or several paths),
            the graphs of all documents in order.
        coref_source: the coreference file (a path, the text, or lines).
        coref_format: ``jsonlines`` (default) or ``conll``.
        rep: ``docamr`` (default), ``no-merge``, ``merge-names`` or ``merge-all``.
        strict: raise on an unmapped mention (default: warn and leave it out).
        trim_unaligned: see :func:`chains_from_coref`.
        reports: if given, the :class:`MappingReport` of each document is
            appended to it.
        progress: progress bar over documents (default: on a terminal only).

    Returns:
        One document graph per coreference document (see
        :func:`~amreval.docamr.convert.convert_document`).

    Raises:
        InputError: see :func:`map_text_coref`; an unknown representation.
    """
    rep = check_representation(rep)
    out = []
    mapped = map_text_coref(amr_source, coref_source, coref_format=coref_format, strict=strict,
                            trim_unaligned=trim_unaligned)
    for ms, amrs, report in progress_bar(mapped, enable=progress, desc="converting", unit="doc"):
        out.append(convert_document(ms, amrs, rep, strict=strict))
        if reports is not None:
            reports.append(report)
    return out
