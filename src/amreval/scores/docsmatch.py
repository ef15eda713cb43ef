"""DocSmatch (Naseem et al. 2022): Smatch of document graphs under the sentence constraint.

The sentences each node belongs to come from the document model
(:func:`~amreval.docamr.document.sentence_groups`). Predicted sentence k is
aligned with gold sentence k, and ``i -> j`` is a candidate only when some
sentence of ``i`` is some sentence of ``j``. The
rest is Smatch, on the shared engine. Graphs without ``:snt`` edges are
scored with plain Smatch.

The coreference sub-score (:mod:`amreval.scores.coref`; on by default, ``coref=False`` turns it off) is
counted under the overall mapping. Several mappings can share the best
overall count and differ in coref matches; the search then prefers the one
with the most coref matches: each gold coref item matched by a predicted
coref item earns ``1 + eps`` instead of 1, with ``eps = 1 / (2 (n + 1))``
for ``n`` gold coref items, so the bonus never outweighs one overall match.
(A relation from a node to itself is folded into the node pair's own weight,
so its bonus does not check that the predicted one is a coref edge.) The
overall score is recounted with unit weights. ``fine_grained=True`` adds the Damonte et al. (2017) scores
(:mod:`amreval.scores.finegrained`); ``aspects="onealign"`` or ``"multialign"`` SMATCH++'s aspect
scores of the documents (:mod:`amreval.scores.doc_aspects`).

Example:
    >>> doc = "(d / document :snt1 (a / boy) :snt2 (b / boy))"
    >>> r = docsmatch([doc], [doc])
    >>> r.f1, r.match
    (1.0, 6)
    >>> doc = "(d / document :snt1 (a / go-02 :ARG0 (c / coref-entity)) :snt2 (b / sleep-01 :ARG0 c))"
    >>> r = docsmatch([doc], [doc], coref=True)
    >>> r.coref_f1, r.coref.total
    (1.0, (3, 3, 3))
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from amreval._warn import warn_caller
from amreval.amr.graph import Graph
from amreval.docamr.document import document_graph, sentence_membership
from amreval.errors import UsageError, plural
from amreval.match.alignment import align, align_triples, lp_within_budget
from amreval.match.approximate import build_within_budget, identity_alignment
from amreval.match.certify.proof import whole_bound
from amreval.match.certify.tiebreak import tie_break
from amreval.match.diff import triple_diff
from amreval.match.options import SearchOptions
from amreval.match.problem import Candidates
from amreval.match.standard import DEFAULT_STANDARDIZATION, standard_triples
from amreval.match.triples import Triples, encode_pair, graph_triples
from amreval.scores.checks import DEFAULT_RESAMPLES, check_bool, interval_resamples
from amreval.scores.coref import CorefCounts, coref_items, count_coref
from amreval.scores.f1 import prf_or_none
from amreval.scores.finegrained import FINE_RESTARTS, MEASURES, fine_grained_counts
from amreval.scores.harness import pair_search, score_corpus, strict_option, warn_over_budget
from amreval.scores.results import Config, PairScore, SmatchResult
from amreval.scores.workers import pair_name

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from amreval.match.options import SearchKeywords
    from amreval.scores.aspects import AspectPair, AspectResult
    from amreval.scores.stream import PairRecord

#: Documents per chunk of :func:`stream_docsmatch` (a document is a few hundred sentences' worth of work).
DOCUMENT_CHUNK = 4

# the group of nodes in no sentence: they may align with each other
_NO_SENTENCE = -1

__all__ = [
    "sentence_constraint",
    "docsmatch",
    "stream_docsmatch",
    "docsmatch_pair",
    "coref_setting",
    "score_docsmatch_pair",
    "DocPairScore",
    "DocsmatchResult",
]


def sentence_constraint(
    pred: Graph,
    gold: Graph,
    a: Triples,
    b: Triples,
    members: tuple[list[tuple[int, ...]] | None, list[tuple[int, ...]] | None] | None = None,
) -> Candidates | None:
    """The candidates of two document graphs: nodes that share a sentence (None: no constraint).

    Nodes in no sentence may align with each other. ``members`` may pass both
    graphs' :func:`~amreval.docamr.document.sentence_membership` when known.
    """
    ma, mb = (
        members
        if members is not None
        else (
            sentence_membership(pred, a.variables),
            sentence_membership(gold, b.variables),
        )
    )
    if ma is None or mb is None:
        # a graph without :snt edges is one group: plain Smatch
        return None
    return Candidates.from_lists([m or (_NO_SENTENCE,) for m in ma], [m or (_NO_SENTENCE,) for m in mb])


@dataclass
class DocPairScore(PairScore):
    """DocSmatch of one document pair.

    Attributes:
        coref: coref counts (when asked).
        fine_grained: ``measure -> [match, test, gold]`` (when asked).
        fine_grained_over_budget: one of the fine-grained measures' re-alignments was over the memory
            budget and was aligned within it (:mod:`amreval.match.approximate`): its match is a lower bound.
        aspects: SMATCH++'s aspect counts of the documents (when asked).
        coref_unproven: with the coref sub-score, the main count is proven optimal but the tie-break is not
            (a work limit ran out): the coref counts are those of the main-optimal mapping with the most coref
            matches found, a lower bound on the most there are.
    """

    coref: CorefCounts | None = None
    fine_grained: dict[str, list[int]] | None = None
    aspects: AspectPair | None = None
    fine_grained_over_budget: bool = field(default=False, repr=False)
    coref_unproven: bool = field(default=False, repr=False)


@dataclass
class DocsmatchResult(SmatchResult):
    """Corpus DocSmatch: the overall score plus, when asked, the coref sub-score
    (micro-summed :class:`~amreval.scores.coref.CorefCounts`), fine-grained counts and SMATCH++'s
    aspect scores (:class:`~amreval.scores.aspects.AspectResult`, summed over documents)."""

    coref: CorefCounts | None = None
    fine_grained: dict[str, list[int]] | None = None
    aspects: AspectResult | None = None
    #: with the fine-grained scores, the documents one of whose measures' re-alignments was over the memory
    #: budget (aligned within it: :attr:`DocPairScore.fine_grained_over_budget`)
    fine_grained_over_budget: list[int] = field(default_factory=list)
    #: with the coref sub-score, the documents whose main count is proven optimal but whose tie-break is not
    #: (:attr:`DocPairScore.coref_unproven`: their coref counts are a lower bound)
    coref_unproven: list[int] = field(default_factory=list)

    @property
    def coref_precision(self) -> float | None:
        return prf_or_none(*self._coref_total())[0]

    @property
    def coref_recall(self) -> float | None:
        return prf_or_none(*self._coref_total())[1]

    @property
    def coref_f1(self) -> float | None:
        return prf_or_none(*self._coref_total())[2]

    def _coref_total(self) -> tuple[int, int, int]:
        if self.coref is None:
            raise AttributeError("the coref sub-score was not computed; pass coref=True")
        return self.coref.total

    def _add_numbers(self, out: dict[str, float | int | str | None]) -> None:
        """``coref_*``, ``coref_<category>_*``, ``noncoref_*``, ``<measure>_*`` and ``aspect_<name>_*``
        (:func:`~amreval.scores.doc_aspects.aspect_numbers`) when computed: precision, recall and F1 (None
        where there is nothing to score) and the counts ``_match``, ``_test``, ``_gold``; with the aspects,
        ``aspect_n_unproven``, the documents with an aspect alignment not proven optimal, and
        ``aspect_n_over_budget``, those with one over the memory budget (aligned within it); with the
        fine-grained scores, ``fine_grained_n_over_budget`` (:attr:`fine_grained_over_budget`); with the coref
        sub-score, ``coref_n_unproven`` (:attr:`coref_unproven`)."""
        rows: list[tuple[str, tuple[float, int, int]]] = []
        if self.coref is not None:
            rows.append(("coref", self.coref.total))
            rows += [(f"coref_{c}", tuple(getattr(self.coref, c))) for c in ("named_entity", "bridging", "other")]
            rows.append(("noncoref", self.coref.noncoref(self.match, self.test, self.gold)))
        if self.fine_grained is not None:
            rows += [(name, (m, t, g)) for name in MEASURES for m, t, g in [self.fine_grained[name]]]
        if self.aspects is not None:
            from amreval.scores.doc_aspects import aspect_numbers

            rows += aspect_numbers(self.aspects)
        for name, counts in rows:
            p, r, f = prf_or_none(*counts)
            out[f"{name}_precision"], out[f"{name}_recall"], out[f"{name}_f1"] = p, r, f
            out[f"{name}_match"], out[f"{name}_test"], out[f"{name}_gold"] = counts
        if self.coref is not None:
            out["coref_n_unproven"] = len(self.coref_unproven)
        if self.fine_grained is not None:
            out["fine_grained_n_over_budget"] = len(self.fine_grained_over_budget)
        if self.aspects is not None:
            out["aspect_n_unproven"] = sum(not p.optimal for p in self.aspects.pairs)
            out["aspect_n_over_budget"] = len(self.aspects.over_budget)


def docsmatch_pair(
    prediction: object,
    gold: object,
    *,
    coref: bool | None = None,
    fine_grained: bool = False,
    standardize: str = DEFAULT_STANDARDIZATION,
    aspects: str | None = None,
    frames: str | Path | Mapping[str, Mapping[str, str]] | None = None,
    **search: Unpack[SearchKeywords],
) -> DocPairScore:
    """DocSmatch of one predicted document graph against one gold document graph
    (the first pair of :func:`docsmatch`; the search settings and ``aspects``, ``frames`` are as there)."""
    coref = coref_setting(coref, standardize)
    _check_standardize(standardize, coref, fine_grained)
    options = SearchOptions.from_keywords(**search)
    rules = _aspect_rules(aspects, frames)
    return score_docsmatch_pair(
        document_graph(prediction, "prediction", None),
        document_graph(gold, "reference", None),
        pair_search(options, 0),
        coref=coref,
        fine_grained=fine_grained,
        standardize=standardize,
        aspects=aspects,
        rules=rules,
    )


def _aspect_rules(aspects: object, frames: object) -> Mapping[str, Mapping[str, str]]:
    """``aspects`` and ``frames`` checked (:func:`~amreval.scores.doc_aspects.check_aspects`), the role rules."""
    if aspects is None and frames is None:
        return {}
    from amreval.scores.doc_aspects import aspect_rules, check_aspects

    check_aspects(aspects, frames)
    return aspect_rules(frames)  # type: ignore[arg-type]


def coref_setting(coref: bool | None, standardize: str = DEFAULT_STANDARDIZATION) -> bool:
    """Whether the coreference sub-score is computed: ``coref`` (True or False), or by default (None) yes,
    unless ``standardize`` reads the triples otherwise than smatch (the sub-score reads smatch's).

    One default everywhere (:func:`docsmatch`, ``amreval docsmatch``, the ``docsmatch`` metric, the
    trainer's metrics): the sub-score is part of DocSmatch as the DocAMR paper (Naseem et al. 2022)
    reports it, beside the overall score, which it does not change (it only breaks ties between
    alignments of the same overall score).

    Example:
        >>> coref_setting(None), coref_setting(False), coref_setting(None, "smatchpp-amr")
        (True, False, False)
    """
    if coref is None:
        from amreval.scores.smatch import standardize_option

        return not standardize_option(standardize)
    return bool(check_bool("coref", coref))


def _check_standardize(standardize: str, coref: bool, fine_grained: bool) -> None:
    """Another reading than smatch's is for the main score alone (the sub-scores read smatch's triples)."""
    from amreval.scores.smatch import standardize_option

    if standardize_option(standardize) and (coref or fine_grained):
        raise UsageError(
            f"standardize={standardize!r} applies to the main DocSmatch score only; "
            "the coreference and fine-grained scores read triples as smatch does (set coref and fine_grained off)"
        )


def score_docsmatch_pair(
    pred: Graph,
    gold: Graph,
    search: SearchOptions,
    *,
    coref: bool = False,
    fine_grained: bool = False,
    standardize: str = DEFAULT_STANDARDIZATION,
    aspects: str | None = None,
    rules: Mapping[str, Mapping[str, str]] | None = None,
) -> DocPairScore:
    """DocSmatch of one pair of document graphs, with the mapping it found (under a reading of the
    triples, :mod:`amreval.match.standard`, for the main score); with ``aspects`` (``onealign`` or
    ``multialign``) SMATCH++'s aspect counts too (:func:`~amreval.scores.doc_aspects.doc_aspect_pair`,
    under ``standardize``, or ``smatchpp-amr`` for ``smatch``; ``rules``: the frames' role rules)."""
    if standardize != DEFAULT_STANDARDIZATION:
        from amreval.scores.smatch import reading_score

        _check_standardize(standardize, coref, fine_grained)
        (a, loose_a), (b, loose_b) = standard_triples(pred, standardize), standard_triples(gold, standardize)
        ma, mb = sentence_membership(pred, a.variables), sentence_membership(gold, b.variables)
        found = align_triples(a, b, search, allowed=sentence_constraint(pred, gold, a, b, members=(ma, mb)))
        scored = reading_score(found, (a, loose_a), (b, loose_b), DocPairScore)
        if aspects is not None:  # under DocSmatch's own alignment of this reading
            from amreval.scores.doc_aspects import doc_aspect_pair

            aligned = (int(scored.match), found.mapping, bool(found.optimal))
            scored.aspects = doc_aspect_pair(
                pred,
                gold,
                aspects,
                search,
                standardize=standardize,
                rules=rules,
                aligned=aligned,
                aligned_over_budget=bool(found.over_budget),
            )
        return scored
    a, b = graph_triples(pred), graph_triples(gold)
    ma, mb = sentence_membership(pred, a.variables), sentence_membership(gold, b.variables)
    allowed = sentence_constraint(pred, gold, a, b, members=(ma, mb))
    if coref:
        items_a, items_b = coref_items(pred, a, ma), coref_items(gold, b, mb)
        eps = 1.0 / (2 * (items_b.count + 1))
        pair = encode_pair(a, b)
        # the same document up to names, with the same coreference items: the identity matches every triple
        # with its bonus, the most any mapping earns, so it is proven without the problem
        same = (
            identity_alignment(pair, allowed)
            if search.solver == "exact"
            and np.array_equal(items_a.nodes, items_b.nodes)
            and np.array_equal(items_a.edges, items_b.edges)
            else None
        )
        if same is not None:
            result = same
        else:
            problem = build_within_budget(
                pair,
                strict=search.strict,
                allowed=allowed,
                b_weights=(1.0 + eps * items_b.nodes, None, 1.0 + eps * items_b.edges),
            )
            if problem.n_terms:
                # the bonus only where the predicted triple is a coref edge too
                weights = problem.term_w.copy()
                weights[~items_a.edges[problem.term_ta] & items_b.edges[problem.term_tb]] -= eps
                problem.set_term_weights(weights)
            # the main optimum first, by the main score's own steps, then the most coref matches among the
            # mappings that reach it, on top of that proof (every later step starts from what the earlier ones
            # found); where the tie-break does not apply (no sentence groups) or the problem is over the budget,
            # the graded problem is searched whole
            broken = None
            if search.solver == "exact" and not problem.restricted and lp_within_budget(problem):
                broken = tie_break(problem, eps, items_b.count, search)
            result = broken if broken is not None else align(problem, search)
        diff = triple_diff(a, b, result.mapping)
        match = diff.match
        bound = whole_bound(result.bound)
        score = DocPairScore(
            match,
            a.count,
            b.count,
            bool(result.optimal or match >= bound),
            bound,
            mapping=result.mapping,
            over_budget=result.over_budget,
            timed_out=result.timed_out,
            coref=count_coref(a, b, items_a, items_b, diff),
        )
        # the main count proven (the graded bound's whole part reached) but not the most coref matches
        score.coref_unproven = bool(score.optimal and not result.optimal)
    else:
        result = align_triples(a, b, search, allowed=allowed)
        score = DocPairScore(
            int(round(result.score)),
            a.count,
            b.count,
            result.optimal,
            whole_bound(result.bound),
            mapping=result.mapping,
            over_budget=result.over_budget,
            timed_out=result.timed_out,
        )
    if fine_grained:
        # the main search's settings (its work limit too: the re-alignments stop at the same counts on every
        # machine), with fewer restarts
        fine = replace(search, restarts=min(search.restarts, FINE_RESTARTS)).as_strict(search.strict)

        def aligner(x: Triples, y: Triples, sub: Candidates | None, init: np.ndarray | None) -> int:
            problem = build_within_budget(encode_pair(x, y), strict=search.strict, allowed=sub)
            found = align(problem, fine, init=init)
            score.timed_out |= found.timed_out  # the pair's numbers then depend on the clock too
            score.fine_grained_over_budget |= bool(found.over_budget)
            return int(round(found.score))

        score.fine_grained = fine_grained_counts(pred, gold, a, b, allowed, aligner, score.mapping)
    if aspects is not None:
        from amreval.scores.doc_aspects import doc_aspect_pair

        score.aspects = doc_aspect_pair(pred, gold, aspects, search, standardize="smatchpp-amr", rules=rules)
    return score


def docsmatch(
    predictions: Iterable[object],
    references: Iterable[object],
    *,
    coref: bool | None = None,
    fine_grained: bool = False,
    num_workers: int = 1,
    ci: bool = False,
    n_resamples: int = DEFAULT_RESAMPLES,
    confidence: float = 0.95,
    progress: bool | None = None,
    strict: bool = False,
    standardize: str = DEFAULT_STANDARDIZATION,
    aspects: str | None = None,
    frames: str | Path | Mapping[str, Mapping[str, str]] | None = None,
    bootstrap: int | None = None,
    **search: Unpack[SearchKeywords],
) -> DocsmatchResult:
    """Corpus DocSmatch: documents paired by position, counts micro-averaged.

    Takes the arguments of :func:`amreval.scores.smatch.smatch`, and:

    Args:
        predictions, references: documents as DocAMR PENMAN strings, graphs,
            or lists of sentence graphs (see :func:`~amreval.docamr.document.document_graph`).
        coref: also compute the coreference sub-score (``coref_precision``,
            ``coref_recall``, ``coref_f1`` and the counts in ``coref``), with
            the tie-break described in the module docs. Default (None): on, unless
            ``standardize`` is another reading than ``smatch`` (:func:`coref_setting`).
        fine_grained: also compute the Damonte et al. (2017) scores.
        num_workers: score documents in this many processes (the result does
            not depend on it).
        strict: raise on a prediction that cannot be read; by default it
            (or the sentence of a list that cannot be read) is scored as
            empty, its position is kept in ``unreadable_predictions`` and one
            warning names them all.
        standardize: the reading of the triples for the main score (see
            :func:`amreval.scores.smatch.smatch`); another than ``"smatch"`` needs ``fine_grained``
            off and turns the default ``coref`` off.
        aspects: ``"onealign"`` or ``"multialign"``: also SMATCH++'s aspect scores of the documents
            (``result.aspects``, :mod:`amreval.scores.doc_aspects`), cut from the triples of
            ``standardize`` (``smatchpp-amr`` when it is ``smatch``): each aspect's triples counted
            under DocSmatch's alignment of the documents under that reading, or aligned anew under the
            sentence constraint; counts summed over documents.
        frames: with ``aspects``, a PropBank frame description file (or its table or rules,
            :func:`amreval.scores.aspects.read_frames`) whose descriptions rename core roles.

    Raises:
        InputError: lengths differ, no documents, an entry is not a graph, a
            search setting is invalid, a flag is not True or False, ``aspects`` is
            none of None, onealign, multialign, or ``frames`` is given without it.
        DecodeError: a PENMAN string is malformed (the message names it).
    """
    coref = coref_setting(coref, standardize)
    fine_grained = bool(check_bool("fine_grained", fine_grained))
    rules = _aspect_rules(aspects, frames)
    preds, refs = list(predictions), list(references)
    options = SearchOptions.from_keywords(**search)
    config = _config(coref, fine_grained, standardize, strict, options, aspects, bool(rules))
    base = score_corpus(
        preds,
        refs,
        partial(
            score_docsmatch_pair,
            coref=coref,
            fine_grained=fine_grained,
            standardize=standardize,
            aspects=aspects,
            rules=rules,
        ),
        config,
        bootstrap=interval_resamples(ci, n_resamples, bootstrap),
        confidence=confidence,
        progress=progress,
        desc="docsmatch",
        unit="doc",
        num_workers=num_workers,
        strict=strict,
        read=document_graph,
        noun="documents",
    )
    result = DocsmatchResult(**{f.name: getattr(base, f.name) for f in fields(SmatchResult)})
    pairs: list[DocPairScore] = base.pairs  # type: ignore[assignment]
    if coref:
        result.coref = sum((p.coref for p in pairs if p.coref is not None), CorefCounts())
        result.coref_unproven = [k for k, p in enumerate(pairs) if p.coref_unproven]
        _warn_coref(result, [pair_name(k, (preds[k], refs[k])) for k in result.coref_unproven[:10]], options)
    if fine_grained:
        result.fine_grained = {
            m: [sum(p.fine_grained[m][k] for p in pairs if p.fine_grained) for k in range(3)] for m in MEASURES
        }
        result.fine_grained_over_budget = [k for k, p in enumerate(pairs) if p.fine_grained_over_budget]
        _warn_fine_grained(result, [pair_name(k, (preds[k], refs[k])) for k in result.fine_grained_over_budget[:10]])
    if aspects is not None:
        from amreval.scores.aspects import warn_aspects_over_budget
        from amreval.scores.doc_aspects import aspect_reading, doc_aspect_result

        # every pair has its aspects (an unreadable prediction is scored as an empty graph)
        scored = [p.aspects for p in pairs if p.aspects is not None]
        result.aspects = doc_aspect_result(
            aspects, aspect_reading(standardize), scored, bool(rules), result.unreadable_predictions
        )
        warn_aspects_over_budget(result.aspects, preds, refs)
    return result


def _config(
    coref: bool,
    fine_grained: bool,
    standardize: str,
    strict: bool,
    options: SearchOptions,
    aspects: str | None = None,
    frames: bool = False,
) -> Config:
    """The configuration a DocSmatch result records (the options that change the numbers)."""
    from amreval.scores.smatch import standardize_option

    _check_standardize(standardize, coref, fine_grained)
    recorded: list[tuple[str, object]] = list(standardize_option(standardize))
    if coref:
        recorded.append(("coref", "tiebreak"))
    if fine_grained:
        recorded.append(("fine_grained", True))
    if aspects is not None:
        recorded.append(("aspects", aspects))
        if frames:
            recorded.append(("frames", True))
    return Config("docsmatch", options, tuple(recorded) + strict_option(strict))


def stream_docsmatch(
    predictions: str | os.PathLike[str],
    references: str | os.PathLike[str],
    *,
    coref: bool | None = None,
    fine_grained: bool = False,
    on_pair: Callable[[PairRecord], None] | None = None,
    num_workers: int = 1,
    ci: bool = False,
    n_resamples: int = DEFAULT_RESAMPLES,
    confidence: float = 0.95,
    strict: bool = False,
    keep_scores: bool = False,
    standardize: str = DEFAULT_STANDARDIZATION,
    chunk: int = DOCUMENT_CHUNK,
    bootstrap: int | None = None,
    **search: Unpack[SearchKeywords],
) -> DocsmatchResult:
    """Corpus DocSmatch of two files of document graphs, read, scored and reported as a stream
    (:func:`~amreval.scores.stream.stream_score`): the counts, sub-scores and reading rules of
    :func:`docsmatch` on the files read whole, with memory bounded by the largest document pair.

    Each document's :class:`DocPairScore` (without its mapping; with its coref and fine-grained
    counts when asked) goes to ``on_pair`` as it is scored, and the sub-scores are summed as they
    come. The result's ``pairs`` keep five numbers a document, or with ``keep_scores`` the whole
    scores (what the intervals of the sub-scores, :func:`~amreval.scores.bootstrap.score_intervals`,
    resample). Documents are read and scored ``chunk`` at a time (in each worker with ``num_workers``).
    ``ci`` and ``n_resamples``: F1's interval, as :func:`docsmatch`'s.

    Raises:
        InputError: as :func:`~amreval.scores.stream.stream_score` (documents named by position), and
            a flag that is not True or False.
    """
    from amreval.scores.stream import stream_score

    coref = coref_setting(coref, standardize)
    fine_grained = bool(check_bool("fine_grained", fine_grained))
    strict = bool(check_bool("strict", strict))
    options = SearchOptions.from_keywords(**search)
    config = _config(coref, fine_grained, standardize, strict, options)
    total = CorefCounts()
    fine = {m: [0, 0, 0] for m in MEASURES}
    fine_over: list[int] = []
    coref_unproven: list[int] = []

    def summed(record: PairRecord) -> None:
        nonlocal total
        s = record[1]
        if isinstance(s, DocPairScore):
            if s.coref is not None:
                total = total + s.coref
            for m, counts in (s.fine_grained or {}).items():
                fine[m] = [x + y for x, y in zip(fine[m], counts)]
            if s.fine_grained_over_budget:
                fine_over.append(record[0])
            if s.coref_unproven:
                coref_unproven.append(record[0])
        if on_pair is not None:
            on_pair(record)

    base = stream_score(
        predictions,
        references,
        partial(score_docsmatch_pair, coref=coref, fine_grained=fine_grained, standardize=standardize),
        config,
        on_pair=summed,
        num_workers=num_workers,
        strict=strict,
        noun="documents",
        bootstrap=interval_resamples(ci, n_resamples, bootstrap),
        confidence=confidence,
        read=document_graph,
        keep=[] if keep_scores else None,
        chunk=chunk,
    )
    result = DocsmatchResult(**{f.name: getattr(base, f.name) for f in fields(SmatchResult)})
    result.coref = total if coref else None
    result.fine_grained = fine if fine_grained else None
    result.fine_grained_over_budget = fine_over
    result.coref_unproven = coref_unproven
    pred, gold = os.fspath(predictions), os.fspath(references)

    def names(positions: list[int]) -> list[str]:
        return [f"pair #{k + 1} ({pred}, graph #{k + 1} against {gold}, graph #{k + 1})" for k in positions[:10]]

    _warn_fine_grained(result, names(fine_over))
    _warn_coref(result, names(coref_unproven), options)
    return result


def _warn_coref(result: DocsmatchResult, names: list[str], search: SearchOptions) -> None:
    """The one warning naming the documents (``names``: the first few) whose main count is proven optimal but
    whose coreference tie-break is not; nothing where there is none, or where the search is the hill climbing
    (which certifies nothing beyond a climb reaching the simple bound: such documents are counted, as its
    unproven pairs are, not warned about)."""
    if result.coref_unproven and search.solver != "hillclimb":
        count, n = len(result.coref_unproven), len(result.pairs)
        listed = "; ".join(names) + ("; ..." if count > len(names) else "")
        warn_caller(
            f"the coreference tie-break of {count} of {plural(n, 'document pair')} was not proven ({listed}): "
            "their main counts are proven optimal, their coref counts are those of the mapping with the most "
            "coref matches found among those that reach it, a lower bound (a work limit ran out; raise "
            "work_limit, --work-limit)"
        )


def _warn_fine_grained(result: DocsmatchResult, names: list[str]) -> None:
    """The one warning naming the documents (``names``: the first few) one of whose fine-grained
    re-alignments was over the memory budget; nothing where none was."""
    if result.fine_grained_over_budget:
        count, n = len(result.fine_grained_over_budget), len(result.pairs)
        warn_over_budget(names, count, n, where="in the fine-grained scores' re-alignments")
