"""The graphs MFβ's Meaning compares, when they are given: the gold AMRs and parses made beforehand.

Sentence-level MFβ (:mod:`amreval.mfbeta.score`), its fine-grained dimensions
(:mod:`amreval.mfbeta.dimensions`), the counts behind its intervals and tests
(:mod:`amreval.mfbeta.counts`) and the parser robustness study read them alike: a gold AMR must be
readable (the message names its index), a parse that is missing or unreadable is a failed parse, the
authors' one-node graph (:func:`~amreval.mfbeta.parsers.failed_parse_graph`), counted and never an
error. They are read here, below all of those, so that none of them imports another to read them.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

from amreval.amr.graph import Graph
from amreval.amr.read import as_graph, loads_graph
from amreval.errors import AmrevalWarning, DecodeError, InputError, numbered
from amreval.mfbeta.parsers import failed_parse_graph

__all__ = ["gold_graphs", "given_parses"]


def gold_graphs(amrs: Sequence[str | Graph], n: int) -> list[Graph]:
    """Gold AMRs given as graphs or PENMAN strings, one per generated sentence.

    Raises:
        InputError: the count differs, or an entry is not a readable graph (naming its position, from 1).
    """
    if len(amrs) != n:
        raise InputError(f"{n} generated sentences but {len(amrs)} reference AMRs; they are paired by position")
    graphs = []
    for k, g in enumerate(amrs):
        if isinstance(g, Graph):
            graphs.append(as_graph(g, "reference AMR", k))
        elif isinstance(g, str) and g.strip():
            graphs.append(loads_graph(g, name=numbered("reference AMR", k)))
        else:
            raise InputError(f"{numbered('reference AMR', k)}: expected a PENMAN graph, got {g!r:.40}")
    return graphs


def given_parses(
    amrs: Sequence[str | Graph | None], sentences: Sequence[str], *, blank_fails: bool = True
) -> tuple[list[Graph], list[int]]:
    """Graphs parsed beforehand: None, an empty string or an unreadable graph (text or a graph a lenient
    reader could not read) is a failure, replaced by the authors' one-node graph, and so is the parse of a
    blank sentence when ``blank_fails`` (as if it had been parsed here); returns the graphs and the failed
    positions."""
    n = len(sentences)
    if len(amrs) != n:
        raise InputError(f"{n} generated sentences but {len(amrs)} prediction AMRs; they are paired by position")
    graphs: list[Graph] = []
    failed: list[int] = []
    for k, g in enumerate(amrs):
        graph = None
        if blank_fails and not sentences[k].strip():
            graph = None
        elif isinstance(g, Graph):
            try:
                graph = as_graph(g, "prediction AMR", k)
            except InputError:  # a graph a lenient reader could not read
                graph = None
        elif isinstance(g, str) and g.strip():
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", AmrevalWarning)
                    graph = loads_graph(g, name=numbered("prediction AMR", k))
            except DecodeError:
                graph = None
        if graph is None or graph.is_empty():
            failed.append(k)
            graph = failed_parse_graph(sentences[k])
        graphs.append(graph)
    return graphs, failed
