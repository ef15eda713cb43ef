"""The coreference sub-score of DocSmatch (Naseem et al. 2022).

Each document graph is read on its own for its coreference items:

* **coref nodes**: nodes whose concept is ``coref-entity`` or ``implicit-role``;
* **merged nodes**: nodes in more than one sentence with at least two
  incoming edges (as written; ``:coref``, ``:part`` and ``:subset`` edges
  do not count) from parents whose sentence set differs from the node's,
  those parents not all sharing one sentence set: entities merged across
  sentences. Their instance triples are not coref items;
* **coref edges**: every relation triple whose (canonical) target is a coref
  node or a merged node, every ``:coref`` triple, and every ``:part`` /
  ``:subset`` triple whose ends have different sentence sets.

These are the reference implementation's rules, kept as they are so that the
sub-score is the published one: merged nodes are found by written parents,
coref edges by canonical targets (an ``:ARG0-of`` written under a merged
node is an edge into it, not out of it), and a ``:sntK`` edge to a merged
sentence root is a coref edge.

Under the overall DocSmatch mapping, a gold coref node is matched when the
predicted node mapped to it has the same concept (so it is a predicted coref
node too); a gold coref edge is matched when the mapped predicted triple
exists with the same role and is a predicted coref edge. Counts split into
*bridging* (``part`` and ``subset`` edges), *named entity* (coref nodes with
a ``:name`` or a ``:coref`` edge to a named node, the coref edges into a
named node or such a coref node, and the ``:coref`` edges of such a coref
node: the named-entity chains) and *other*;
the total is their sum, with the matches of a gold item by a predicted item of another category
(a chain named on one side only) counted in the total alone: filed under either side's category they
could push that category's precision or recall above 1.0. (The reference splits only coref nodes with a
``:name`` off as named entity, which DocAMR's merged named entities never
are; it prints only the total, which is the same here.) The non-coref
remainder is the overall count minus the coref count, where a matched
relation that is a coref edge on one side only (a gold edge into a merged
node matched by a predicted edge into an unmerged one, say) counts in
neither part: taken from the overall match alone it could push the
remainder above 1.0.

Example:
    >>> from amreval.amr.read import loads_graph
    >>> from amreval.match.triples import graph_triples
    >>> from amreval.docamr.document import sentence_groups
    >>> g = loads_graph("(d / document :snt1 (a / go-02 :ARG0 (c / coref-entity))"
    ...                " :snt2 (b / sleep-01 :ARG0 c))")
    >>> t = graph_triples(g)
    >>> items = coref_items(g, t, sentence_groups(g, t.variables))
    >>> items.nodes.tolist(), [t.relations[k] for k in items.edges.nonzero()[0]]
    ([False, False, True, False], [('arg0', 1, 2), ('arg0', 3, 2)])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from amreval.amr.graph import Graph
from amreval.match.diff import TripleDiff
from amreval.match.triples import Triples

__all__ = [
    "COREF_CONCEPTS",
    "BRIDGING_ROLES",
    "CATEGORIES",
    "CorefItems",
    "CorefCounts",
    "coref_items",
    "count_coref",
]

#: Concepts that make a node a coreference node.
COREF_CONCEPTS = frozenset({"coref-entity", "implicit-role"})
#: Roles of bridging edges.
BRIDGING_ROLES = frozenset({"part", "subset"})
_NOT_PARENTS = frozenset({"coref", "part", "subset"})
CATEGORIES = ("named_entity", "bridging", "other")


@dataclass
class CorefItems:
    """The coreference items of one graph, over its :class:`Triples`.

    Attributes:
        nodes: per node, whether it is a coref node.
        named: per node, whether it is a named-entity item: a coref node with
            a ``:name``, or with a ``:coref`` edge to a node with a ``:name``.
        merged: per node, whether it is a merged node.
        edges: per relation triple, whether it is a coref edge.
        bridging: per relation triple, whether its role is ``part``/``subset``.
        named_edges: per relation triple, whether it leads into a node with a
            ``:name`` or into a named-entity coref node, or is a ``:coref``
            edge of a named-entity coref node.
    """

    nodes: np.ndarray
    named: np.ndarray
    merged: np.ndarray
    edges: np.ndarray
    bridging: np.ndarray
    named_edges: np.ndarray

    @property
    def count(self) -> int:
        """Coref nodes plus coref edges (a graph's coref total)."""
        return int(self.nodes.sum() + self.edges.sum())


def coref_items(graph: Graph, triples: Triples, groups: Sequence[tuple[int, ...]] | np.ndarray | None) -> CorefItems:
    """Find the coref nodes, merged nodes and coref edges of one graph.

    Args:
        graph: the (document) graph.
        triples: its triples (:func:`amreval.match.triples.graph_triples`).
        groups: the sentences of each node over ``triples.variables``
            (:func:`amreval.docamr.document.sentence_membership`, or the
            matrix of :func:`~amreval.docamr.document.sentence_groups`);
            ``None`` when the graph has no ``:snt`` edges (then every node is
            in one group).
    """
    n = len(triples.variables)
    index = {v: k for k, v in enumerate(triples.variables)}
    sets: list[tuple[int, ...]]
    if groups is None:
        sets = [(1,)] * n
    elif isinstance(groups, np.ndarray):
        sets = [tuple(np.nonzero(row)[0].tolist()) for row in groups]
    else:
        sets = [tuple(m) for m in groups]
    n_sets = np.array([len(x) for x in sets], dtype=np.int64)
    nodes = np.fromiter((c in COREF_CONCEPTS for c in triples.concepts), dtype=bool, count=n)
    # incoming edges as written: the written parent of each node
    parents: list[list[int]] = [[] for _ in range(n)]
    for e in graph.edges:
        if e.role.lower() in _NOT_PARENTS:
            continue
        s, t = index[e.source], index[e.target]
        if e.inverted:
            parents[s].append(t)
        else:
            parents[t].append(s)
    merged = np.zeros(n, dtype=bool)
    for k in range(n):
        if n_sets[k] < 2 or len(parents[k]) < 2:
            continue
        outside = [p for p in parents[k] if sets[p] != sets[k]]
        if len(outside) >= 2 and any(sets[p] != sets[outside[0]] for p in outside):
            merged[k] = True
    special = nodes | merged
    m = len(triples.relations)
    edges = np.zeros(m, dtype=bool)
    bridging = np.zeros(m, dtype=bool)
    has_name = np.zeros(n, dtype=bool)
    for r, (role, s, t) in enumerate(triples.relations):
        if role == "name":
            has_name[s] = True
        if role in BRIDGING_ROLES:
            bridging[r] = True
        if special[t] or role == "coref" or (role in BRIDGING_ROLES and sets[s] != sets[t]):
            edges[r] = True
    named = nodes & has_name
    for role, s, t in triples.relations:
        if role == "coref" and nodes[s] and has_name[t]:
            named[s] = True
    named_edges = np.fromiter(
        (bool(has_name[t] or named[t] or (role == "coref" and named[s])) for role, s, t in triples.relations),
        dtype=bool,
        count=m,
    )
    return CorefItems(nodes, named, merged, edges, bridging, named_edges)


@dataclass
class CorefCounts:
    """Coref match / test / gold counts by category (micro-summable).

    Each category maps to ``[match, test, gold]``. ``across`` counts matched
    coref items whose category differs between the two sides (a node or edge
    of a chain named on one side only): they are in the total's match but in
    no category's, so that no category's precision or recall exceeds 1.0.
    ``mixed`` counts matched relation triples that are a coref edge on one side
    only: they are in the overall match but in neither the coref nor the
    non-coref match, so that the non-coref remainder never exceeds 1.0.
    """

    named_entity: list[int] = field(default_factory=lambda: [0, 0, 0])
    bridging: list[int] = field(default_factory=lambda: [0, 0, 0])
    other: list[int] = field(default_factory=lambda: [0, 0, 0])
    mixed: int = 0
    across: int = 0

    @property
    def total(self) -> tuple[int, int, int]:
        """``(match, test, gold)`` over all categories, the matches across categories included."""
        cats = (self.named_entity, self.bridging, self.other)
        m, t, g = (sum(c[k] for c in cats) for k in range(3))
        return m + self.across, t, g

    def noncoref(self, match: float, test: int, gold: int) -> tuple[float, int, int]:
        """The non-coref remainder of overall counts: overall minus coref, less the mixed matches."""
        m, t, g = self.total
        return match - m - self.mixed, test - t, gold - g

    def __add__(self, other: CorefCounts) -> CorefCounts:
        summed = {c: [x + y for x, y in zip(getattr(self, c), getattr(other, c))] for c in CATEGORIES}
        return CorefCounts(
            **summed,
            mixed=self.mixed + other.mixed,
            across=self.across + other.across,
        )


def _edge_category(counts: CorefCounts, items: CorefItems, r: int | np.integer) -> list[int]:
    if items.bridging[r]:
        return counts.bridging
    return counts.named_entity if items.named_edges[r] else counts.other


def count_coref(a: Triples, b: Triples, items_a: CorefItems, items_b: CorefItems, diff: TripleDiff) -> CorefCounts:
    """Count coref matches of prediction ``a`` against gold ``b`` under the mapping of ``diff``.

    Args:
        diff: :func:`~amreval.match.diff.triple_diff` of ``a`` against ``b``.
    """
    counts = CorefCounts()
    for items, slot in ((items_a, 1), (items_b, 2)):
        for k in np.nonzero(items.nodes)[0]:
            (counts.named_entity if items.named[k] else counts.other)[slot] += 1
        for r in np.nonzero(items.edges)[0]:
            _edge_category(counts, items, r)[slot] += 1
    # a matched gold coref node: the same concept, so a predicted coref node too; in its category where the
    # predicted one is of the same category, else in the total alone
    for i, j in diff.matched("instance"):
        if items_b.nodes[j] and items_a.nodes[i]:
            if items_b.named[j] == items_a.named[i]:
                (counts.named_entity if items_b.named[j] else counts.other)[0] += 1
            else:
                counts.across += 1
    for ra, rb in diff.matched("relation"):
        if items_b.edges[rb] and items_a.edges[ra]:
            gold = _edge_category(counts, items_b, rb)
            if gold is _edge_category(counts, items_a, ra):
                gold[0] += 1
            else:
                counts.across += 1
        elif items_b.edges[rb] or items_a.edges[ra]:
            counts.mixed += 1
    return counts
