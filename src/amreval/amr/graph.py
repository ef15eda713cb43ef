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
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import penman

__all__ = ["Edge", "Attribute", "Graph", "canonical_role", "NON_INVERTED_OF_ROLES"]

#: Graphs nested deeper than this are written by amreval's own writer, not :func:`penman.encode`.
PENMAN_DEPTH = 200

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
        import penman  # loaded by the first graph written, not with the package

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
        """Serialise as PENMAN (metadata first).

        A graph nested deeper than :data:`PENMAN_DEPTH` levels (where
        :func:`penman.encode` recurses too deep and slows down quadratically)
        is written without recursion, on one line.

        Raises:
            InputError: the graph has no node, or nodes the top does not reach.
        """
        import penman
        from penman.exceptions import LayoutError

        from amreval.errors import InputError

        if self.top is None or not self.instances:
            raise InputError(f"{self.origin}: an empty graph cannot be written as PENMAN")
        try:
            flat, depth = self._to_string_deep()
        except InputError:
            flat, depth = None, 0
        if flat is not None and depth > PENMAN_DEPTH:
            return flat
        try:
            return penman.encode(self.to_penman(), indent=indent)
        except RecursionError:
            if flat is None:  # pragma: no cover - penman recursed where the flat writer found no tree
                raise InputError(f"{self.origin}: nested too deep to be written as PENMAN") from None
            return flat
        except LayoutError as exc:
            raise InputError(f"{self.origin}: cannot be written as PENMAN: {exc}") from None

    def _to_string_deep(self) -> tuple[str, int]:
        """PENMAN on one line, by an explicit stack (any depth, linear time), and its depth."""
        from amreval.errors import InputError

        pg = self.to_penman()
        triples = [t for t in pg.triples if t[1] != ":instance"]
        out_of: dict[str, list[int]] = {}
        into: dict[str, list[int]] = {}
        for k, (source, _, target) in enumerate(triples):
            out_of.setdefault(source, []).append(k)
            if target in self.instances:
                into.setdefault(target, []).append(k)
        done = [False] * len(triples)
        visited: set[str] = set()
        parts = [f"# ::{key} {value}\n" for key, value in self.metadata.items()]

        def open_node(var: str) -> list[tuple[int, bool]]:
            visited.add(var)
            parts.append(f"({var} / {self.instances[var]}")
            return [(k, False) for k in out_of.get(var, [])] + [(k, True) for k in into.get(var, [])]

        top = self.top
        if top is None or top not in self.instances:
            raise InputError(f"{self.origin}: the top {top!r} is not a node of the graph")
        stack = [(top, open_node(top), 0)]
        depth = 1
        while stack:
            var, branches, pos = stack.pop()
            nested = None
            while pos < len(branches) and nested is None:
                k, inverted = branches[pos]
                pos += 1
                if done[k]:
                    continue
                source, role, target = triples[k]
                if inverted:
                    if source in visited:
                        continue  # the source writes it
                    done[k] = True
                    parts.append(f" {_invert(role)} ")
                    nested = source
                else:
                    done[k] = True
                    parts.append(f" {role} ")
                    if target in self.instances and target not in visited:
                        nested = target
                    else:
                        parts.append(target)
            if nested is not None:
                stack.append((var, branches, pos))
                stack.append((nested, open_node(nested), 0))
                depth = max(depth, len(stack))
            else:
                parts.append(")")
        if len(visited) != len(self.instances):
            missing = next(v for v in self.instances if v not in visited)
            raise InputError(f"{self.origin}: node {missing!r} is not connected to the top {top!r}")
        return "".join(parts), depth


def _invert(role: str) -> str:
    """The role that writes a triple from its target: ``:ARG0`` <-> ``:ARG0-of``."""
    if role.endswith("-of") and role[1:].lower() not in NON_INVERTED_OF_ROLES:
        return role[:-3]
    return role + "-of"


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
