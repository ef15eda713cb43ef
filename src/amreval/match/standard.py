"""Standardization: how a graph's triples are read before they are matched, a choice of the reader.

Four readings, by name (:data:`STANDARDIZATIONS`):

* ``smatch`` (the default): amreval's reading (:func:`amreval.match.triples.graph_triples`):
  smatch 1.0.4's normalisation (inverted roles turned round, ``:mod`` as the inverse of
  ``:domain``, case-insensitive, quoted and unquoted constants equal), a ``(TOP, root, top)``
  triple, ``:mod`` to a constant kept, a triple written twice counted once.
* ``none``: the triples as written, as SMATCH++ 1.8 reads them with no standardizer (its
  command line's default): no lower-casing, quotes kept, ``:ARG0-of`` kept as written, a
  ``(ROOT_OF_GRAPH, :root, top)`` triple, a triple written twice counted twice.
* ``smatchpp-generic``: SMATCH++'s ``generic`` standardization: everything lower-cased, every
  quote removed, every ``-of`` turned round (``:consist-of`` too), duplicates kept.
* ``smatchpp-amr``: SMATCH++'s ``amr`` standardization: as ``generic``, with ``:domain`` read as
  the inverse of ``:mod``, the root triple ``(top, :root, its concept)`` (so two graphs share it
  only when their top concepts are equal), reified roles such as ``be-located-at-91`` with
  exactly its two arguments read as the role (``:location``), and duplicates removed.

A standardized graph becomes :class:`~amreval.match.triples.Triples` (one node per variable);
a triple from a constant into a variable becomes an attribute of its role marked ``^``, the
``k``-th copy of a repeated triple (k ≥ 2) gets its role marked with ``k``, so that a repeated
triple matches as often as both graphs have it; a triple with no variable (both ends
constants) matches when the other graph has it, whatever the alignment (:func:`loose_matches`;
a connected graph read by amreval has none). The search maximizes the matched triples, as for
every reading. SMATCH++'s ILP maximizes a slightly different objective when a triple is
repeated (its count in one graph times that in the other, for a triple of one variable) and
then counts matches as here; the two agree on every pair of the parses and the Little Prince.

The string triples are :mod:`amreval.amr.standardize`'s.

Example:
    >>> from amreval.amr.read import loads_graph
    >>> g = loads_graph('(c / Cat :ARG1-of (l / be-located-at-91 :ARG2 (h / house)))')
    >>> t, loose = standard_triples(g, "smatchpp-amr")
    >>> t.count, t.relations, loose
    (4, [(':location', 0, 1)], [])
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from amreval.amr.standardize import (
    DEFAULT_STANDARDIZATION,
    STANDARDIZATIONS,
    VAR,
    check_standardization,
    marked_triples,
    unquote,
)

if TYPE_CHECKING:
    from amreval.amr.graph import Graph
    from amreval.match.triples import Triples

__all__ = [
    "STANDARDIZATIONS",
    "DEFAULT_STANDARDIZATION",
    "check_standardization",
    "to_triples",
    "standard_triples",
    "loose_matches",
]

StringTriple = tuple[str, str, str]
_INSTANCE = ":instance"


def to_triples(triples: list[StringTriple], top: str | None = None) -> tuple[Triples, list[StringTriple]]:
    """String triples as :class:`~amreval.match.triples.Triples` (one node per variable, ``top``
    first) and the triples with no variable (see the module docs)."""
    return _node_triples(triples, top, distinct=False)


def _node_triples(
    triples: list[StringTriple], top: str | None, *, distinct: bool
) -> tuple[Triples, list[StringTriple]]:
    """:func:`to_triples`; ``distinct``: no triple is repeated (none needs its copies counted)."""
    from amreval.match.triples import Triples

    concepts: dict[str, str] = {}
    for s, r, t in triples:
        if r == _INSTANCE and s not in concepts:
            concepts[s] = t
    variables = list(concepts)
    if top in concepts and variables[0] != top:
        variables.remove(top)
        variables.insert(0, top)
    index = {v: k for k, v in enumerate(variables)}
    get = index.get
    seen: dict[StringTriple, int] = {}
    attributes: list[tuple[str, int, str]] = []
    relations: list[tuple[str, int, int]] = []
    loose: list[StringTriple] = []
    for triple in triples:
        s, r, t = triple
        if r == _INSTANCE:
            continue
        if distinct:
            role = r
        else:  # the k-th copy of a triple (k >= 2) has its role marked with k
            n = seen.get(triple, 0) + 1
            seen[triple] = n
            role = r if n == 1 else f"{r}\x00{n}"
        source, target = get(s), get(t)
        if source is not None:
            if target is not None:
                relations.append((role, source, target))
            else:
                attributes.append((role, source, t))
        elif target is not None:
            attributes.append(("^" + role, target, s))
        else:
            loose.append(triple)
    names = [v.removeprefix(VAR) for v in variables]
    return Triples(names, [concepts[v] for v in variables], attributes, relations), loose


def standard_triples(graph: Graph, standardize: str = DEFAULT_STANDARDIZATION) -> tuple[Triples, list[StringTriple]]:
    """The graph's :class:`~amreval.match.triples.Triples` under a reading, and its triples with
    no variable (always none for ``smatch``).

    Example:
        >>> from amreval.amr.read import loads_graph
        >>> t, _ = standard_triples(loads_graph('(a / b :ARG0-of (c / d))'), "none")
        >>> t.count, t.attributes, t.relations
        (4, [('^:root', 0, 'ROOT_OF_GRAPH')], [(':ARG0-of', 0, 1)])
    """
    from amreval.match.triples import Triples, graph_triples

    check_standardization(standardize)
    if standardize == "smatch":
        return graph_triples(graph), []
    triples = marked_triples(graph, standardize)
    if not triples:
        return Triples([], []), []
    amr = standardize == "smatchpp-amr"  # its triples are distinct
    t, loose = _node_triples(triples, triples[0][0] if amr else triples[0][2], distinct=amr)
    names = "" if standardize == "none" else "".join(graph.instances)
    if names != names.lower() or '"' in names or "'" in names:
        # the variables' names as written (read lower-cased, without quotes; where every name is
        # already, as usual, they are those read)
        written: dict[str, str] = {}
        for v in graph.instances:
            written.setdefault(unquote(v.lower()), v)
        t.variables = [written.get(v, v) for v in t.variables]
    return t, loose


def loose_matches(a: list[StringTriple], b: list[StringTriple]) -> int:
    """How many triples with no variable two graphs share (a repeated one as often as both have it)."""
    if not a or not b:
        return 0
    return sum((Counter(a) & Counter(b)).values())
