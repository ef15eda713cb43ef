"""Node-to-token alignments of sentence AMRs and the token span of every node.

A sentence-level AMR parser gives graphs whose nodes are aligned to tokens.
This module reads those alignments and derives what mapping text mentions
onto nodes needs (see :mod:`amreval.docamr.textcoref`):

* **Node spans.** The span of a node is the smallest token span covering
  every token aligned to the node or to one of its descendants. Descendants
  are those of the PENMAN tree: a re-entrant reference (a bare variable) is
  no child, so each node is counted under the occurrence that carries its
  concept (the first one in the written graph) and there are no loops.
* **Heights and written order**, which break ties between nodes with the
  same span (:meth:`AlignedSentence.node_for`).

Alignments are read from these notations, and their union is used:

* ISI markers in the graph: ``(b / boy~e.2)``; a marker on a constant
  (``:op1 "Obama"~e.1``) aligns the node holding the constant; markers on
  roles (``:ARG0~e.1``) and on re-entrant references (``:ARG0 b~e.7``) are
  ignored (the latter mark a second mention, which would stretch the node's
  span over the words between);
* JAMR node lines ``# ::node<TAB>0.1<TAB>city<TAB>3-4``;
* IBM node lines, as IBM's transition parser (StructBART, the DocAMR paper's
  parser) writes them with ``--jamr``: ``# ::node<TAB>p<TAB>person<TAB>0-1``
  names the node by its variable; see below;
* JAMR alignment lines ``# ::alignments 3-4|0.1 0-2|0.0+0.0.0`` (span end
  exclusive; nodes separated by ``+`` or ``|``; items starting with ``*`` are
  hand coreference alignments and skipped; a line without any ``|`` item is
  ISI's own metadata format and skipped, the graph's markers carry it).

JAMR node paths follow JAMR's documentation: the root is ``0`` and the k-th
child (0-based, written order) of ``p`` is ``p.k``, where children are new
nodes *and constants* (``:month 11`` is a child) but not re-entrant
references. A path that names a constant aligns the node holding it.

IBM's lines name nodes by id: a concept node by its variable, a constant by a
number of its own (``0``, ``1``, ...), which only the edge lines tie to the
graph::

    # ::node<TAB>p<TAB>person<TAB>0-2          id, concept, span (end exclusive; may be absent)
    # ::node<TAB>0<TAB>"Obama"<TAB>1-2         a constant: aligns the node holding it
    # ::root<TAB>s<TAB>say-01                  id, concept
    # ::edge<TAB>name<TAB>op1<TAB>"Obama"<TAB>n<TAB>0
                                               source concept, role, target concept, source id, target id

A constant's id is looked up among the target ids of the ``::edge`` lines;
their source ids are the nodes that hold it. Which notation a graph's
``::node`` lines use is told by their ids and the ``::root`` id: JAMR paths
are digits and dots (``0``, ``0.1.2``), so when every such id is one, they
are JAMR paths; when any is not (a variable), all are IBM ids. In both
notations the concept column must agree with the graph.

Tokens are ``# ::tok`` split on spaces, else ``# ::snt`` split on spaces; an
alignment to a token beyond them is an error.

Sources follow the rule of :mod:`amreval.amr.read`: :func:`read_aligned_amrs`
reads **files** (a path, an open text file, or a list of them; a string is
always a path), :func:`loads_aligned_amrs` reads PENMAN **text**.
:func:`read_alignments`, :func:`node_spans` and
:meth:`AlignedSentence.from_penman` take one graph (its PENMAN text, or a
:class:`penman.Tree` / :class:`penman.Graph`), never a file.

Example:
    >>> [s] = loads_aligned_amrs('''# ::tok Barack Obama visited Paris .
    ... (v / visit-01~e.2 :ARG0 (p / person :name (n / name :op1 "Barack"~e.0 :op2 "Obama"~e.1))
    ...    :ARG1 (c / city :name (n2 / name :op1 "Paris"~e.3)))''')
    >>> s.spans["p"], s.node_for(0, 1), s.node_for(3, 3)
    ((0, 1), 'p', 'c')
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from amreval.amr.graph import Graph
from amreval.amr.parse import nesting_depth, split_blocks
from amreval.amr.read import FileSource, loads_graphs, read_text
from amreval.errors import DecodeError, InputError, plural

if TYPE_CHECKING:
    import penman

__all__ = [
    "AlignedSentence",
    "Span",
    "loads_aligned_amrs",
    "node_spans",
    "read_aligned_amrs",
    "read_alignments",
]

#: A token span ``(start, end)``, both inclusive.
Span = tuple[int, int]

# an ISI marker at the end of a concept, constant or role: ~e.3, ~e.3,4, ~3
_MARKER = re.compile(r"~[A-Za-z]*\.?\d+(?:,\d+)*$")
_PATH = re.compile(r"^\d+(?:\.\d+)*$")
_JAMR_SPAN = re.compile(r"^(\d+)-(\d+)$")


# ====================================================================== alignments


def _split_marker(text: str) -> tuple[str, tuple[int, ...]]:
    """``'"Obama"~e.1'`` -> ``('"Obama"', (1,))``; no marker -> ``(text, ())``."""
    m = _MARKER.search(text)
    if not m:
        return text, ()
    from penman.surface import Alignment

    return text[: m.start()], Alignment.from_string(m.group()).indices


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


def _columns(rest: str) -> list[str]:
    """The tab-separated columns of a metadata line (space-separated when it has no tab), trailing blanks dropped."""
    parts = rest.strip("\n").split("\t") if "\t" in rest else rest.split()
    parts = [p.strip() for p in parts]
    while parts and not parts[-1]:
        parts.pop()
    return parts


def _ids_are_variables(fields: Sequence[str]) -> bool:
    """True when the ``::node`` and ``::root`` lines name nodes by IBM ids rather than JAMR paths."""
    ids = [_columns(rest) for rest in _field(fields, "node") + _field(fields, "root")]
    return any(parts and not _PATH.match(parts[0]) for parts in ids)


class _IbmIds:
    """Resolves IBM node ids: a variable of the graph, or a constant's id through the ``::edge`` lines."""

    def __init__(self, structure: _Structure, fields: Sequence[str], label: str) -> None:
        self.structure = structure
        self.holders: dict[str, list[str]] = {}
        for rest in _field(fields, "edge"):
            parts = _columns(rest)
            if len(parts) < 5:
                raise InputError(
                    f"{label}: ::edge {' '.join(parts)}: expected ::edge<TAB>source concept<TAB>role"
                    "<TAB>target concept<TAB>source id<TAB>target id"
                )
            self.holders.setdefault(parts[4], []).append(parts[3])

    def resolve(self, node_id: str, concept: str | None, what: str, label: str) -> list[str]:
        """The variables a ``::node`` id aligns (the node itself, or the holders of a constant)."""
        s = self.structure
        if node_id in s.concept:
            if concept is not None and _unquote(concept).lower() != _unquote(s.concept[node_id]).lower():
                raise InputError(
                    f"{label}: {what}: node {node_id} is {concept!r} in the ::node line "
                    f"but {s.concept[node_id]!r} in the graph"
                )
            return [node_id]
        holders = self.holders.get(node_id)
        if not holders:
            raise InputError(
                f"{label}: {what}: {node_id!r} is neither a variable of the graph nor a constant id "
                "that an ::edge line leads to (the graph's ids are read as IBM ids: not all are JAMR paths)"
            )
        for holder in holders:
            if holder not in s.concept:
                raise InputError(f"{label}: {what}: an ::edge line leads to {node_id} from {holder!r}, no variable")
            values = {_unquote(c).lower() for _, c in s.jamr[holder] if c is not None}
            if concept is not None and _unquote(concept).lower() not in values:
                raise InputError(
                    f"{label}: {what}: constant {node_id} is {concept!r} in the ::node line, "
                    f"but node {holder} holds no such constant"
                )
        return list(dict.fromkeys(holders))


def _jamr_alignments(structure: _Structure, fields: Sequence[str], label: str) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {}
    ibm = _IbmIds(structure, fields, label) if _ids_are_variables(fields) else None

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
                raise InputError(
                    f"{label}: {what}: node {path} is {concept!r} in the ::node line but {actual!r} in the graph"
                )
        out.setdefault(var, set()).update(range(start, end))

    for rest in _field(fields, "node"):
        parts = _columns(rest)
        what = "::node " + " ".join(parts)
        if len(parts) < 2:
            raise InputError(f"{label}: {what}: expected ::node<TAB>path or id<TAB>concept<TAB>start-end")
        if len(parts) < 3:
            continue  # unaligned node
        m = _JAMR_SPAN.match(parts[2])
        if not m or int(m.group(1)) >= int(m.group(2)):
            raise InputError(f"{label}: {what}: expected a token span start-end with start < end")
        if ibm is None:
            add(parts[0], int(m.group(1)), int(m.group(2)), what, parts[1])
        else:
            for var in ibm.resolve(parts[0], parts[1], what, label):
                out.setdefault(var, set()).update(range(int(m.group(1)), int(m.group(2))))
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
                raise InputError(
                    f"{label}: node {var} is aligned to token {i}, "
                    f"but the sentence has {n_tokens} tokens (0 to {n_tokens - 1})"
                )


def _tree_and_fields(source: str | penman.Tree | penman.Graph) -> tuple[penman.Tree, list[str], str]:
    import penman  # loaded when alignments are read, not with the package

    if isinstance(source, penman.Tree):
        return source, _fields_of_metadata(source.metadata), _label("<tree>", source.metadata.get("id"))
    if isinstance(source, penman.Graph):
        return (
            penman.configure(source),
            _fields_of_metadata(source.metadata),
            _label("<graph>", source.metadata.get("id")),
        )
    if not isinstance(source, str):
        raise InputError(f"expected PENMAN text, a penman.Tree or a penman.Graph, got {type(source).__name__}")
    comments = [line for line in source.splitlines() if line.lstrip().startswith("#")]
    try:
        trees = list(penman.iterparse(source))
    except RecursionError:
        raise DecodeError(
            f"a graph nested {nesting_depth(source)} levels deep is too deep to read its alignments; "
            "alignments are read from graphs up to a few hundred levels deep",
            source="<string>",
        ) from None
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
        InputError: an index beyond the sentence's tokens, a JAMR path or an
            IBM id that is not in the graph, a concept that disagrees with the
            graph, or a malformed line; the message names the graph (id) and
            the index, path or line.

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
        graph: the :class:`~amreval.amr.graph.Graph` that conversion uses.
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
            graph = loads_graphs(text, name=label)[0]
        structure = _Structure(tree)
        aligned = _collect(structure, fields, label)
        tokens = _tokens_of(fields)
        if tokens is not None:
            _check_range(aligned, len(tokens), label)
        return cls(
            graph,
            tokens,
            aligned,
            structure.spans(aligned),
            structure.height,
            {v: k for k, v in enumerate(structure.order)},
            label,
        )

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

    def check_range(self, n_tokens: int) -> None:
        """Check that every alignment lies within a sentence of ``n_tokens`` tokens.

        Raises:
            InputError: naming the graph, the node and the index.

        Example:
            >>> AlignedSentence.from_penman('(s / sleep-01~e.1 :ARG0 (h / he~e.0))').check_range(1)
            Traceback (most recent call last):
            ...
            amreval.errors.InputError: <string>: node s is aligned to token 1, but the sentence has 1 tokens (0 to 0)
        """
        _check_range(self.alignments, n_tokens, self.label)


def _aligned_from_text(text: str, name: str) -> list[AlignedSentence]:
    graphs = loads_graphs(text, name=name)
    blocks = list(split_blocks(text))
    if len(blocks) != len(graphs):
        raise DecodeError(
            f"found {plural(len(graphs), 'graph')} in {len(blocks)} blank-line separated blocks; "
            "write one graph per block, with its metadata lines",
            source=name,
        )
    return [
        AlignedSentence.from_penman(block.text, graph=graph, label=graph.origin) for graph, block in zip(graphs, blocks)
    ]


def read_aligned_amrs(source: FileSource | Iterable[FileSource]) -> list[AlignedSentence]:
    """Read aligned sentence graphs from PENMAN files, in order.

    Args:
        source: a file (a path or an open text file; a string is always a
            path, never PENMAN text: see :func:`loads_aligned_amrs`), or a
            list of files read one after the other. Blocks of comments
            without a graph (release headers) are skipped.

    Returns:
        One :class:`AlignedSentence` per graph.

    Raises:
        InputError: no such file, a folder, or a bad alignment (see
            :func:`read_alignments`).
        DecodeError: a file that is not UTF-8 text, or a malformed graph
            (file, graph number, id, line).

    Example:
        >>> import io
        >>> [s.graph.id for s in read_aligned_amrs(io.StringIO("# ::id a\\n(x / y)\\n\\n# ::id b\\n(z / w~e.0)"))]
        ['a', 'b']
    """
    if isinstance(source, (str, os.PathLike)) or hasattr(source, "read"):
        sources: list[FileSource] = [source]  # type: ignore[list-item]
    elif isinstance(source, (bytes, bytearray)):
        raise InputError(
            "expected a file path, an open text file or a list of them, got bytes "
            "(PENMAN text goes to loads_aligned_amrs)"
        )
    else:
        sources = list(source)  # type: ignore[arg-type]
    out: list[AlignedSentence] = []
    for src in sources:
        text, name = read_text(src, what="file of aligned PENMAN graphs")
        out.extend(_aligned_from_text(text, name))
    return out


def loads_aligned_amrs(text: str, *, name: str = "<string>") -> list[AlignedSentence]:
    """Read aligned sentence graphs from PENMAN text (never a file name: see :func:`read_aligned_amrs`).

    Args:
        text: PENMAN text, graphs separated by blank lines, each with its
            metadata lines.
        name: what to call the text in messages.

    Raises:
        InputError: a bad alignment (see :func:`read_alignments`).
        DecodeError: a malformed graph (graph number, id, line), or ``text``
            is not a string.

    Example:
        >>> [s.graph.id for s in loads_aligned_amrs("# ::id a\\n(x / y)\\n\\n# ::id b\\n(z / w~e.0)")]
        ['a', 'b']
    """
    if not isinstance(text, str):
        raise DecodeError(
            f"expected PENMAN text, got {type(text).__name__} (files go to read_aligned_amrs)", source=name
        )
    return _aligned_from_text(text, name)
