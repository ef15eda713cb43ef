"""What a score gives back: the score of a pair, of a corpus, and the settings that produced it.

Every result that is written out (to JSON, a log, a metric's output) is a
:class:`Result`: it has ``as_dict()``, plain data ready for :func:`json.dumps`.
The interface is a protocol rather than a base class because the results are
of different kinds (corpus scores, comparisons, averages, MFβ) and share no
state, only the way they are written out; code that writes any of them
checks for it with ``isinstance(x, Result)``.

Every result carries its :class:`Config` as data; :meth:`Config.as_string`
makes the one-line form that the command line and the metrics print.

Example:
    >>> Config("smatch", SearchOptions(restarts=4)).as_string().rsplit(",", 1)[0]
    'solver=exact,restarts=4,seed=0,time_limit=600,work_limit=50000,score=smatch'
    >>> isinstance(Config("smatch"), Result)
    True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from amreval._version import __version__
from amreval.match.options import SearchOptions
from amreval.scores.f1 import prf

__all__ = ["Result", "PairScore", "SmatchResult", "Config"]


@runtime_checkable
class Result(Protocol):
    """A result that can be written out: ``as_dict()`` gives its numbers (and settings) as plain data.

    The mapping holds only what :func:`json.dumps` takes (str keys; numbers, strings, None, bools, and
    lists and dicts of them). A class may take optional arguments (MFβ's ``per_example``, an average's
    ``prefix``); called without any, it gives its summary.
    """

    def as_dict(self) -> dict[str, Any]:
        """The result as plain data, for JSON and logs."""
        ...


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
        over_budget: the pair's alignment problem, or its LP bounds, were over the
            memory budget (:data:`~amreval.match.problem.MEMORY_BUDGET`): it was aligned
            over each node's best candidates (:mod:`amreval.match.approximate`), or
            certified without the LP; ``match`` is a lower bound, proven only where it
            reaches ``bound``.
        timed_out: the time limit, the search's safety net, stopped (or cut short) a step of the pair's search
            (:attr:`~amreval.match.problem.Alignment.timed_out`): where it stopped depends on the machine's speed
            and load, so the pair's numbers may differ on another run. Every other result is decided by counts.
        id: the pair's id, as the command line names a pair: the gold graph's ``::id``, else the
            prediction's; None when neither has one (set by the corpus scorers, which read the graphs).
    """

    match: float
    test: int
    gold: int
    optimal: bool
    bound: float
    mapping: np.ndarray | None = field(default=None, repr=False, compare=False)
    over_budget: bool = field(default=False, repr=False)
    timed_out: bool = field(default=False, repr=False)
    id: str | None = field(default=None, repr=False, compare=False)

    def as_dict(self) -> dict[str, Any]:
        """The pair's counts and scores as plain data (with its ``id`` when it has one), for JSON and logs."""
        out: dict[str, Any] = {"id": self.id} if self.id is not None else {}
        out.update(
            match=self.match,
            test=self.test,
            gold=self.gold,
            precision=self.precision,
            recall=self.recall,
            f1=self.f1,
            optimal=bool(self.optimal),
        )
        return out

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
class Config(Result):
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
            f"work_limit={s.work_limit}",
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
            "work_limit": s.work_limit,
        }
        out.update(self.options)
        out["amreval"] = self.version
        return out


@dataclass
class SmatchResult(Result):
    """A corpus score (Smatch, and the base of the others).

    Attributes:
        precision, recall, f1: the micro-averaged scores.
        match, test, gold: the summed counts.
        pairs: the score of each pair.
        n_optimal: how many pairs are proven optimal.
        ci: ``(low, high)`` bootstrap confidence interval of F1, when asked.
        config: what produced the result (:class:`Config`).
        unreadable_predictions: indices of the predictions that could not
            be read and were scored as empty graphs (``strict=False``).

    Every list of positions here (``unreadable_predictions``, :attr:`unproven`, :attr:`over_budget`)
    holds Python indices, counted from 0 as ``pairs`` is: ``0`` is ``pairs[0]``. Messages and the
    command line print positions counted from 1 (``prediction #1``, ``pair #1``, ``Pair 1``,
    ``Not proven optimal ...: 1 of 3 (#1)``), so index ``k`` is printed as ``#k+1``.

    With the default (certified) search every pair is proven optimal unless
    a work limit of its search ran out (a count: the same on every machine), the
    time limit (the safety net, :attr:`timed_out`) stopped it, or its alignment
    problem was over the memory budget (:attr:`over_budget`, aligned within it
    instead): :attr:`unproven` lists those pairs and :attr:`gap` is how many
    matches the optimum could still add.
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
        """Indices (from 0) of the pairs whose score is not proven optimal."""
        return [k for k, p in enumerate(self.pairs) if not p.optimal]

    @property
    def over_budget(self) -> list[int]:
        """Indices (from 0) of the pairs whose alignment problem was over the memory budget (aligned over each
        node's best candidates, :attr:`PairScore.over_budget`)."""
        return [k for k, p in enumerate(self.pairs) if p.over_budget]

    @property
    def timed_out(self) -> list[int]:
        """Positions of the pairs whose search the time limit (the safety net) stopped or cut short
        (:attr:`PairScore.timed_out`): their numbers can depend on the machine's speed and load."""
        return [k for k, p in enumerate(self.pairs) if p.timed_out]

    @property
    def gap(self) -> float:
        """Best bound minus score, summed over the unproven pairs (0 when all are proven)."""
        return round(sum((max(0.0, p.bound - p.match) for p in self.pairs if not p.optimal), 0.0), 6)

    def as_dict(self) -> dict[str, float | int | str | None]:
        """Flat numbers, then ``score`` and the ``config`` line: ready for logging or JSON.

        A sub-score with nothing to score is None (see :func:`~amreval.scores.f1.prf_or_none`).
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
            "n_over_budget": len(self.over_budget),
            "n_timed_out": len(self.timed_out),
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
