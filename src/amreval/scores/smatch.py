"""Sentence-level Smatch (Cai & Knight 2013) on the shared alignment engine.

The corpus score is the micro-average (see :mod:`amreval.scores.harness`):
match, test and gold triple counts are summed over all pairs before
precision, recall and F1 are computed, which is the published definition and
what ``smatch.py`` prints.

Example:
    >>> result = smatch(["(w / want-01 :ARG0 (b / boy))"], ["(w / want-01 :ARG0 (g / girl))"])
    >>> result.match, result.test, result.gold, round(result.f1, 4)
    (3, 4, 4, 0.75)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from amreval.amr.graph import Graph
from amreval.amr.read import GraphLike, as_graph
from amreval.match.alignment import align_triples
from amreval.match.options import SearchOptions
from amreval.match.triples import graph_triples
from amreval.scores.harness import (
    Config,
    PairScore,
    SmatchResult,
    pair_search,
    score_corpus,
    strict_option,
    whole_bound,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from amreval.match.options import SearchKeywords

__all__ = ["smatch", "smatch_pair", "score_smatch_pair"]


def score_smatch_pair(prediction: Graph, gold: Graph, search: SearchOptions) -> PairScore:
    """Smatch of one pair of graphs, with the mapping it found."""
    a, b = graph_triples(prediction), graph_triples(gold)
    found = align_triples(a, b, search)
    return PairScore(
        int(round(found.score)), a.count, b.count, found.optimal, whole_bound(found.bound), mapping=found.mapping
    )


def smatch_pair(prediction: GraphLike, gold: GraphLike, **search: Unpack[SearchKeywords]) -> PairScore:
    """Smatch of one predicted graph against one gold graph (the first pair of :func:`smatch`).

    ``solver``, ``restarts``, ``seed`` and ``time_limit`` are as for :func:`smatch`.

    Example:
        >>> s = smatch_pair("(a / b)", "(x / b)")
        >>> s.match, s.test, s.gold, s.f1
        (2, 2, 2, 1.0)
    """
    options = SearchOptions.from_keywords(**search)
    return score_smatch_pair(
        as_graph(prediction, "prediction", 0), as_graph(gold, "reference", 0), pair_search(options, 0)
    )


def smatch(
    predictions: Iterable[GraphLike],
    references: Iterable[GraphLike],
    *,
    bootstrap: int = 0,
    confidence: float = 0.95,
    progress: bool | None = None,
    strict: bool = False,
    **search: Unpack[SearchKeywords],
) -> SmatchResult:
    """Corpus Smatch of predicted graphs against gold graphs, paired by position.

    Args:
        predictions: predicted graphs (PENMAN strings or :class:`~amreval.amr.Graph`).
        references: gold graphs, same length.
        bootstrap: number of bootstrap resamples for a confidence interval of
            F1 (0 = none; 1000 is a common choice).
        confidence: confidence level of that interval.
        progress: show a progress bar (default: only on a terminal).
        strict: raise on a prediction that cannot be read; by default it is
            scored as an empty graph, its position is kept in
            ``unreadable_predictions`` and one warning names them all.
        **search: the search settings (:class:`~amreval.match.options.SearchKeywords`), each optional:

            * ``solver``: ``"exact"`` (default: certified), ``"hillclimb"`` or ``"auto"``
              (see :mod:`amreval.match.alignment`);
            * ``restarts``: random starts of hill climbing after the greedy one (smatch's
              ``-r``; default 19, climbs stop early once one reaches the bound);
            * ``seed``: seed of the random starts; the same inputs and seed give the same result;
            * ``time_limit``: seconds allowed to the integer program per pair (default 30).

    Returns:
        A :class:`~amreval.scores.harness.SmatchResult`.

    Raises:
        InputError: the two lists differ in length or are empty, an entry is
            not a graph, or a search setting is invalid.
        TypeError: a keyword that is neither one of the above nor a search setting.
        DecodeError: a reference (or, with ``strict``, a prediction) is
            malformed PENMAN (the message names it).
    """
    return score_corpus(
        predictions,
        references,
        score_smatch_pair,
        Config("smatch", SearchOptions.from_keywords(**search), strict_option(strict)),
        bootstrap=bootstrap,
        confidence=confidence,
        progress=progress,
        desc="smatch",
        unit="pair",
        strict=strict,
    )
