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
    'solver=exact,restarts=4,seed=0,time_limit=30,score=smatch'
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from amreval._progress import progress_bar
from amreval._version import __version__
from amreval._warn import warn_caller
from amreval.amr.graph import Graph
from amreval.amr.read import UnreadableGraph, as_graph
from amreval.errors import InputError, OutOfMemory, TooLarge
from amreval.match.options import SearchOptions
from amreval.scores.checks import check_bool, check_confidence, check_int

T = TypeVar("T")

__all__ = [
    "map_pairs",
    "prf",
    "prf_or_none",
    "PairScore",
    "SmatchResult",
    "Config",
    "score_corpus",
    "summarize",
    "bootstrap_f1",
    "pair_search",
    "pair_seed",
    "read_predictions",
    "ScorePair",
    "whole_bound",
    "warn_unreadable",
    "score_named",
    "start_workers",
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


def prf_or_none(match: float, test: float, gold: float) -> tuple[float | None, float | None, float | None]:
    """Precision, recall and F1 of a sub-score, None where there is nothing to score.

    Precision is None without predicted items, recall without gold items,
    F1 when there are neither (otherwise as :func:`prf`).

    Example:
        >>> prf_or_none(0, 0, 0), prf_or_none(0, 0, 4), prf_or_none(2, 4, 4)
        ((None, None, None), (None, 0.0, 0.0), (0.5, 0.5, 0.5))
    """
    p, r, f = prf(match, test, gold)
    return (
        None if test <= 0 else p,
        None if gold <= 0 else r,
        None if test <= 0 and gold <= 0 else f,
    )


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
        unreadable_predictions: positions of the predictions that could not
            be read and were scored as empty graphs (``strict=False``).

    With the default (certified) search every pair is proven optimal unless
    its time limit ran out: :attr:`unproven` lists those pairs and
    :attr:`gap` is how many matches the optimum could still add.
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
    unreadable_predictions: list[int] = field(default_factory=list)

    @property
    def unproven(self) -> list[int]:
        """Positions of the pairs whose score is not proven optimal."""
        return [k for k, p in enumerate(self.pairs) if not p.optimal]

    @property
    def gap(self) -> float:
        """Best bound minus score, summed over the unproven pairs (0 when all are proven)."""
        return round(sum((max(0.0, p.bound - p.match) for p in self.pairs if not p.optimal), 0.0), 6)

    def as_dict(self) -> dict[str, float | int | str | None]:
        """Flat numbers, then ``score`` and the ``config`` line: ready for logging or JSON.

        A sub-score with nothing to score is None (see :func:`prf_or_none`).
        """
        out: dict[str, float | int | str | None] = {
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "match": self.match,
            "test": self.test,
            "gold": self.gold,
            "n_pairs": len(self.pairs),
            "n_optimal": self.n_optimal,
            "n_unreadable": len(self.unreadable_predictions),
            "n_unproven": len(self.pairs) - self.n_optimal,
            "gap": self.gap,
        }
        if self.ci is not None:
            out["f1_ci_low"], out["f1_ci_high"] = self.ci
        self._add_numbers(out)
        out["score"] = self.config.score
        out["config"] = self.config.as_string()
        return out

    def _add_numbers(self, out: dict[str, float | int | str | None]) -> None:
        """Subclasses add their own numbers after the common ones."""


def whole_bound(bound: float) -> float:
    """The best bound on a count of whole triples: the whole part of a fractional bound
    (:func:`amreval.match.certify.proof.whole_bound`)."""
    from amreval.match.certify.proof import whole_bound as whole

    return whole(bound)


#: ``score_pair(prediction, gold, search)``: one pair's score under a pair's own search options.
ScorePair = Callable[[Graph, Graph, SearchOptions], PairScore]


def pair_search(search: SearchOptions, index: int) -> SearchOptions:
    """The search options of the pair at ``index``: its own seed, derived from the user's.

    Example:
        >>> pair_search(SearchOptions(seed=1), 2).seed
        2654435763
    """
    return search.with_seed(pair_seed(search.seed, index))


_MASK64 = (1 << 64) - 1
_INT63 = 1 << 63


def pair_seed(seed: int, index: int) -> int:
    """The seed of the pair at ``index`` under the user's ``seed``: any Python int gives a value in ``[0, 2**63)``.

    For a seed in ``[0, 2**64)`` it is ``(seed * 0x9E3779B1 + index) mod 2**64``
    whenever that is below ``2**63`` (so seed 0 gives ``index``); otherwise it
    is 63 bits of a hash of the seed and the index. It depends on nothing
    else (not on other calls, not on the process).

    Example:
        >>> pair_seed(0, 5), pair_seed(1, 2)
        (5, 2654435763)
        >>> 0 <= pair_seed(-1, 0) < 2**63 and 0 <= pair_seed(7174667213974021846, 3) < 2**63
        True
    """
    seed, index = int(seed), int(index)
    legacy = (seed * 0x9E3779B1 + index) & _MASK64
    if 0 <= seed <= _MASK64 and 0 <= index and legacy < _INT63:
        return legacy
    import hashlib

    digest = hashlib.blake2b(f"{seed},{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


ReadGraph = Callable[..., Graph]


def strict_option(strict: bool) -> tuple[tuple[str, Any], ...]:
    """The ``strict`` entry of a :class:`Config`'s options: recorded only when true."""
    return (("strict", True),) if strict else ()


def read_predictions(
    predictions: Sequence[object], read: ReadGraph = as_graph, *, strict: bool = False, noun: str = "graphs"
) -> tuple[list[Graph], list[int]]:
    """Read predictions by the one rule for bad predictions.

    A prediction that cannot be read (malformed or empty PENMAN) is scored as an empty graph, and
    a sentence that cannot be read in a list of sentences as an empty sentence; their positions
    are returned. One :class:`~amreval.errors.AmrevalWarning` names the predictions scored empty
    and one the sentences, counted by what they are (``noun``: ``"graphs"``, ``"documents"``) and
    attributed to the caller. With ``strict=True`` the first such prediction raises its error.

    Returns:
        The graphs and the positions of the predictions with anything unreadable.
    """
    graphs: list[Graph] = []
    failed: list[int] = []
    whole: list[tuple[int, InputError]] = []  # scored as empty graphs
    sentences: list[tuple[int, list[InputError]]] = []  # documents with sentences scored as empty
    for k, item in enumerate(predictions):
        errors: list[InputError] | None = None if strict else []
        graph = read(item, "prediction", k, errors=errors)
        graphs.append(graph)
        if errors:
            failed.append(k)
            if isinstance(graph, UnreadableGraph):
                whole.append((k, errors[0]))
            else:
                sentences.append((k, errors))
    n = len(graphs)
    if whole:
        warn_unreadable([k for k, _ in whole], n, whole[0][1], noun=noun)
    if sentences:
        count = sum(len(errors) for _, errors in sentences)
        scored = "was scored as an empty sentence" if count == 1 else "were scored as empty sentences"
        warn_caller(
            f"{_plural(count, 'sentence')} of {len(sentences)} of {n} predicted {noun} could not be read "
            f"and {scored} ({_listed(k for k, _ in sentences)}; the first: "
            f"{sentences[0][1][0]}); {_ADVICE}"
        )
    return graphs, failed


_ADVICE = "pass strict=True (--strict) to stop at the first"


def warn_unreadable(failed: Sequence[int], n: int, first: object, noun: str = "graphs") -> None:
    """The one warning that names the predictions (of ``n``) that could not be read and were scored as
    empty graphs; ``first`` is the first's error."""
    scored = "was scored as an empty graph" if len(failed) == 1 else "were scored as empty graphs"
    warn_caller(
        f"{len(failed)} of {n} predicted {noun} could not be read and {scored} "
        f"({_listed(failed)}; the first: {first}); {_ADVICE}"
    )


def _listed(positions: Iterable[int]) -> str:
    shown = [f"#{k}" for k in positions]  # numbered as the predictions' other messages are ("prediction #0")
    listed = ", ".join(shown[:10]) + (", ..." if len(shown) > 10 else "")
    return ("prediction " if len(shown) == 1 else "predictions ") + listed


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _die_with_parent(parent: int) -> None:
    """Initializer of worker processes: a worker ends when the process that started it ends.

    On Linux, in a child of that process (the fork and spawn start methods), the
    kernel kills it (``PR_SET_PDEATHSIG``), however the parent ended (a
    signal, SIGKILL, the OOM killer); elsewhere, and in a child of a fork
    server (the forkserver start method, Python 3.14's default on Linux), a
    thread checks every half second that the process is still there.
    """
    try:
        signal.set_wakeup_fd(-1)  # a signal to this worker alone does not wake its parent's handler
    except ValueError:  # pragma: no cover - not the worker's main thread
        pass
    if sys.platform.startswith("linux") and os.getppid() == parent:
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(1, int(signal.SIGKILL), 0, 0, 0) == 0:  # PR_SET_PDEATHSIG
                if os.getppid() != parent:  # the parent ended before the call
                    os._exit(1)
                return
        except (OSError, AttributeError):  # pragma: no cover - Linux without a usable libc
            pass
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    while True:
        if not _alive(parent):
            os._exit(1)
        time.sleep(0.5)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - there, but another user's (the id was reused)
        return True
    return True


def score_corpus(
    predictions: Iterable[object],
    references: Iterable[object],
    score_pair: ScorePair,
    config: Config,
    *,
    bootstrap: int = 0,
    confidence: float = 0.95,
    progress: bool | None = None,
    desc: str = "scoring",
    unit: str = "pair",
    num_workers: int = 1,
    strict: bool = False,
    read: ReadGraph = as_graph,
    noun: str = "graphs",
) -> SmatchResult:
    """Check two lists paired by position, score each pair, micro-average.

    With ``num_workers > 1`` pairs are scored in that many processes and
    ``score_pair`` must be picklable (a module-level function or a
    ``functools.partial`` of one); the workers end when this process ends.
    Every graph is read and checked here first, so a bad input is reported
    by its index before any work. A prediction that cannot be read is scored
    as an empty graph (see :func:`read_predictions`; ``strict=True`` raises
    instead); a reference that cannot be read is an error.

    Args:
        read: ``read(item, what, index, errors=...)`` gives the graph of one
            entry (default :func:`~amreval.amr.read.as_graph`).

    Raises:
        InputError: the lists differ in length or are empty, an entry is not
            a graph, a reference cannot be read, or ``num_workers``,
            ``bootstrap`` or ``confidence`` is out of range, or ``strict`` or ``progress`` is not a bool.
    """
    strict = bool(check_bool("strict", strict))
    progress = check_bool("progress", progress, optional=True)
    num_workers = check_int("num_workers", num_workers, 1)
    bootstrap = check_int("bootstrap", bootstrap, 0)
    confidence = check_confidence(confidence)
    preds = list(predictions)
    refs = list(references)
    if len(preds) != len(refs):
        raise InputError(f"{len(preds)} predictions but {len(refs)} references; they are paired by position")
    if not preds:
        raise InputError("nothing to score: predictions and references are empty")
    golds = [read(r, "reference", k) for k, r in enumerate(refs)]
    graphs, failed = read_predictions(preds, read, strict=strict, noun=noun)
    searches = [pair_search(config.search, k) for k in range(len(graphs))]
    pairs = map_pairs(
        score_pair, graphs, golds, searches, num_workers=num_workers, progress=progress, desc=desc, unit=unit
    )
    result = summarize(pairs, config, bootstrap=bootstrap, confidence=confidence)
    result.unreadable_predictions = failed
    return result


def map_pairs(
    func: Callable[..., T],
    *columns: Sequence[Any],
    num_workers: int = 1,
    progress: bool | None = None,
    desc: str = "scoring",
    unit: str = "pair",
) -> list[T]:
    """``[func(*row) for row in zip(*columns)]``, in this process or in ``num_workers`` worker processes.

    With workers, ``func`` must be picklable (a module-level function or a
    ``functools.partial`` of one) and so must the columns' items; results come
    back in order, and the workers end when this process ends.

    Raises:
        TooLarge: a pair's alignment problem is over the memory budget (the message names the pair first).
        OutOfMemory: scoring a pair ran out of memory (a ``MemoryError``; the message names the pair).
    """
    n = len(columns[0]) if columns else 0
    one = _OnePair(func)
    if num_workers > 1 and n > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        chunk = max(1, n // (num_workers * 8))
        with ProcessPoolExecutor(
            max_workers=min(num_workers, n),
            mp_context=multiprocessing.get_context(),
            initializer=_die_with_parent,
            initargs=(os.getpid(),),
        ) as pool:
            results = pool.map(one, range(n), *columns, chunksize=chunk)
            return list(progress_bar(results, enable=progress, desc=desc, unit=unit, total=n))
    rows = progress_bar(zip(range(n), *columns), enable=progress, desc=desc, unit=unit, total=n)
    return [one(*row) for row in rows]


def score_named(func: Callable[..., T], index: int, *row: Any) -> T:
    """``func(*row)`` for the pair at ``index``, its memory errors naming the pair as :func:`map_pairs`'s do."""
    return _OnePair(func)(index, *row)


def start_workers(num_workers: int) -> Any:
    """A pool of ``num_workers`` worker processes (a :class:`~concurrent.futures.ProcessPoolExecutor`) that
    end when this process ends, as :func:`map_pairs` starts them."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(
        max_workers=num_workers,
        mp_context=multiprocessing.get_context(),
        initializer=_die_with_parent,
        initargs=(os.getpid(),),
    )


class _OnePair:
    """``func`` on the pair at an index (picklable where ``func`` is, for the workers): a pair over the
    memory budget (:class:`~amreval.errors.TooLarge`) or one whose scoring runs out of memory
    (``MemoryError``, from the kernels, NumPy or HiGHS) raises an error that names it."""

    def __init__(self, func: Callable[..., Any]) -> None:
        self.func = func

    def __call__(self, index: int, *row: Any) -> Any:
        try:
            return self.func(*row)
        except TooLarge as exc:
            raise TooLarge(exc.n_terms, exc.n_entries, f"{_pair_name(index, row)}: {exc}") from None
        except OutOfMemory:
            raise
        except MemoryError as exc:
            detail = str(exc) or "no memory left"
        # out of the handler, the failed call's frames (and the arrays they held) are released
        from amreval.match.problem import MEMORY_BUDGET

        raise OutOfMemory(
            f"{_pair_name(index, row)}: out of memory scoring the pair ({detail}); scoring a pair may take up "
            f"to the alignment's memory budget, {MEMORY_BUDGET / 1024**3:.1f} GiB, beyond what the process "
            "holds: allow the process more memory (or run fewer workers), or split the graph"
        )


def _pair_name(index: int, row: Sequence[Any]) -> str:
    """The pair at ``index`` as messages name it: ``pair #index``, and where its first two items are graphs
    read from somewhere, where they came from.

    Example:
        >>> from amreval.amr.read import as_graph
        >>> _pair_name(3, (as_graph("(a / b)", "prediction", 3), as_graph("(c / d)", "reference", 3)))
        'pair #3 (prediction #3, graph #1, line 1 against reference #3, graph #1, line 1)'
        >>> _pair_name(0, ("x", "y"))
        'pair #0'
    """
    origins = [getattr(x, "origin", None) for x in row[:2]]
    if len(origins) == 2 and all(isinstance(o, str) for o in origins):
        return f"pair #{index} ({origins[0]} against {origins[1]})"
    return f"pair #{index}"


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
    return SmatchResult(p, r, f, match, test, gold, pairs, sum(bool(x.optimal) for x in pairs), ci, config)


def bootstrap_f1(
    pairs: Sequence[PairScore],
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Bootstrap confidence interval of the micro-averaged F1 (pairs resampled).

    The percentile interval of :mod:`amreval.scores.bootstrap` (the resamples
    of :func:`scipy.stats.bootstrap`) with a generator seeded by ``seed``, so
    the interval is reproducible; F1 is resampled as ``2 match / (test + gold)``
    (:func:`~amreval.scores.corpus_statistics.dice_f1_statistic`).

    Raises:
        InputError: fewer than 2 pairs, ``confidence`` not strictly between 0
            and 1, or ``n_resamples`` below 1.
    """
    from amreval.scores.bootstrap import bootstrap_statistics
    from amreval.scores.corpus_statistics import dice_f1_statistic

    confidence = check_confidence(confidence)
    n_resamples = check_int("n_resamples", n_resamples, 1)
    if len(pairs) < 2:
        raise InputError("a bootstrap interval needs at least 2 pairs")
    counts = np.array([(p.match, p.test, p.gold) for p in pairs], dtype=float)
    low, high = bootstrap_statistics(counts, [dice_f1_statistic()], n_resamples, confidence, seed)
    return float(low[0]), float(high[0])
