"""Sentence-level Smatch (Cai & Knight 2013) on the shared alignment engine.

The corpus score is the micro-average: match, test and gold triple counts are
summed over all pairs before precision, recall and F1 are computed, which is
the published definition and what ``smatch.py`` prints.

Example:
    >>> result = smatch(["(w / want-01 :ARG0 (b / boy))"], ["(w / want-01 :ARG0 (g / girl))"])
    >>> result.match, result.test, result.gold, round(result.f1, 4)
    (3, 4, 4, 0.75)
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence, Union

import numpy as np

from ._progress import progress_bar
from .alignment import DEFAULT_RESTARTS, DEFAULT_SOLVER, SOLVERS, Alignment, Problem, align, build_problem
from .errors import InputError
from .graph import Graph, read_graph
from .triples import Triples, encode_pair, graph_triples

__all__ = ["PairScore", "SmatchResult", "prf", "smatch", "smatch_pair", "align_triples", "GraphLike"]

logger = logging.getLogger(__name__)

GraphLike = Union[Graph, str]


def prf(match: float, test: float, gold: float) -> tuple[float, float, float]:
    """Precision, recall and F1 from counts (0 where undefined).

    Example:
        >>> prf(25, 30, 29)
        (0.8333333333333334, 0.8620689655172413, 0.847457627118644)
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
    """Smatch of one pair.

    Attributes:
        match, test, gold: matched triples, triples of the prediction, of the gold graph.
        optimal: whether ``match`` is proven to be the best possible.
        bound: the best known upper bound on ``match``.
    """

    match: int
    test: int
    gold: int
    optimal: bool
    bound: float

    @property
    def precision(self) -> float:
        return prf(self.match, self.test, self.gold)[0]

    @property
    def recall(self) -> float:
        return prf(self.match, self.test, self.gold)[1]

    @property
    def f1(self) -> float:
        return prf(self.match, self.test, self.gold)[2]


@dataclass
class SmatchResult:
    """Corpus Smatch.

    Attributes:
        precision, recall, f1: the micro-averaged scores.
        match, test, gold: the summed counts.
        pairs: the score of each pair.
        n_optimal: how many pairs are proven optimal.
        ci: ``(low, high)`` bootstrap confidence interval of F1, when asked.
        config: solver, restarts, seed and package version, as one string.
    """

    precision: float
    recall: float
    f1: float
    match: int
    test: int
    gold: int
    pairs: list[PairScore] = field(default_factory=list)
    n_optimal: int = 0
    ci: tuple[float, float] | None = None
    config: str = ""

    def as_dict(self) -> dict[str, float | int | str]:
        """Flat numbers (and the config string), ready for logging or JSON."""
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
        out["config"] = self.config
        return out


def _check_graph(g: Graph, what: str, index: int) -> Graph:
    """A Graph object built by hand must point only to its own variables."""
    known = g.instances
    if g.top is not None and g.top not in known:
        raise InputError(f"{what} #{index}: the top {g.top!r} is not a variable of the graph")
    for e in g.edges:
        for v in (e.source, e.target):
            if v not in known:
                raise InputError(f"{what} #{index}: edge {e.source} :{e.written} {e.target} names the "
                                 f"unknown variable {v!r}")
    for at in g.attributes:
        if at.source not in known:
            raise InputError(f"{what} #{index}: attribute :{at.role} of the unknown variable {at.source!r}")
    return g


def _as_graph(g: GraphLike, what: str, index: int) -> Graph:
    if isinstance(g, Graph):
        return _check_graph(g, what, index)
    if isinstance(g, str):
        if not g.strip():
            raise InputError(f"{what} #{index}: empty string; expected a PENMAN graph")
        return read_graph(g, name=f"{what} #{index}")
    raise InputError(f"{what} #{index}: expected a PENMAN string or a Graph, got {type(g).__name__}")


def align_triples(
    a: Triples,
    b: Triples,
    *,
    solver: str = DEFAULT_SOLVER,
    restarts: int = DEFAULT_RESTARTS,
    seed: int = 0,
    time_limit: float = 30.0,
    allowed: np.ndarray | None = None,
) -> tuple[Alignment, Problem]:
    """Align two triple sets (the building block of every score)."""
    problem = build_problem(encode_pair(a, b), allowed=allowed)
    return align(problem, solver=solver, restarts=restarts, seed=seed, time_limit=time_limit), problem  # type: ignore[arg-type]


def _pair_seed(seed: int, index: int) -> int:
    return (int(seed) * 0x9E3779B1 + index) & 0xFFFFFFFFFFFFFFFF


def smatch_pair(
    prediction: GraphLike,
    gold: GraphLike,
    *,
    solver: str = DEFAULT_SOLVER,
    restarts: int = DEFAULT_RESTARTS,
    seed: int = 0,
    time_limit: float = 30.0,
) -> PairScore:
    """Smatch of one predicted graph against one gold graph.

    Example:
        >>> s = smatch_pair("(a / b)", "(x / b)")
        >>> s.match, s.test, s.gold, s.f1
        (2, 2, 2, 1.0)
    """
    return _score_pair(
        graph_triples(_as_graph(prediction, "prediction", 0)),
        graph_triples(_as_graph(gold, "reference", 0)),
        solver, restarts, _pair_seed(seed, 0), time_limit,
    )


def _score_pair(
    a: Triples, b: Triples, solver: str, restarts: int, seed: int, time_limit: float,
    allowed: np.ndarray | None = None,
) -> PairScore:
    result, _ = align_triples(a, b, solver=solver, restarts=restarts, seed=seed, time_limit=time_limit,
                              allowed=allowed)
    match = int(round(result.score))
    return PairScore(match, a.count, b.count, result.optimal, float(result.bound))


def smatch(
    predictions: Sequence[GraphLike] | Iterable[GraphLike],
    references: Sequence[GraphLike] | Iterable[GraphLike],
    *,
    solver: str = DEFAULT_SOLVER,
    restarts: int = DEFAULT_RESTARTS,
    seed: int = 0,
    time_limit: float = 30.0,
    bootstrap: int = 0,
    confidence: float = 0.95,
    progress: bool | None = None,
) -> SmatchResult:
    """Corpus Smatch of predicted graphs against gold graphs, paired by position.

    Args:
        predictions: predicted graphs (PENMAN strings or :class:`Graph`).
        references: gold graphs, same length.
        solver: ``"hillclimb"`` (default), ``"exact"`` or ``"auto"``
            (see :mod:`amreval.alignment`).
        restarts: random starts of hill climbing after the greedy one (smatch's
            ``-r``; default 19, climbs stop early once one reaches the bound).
        seed: seed of the random starts; the same inputs and seed give the same result.
        time_limit: seconds allowed to the integer program per pair.
        bootstrap: number of bootstrap resamples for a confidence interval of
            F1 (0 = none; 1000 is a common choice).
        confidence: confidence level of that interval.
        progress: show a progress bar (default: only on a terminal).

    Returns:
        A :class:`SmatchResult`.

    Raises:
        InputError: the two lists differ in length or are empty, an entry is
            not a graph, or the solver is unknown.
        DecodeError: a PENMAN string is malformed (the message names it).
    """
    return score_corpus(
        predictions, references,
        lambda a, b, pair_seed: _score_pair(graph_triples(a), graph_triples(b), solver, restarts, pair_seed,
                                            time_limit),
        solver=solver, restarts=restarts, seed=seed, bootstrap=bootstrap, confidence=confidence,
        progress=progress, desc="smatch", unit="pair", config=config_string(solver, restarts, seed),
    )


def score_corpus(
    predictions: Sequence[GraphLike] | Iterable[GraphLike],
    references: Sequence[GraphLike] | Iterable[GraphLike],
    score_pair: Callable[[Graph, Graph, int], PairScore],
    *,
    solver: str,
    restarts: int,
    seed: int,
    bootstrap: int,
    confidence: float,
    progress: bool | None,
    desc: str,
    unit: str,
    config: str,
    num_workers: int = 1,
) -> SmatchResult:
    """Validate two lists paired by position, score each pair, micro-average.

    ``score_pair(prediction, gold, pair_seed)`` scores one pair; the pair seed
    is derived from ``seed`` and the pair's position, so a pair's result does
    not depend on the others, nor on ``num_workers``. With ``num_workers > 1``
    pairs are scored in that many processes and ``score_pair`` must be
    picklable (a module-level function or a ``functools.partial`` of one).
    """
    if solver not in SOLVERS:
        raise InputError(f"unknown solver {solver!r}; expected one of {', '.join(SOLVERS)}")
    if restarts < 0:
        raise InputError(f"restarts must be >= 0, got {restarts}")
    preds = list(predictions)
    refs = list(references)
    if len(preds) != len(refs):
        raise InputError(f"{len(preds)} predictions but {len(refs)} references; they are paired by position")
    if not preds:
        raise InputError("nothing to score: predictions and references are empty")
    if num_workers < 1:
        raise InputError(f"num_workers must be >= 1, got {num_workers}")
    if num_workers > 1 and len(preds) > 1:
        pairs = _score_parallel(preds, refs, score_pair, seed, num_workers, progress, desc, unit)
    else:
        pairs = []
        for idx in progress_bar(range(len(preds)), enable=progress, desc=desc, unit=unit):
            a = _as_graph(preds[idx], "prediction", idx)
            b = _as_graph(refs[idx], "reference", idx)
            pairs.append(score_pair(a, b, _pair_seed(seed, idx)))
    return summarize(pairs, bootstrap=bootstrap, confidence=confidence, seed=seed, config=config)


def _score_parallel(
    preds: list, refs: list, score_pair: Callable[[Graph, Graph, int], PairScore],
    seed: int, num_workers: int, progress: bool | None, desc: str, unit: str,
) -> list[PairScore]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # parse in this process first, so that a bad input is reported by index before any work
    graphs = [(_as_graph(preds[k], "prediction", k), _as_graph(refs[k], "reference", k)) for k in range(len(preds))]
    seeds = [_pair_seed(seed, k) for k in range(len(preds))]
    chunk = max(1, len(graphs) // (num_workers * 8))
    workers = min(num_workers, len(graphs))
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context()) as pool:
        results = pool.map(score_pair, [g[0] for g in graphs], [g[1] for g in graphs], seeds, chunksize=chunk)
        return list(progress_bar(results, enable=progress, desc=desc, unit=unit, total=len(graphs)))


def config_string(solver: str, restarts: int, seed: int, **extra: object) -> str:
    """The configuration as one string (recorded with every result)."""
    from . import __version__

    parts = [f"solver={solver}", f"restarts={restarts}", f"seed={seed}"]
    parts += [f"{k}={v}" for k, v in extra.items()]
    parts.append(f"amreval={__version__}")
    return ",".join(parts)


def summarize(
    pairs: list[PairScore],
    *,
    bootstrap: int = 0,
    confidence: float = 0.95,
    seed: int = 0,
    config: str = "",
) -> SmatchResult:
    """Micro-average pair scores into a :class:`SmatchResult`."""
    match = sum(p.match for p in pairs)
    test = sum(p.test for p in pairs)
    gold = sum(p.gold for p in pairs)
    p, r, f = prf(match, test, gold)
    ci = bootstrap_f1(pairs, n_resamples=bootstrap, confidence=confidence, seed=seed) if bootstrap else None
    return SmatchResult(p, r, f, match, test, gold, pairs, sum(x.optimal for x in pairs), ci, config)


def bootstrap_f1(
    pairs: Sequence[PairScore],
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Bootstrap confidence interval of the micro-averaged F1 (pairs resampled).

    Uses :func:`scipy.stats.bootstrap` (BCa when it can, else percentile)
    with a seeded generator, so the interval is reproducible.
    """
    from scipy.stats import bootstrap as _bootstrap

    if len(pairs) < 2:
        raise InputError("a bootstrap interval needs at least 2 pairs")
    m = np.array([p.match for p in pairs], dtype=float)
    t = np.array([p.test for p in pairs], dtype=float)
    g = np.array([p.gold for p in pairs], dtype=float)

    def stat(m_, t_, g_, axis=-1):
        ms, ts, gs = m_.sum(axis=axis), t_.sum(axis=axis), g_.sum(axis=axis)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.where((ts > 0) & (gs > 0), 2 * ms / (ts + gs), 0.0)
        return out

    rng = np.random.default_rng(seed)
    res = _bootstrap((m, t, g), stat, paired=True, vectorized=True, n_resamples=n_resamples,
                     confidence_level=confidence, random_state=rng, method="percentile")
    return float(res.confidence_interval.low), float(res.confidence_interval.high)
