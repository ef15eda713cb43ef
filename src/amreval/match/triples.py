"""Graphs as sets of normalised triples, the way Smatch compares them.

A graph becomes instance triples ``(instance, v, concept)``, attribute triples
``(role, v, constant)`` (including ``(TOP, root, top)``) and relation triples
``(role, v1, v2)``. Normalisation follows smatch (inverted roles turned round,
``:mod`` stored as the inverse of ``:domain``, case-insensitive comparison,
quoted and unquoted constants equal) with two corrections: ``:mod`` to a
constant is kept, and a triple that occurs twice counts once, so that no
score can exceed 1.0.

Example:
    >>> from amreval.amr.read import loads_graph
    >>> t = graph_triples(loads_graph('(a / b :ARG0-of (c / d) :polarity "-")'))
    >>> t.count, t.relations
    (5, [('arg0', 1, 0)])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from amreval.amr.graph import Graph
from amreval.errors import InputError

__all__ = ["Triples", "graph_triples", "normalize_constant", "EncodedPair", "encode_pair"]


def normalize_constant(value: str) -> str:
    """Lower-case a constant and strip one pair of surrounding double quotes.

    Example:
        >>> normalize_constant('"Paris"'), normalize_constant("-")
        ('paris', '-')
    """
    if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
        value = value[1:-1]
    return value.lower()


@dataclass
class Triples:
    """The normalised triples of one graph, over node indices.

    Attributes:
        variables: variable names; node ``k`` is ``variables[k]``; node 0 is the top.
        concepts: normalised concept of each node (one instance triple each).
        attributes: ``(role, node, constant)``, TOP included, without duplicates.
        relations: ``(role, source, target)``, without duplicates.
    """

    variables: list[str]
    concepts: list[str]
    attributes: list[tuple[str, int, str]] = field(default_factory=list)
    relations: list[tuple[str, int, int]] = field(default_factory=list)

    @property
    def count(self) -> int:
        """Number of triples (the T or G of Smatch)."""
        return len(self.concepts) + len(self.attributes) + len(self.relations)

    def as_strings(self) -> list[tuple[str, str, str]]:
        """All triples with variable names, in the order instance, attribute, relation."""
        v = self.variables
        out = [("instance", v[i], c) for i, c in enumerate(self.concepts)]
        out += [(r, v[i], c) for r, i, c in self.attributes]
        out += [(r, v[i], v[k]) for r, i, k in self.relations]
        return out


def graph_triples(graph: Graph) -> Triples:
    """Normalise a graph into :class:`Triples`.

    Args:
        graph: the graph; an empty graph gives no triples.

    Returns:
        The triples with duplicates removed (first occurrence kept).
    """
    if graph.is_empty():
        return Triples([], [])
    variables = list(graph.instances)
    if graph.top in graph.instances and variables[0] != graph.top:
        variables.remove(graph.top)
        variables.insert(0, graph.top)
    index = {v: k for k, v in enumerate(variables)}
    concepts = [(graph.instances[v] or "").lower() for v in variables]
    attributes: dict[tuple[str, int, str], None] = {}
    if graph.top is not None:
        attributes[("TOP", index[graph.top], "top")] = None
    for a in graph.attributes:
        attributes[(a.role.lower(), index[a.source], normalize_constant(a.value))] = None
    relations: dict[tuple[str, int, int], None] = {}
    for e in graph.edges:
        relations[(e.role.lower(), index[e.source], index[e.target])] = None
    return Triples(variables, concepts, list(attributes), list(relations))


@dataclass
class EncodedPair:
    """Two triple sets encoded over a shared vocabulary, ready for the engine.

    Arrays (all ``int64``): ``inst_a``/``inst_b`` concept id per node;
    ``attr_a``/``attr_b`` rows ``(node, key)`` with key = (role, constant);
    ``rel_a``/``rel_b`` rows ``(role, source, target)``.
    """

    inst_a: np.ndarray
    attr_a: np.ndarray
    rel_a: np.ndarray
    inst_b: np.ndarray
    attr_b: np.ndarray
    rel_b: np.ndarray


def encode_pair(a: Triples, b: Triples) -> EncodedPair:
    """Encode two triple sets over one vocabulary (see :class:`EncodedPair`).

    Raises:
        InputError: a triple set lists one attribute or relation twice (:func:`graph_triples`
            never does; a triple matches once).
    """
    for side, t in (("A", a), ("B", b)):
        if len(set(t.attributes)) != len(t.attributes) or len(set(t.relations)) != len(t.relations):
            raise InputError(f"triples of {side}: an attribute or relation is listed twice (a triple matches once)")
    vocab: dict[str, int] = {}
    keys: dict[tuple[str, str], int] = {}
    roles: dict[str, int] = {}
    # every id in one list, made into one array whose parts are the six arrays (a sentence's graphs
    # have tens of triples: one conversion beats six)
    flat: list[int] = []
    put = flat.append
    ends = [0]
    for t in (a, b):
        for c in t.concepts:
            put(vocab.setdefault(c, len(vocab)))
        ends.append(len(flat))
        for r, i, c in t.attributes:
            put(i)
            put(keys.setdefault((r, c), len(keys)))
        ends.append(len(flat))
        for r, i, k in t.relations:
            put(roles.setdefault(r, len(roles)))
            put(i)
            put(k)
        ends.append(len(flat))
    ids = np.array(flat, dtype=np.int64)
    _, e1, e2, e3, e4, e5, e6 = ends
    return EncodedPair(
        ids[:e1],
        ids[e1:e2].reshape((e2 - e1) // 2, 2),
        ids[e2:e3].reshape((e3 - e2) // 3, 3),
        ids[e3:e4],
        ids[e4:e5].reshape((e5 - e4) // 2, 2),
        ids[e5:e6].reshape((e6 - e5) // 3, 3),
    )
