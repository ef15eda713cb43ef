"""The AMR graph model.

A :class:`Graph` keeps what scoring and conversion need: the top variable,
the concept of every variable, the edges between variables (stored in
canonical direction, with the role as written) and the edges to constants.
Reading PENMAN is :mod:`amreval.amr.read`.

Example:
    >>> from amreval.amr.read import loads_graph
    >>> g = loads_graph('(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))')
    >>> g.top, g.instances["b"], len(g.edges)
    ('w', 'boy', 3)
    >>> g.edges[2]
    Edge(source='g', role='ARG0', target='b', written='ARG0')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import penman

__all__ = ["Edge", "Attribute", "Graph", "canonical_role", "NON_INVERTED_OF_ROLES"]

#: Roles that end in ``-of`` but are not inverses.
NON_INVERTED_OF_ROLES = frozenset({"consist-of", "prep-on-behalf-of", "prep-out-of"})


class Edge(NamedTuple):
    """An edge between two variables, in canonical direction.

    ``role`` is canonical (``ARG0`` for a written ``:ARG0-of``; ``domain``
    for a written ``:mod``); ``written`` is the role as it appeared.
    """

    source: str
    role: str
    target: str
    written: str

    @property
    def inverted(self) -> bool:
        """True when the edge was written in the other direction."""
        return self.written != self.role


class Attribute(NamedTuple):
    """An edge from a variable to a constant (value as written, quotes kept)."""

    source: str
    role: str
    value: str


@dataclass
class Graph:
    """One AMR graph.

    Attributes:
        top: the root variable (``None`` only for an empty graph).
        instances: concept of each variable, in order of appearance.
        edges: edges between variables.
        attributes: edges to constants.
        metadata: ``::key value`` pairs of the comment block.
        origin: where the graph was read from (file, index, line) for messages.
    """

    top: str | None
    instances: dict[str, str] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)
    attributes: list[Attribute] = field(default_factory=list)
    metadata: dict[str, str] = field(default_factory=dict)
    origin: str = "<string>"

    @property
    def id(self) -> str | None:
        """The ``::id`` of the graph, if any."""
        return self.metadata.get("id")

    def __len__(self) -> int:
        return len(self.instances)

    def is_empty(self) -> bool:
        """True for a graph without any node."""
        return not self.instances

    @classmethod
    def empty(cls, metadata: dict[str, str] | None = None, origin: str = "<empty>") -> Graph:
        """A graph without nodes (scores 0 against anything but itself)."""
        return cls(top=None, metadata=dict(metadata or {}), origin=origin)

    def to_penman(self) -> penman.Graph:
        """Convert to a :class:`penman.Graph` (for writing)."""
        triples: list[tuple[str, str, str]] = []
        for var, concept in self.instances.items():
            triples.append((var, ":instance", concept))
        for e in self.edges:
            if e.inverted and e.written == "mod":
                triples.append((e.target, ":mod", e.source))
            elif e.inverted:
                triples.append((e.target, ":" + e.written, e.source))
            else:
                triples.append((e.source, ":" + e.role, e.target))
        for a in self.attributes:
            triples.append((a.source, ":" + a.role, a.value))
        return penman.Graph(triples, top=self.top, metadata=dict(self.metadata))

    def to_string(self, indent: int | None = 4) -> str:
        """Serialise as PENMAN (metadata first)."""
        return penman.encode(self.to_penman(), indent=indent)


def canonical_role(role: str) -> tuple[str, bool]:
    """Return the canonical role and whether the written role was inverted.

    Args:
        role: a role without the leading colon, as written.

    Returns:
        ``(canonical, swapped)``; when ``swapped`` the edge's source and target
        are exchanged. ``:X-of`` becomes ``X`` (except the real role names in
        :data:`NON_INVERTED_OF_ROLES`) and ``:mod`` becomes ``domain``.

    Example:
        >>> canonical_role("ARG0-of"), canonical_role("mod"), canonical_role("consist-of")
        (('ARG0', True), ('domain', True), ('consist-of', False))
    """
    swapped = False
    if role.endswith("-of") and role.lower() not in NON_INVERTED_OF_ROLES:
        role = role[:-3]
        swapped = True
    if role.lower() == "mod":
        role = "domain"
        swapped = not swapped
    return role, swapped
