"""amreval: evaluation of (document-level) Abstract Meaning Representation.

The core package reads AMR (:mod:`amreval.amr`), turns graphs into triples and
finds the best node alignment (:mod:`amreval.match`), and computes every score
(:mod:`amreval.scores`); DocAMR conversion (:mod:`amreval.docamr`), MFβ
(:mod:`amreval.mfbeta`), the Hub side (:mod:`amreval.hub`) and pictures
(:mod:`amreval.report`) stand beside them. The ``evaluate`` metrics, the
datasets builder and the command line are thin doors into it.

Example:
    >>> from amreval import smatch
    >>> round(smatch(["(w / want-01 :ARG0 (b / boy))"], ["(w / want-01 :ARG0 (g / girl))"]).f1, 4)
    0.75
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from amreval._lazy import exports, shadow
from amreval._version import __version__
from amreval.errors import AmrevalError, AmrevalWarning, DecodeError, InputError, MissingDependencyError

if TYPE_CHECKING:
    from amreval.amr import Graph, iter_graphs, loads_graph, loads_graphs, read_graphs
    from amreval.docamr import convert_document, read_msamr_xml, read_sentence_amrs, text_coref_to_docamr
    from amreval.match import SearchOptions
    from amreval.mfbeta import MFResult, mfbeta
    from amreval.scores import (
        Comparison,
        Config,
        DocsmatchResult,
        PairScore,
        SmatchResult,
        compare_systems,
        docsmatch,
        docsmatch_pair,
        s2match,
        s2match_pair,
        smatch,
        smatch_pair,
    )

__all__ = [
    "__version__",
    "AmrevalError",
    "AmrevalWarning",
    "Comparison",
    "Config",
    "DecodeError",
    "DocsmatchResult",
    "Graph",
    "InputError",
    "MFResult",
    "MissingDependencyError",
    "PairScore",
    "SearchOptions",
    "SmatchResult",
    "compare_systems",
    "convert_document",
    "docsmatch",
    "docsmatch_pair",
    "iter_graphs",
    "loads_graph",
    "loads_graphs",
    "mfbeta",
    "read_graphs",
    "read_msamr_xml",
    "read_sentence_amrs",
    "s2match",
    "s2match_pair",
    "smatch",
    "smatch_pair",
    "text_coref_to_docamr",
]

__getattr__, __dir__ = exports(
    __name__,
    {
        "amr": (
            "Graph",
            "iter_graphs",
            "loads_graph",
            "loads_graphs",
            "read_graphs",
        ),
        "docamr": (
            "convert_document",
            "read_msamr_xml",
            "read_sentence_amrs",
            "text_coref_to_docamr",
        ),
        "match": ("SearchOptions",),
        "mfbeta": (
            "MFResult",
            "mfbeta",
        ),
        "scores": (
            "Comparison",
            "Config",
            "DocsmatchResult",
            "PairScore",
            "SmatchResult",
            "compare_systems",
            "docsmatch",
            "docsmatch_pair",
            "s2match",
            "s2match_pair",
            "smatch",
            "smatch_pair",
        ),
    },
)
shadow(__name__, "mfbeta")
