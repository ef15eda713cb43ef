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
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from amreval.amr.graph import Graph
from amreval.amr.read import GraphLike, as_graph
from amreval.match.alignment import align_triples
from amreval.match.certify.proof import whole_bound
from amreval.match.options import SearchOptions
from amreval.match.standard import DEFAULT_STANDARDIZATION, check_standardization, loose_matches, standard_triples
from amreval.match.triples import graph_triples
from amreval.scores.checks import DEFAULT_RESAMPLES, interval_resamples
from amreval.scores.harness import pair_search, score_corpus, strict_option
from amreval.scores.results import Config, PairScore, SmatchResult

P = TypeVar("P", bound=PairScore)

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from amreval.match.options import SearchKeywords
    from amreval.match.problem import Alignment
    from amreval.match.standard import StringTriple
    from amreval.match.triples import Triples

__all__ = [
    "smatch",
    "smatch_pair",
    "score_smatch_pair",
    "identical_smatch_score",
    "reading_score",
    "standardize_option",
]


def score_smatch_pair(
    prediction: Graph, gold: Graph, search: SearchOptions, standardize: str = DEFAULT_STANDARDIZATION
) -> PairScore:
    """Smatch of one pair of graphs, with the mapping it found, under a reading
    (:mod:`amreval.match.standard`; the default is smatch's)."""
    (a, loose_a), (b, loose_b) = standard_triples(prediction, standardize), standard_triples(gold, standardize)
    return reading_score(align_triples(a, b, search), (a, loose_a), (b, loose_b), PairScore)


def identical_smatch_score(graph: Graph) -> PairScore | None:
    """Smatch of a graph against itself under smatch's reading, without the search, as the certified
    search (``solver="exact"``) scores it: the identity matches every triple, and a mapping matches at
    most every triple of either side (each at most once), so it is optimal and proven, at any size (no
    problem is built, so none is over the memory budget). Without a mapping; None for a graph without
    triples (left to the search, which scores it as it scores empty graphs).

    Example:
        >>> from amreval.amr.read import loads_graph
        >>> identical_smatch_score(loads_graph("(w / want-01 :ARG0 (b / boy))"))
        PairScore(match=4, test=4, gold=4, optimal=True, bound=4.0)
    """
    n = graph_triples(graph).count
    if not n:
        return None
    return PairScore(n, n, n, True, float(n))


def reading_score(
    found: Alignment, a: tuple[Triples, list[StringTriple]], b: tuple[Triples, list[StringTriple]], kind: type[P]
) -> P:
    """A pair's score under a reading (:func:`~amreval.match.standard.standard_triples` of each side): the
    alignment's matches plus the triples with no variable both sides have, as a ``kind`` of
    :class:`PairScore`."""
    (ta, loose_a), (tb, loose_b) = a, b
    extra = loose_matches(loose_a, loose_b)
    return kind(
        int(round(found.score)) + extra,
        ta.count + len(loose_a),
        tb.count + len(loose_b),
        found.optimal,
        whole_bound(found.bound) + extra,
        mapping=found.mapping,
        over_budget=found.over_budget,
        timed_out=found.timed_out,
    )


def standardize_option(standardize: str) -> tuple[tuple[str, str], ...]:
    """The ``standardize`` entry of a :class:`~amreval.scores.results.Config`'s options: recorded
    when it is not the default reading (so the default's configuration line stays as it was)."""
    check_standardization(standardize)
    return () if standardize == DEFAULT_STANDARDIZATION else (("standardize", standardize),)


def smatch_pair(
    prediction: GraphLike,
    gold: GraphLike,
    *,
    standardize: str = DEFAULT_STANDARDIZATION,
    **search: Unpack[SearchKeywords],
) -> PairScore:
    """Smatch of one predicted graph against one gold graph (the first pair of :func:`smatch`).

    ``solver``, ``restarts``, ``seed``, ``time_limit`` and ``work_limit`` are as for :func:`smatch`.

    Example:
        >>> s = smatch_pair("(a / b)", "(x / b)")
        >>> s.match, s.test, s.gold, s.f1
        (2, 2, 2, 1.0)
    """
    check_standardization(standardize)
    options = SearchOptions.from_keywords(**search)
    return score_smatch_pair(
        as_graph(prediction, "prediction", None),
        as_graph(gold, "reference", None),
        pair_search(options, 0),
        standardize,
    )


def smatch(
    predictions: Iterable[GraphLike],
    references: Iterable[GraphLike],
    *,
    ci: bool = False,
    n_resamples: int = DEFAULT_RESAMPLES,
    confidence: float = 0.95,
    progress: bool | None = None,
    strict: bool = False,
    standardize: str = DEFAULT_STANDARDIZATION,
    num_workers: int = 1,
    bootstrap: int | None = None,
    **search: Unpack[SearchKeywords],
) -> SmatchResult:
    """Corpus Smatch of predicted graphs against gold graphs, paired by position.

    Args:
        predictions: predicted graphs (PENMAN strings or :class:`~amreval.amr.Graph`).
        references: gold graphs, same length.
        ci: add a bootstrap confidence interval of F1 (``result.ci``; pairs resampled).
        n_resamples: resamples of that interval (default 10000, as every resampling of amreval).
        confidence: confidence level of that interval.
        bootstrap: the old spelling of ``ci=True, n_resamples=N`` (deprecated; warns once).
        progress: show a progress bar (default: only on a terminal).
        strict: raise on a prediction that cannot be read; by default it is
            scored as an empty graph, its position is kept in
            ``unreadable_predictions`` and one warning names them all.
        standardize: how triples are read (:data:`~amreval.match.standard.STANDARDIZATIONS`):
            ``"smatch"`` (default, smatch 1.0.4's reading), ``"none"`` (as written),
            ``"smatchpp-generic"`` or ``"smatchpp-amr"`` (SMATCH++ 1.8's standardizations); a
            reading other than the default is recorded in the result's ``config``.
        num_workers: pairs are scored in this many processes (default 1); the result is the same.
        **search: the search settings (:class:`~amreval.match.options.SearchKeywords`), each optional:

            * ``solver``: ``"exact"`` (default: certified), ``"hillclimb"`` or ``"auto"``
              (see :mod:`amreval.match.alignment`);
            * ``restarts``: random starts of hill climbing after the greedy one (smatch's
              ``-r``; default 19, climbs stop early once one reaches the bound);
            * ``seed``: seed of the random starts; the same inputs and seed give the same result;
            * ``work_limit``: simplex iterations of HiGHS per LP bound of a pair (default 50,000;
              :data:`~amreval.match.options.DEFAULT_WORK_LIMIT`): with the search's other counts it decides
              where a search stops, the same on every machine;
            * ``time_limit``: seconds per pair, the safety net (default 600): a pair it stops is counted in
              ``n_timed_out`` (its numbers can depend on the machine's speed and load).

    Returns:
        A :class:`~amreval.scores.results.SmatchResult`.

    Raises:
        InputError: the two lists differ in length or are empty, an entry is
            not a graph, or a search setting is invalid.
        TypeError: a keyword that is neither one of the above nor a search setting.
        DecodeError: a reference (or, with ``strict``, a prediction) is
            malformed PENMAN (the message names it).
    """
    options = standardize_option(standardize)
    score_pair = score_smatch_pair if not options else partial(score_smatch_pair, standardize=standardize)
    return score_corpus(
        predictions,
        references,
        score_pair,
        Config("smatch", SearchOptions.from_keywords(**search), options + strict_option(strict)),
        bootstrap=interval_resamples(ci, n_resamples, bootstrap),
        confidence=confidence,
        progress=progress,
        desc="smatch",
        unit="pair",
        num_workers=num_workers,
        strict=strict,
    )
