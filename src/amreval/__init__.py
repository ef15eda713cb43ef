"""amreval: evaluation of (document-level) Abstract Meaning Representation.

The core package reads AMR, turns graphs into triples, finds the best node
alignment and computes every score; the ``evaluate`` metrics, the datasets
builder and the command line are thin doors into it.
"""

from __future__ import annotations

from ._version import __version__
from .alignment import Alignment, Problem, align, build_problem, lp_bound, solve_milp
from .docsmatch import docsmatch, docsmatch_pair
from .errors import AmrevalError, AmrevalWarning, DecodeError, InputError, MissingDependencyError
from .graph import Attribute, Edge, Graph, iter_graphs, read_graph, read_graphs
from .smatch import PairScore, SmatchResult, prf, smatch, smatch_pair
from .triples import Triples, graph_triples

__all__ = [
    "__version__",
    "Alignment",
    "AmrevalError",
    "AmrevalWarning",
    "Attribute",
    "DecodeError",
    "Edge",
    "Graph",
    "InputError",
    "MissingDependencyError",
    "PairScore",
    "Problem",
    "SmatchResult",
    "Triples",
    "align",
    "build_problem",
    "docsmatch",
    "docsmatch_pair",
    "graph_triples",
    "iter_graphs",
    "lp_bound",
    "prf",
    "read_graph",
    "read_graphs",
    "smatch",
    "smatch_pair",
    "solve_milp",
]
