"""What the ``evaluate`` metrics add to a core result: per-item scores, bootstrap intervals, a paired test.

The metric scripts (``metrics/smatch``, ``metrics/docsmatch``, ``metrics/mfbeta``) check their arguments, bring
their stored inputs back, and hand everything to one call here (:func:`smatch_results`, :func:`docsmatch_results`,
:func:`mfbeta_results`), so
that a script is the door and not a second implementation. The steps every door adds to the core's result
are written once, in :func:`door_results`, in one order (the core's dict, its per-item scores, the bootstrap
intervals, what the metric adds, the paired test against a second system's predictions and that system's
per-item scores), so the two metrics cannot drift apart in what a key means or where it comes from. A
metric says how one scored system is read through a :class:`ScoredSystem`.

Nothing here imports ``evaluate``: the steps run, and are tested, without it; MFβ's modules are imported
when MFβ is scored, so that DocSmatch's door does not load the language-model side.

Example:
    >>> from amreval.scores.corpus_statistics import prf_statistic
    >>> class Counts:  # a system of two items, each (match, test, gold)
    ...     def __init__(self, items):
    ...         self.items = items
    ...     def results(self):
    ...         return {"f1": 2 * sum(m for m, _, _ in self.items) / sum(t + g for _, t, g in self.items)}
    ...     def item_scores(self):
    ...         return {"per_item_f1": per_item_f1(self.items)}
    ...     def intervals(self, n_resamples, *, seed, confidence):
    ...         return {}
    ...     def parts(self):
    ...         return {"f1": (prf_statistic("f1"), self.items)}
    >>> out = door_results(Counts([(3, 4, 4), (5, 5, 6)]), lambda: Counts([(2, 4, 4), (5, 6, 6)]))
    >>> round(out["f1"], 4), round(out["compare_f1"], 4), out["f1_p_value"], out["compare_per_item_f1"]
    (0.8421, 0.7, 0.5, [0.5, 0.8333333333333334])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from amreval.hub.metric_io import ZERO_DIVISION, numeric_results, per_item_f1
from amreval.scores.paired_tests import DEFAULT_RESAMPLES

if TYPE_CHECKING:
    import numpy.typing as npt

    from amreval.scores.corpus_statistics import Statistic

__all__ = [
    "ScoredSystem",
    "door_results",
    "DocsmatchScored",
    "docsmatch_results",
    "SmatchScored",
    "smatch_results",
    "MfbetaScored",
    "mfbeta_results",
    "SENTENCE_KEYWORDS",
    "DOCUMENT_KEYWORDS",
    "MATCHING_KEYWORDS",
]

#: A part of a result as the paired test reads it: output key → (statistic, per-item counts).
Parts = Mapping[str, "tuple[Statistic, npt.ArrayLike]"]


class ScoredSystem(Protocol):
    """One system's core result, as :func:`door_results` reads it."""

    def results(self) -> Mapping[str, Any]:
        """The core's flat dict, with the per-item scores asked for (``per_document_f1``, ...)."""
        ...

    def item_scores(self) -> Mapping[str, Any]:
        """The per-item scores asked for, by output key: given again, prefixed ``compare_``, for a
        second system."""
        ...

    def intervals(self, n_resamples: int, *, seed: int, confidence: float) -> Mapping[str, float | None]:
        """Bootstrap bounds of the scores (``f1_ci_low``, ...), items resampled ``n_resamples`` times."""
        ...

    def parts(self) -> Parts:
        """What the paired test compares: output key → (statistic, per-item counts)."""
        ...


def door_results(
    scored: ScoredSystem,
    other: Callable[[], ScoredSystem] | None = None,
    *,
    intervals: int = 0,
    added: Callable[[], Mapping[str, Any]] | None = None,
    seed: int = 0,
    confidence: float = 0.95,
    test: str = "permutation",
    n_resamples: int = DEFAULT_RESAMPLES,
    alternative: str = "two-sided",
    zero_division: float | None = ZERO_DIVISION,
) -> dict[str, Any]:
    """A metric's results from a scored system: its dict and per-item scores, then, when asked, the
    bootstrap intervals, the metric's own additions and the paired test against ``other``.

    Args:
        scored: the first system.
        other: scores the second system (called once, after the first system's parts are read, so that a
            part the first system cannot give fails before the second system is scored); None: no test.
        intervals: resamples of the intervals; 0: none. An interval the core's dict already holds (the
            core may compute F1's itself) is kept.
        added: what the metric adds after the intervals (DocSmatch's averages).
        seed, confidence: of the intervals and the test.
        test, n_resamples, alternative: the paired test
            (:func:`~amreval.scores.compare.compare_against`).
        zero_division: the value of a 0/0 score (:func:`~amreval.hub.metric_io.numeric_results`).
    """
    from amreval.scores.compare import compare_against

    out = dict(scored.results())
    if intervals:
        bounds = scored.intervals(intervals, seed=seed, confidence=confidence)
        out.update({key: value for key, value in bounds.items() if key not in out})
    if added is not None:
        out.update(added())
    if other is not None:
        mine = scored.parts()
        theirs = other()
        out.update(
            compare_against(
                mine,
                theirs.parts(),
                test=test,
                n_resamples=n_resamples,
                seed=seed,
                alternative=alternative,
                confidence=confidence,
            )
        )
        out.update({f"compare_{key}": value for key, value in theirs.item_scores().items()})
    return numeric_results(out, zero_division=zero_division)


# --------------------------------------------------------------------------- DocSmatch


@dataclass(frozen=True)
class SmatchScored:
    """A Smatch result (:func:`amreval.scores.smatch.smatch`, or any result with ``pairs`` of counts) as a
    :class:`ScoredSystem`; ``per_item``: its per-item scores, the F1 of each pair, under :attr:`ITEM_KEY`."""

    ITEM_KEY: ClassVar[str] = "per_sentence_f1"

    result: Any
    per_item: bool = False

    def results(self) -> dict[str, Any]:
        return {**self.result.as_dict(), **self.item_scores()}

    def item_scores(self) -> dict[str, Any]:
        if not self.per_item:
            return {}
        return {self.ITEM_KEY: per_item_f1([(p.match, p.test, p.gold) for p in self.result.pairs])}

    def intervals(self, n_resamples: int, *, seed: int, confidence: float) -> dict[str, float | None]:
        from amreval.scores.bootstrap import score_intervals

        return score_intervals(self.result, n_resamples=n_resamples, seed=seed, confidence=confidence)

    def parts(self) -> dict[str, Any]:
        from amreval.scores.result_parts import result_parts

        return dict(result_parts(self.result))


@dataclass(frozen=True)
class DocsmatchScored(SmatchScored):
    """A DocSmatch result (:func:`amreval.scores.docsmatch.docsmatch`) as a :class:`ScoredSystem`: as Smatch's,
    its per-item scores the F1 of each document (``per_document_f1``), and its aspect scores when it has them."""

    ITEM_KEY: ClassVar[str] = "per_document_f1"

    def intervals(self, n_resamples: int, *, seed: int, confidence: float) -> dict[str, float | None]:
        from amreval.scores.doc_aspects import aspect_intervals

        out = super().intervals(n_resamples, seed=seed, confidence=confidence)
        if self.result.aspects is not None:
            out.update(aspect_intervals(self.result.aspects, n_resamples=n_resamples, seed=seed, confidence=confidence))
        return out

    def parts(self) -> dict[str, Any]:
        from amreval.scores.doc_aspects import aspect_parts

        parts = super().parts()
        if self.result.aspects is not None:  # compared where the second system has them too
            parts.update(aspect_parts(self.result.aspects))
        return parts


def docsmatch_results(
    predictions: Sequence[Any],
    references: Sequence[Any],
    *,
    compare_predictions: Sequence[Any] | None = None,
    per_document: bool = False,
    intervals: int = 0,
    averages: bool = False,
    seed: int = 0,
    confidence: float = 0.95,
    test: str = "permutation",
    n_resamples: int = DEFAULT_RESAMPLES,
    alternative: str = "two-sided",
    zero_division: float | None = ZERO_DIVISION,
    **options: Any,
) -> dict[str, Any]:
    """The DocSmatch metric's results: :func:`~amreval.scores.docsmatch.docsmatch` of the documents, with
    the core's own F1 intervals (``intervals`` resamples; 0: none) and :func:`door_results`' steps; ``averages``
    adds the micro and macro averages with their intervals (``intervals`` resamples, ``n_resamples`` when it
    is 0).

    ``options`` are DocSmatch's other keywords (``coref``, ``solver``, ...); the second system is scored with
    the same ones. The documents are given as the metric holds them (PENMAN strings, or lists of them).
    """
    from amreval.scores.averages import averages as average_scores
    from amreval.scores.docsmatch import docsmatch

    options = {**options, "seed": seed, "confidence": confidence}
    result = docsmatch(predictions, references, ci=bool(intervals), n_resamples=intervals or n_resamples, **options)

    def averaged() -> dict[str, Any]:
        resamples = intervals or n_resamples
        return average_scores(result, n_resamples=resamples, seed=seed, confidence=confidence).as_dict()

    def other() -> DocsmatchScored:
        assert compare_predictions is not None
        return DocsmatchScored(docsmatch(compare_predictions, references, **options), per_document)

    return door_results(
        DocsmatchScored(result, per_document),
        None if compare_predictions is None else other,
        intervals=intervals,
        added=averaged if averages else None,
        seed=seed,
        confidence=confidence,
        test=test,
        n_resamples=n_resamples,
        alternative=alternative,
        zero_division=zero_division,
    )


# --------------------------------------------------------------------------- Smatch


def repaired_predictions(predictions: Sequence[str]) -> tuple[list[str], dict[str, int]]:
    """Generated PENMAN read back as a training loop reads it (:func:`~amreval.amr.linearize.delinearize`
    with its repair, as :func:`~amreval.hub.trainer.score_generations` does): a graph cut short scores its
    readable prefix; the counts ``n_intact``, ``n_repaired`` (and ``n_unrepairable``: no node could be read,
    scored as an empty graph and counted in ``n_unreadable`` too) say how many were which."""
    from amreval.amr.linearize import delinearize

    read = [delinearize(text, "penman", repair=True) for text in predictions]
    counts = {
        "n_intact": sum(d.status == "intact" for d in read),
        "n_repaired": sum(d.status == "repaired" for d in read),
        "n_unrepairable": sum(d.status == "unreadable" for d in read),
    }
    return [d.penman for d in read], counts


def smatch_results(
    predictions: Sequence[str],
    references: Sequence[str],
    *,
    compare_predictions: Sequence[str] | None = None,
    repair: bool = False,
    per_sentence: bool = False,
    intervals: int = 0,
    averages: bool = False,
    seed: int = 0,
    confidence: float = 0.95,
    test: str = "permutation",
    n_resamples: int = DEFAULT_RESAMPLES,
    alternative: str = "two-sided",
    zero_division: float | None = ZERO_DIVISION,
    **options: Any,
) -> dict[str, Any]:
    """The Smatch metric's results: :func:`~amreval.scores.smatch.smatch` of the sentence graphs, with the
    core's own F1 interval (``intervals`` resamples; 0: none) and :func:`door_results`' steps.

    ``repair``: the predictions (and the second system's) are read back through the repair first
    (:func:`repaired_predictions`), and its counts are added. ``averages`` adds the micro and macro averages
    over sentences with their intervals (``intervals`` resamples, ``n_resamples`` when it is 0). ``options`` are
    Smatch's other keywords (``solver``, ``standardize``, ``num_workers``, ...); the second system is scored
    with the same ones.
    """
    from amreval.scores.averages import averages as average_scores
    from amreval.scores.smatch import smatch

    options = {**options, "seed": seed, "confidence": confidence}
    repaired: dict[str, int] = {}
    if repair:
        predictions, repaired = repaired_predictions(predictions)
    result = smatch(predictions, references, ci=bool(intervals), n_resamples=intervals or n_resamples, **options)

    def added() -> dict[str, Any]:
        out: dict[str, Any] = dict(repaired)
        if averages:
            out.update(
                average_scores(result, n_resamples=intervals or n_resamples, seed=seed, confidence=confidence).as_dict()
            )
        return out

    def other() -> SmatchScored:
        assert compare_predictions is not None
        second = repaired_predictions(compare_predictions)[0] if repair else compare_predictions
        return SmatchScored(smatch(second, references, **options), per_sentence)

    return door_results(
        SmatchScored(result, per_sentence),
        None if compare_predictions is None else other,
        intervals=intervals,
        added=added if (repair or averages) else None,
        seed=seed,
        confidence=confidence,
        test=test,
        n_resamples=n_resamples,
        alternative=alternative,
        zero_division=zero_division,
    )


# --------------------------------------------------------------------------- MFβ


@dataclass
class MfbetaScored:
    """An MFβ result (:func:`amreval.mfbeta.score.mfbeta`) as a :class:`ScoredSystem`, with the parses and
    gold AMRs it was scored from and S²match's settings (``matching``): Meaning's per-item counts are
    taken from them, once, when the intervals or the test need them. Its per-item scores are the core's
    own (``per_example``: ``pref_scores``, ...), not compared."""

    result: Any
    parses: Sequence[Any] | None
    gold: Sequence[Any] | None
    matching: Mapping[str, Any] = field(default_factory=dict)
    per_example: bool = False

    @cached_property
    def items(self) -> Any:
        from amreval.mfbeta.counts import mfbeta_parts

        return mfbeta_parts(self.result, self.parses, self.gold, self.matching)

    def results(self) -> dict[str, Any]:
        return self.result.as_dict(per_example=self.per_example)

    def item_scores(self) -> dict[str, Any]:
        return {}

    def intervals(self, n_resamples: int, *, seed: int, confidence: float) -> Mapping[str, float | None]:
        from amreval.mfbeta.counts import bootstrap_mfbeta

        return bootstrap_mfbeta(
            self.items, beta=self.result.beta, n_resamples=n_resamples, seed=seed, confidence=confidence
        )

    def parts(self) -> dict[str, Any]:
        from amreval.mfbeta.counts import mfbeta_item_parts
        from amreval.mfbeta.dimensions import result_dimension_parts

        return {**mfbeta_item_parts(self.items, self.result.beta), **result_dimension_parts(self.result)}


#: MFβ's keywords that only one level takes (the metric takes all of them, whatever the level); the
#: keywords of S²match that Meaning's items are scored again with when a result has none of its own.
SENTENCE_KEYWORDS = ("vectors", "cutoff", "diffsense", "clean", "explain", "dimensions")
DOCUMENT_KEYWORDS = ("coref", "coref_format", "window", "stride", "rep")
MATCHING_KEYWORDS = ("vectors", "cutoff", "diffsense", "solver", "restarts", "seed", "time_limit", "work_limit")


def mfbeta_results(
    predictions: Sequence[str],
    references: Sequence[str],
    *,
    scorer: Any,
    reference_amrs: Sequence[Any] | None = None,
    prediction_amrs: Sequence[Any] | None = None,
    compare_predictions: Sequence[str] | None = None,
    compare_prediction_amrs: Sequence[Any] | None = None,
    level: str = "sentence",
    per_example: bool = False,
    intervals: int = 0,
    seed: int = 0,
    confidence: float = 0.95,
    test: str = "permutation",
    n_resamples: int = DEFAULT_RESAMPLES,
    alternative: str = "two-sided",
    batch_size: int | None = None,
    device: str | None = None,
    zero_division: float | None = ZERO_DIVISION,
    **settings: Any,
) -> dict[str, Any]:
    """The MFβ metric's results, with the language model ``scorer`` the metric made.

    ``level="sentence"``: :func:`~amreval.mfbeta.score.mfbeta` of the sentences and :func:`door_results`'
    steps (the second system scored with the same settings). ``level="document"``:
    :func:`~amreval.mfbeta.document.document_mfbeta`'s dict, without intervals or test (the metric refuses
    them there). ``settings`` are MFβ's other flat keywords (``parser``, ``beta``, ``tolerance``,
    ``solver``, ...), given as they are to the level's function; those of the other level
    (:data:`SENTENCE_KEYWORDS`, :data:`DOCUMENT_KEYWORDS`) are left out, as the metric takes them all.
    ``batch_size`` None: MFβ's default; ``zero_division``: the value of an undefined score
    (:func:`~amreval.hub.metric_io.numeric_results`).
    """
    settings = {**settings, "seed": seed, **({} if batch_size is None else {"batch_size": batch_size})}
    if level == "document":
        from amreval.mfbeta.document import document_mfbeta

        kept = {key: value for key, value in settings.items() if key not in SENTENCE_KEYWORDS}
        document = document_mfbeta(
            predictions,
            references,
            reference_amrs=reference_amrs,
            prediction_amrs=prediction_amrs,
            scorer=scorer,
            device=device,
            **kept,
        )
        return numeric_results(document.as_dict(per_example=per_example), zero_division=zero_division)
    from amreval.mfbeta.score import mfbeta

    options = {key: value for key, value in settings.items() if key not in DOCUMENT_KEYWORDS}
    matching = {key: options[key] for key in MATCHING_KEYWORDS if key in options}

    def scored(sentences: Sequence[str], parses: Sequence[Any] | None) -> MfbetaScored:
        result = mfbeta(
            sentences,
            references,
            reference_amrs=reference_amrs,
            prediction_amrs=parses,
            scorer=scorer,
            device=device,
            **options,
        )
        return MfbetaScored(result, parses, reference_amrs, matching, per_example)

    def other() -> MfbetaScored:
        assert compare_predictions is not None
        return scored(compare_predictions, compare_prediction_amrs)

    return door_results(
        scored(predictions, prediction_amrs),
        None if compare_predictions is None else other,
        intervals=intervals,
        seed=seed,
        confidence=confidence,
        test=test,
        n_resamples=n_resamples,
        alternative=alternative,
        zero_division=zero_division,
    )
