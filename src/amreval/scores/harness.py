"""The corpus harness every score shares: pairing, seeds, workers, micro-average, intervals.

A scorer provides one function, ``score_pair(prediction, gold, search)``,
that scores one pair of graphs with a :class:`~amreval.match.SearchOptions`
whose seed belongs to that pair. :func:`score_corpus` checks the two lists,
derives each pair's seed from the user's seed and the pair's position (so a
pair's result depends neither on the other pairs nor on the number of
workers), scores the pairs in order or in worker processes, and sums match,
test and gold counts over all pairs before precision, recall and F1 are
computed: the micro-average, which is the published definition of Smatch.

Every result carries its :class:`Config` as data; :meth:`Config.as_string`
makes the one-line form that the command line and the metrics print.

Example:
    >>> prf(25, 30, 29)
    (0.8333333333333334, 0.8620689655172413, 0.847457627118644)
    >>> Config("smatch", SearchOptions(restarts=4)).as_string().rsplit(",", 1)[0]
    'solver=hillclimb,restarts=4,seed=0,time_limit=30,score=smatch'
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from amreval._progress import progress_bar
from amreval._version import __version__
from amreval.amr.graph import Graph
from amreval.amr.read import GraphLike, as_graph
from amreval.errors import InputError
from amreval.match.alignment import SearchOptions

__all__ = [
    "prf",
    "PairScore",
    "SmatchResult",
    "Config",
    "score_corpus",
    "summarize",
    "bootstrap_f1",
    "pair_search",
    "ScorePair",
]


def prf(match: float, test: float, gold: float) -> tuple[float, float, float]:
    """Precision, recall and F1 from counts (0 where undefined).

    Example:
        >>> prf(3, 4, 4)
        (0.75, 0.75, 0.75)
        >>> prf(0, 0, 5)
        (0.0, 0.0, 0.0)
    """
    if test <= 0 or gold <= 0:
        return 0.0, 0.0, 0.0
    p = match / test
    r = match / gold
    if p + r == 0:
        return p, r, 0.0
    return p, r, 2 * p * r / (p + r)


@dataclass
class PairScore:
    """The score of one pair.

    Attributes:
        match, test, gold: matched triples (graded, so a float, for S²match),
            triples of the prediction, of the gold graph.
        optimal: whether ``match`` is proven to be the best possible.
        bound: the best known upper bound on ``match``.
        mapping: the alignment scored: for each predicted node (in
            :func:`~amreval.match.triples.graph_triples` order) the gold node,
            or -1; pictures and explanations reuse it instead of aligning again.
    """

    match: float
    test: int
    gold: int
    optimal: bool
    bound: float
    mapping: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def precision(self) -> float:
        return prf(self.match, self.test, self.gold)[0]

    @property
    def recall(self) -> float:
        return prf(self.match, self.test, self.gold)[1]

    @property
    def f1(self) -> float:
        return prf(self.match, self.test, self.gold)[2]


@dataclass(frozen=True)
class Config:
    """What produced a result, as data.

    Attributes:
        score: the score's name (``smatch``, ``docsmatch``, ``s2match``, ``mfbeta``).
        search: the alignment search's settings.
        options: the score's own settings, in the order they are written.
        version: the amreval version.
    """

    score: str
    search: SearchOptions = field(default_factory=SearchOptions)
    options: tuple[tuple[str, Any], ...] = ()
    version: str = __version__

    def as_string(self) -> str:
        """The configuration as one line, for the command line and metric outputs."""
        s = self.search
        parts = [
            f"solver={s.solver}",
            f"restarts={s.restarts}",
            f"seed={s.seed}",
            f"time_limit={s.time_limit:g}",
            f"score={self.score}",
        ]
        parts += [f"{k}={v}" for k, v in self.options]
        parts.append(f"amreval={self.version}")
        return ",".join(parts)

    def as_dict(self) -> dict[str, Any]:
        """The configuration as a flat mapping (for JSON)."""
        s = self.search
        out: dict[str, Any] = {
            "score": self.score,
            "solver": s.solver,
            "restarts": s.restarts,
            "seed": s.seed,
            "time_limit": s.time_limit,
        }
        out.update(self.options)
        out["amreval"] = self.version
        return out


@dataclass
class SmatchResult:
    """A corpus score (Smatch, and the base of the others).

    Attributes:
        precision, recall, f1: the micro-averaged scores.
        match, test, gold: the summed counts.
        pairs: the score of each pair.
        n_optimal: how many pairs are proven optimal.
        ci: ``(low, high)`` bootstrap confidence interval of F1, when asked.
        config: what produced the result (:class:`Config`).
    """

    precision: float
    recall: float
    f1: float
    match: float
    test: int
    gold: int
    pairs: list[PairScore] = field(default_factory=list)
    n_optimal: int = 0
    ci: tuple[float, float] | None = None
    config: Config = field(default_factory=lambda: Config("smatch"))

    def as_dict(self) -> dict[str, float | int | str]:
        """Flat numbers, then ``score`` and the ``config`` line: ready for logging or JSON."""
        out: dict[str, float | int | str] = {
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "match": self.match,
            "test": self.test,
            "gold": self.gold,
            "n_pairs": len(self.pairs),
            "n_optimal": self.n_optimal,
        }
        if self.ci is not None:
            out["f1_ci_low"], out["f1_ci_high"] = self.ci
        self._add_numbers(out)
        out["score"] = self.config.score
        out["config"] = self.config.as_string()
        return out

    def _add_numbers(self, out: dict[str, float | int | str]) -> None:
        """Subclasses add their own numbers after the common ones."""


#: ``score_pair(prediction, gold, search)``: one pair's score under a pair's own search options.
ScorePair = Callable[[Graph, Graph, SearchOptions], PairScore]


def pair_search(search: SearchOptions, index: int) -> SearchOptions:
    """The search options of the pair at ``index``: its own seed, derived from the user's.

    Example:
        >>> pair_search(SearchOptions(seed=1), 2).seed
        2654435763
    """
    return replace(search, seed=(int(search.seed) * 0x9E3779B1 + index) & 0xFFFFFFFFFFFFFFFF)


def score_corpus(
    predictions: Iterable[GraphLike],
    references: Iterable[GraphLike],
    score_pair: ScorePair,
    config: Config,
    *,
    bootstrap: int = 0,
    confidence: float = 0.95,
    progress: bool | None = None,
    desc: str = "scoring",
    unit: str = "pair",
    num_workers: int = 1,
) -> SmatchResult:
    """Check two lists paired by position, score each pair, micro-average.

    With ``num_workers > 1`` pairs are scored in that many processes and
    ``score_pair`` must be picklable (a module-level function or a
    ``functools.partial`` of one). Every graph is read and checked here first,
    so a bad input is reported by its index before any work.

    Raises:
        InputError: the lists differ in length or are empty, an entry is not
            a graph, or ``num_workers`` is below 1.
    """
    preds = list(predictions)
    refs = list(references)
    if len(preds) != len(refs):
        raise InputError(f"{len(preds)} predictions but {len(refs)} references; they are paired by position")
    if not preds:
        raise InputError("nothing to score: predictions and references are empty")
    if num_workers < 1:
        raise InputError(f"num_workers must be >= 1, got {num_workers}")
    search = config.search
    if num_workers > 1 and len(preds) > 1:
        graphs = [(as_graph(preds[k], "prediction", k), as_graph(refs[k], "reference", k)) for k in range(len(preds))]
        searches = [pair_search(search, k) for k in range(len(graphs))]
        chunk = max(1, len(graphs) // (num_workers * 8))
        with ProcessPoolExecutor(
            max_workers=min(num_workers, len(graphs)), mp_context=multiprocessing.get_context()
        ) as pool:
            results = pool.map(score_pair, [g[0] for g in graphs], [g[1] for g in graphs], searches, chunksize=chunk)
            pairs = list(progress_bar(results, enable=progress, desc=desc, unit=unit, total=len(graphs)))
    else:
        pairs = []
        for k in progress_bar(range(len(preds)), enable=progress, desc=desc, unit=unit):
            a = as_graph(preds[k], "prediction", k)
            b = as_graph(refs[k], "reference", k)
            pairs.append(score_pair(a, b, pair_search(search, k)))
    return summarize(pairs, config, bootstrap=bootstrap, confidence=confidence)


def summarize(
    pairs: list[PairScore],
    config: Config,
    *,
    bootstrap: int = 0,
    confidence: float = 0.95,
) -> SmatchResult:
    """Micro-average pair scores into a :class:`SmatchResult`."""
    match = sum(p.match for p in pairs)
    test = sum(p.test for p in pairs)
    gold = sum(p.gold for p in pairs)
    p, r, f = prf(match, test, gold)
    ci = (
        bootstrap_f1(pairs, n_resamples=bootstrap, confidence=confidence, seed=config.search.seed)
        if bootstrap
        else None
    )
    return SmatchResult(p, r, f, match, test, gold, pairs, sum(x.optimal for x in pairs), ci, config)


def bootstrap_f1(
    pairs: Sequence[PairScore],
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Bootstrap confidence interval of the micro-averaged F1 (pairs resampled).

    Uses :func:`scipy.stats.bootstrap` (percentile) with a seeded generator,
    so the interval is reproducible.

    Raises:
        InputError: fewer than 2 pairs.
    """
    from scipy.stats import bootstrap as _bootstrap

    if len(pairs) < 2:
        raise InputError("a bootstrap interval needs at least 2 pairs")
    m = np.array([p.match for p in pairs], dtype=float)
    t = np.array([p.test for p in pairs], dtype=float)
    g = np.array([p.gold for p in pairs], dtype=float)

    def stat(m_: np.ndarray, t_: np.ndarray, g_: np.ndarray, axis: int = -1) -> np.ndarray:
        ms, ts, gs = m_.sum(axis=axis), t_.sum(axis=axis), g_.sum(axis=axis)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where((ts > 0) & (gs > 0), 2 * ms / (ts + gs), 0.0)

    rng = np.random.default_rng(seed)
    res = _bootstrap(
        (m, t, g),
        stat,
        paired=True,
        vectorized=True,
        n_resamples=n_resamples,
        confidence_level=confidence,
        random_state=rng,
        method="percentile",
    )
    return float(res.confidence_interval.low), float(res.confidence_interval.high)
