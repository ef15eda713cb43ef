"""The document model: sentence numbering, the sentence join and sentence groups.

One rule numbers the sentences of a document, in the converter and in the
scorer alike: **the sentence at position k of the document (from 1) is
``:sntk``, and its variables are renamed ``s<k>.<var>``. A sentence that is
empty or missing keeps its number and adds nothing**, so sentence k of a
prediction is always compared with sentence k of the gold document, whatever
is missing on either side.

A document graph has ``:snt1 ... :sntN`` edges from its top node to the
sentence roots (an edge written inverted, ``:snt2-of d`` under a node that an
earlier sentence introduced, is the same edge). A node belongs to sentence k when it is reachable from the
root of sentence k, following each edge, stored as (role, source, target):

* source -> target, for every edge except ``coref`` edges and ``domain``
  edges written as ``:mod`` or ``:domain-of`` (one relation, spelt two ways: the
  reference stores both alike and does not follow either from the modifier);
* target -> source, for every edge written inverted (``:X-of``, ``:mod``)
  and for every ``coref``, ``part`` and ``subset`` edge however written.

A node can belong to several sentences; the top node alone forms group 0.

Example:
    >>> from amreval.amr.read import loads_graph
    >>> g = join_sentences([loads_graph("(b / boy)"), Graph.empty(), loads_graph("(g / go-02 :ARG0 (x / y))")])
    >>> print(g.to_string(indent=None))
    (d / document :snt1 (s1.b / boy) :snt3 (s3.g / go-02 :ARG0 (s3.x / y)))
    >>> sentence_groups(g).astype(int).tolist()
    [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 0, 1]]
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

import numpy as np

from amreval._warn import warn_caller
from amreval.amr.graph import Attribute, Edge, Graph
from amreval.amr.read import UnreadableGraph, as_graph
from amreval.errors import InputError, numbered

__all__ = [
    "numbered_sentences",
    "join_sentences",
    "document_graph",
    "sentence_roots",
    "sentence_membership",
    "sentence_groups",
    "DOCUMENT_TOP",
]

#: The variable and concept of the document node.
DOCUMENT_TOP = ("d", "document")

#: :func:`sentence_groups` draws at most this many sentence columns.
MAX_SENTENCE_COLUMNS = 100_000

_SNT = re.compile(r"^snt(\d+)$", re.IGNORECASE)
_REVERSE_ALWAYS = frozenset({"coref", "part", "subset"})
#: The spellings of a ``domain`` edge written from the node it modifies: not followed to that node.
_MODIFIER_WRITTEN = frozenset({"mod", "domain-of"})


def numbered_sentences(sentences: Sequence[Graph | None]) -> Iterator[tuple[int, Graph, dict[str, str]]]:
    """The numbering rule: ``(k, graph, renames)`` for each non-empty sentence at position k (from 1).

    An empty or missing (``None``) sentence yields nothing but keeps its
    number, so the sentences after it keep theirs.

    Example:
        >>> from amreval.amr.read import loads_graph
        >>> [(k, r) for k, _, r in numbered_sentences([None, loads_graph("(x / y)")])]
        [(2, {'x': 's2.x'})]
    """
    for k, g in enumerate(sentences, start=1):
        if g is None or g.is_empty():
            continue
        yield k, g, {v: f"s{k}.{v}" for v in g.instances}


def join_sentences(sentences: Sequence[Graph | None], doc_id: str | None = None) -> Graph:
    """Join sentence graphs under a ``document`` node, without coreference.

    Sentences are numbered by :func:`numbered_sentences`; edges keep the
    direction in which they were written.
    """
    top, concept = DOCUMENT_TOP
    doc = Graph(top=top, instances={top: concept}, origin="<joined sentences>")
    if doc_id is not None:
        doc.metadata["id"] = doc_id
    for k, g, name in numbered_sentences(sentences):
        doc.instances.update((name[v], c) for v, c in g.instances.items())
        doc.edges.append(Edge(top, f"snt{k}", name[g.top], f"snt{k}"))  # type: ignore[index]
        doc.edges.extend(Edge(name[e.source], e.role, name[e.target], e.written) for e in g.edges)
        doc.attributes.extend(Attribute(name[a.source], a.role, a.value) for a in g.attributes)
    return doc


def document_graph(
    doc: object, what: str = "document", index: int | None = None, *, errors: list[InputError] | None = None
) -> Graph:
    """A document graph from a DocAMR PENMAN string, a :class:`Graph`, or a list of
    sentence graphs or PENMAN strings (joined by :func:`join_sentences`).

    An empty string in a list is an empty sentence (it keeps its number), with a warning.

    Args:
        doc: the document.
        what, index: how messages name it: ``what`` and the 0-based ``index`` of the list it was given
            in, printed from 1 (``"prediction", 0`` is ``prediction #1``; ``index=None``: ``what`` alone);
            the sentences of a list are numbered from 1 too (``prediction #1, sentence #2``).
        errors: read leniently (see :func:`~amreval.amr.read.as_graph`): a
            document, or a sentence of a list, that cannot be read is empty and
            its error is appended here.

    Raises:
        InputError: an empty list or string, or an entry of the wrong type
            (the message names ``what`` and ``index``).
        DecodeError: a PENMAN string is malformed (the message names the
            document and the sentence).
    """
    if isinstance(doc, (Graph, str)):
        graph = as_graph(doc, what, index, errors=errors)
        try:
            roots = sentence_roots(graph)
        except InputError as exc:
            if errors is None:
                raise
            errors.append(exc)  # read leniently: scored as an empty document, as one that cannot be read
            return UnreadableGraph.of(exc, graph.origin)
        _warn_sentence_edges(graph, sorted(roots), what, index)
        return graph
    if isinstance(doc, (list, tuple)):
        if not doc:
            raise InputError(
                f"{numbered(what, index)}: empty list; expected a DocAMR string or a non-empty list of sentence graphs"
            )
        sentences = []
        sentence = f"{numbered(what, index)}, sentence"  # ``prediction #1, sentence #2``
        for k, s in enumerate(doc):
            if isinstance(s, str) and not s.strip():
                warn_caller(f"{numbered(sentence, k)}: empty string; scored as an empty graph")
                sentences.append(Graph.empty())
            else:
                sentences.append(as_graph(s, sentence, k, errors=errors))
        return join_sentences(sentences)
    got = type(doc).__name__
    raise InputError(
        f"{numbered(what, index)}: expected a DocAMR string, a Graph or a list of sentence graphs, got {got}"
    )


def _warn_sentence_edges(graph: Graph, numbers: list[int], what: str, index: int | None) -> None:
    """Warn about gaps in the sentence ``numbers`` (ascending, :func:`sentence_roots`) and ``:sntN`` edges to
    constants (one warning per document)."""
    top = graph.top
    problems = []
    constants = [f":{a.role} {a.value}" for a in graph.attributes if a.source == top and _SNT.match(a.role)]
    if constants:
        problems.append(f"{', '.join(constants)} point to constants, not sentences (they are not scored as sentences)")
    present = numbers
    if present and present[-1] > len(present):
        gaps: list[int] = []  # the first few missing numbers, without counting up to the largest
        for before, k in zip([0, *present], present):
            gaps.extend(range(before + 1, min(k, before + 7)))
            if len(gaps) > 5:
                break
        shown = ", ".join(f":snt{k}" for k in gaps[:5]) + (", ..." if present[-1] - len(present) > 5 else "")
        problems.append(f"no {shown} below :snt{present[-1]} (counted as empty sentences)")
    if problems:
        warn_caller(f"{numbered(what, index)}: " + "; ".join(problems))


def sentence_roots(graph: Graph) -> dict[int, str]:
    """The root of each sentence of a document graph, by its number (none: not a document graph).

    Raises:
        InputError: an ``:snt0`` edge, or two ``:sntK`` edges with the same K.
    """
    top = graph.top
    roots: dict[int, str] = {}
    for e in graph.edges:
        if e.source == top:  # written from the top or, inverted, from the sentence's root (``:snt2-of d``)
            m = _SNT.match(e.role)
            if m:
                k = int(m.group(1))
                if k == 0 or k in roots:
                    problem = "sentences are numbered from :snt1" if k == 0 else f"two :snt{k} edges"
                    raise InputError(f"{graph.origin}: {problem}; expected :snt1 ... :sntN, each once")
                roots[k] = e.target
    return roots


def sentence_membership(graph: Graph, variables: Sequence[str] | None = None) -> list[tuple[int, ...]] | None:
    """The sentence numbers each node belongs to, sorted (the top node: ``(0,)``; a node in no sentence: ``()``).

    Args:
        graph: a document graph.
        variables: the node order (default: ``graph.instances`` order).

    Raises:
        InputError: an ``:snt0`` edge, or two ``:sntK`` edges with the same K.

    Returns:
        ``None`` when the graph has no ``:sntK`` edge from its top. Its size
        grows with the nodes and their sentences, never with the numbers
        themselves (``:snt2000000000`` costs what ``:snt2`` costs).

    Example:
        >>> from amreval.amr.read import loads_graph
        >>> g = loads_graph("(d / document :snt1 (a / go-02 :ARG0 (b / boy)) :snt7 (c / sleep-01 :ARG0 b))")
        >>> sentence_membership(g)
        [(0,), (1,), (1, 7), (7,)]
    """
    top = graph.top
    roots = sentence_roots(graph)
    if not roots:
        return None
    order = list(variables) if variables is not None else list(graph.instances)
    index = {v: k for k, v in enumerate(order)}
    adj: dict[str, list[str]] = {}
    for e in graph.edges:
        role = e.role.lower()
        if e.source == top and _SNT.match(role):
            continue
        # ``:mod`` and ``:domain-of`` are one relation, stored alike (a ``domain`` edge from the modifier
        # to the node it was written under), and like the reference neither is followed from the modifier
        forward = role != "coref" and not (e.inverted and e.written.lower() in _MODIFIER_WRITTEN)
        backward = e.inverted or role in _REVERSE_ALWAYS
        if forward:
            adj.setdefault(e.source, []).append(e.target)
        if backward:
            adj.setdefault(e.target, []).append(e.source)
    member: list[list[int]] = [[] for _ in order]
    if top in index:
        member[index[top]].append(0)
    for k in sorted(roots):
        root = roots[k]
        seen = {root}
        stack = [root]
        while stack:
            node = stack.pop()
            if node in index:
                member[index[node]].append(k)
            for nxt in adj.get(node, ()):
                if nxt not in seen and nxt != top:
                    seen.add(nxt)
                    stack.append(nxt)
    return [tuple(m) for m in member]


def sentence_groups(graph: Graph, variables: Sequence[str] | None = None) -> np.ndarray | None:
    """The sentences each node belongs to, as a boolean matrix (for pictures and tests).

    Column 0 is the top node alone, column k sentence k; a node reached from
    no sentence has an all-False row. The scores use the compact
    :func:`sentence_membership`; this matrix has a column for every number up
    to the largest, so a graph whose numbers run far beyond its sentences is
    refused.

    Raises:
        InputError: as :func:`sentence_membership`, or sentence numbers beyond
            :data:`MAX_SENTENCE_COLUMNS`.
    """
    member = sentence_membership(graph, variables)
    if member is None:
        return None
    last = max((k for m in member for k in m), default=0)
    if last > MAX_SENTENCE_COLUMNS:
        raise InputError(
            f"{graph.origin}: :snt{last} is beyond the {MAX_SENTENCE_COLUMNS} sentences a picture can show; "
            "number the sentences :snt1 ... :sntN"
        )
    groups = np.zeros((len(member), last + 1), dtype=bool)
    for row, ks in enumerate(member):
        groups[row, list(ks)] = True
    return groups
