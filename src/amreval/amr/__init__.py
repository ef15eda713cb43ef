"""AMR graphs: the graph model and PENMAN reading (files with ``read_*``, text with ``loads_*``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from amreval._lazy import exports

if TYPE_CHECKING:
    from amreval.amr.graph import NON_INVERTED_OF_ROLES, Attribute, Edge, Graph, canonical_role
    from amreval.amr.read import GraphLike, as_graph, iter_graphs, loads_graph, loads_graphs, read_graphs

__all__ = [
    "NON_INVERTED_OF_ROLES",
    "Attribute",
    "Edge",
    "Graph",
    "GraphLike",
    "as_graph",
    "canonical_role",
    "iter_graphs",
    "loads_graph",
    "loads_graphs",
    "read_graphs",
]

__getattr__, __dir__ = exports(
    __name__,
    {
        "graph": (
            "NON_INVERTED_OF_ROLES",
            "Attribute",
            "Edge",
            "Graph",
            "canonical_role",
        ),
        "read": (
            "GraphLike",
            "as_graph",
            "iter_graphs",
            "loads_graph",
            "loads_graphs",
            "read_graphs",
        ),
    },
)
