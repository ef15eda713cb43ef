"""What a comparison of systems gives: a :class:`PairedTest` per pair, and the :class:`Comparison` of them all.

A :class:`Comparison` holds each system's per-item counts, item scores,
corpus score and interval, every pairwise test and the breakdown by score
part; :class:`ItemDifference` is one item's scores under two systems.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from amreval.errors import InputError
from amreval.scores.f1 import defined_or_none
from amreval.scores.results import Result

__all__ = ["PairedTest", "ItemDifference", "Comparison"]


@dataclass(frozen=True)
class PairedTest(Result):
    """A paired test of system ``a`` against system ``b`` over the same items.

    Attributes:
        a, b: the systems' names.
        score: the score compared (``smatch``, ``coref``, ``srl``, ``mfbeta``, ...).
        statistic: ``f1``, ``precision``, ``recall`` (or an MFβ part).
        score_a, score_b: the corpus scores; ``difference`` is ``score_a - score_b``.
        ci_low, ci_high: paired bootstrap percentile interval of the difference.
        p_value: of the test, for ``alternative``; ``p_holm`` the Holm-corrected
            p-value over all pairs of a comparison of several systems.

    A score with nothing to score on a system's side (a wikification F1 where no item has a ``:wiki``)
    is None, and so are the difference, its interval and the p-values: there is nothing to test
    (:func:`~amreval.scores.f1.undefined`).
        test, alternative, n_resamples, confidence, seed: the settings.
        n_items: the number of items; ``exact``: every permutation was enumerated.
    """

    a: str
    b: str
    score: str
    statistic: str
    score_a: float | None
    score_b: float | None
    difference: float | None
    ci_low: float | None
    ci_high: float | None
    p_value: float | None
    test: str
    alternative: str
    n_resamples: int
    confidence: float
    seed: int
    n_items: int
    exact: bool = False
    p_holm: float | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ItemDifference:
    """One item's scores under two systems.

    Attributes:
        index: 0-based position (as every ``index`` of the API); ``id``: the item's ``::id`` (or its
            1-based position); :attr:`number` is the 1-based position the reports print.
        score_a, score_b: the item's own score (the statistic of its counts alone), None where the item
            has nothing to score.
        difference: ``score_a - score_b`` (None where either is).
    """

    index: int
    id: str
    score_a: float | None
    score_b: float | None
    difference: float | None

    @property
    def number(self) -> int:
        """The item's 1-based position: ``item 36`` in every printed report is ``index`` 35."""
        return self.index + 1


@dataclass
class Comparison(Result):
    """Systems compared on the same items.

    Attributes:
        score, statistic: what is compared (``smatch`` and ``f1``, say).
        names: the systems, in the order given; ``ids``: one per item.
        counts: per system, its items × columns counts (scored once).
        scores: per system, its corpus score; ``intervals`` its bootstrap interval (None, and
            ``(None, None)``, where it has nothing to score); ``item_scores``: each item's, NaN where
            the item has nothing to score (None in :meth:`as_dict`).
        tests: one :class:`PairedTest` per pair of systems (earlier against
            later, in the order given), with ``p_holm`` when there are more
            than two systems.
        breakdown: for the first two systems, a test per part of the score
            (DocSmatch: overall, the coreference parts, and the fine-grained
            scores when computed; MFβ: MFβ, Meaning, Form), when it has parts.
        config: the scoring settings (the :class:`~amreval.scores.results.Config` line), when scored here.
    """

    score: str
    statistic: str
    names: list[str]
    ids: list[str]
    counts: dict[str, np.ndarray]
    item_scores: dict[str, np.ndarray]
    scores: dict[str, float | None]
    intervals: dict[str, tuple[float | None, float | None]]
    tests: list[PairedTest]
    breakdown: list[PairedTest] = field(default_factory=list)
    config: str = ""

    @property
    def n_items(self) -> int:
        return len(self.ids)

    def test(self, a: str | None = None, b: str | None = None) -> PairedTest:
        """The test of ``a`` against ``b`` (default: the first two systems)."""
        a = a if a is not None else self.names[0]
        b = b if b is not None else self.names[1]
        for t in self.tests:
            if (t.a, t.b) == (a, b):
                return t
        raise InputError(f"no test of {a!r} against {b!r}; tests are of earlier against later systems")

    def ranking(self) -> list[str]:
        """The systems from the best corpus score down (ties keep the order given; an undefined score last)."""
        return sorted(self.names, key=lambda name: (self.scores[name] is None, -(self.scores[name] or 0.0)))

    def differences(self, a: str | None = None, b: str | None = None) -> list[ItemDifference]:
        """Every item's scores under ``a`` and ``b``, the largest differences first (then by position;
        items with an undefined difference last)."""
        a = a if a is not None else self.names[0]
        b = b if b is not None else self.names[1]
        sa, sb = self.item_scores[a], self.item_scores[b]
        rows = []
        for k in range(self.n_items):
            x, y = defined_or_none(sa[k]), defined_or_none(sb[k])
            rows.append(ItemDifference(k, self.ids[k], x, y, None if x is None or y is None else x - y))
        return sorted(rows, key=lambda r: (r.difference is None, -abs(r.difference or 0.0), r.index))

    def as_dict(self) -> dict[str, Any]:
        """Everything as plain data (for JSON): systems ranked, tests, breakdown, and every item."""
        ranked = self.ranking()
        systems = [
            {
                "name": name,
                "rank": ranked.index(name) + 1,
                self.statistic: self.scores[name],
                "ci_low": self.intervals[name][0],
                "ci_high": self.intervals[name][1],
                "counts": [float(x) for x in self.counts[name].sum(axis=0)],
            }
            for name in self.names
        ]
        items = [
            {
                "index": k,
                "id": self.ids[k],
                "scores": {name: defined_or_none(self.item_scores[name][k]) for name in self.names},
                "counts": {name: [float(x) for x in self.counts[name][k]] for name in self.names},
            }
            for k in range(self.n_items)
        ]
        return {
            "score": self.score,
            "statistic": self.statistic,
            "n_items": self.n_items,
            "systems": systems,
            "tests": [t.as_dict() for t in self.tests],
            "breakdown": [t.as_dict() for t in self.breakdown],
            "largest_differences": [asdict(d) for d in self.differences()],
            "items": items,
            "config": self.config,
        }
