"""SMATCH++'s aspect scores of document graphs under DocSmatch's sentence constraint.

The aspect subgraphs are those of sentence graphs (:func:`amreval.scores.aspects.aspect_subgraphs`),
cut from the document graphs' string triples under a SMATCH++ reading (``smatchpp-amr`` unless
another SMATCH++ reading is named; DocSmatch's default ``smatch`` reading has no string triples):

* ``onealign``: each aspect's triples counted under the document alignment of DocSmatch (the
  certified alignment of the whole documents under the reading, a node aligned only with nodes of
  the same sentence number);
* ``multialign``: each aspect's subgraphs aligned anew, certified, under the same sentence
  restriction (a node of an aspect subgraph may map only to a node that shares one of its sentences;
  the document node with the document node).

Counts are ``(match, test, gold)``, summed over documents (micro). A document graph is one graph for
the extraction, rooted at its ``document`` node: the sentences' tops are no roots there, so no
sentence has its root triple ``(top, :root, concept)``, and the document has its own root and
instance triples and an edge ``(document, :sntK, top)`` into each sentence's top. A document of
sentences that share no node therefore scores each aspect as its sentences do (summed) except where
those triples enter: FOCUS is the document's two triples; CONCEPT adds the document's instance; an
aspect that took a sentence's root triple (as context below an edge into the top, or around a top
whose concept seeds the aspect) loses it, and takes the ``:sntK`` edge and the document's instance
where it takes the triples around a top (a concept seed, QUESTION's parents); a top with one edge
into it in its sentence is a reentrancy of the document. (Equal constants of different sentences
are one node for the extraction, as in a sentence: see :mod:`amreval.scores.aspects`.)

Example:
    >>> from amreval.docamr.document import document_graph
    >>> doc = document_graph("(d / document :snt1 (a / boy :polarity -) :snt2 (b / girl))")
    >>> pair = doc_aspect_pair(doc, doc, "multialign", SearchOptions())
    >>> pair.counts["POLARITY"], pair.counts["FOCUS"], pair.main
    ((2, 2, 2), (2, 2, 2), (7, 7, 7))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from amreval.amr.standardize import VAR, check_standardization, marked_triples
from amreval.docamr.document import sentence_membership
from amreval.errors import InputError
from amreval.match.alignment import align_triples
from amreval.match.options import SearchOptions
from amreval.match.standard import loose_matches, standard_triples, to_triples
from amreval.scores.aspects import (
    ALIGNMENTS,
    ASPECT_KEYS,
    ASPECTS,
    AspectPair,
    AspectResult,
    RoleRules,
    aspect_subgraphs,
    counts_under,
    read_frames,
    role_rules,
)

if TYPE_CHECKING:
    import numpy as np

    from amreval.amr.graph import Graph
    from amreval.match.problem import Candidates
    from amreval.match.triples import Triples
    from amreval.scores.corpus_statistics import Statistic

__all__ = [
    "check_aspects",
    "aspect_reading",
    "aspect_rules",
    "doc_aspect_pair",
    "doc_aspect_result",
    "aspect_numbers",
    "aspect_parts",
    "aspect_intervals",
]

StringTriple = tuple[str, str, str]
Counts = tuple[int, int, int]
Members = list[tuple[int, ...]]
# the group of nodes in no sentence (as in DocSmatch): they may align with each other
_NO_SENTENCE = -1


def check_aspects(aspects: object, frames: object = None) -> str | None:
    """``aspects`` checked: None, ``"onealign"`` or ``"multialign"``; ``frames`` only with aspects.

    Raises:
        InputError: another value, or ``frames`` without ``aspects``.
    """
    if aspects is None:
        if frames is not None:
            raise InputError("frames: the PropBank frames rename roles for the aspect scores; pass aspects too")
        return None
    if not isinstance(aspects, str) or aspects not in ALIGNMENTS:
        raise InputError(f"aspects: expected None, 'onealign' or 'multialign', got {aspects!r}")
    return aspects


def aspect_reading(standardize: str) -> str:
    """The reading the aspects are cut from: ``standardize``, or ``smatchpp-amr`` for ``smatch``.

    Raises:
        InputError: an unknown reading.
    """
    check_standardization(standardize)
    return "smatchpp-amr" if standardize == "smatch" else standardize


def aspect_rules(frames: str | Path | Mapping[str, Mapping[str, str]] | None) -> Mapping[str, Mapping[str, str]]:
    """The role rules of a frame file, its table or rules (:func:`~amreval.scores.aspects.role_rules`),
    as :func:`~amreval.scores.aspects.aspect_scores` makes them (``{}``: no role renamed).

    Raises:
        InputError: the frame file cannot be read.
    """
    table = read_frames(frames) if isinstance(frames, (str, Path)) else frames
    if not table:
        return {}
    return table if isinstance(table, RoleRules) else role_rules(table)


def _top(triples: list[StringTriple], reading: str) -> str | None:
    if not triples:
        return None
    return triples[0][0] if reading == "smatchpp-amr" else triples[0][2]


def _members(graph: Graph, reading: str) -> Members | None:
    """Each node's sentences, in the order of the reading's nodes (by the variables as written)."""
    written, _ = standard_triples(graph, reading)
    return sentence_membership(graph, written.variables)


def _allowed(
    x: Triples, y: Triples, ma: Mapping[str, tuple[int, ...]], mb: Mapping[str, tuple[int, ...]]
) -> Candidates:
    """The candidates of two graphs' nodes: those that share a sentence (as DocSmatch's constraint)."""
    from amreval.match.problem import Candidates

    return Candidates.from_lists(
        [ma.get(v) or (_NO_SENTENCE,) for v in x.variables], [mb.get(v) or (_NO_SENTENCE,) for v in y.variables]
    )


def _aligned(
    a: list[StringTriple],
    b: list[StringTriple],
    tops: tuple[str | None, str | None],
    members: tuple[Mapping[str, tuple[int, ...]], Mapping[str, tuple[int, ...]]] | None,
    search: SearchOptions,
) -> tuple[int, np.ndarray | None, bool, bool]:
    """Matches, the mapping (None without nodes), the proof of two string-triple graphs aligned under the
    sentence restriction (``members`` by node name; None: no restriction) and whether the alignment's
    problem was over the memory budget (aligned within it)."""
    (x, loose_x), (y, loose_y) = to_triples(a, tops[0]), to_triples(b, tops[1])
    extra = loose_matches(loose_x, loose_y)
    if not x.variables or not y.variables:
        return extra, None, True, False
    allowed = None if members is None else _allowed(x, y, *members)
    found = align_triples(x, y, search, allowed=allowed)
    return int(round(found.score)) + extra, found.mapping, bool(found.optimal), bool(found.over_budget)


def doc_aspect_pair(
    prediction: Graph,
    gold: Graph,
    alignment: str,
    search: SearchOptions,
    *,
    standardize: str = "smatchpp-amr",
    rules: Mapping[str, Mapping[str, str]] | None = None,
    aligned: tuple[int, np.ndarray | None, bool] | None = None,
    aligned_over_budget: bool = False,
) -> AspectPair:
    """The aspect counts of one document pair (see the module docs) under a SMATCH++ reading.

    Args:
        prediction, gold: document graphs.
        alignment: ``onealign`` or ``multialign``.
        search: the pair's search settings.
        standardize: the SMATCH++ reading (``smatchpp-amr``, ``smatchpp-generic``, ``none``).
        rules: the role rules of a frame file (:func:`aspect_rules`).
        aligned: DocSmatch's alignment of the two documents under this reading, when already made:
            its matches, the mapping (node order of :func:`~amreval.match.standard.standard_triples`;
            None when a side has no node) and whether it is proven optimal; ``aligned_over_budget``
            whether its problem was over the memory budget.

    An alignment made here whose problem is over the memory budget is made within it, or with
    ``search.strict`` raises :class:`~amreval.errors.TooLargeError`; the pair is marked
    :attr:`~amreval.scores.aspects.AspectPair.over_budget` where one was (or ``aligned_over_budget``).

    Raises:
        InputError: an unknown alignment, or the ``smatch`` reading (it has no string triples).
    """
    if alignment not in ALIGNMENTS:
        raise InputError(f"aspects: expected an alignment in {', '.join(ALIGNMENTS)}, got {alignment!r}")
    a, b = marked_triples(prediction, standardize), marked_triples(gold, standardize)
    tops = (_top(a, standardize), _top(b, standardize))
    names_a = to_triples(a, tops[0])[0].variables
    names_b = to_triples(b, tops[1])[0].variables
    ma, mb = _members(prediction, standardize), _members(gold, standardize)
    members = None if ma is None or mb is None else (dict(zip(names_a, ma)), dict(zip(names_b, mb)))
    over_budget = bool(aligned_over_budget)
    if aligned is None:
        matched, found, optimal, over_budget = _aligned(a, b, tops, members, search)
    else:
        matched, found, optimal = aligned
    main = (matched, len(a), len(b))
    mapping: dict[str, str] = {}
    if found is not None:
        mapping = {VAR + names_a[i]: VAR + names_b[j] for i, j in enumerate(found.tolist()) if j >= 0}
    sa, sb = aspect_subgraphs(a, rules), aspect_subgraphs(b, rules)
    counts: dict[str, Counts] = {}
    for name in ASPECTS:
        if alignment == "onealign":
            counts[name] = counts_under(sa[name], sb[name], mapping)
            continue
        one, other = sorted(sa[name]), sorted(sb[name])
        m, _, proven, big = _aligned(one, other, (None, None), members, search)
        counts[name] = (m, len(one), len(other))
        optimal, over_budget = optimal and proven, over_budget or big
    return AspectPair(counts, main, optimal, over_budget)


def doc_aspect_result(
    alignment: str,
    reading: str,
    pairs: Sequence[AspectPair],
    frames: bool = False,
    unreadable: Sequence[int] = (),
) -> AspectResult:
    """The corpus aspect scores of the documents' :class:`~amreval.scores.aspects.AspectPair`\\ s (summed);
    ``unreadable``: the positions of the predictions scored as empty graphs."""
    pairs = list(pairs)
    counts = {n: _total(p.counts[n] for p in pairs) for n in ASPECTS}
    return AspectResult(alignment, reading, counts, _total(p.main for p in pairs), pairs, frames, list(unreadable))


def _rows() -> list[tuple[str, str]]:
    """Each flat row's key and its aspect (``main``: the whole documents)."""
    return [("aspect_main", "main")] + [(f"aspect_{k.replace('-', '_')}", name) for k, name in ASPECT_KEYS.items()]


def _counts(pair: AspectPair, name: str) -> Counts:
    return pair.main if name == "main" else pair.counts[name]


def aspect_numbers(result: AspectResult) -> list[tuple[str, Counts]]:
    """The flat rows of a result's aspects: ``aspect_main`` (the whole documents under the aspects'
    reading) and ``aspect_<name>`` per aspect (``aspect_agent``, ``aspect_location``,
    ``aspect_srl_core``, ..., by :data:`~amreval.scores.aspects.ASPECT_KEYS`), with their counts."""
    return [(key, result.main if name == "main" else result.counts[name]) for key, name in _rows()]


def aspect_parts(result: AspectResult, statistic: str = "f1") -> dict[str, tuple[Statistic, np.ndarray]]:
    """Every row of :func:`aspect_numbers` as output key → ``(statistic, per-document counts)``, as
    :func:`~amreval.scores.result_parts.result_parts` gives a result's other parts (``aspect_agent_f1``, ...)."""
    import numpy as np

    from amreval.scores.corpus_statistics import prf_statistic

    stat = prf_statistic(statistic)
    return {
        f"{key}_{statistic}": (stat, np.array([_counts(p, name) for p in result.pairs], dtype=np.float64))
        for key, name in _rows()
    }


def aspect_intervals(
    result: AspectResult, *, n_resamples: int = 1000, confidence: float = 0.95, seed: int = 0
) -> dict[str, float | None]:
    """Bootstrap intervals of every aspect row's precision, recall and F1, documents resampled as
    :func:`~amreval.scores.bootstrap.score_intervals` resamples them: ``aspect_agent_f1_ci_low``, ...
    (None for an aspect with nothing to score).

    With fewer than 2 documents every value is None (an interval of one document is undefined).

    Raises:
        InputError: a setting out of range.
    """
    import numpy as np

    from amreval.scores.bootstrap import bootstrap_statistics
    from amreval.scores.checks import check_confidence, check_int
    from amreval.scores.corpus_statistics import columns_statistic, prf_statistic

    n_resamples = check_int("n_resamples", n_resamples, 1)
    confidence = check_confidence(confidence)
    rows = _rows()
    counts = np.array([[c for _, name in rows for c in _counts(p, name)] for p in result.pairs], dtype=np.float64)
    names = [f"{key}_{which}" for key, _ in rows for which in ("precision", "recall", "f1")]
    if counts.shape[0] < 2:  # one document has no interval to resample: every interval undefined
        return {f"{name}_ci_{end}": None for name in names for end in ("low", "high")}
    statistics = [
        columns_statistic(prf_statistic(which), 3 * j)
        for j in range(len(rows))
        for which in ("precision", "recall", "f1")
    ]
    low, high = bootstrap_statistics(counts, statistics, n_resamples, confidence, seed)
    totals = counts.sum(axis=0)
    out: dict[str, float | None] = {}
    for name, statistic, lo, hi in zip(names, statistics, low, high):
        # an aspect with nothing to score has no interval either (aspect_main keeps smatch's convention)
        undefined = not name.startswith("aspect_main_") and bool(statistic.is_undefined(totals))
        out[f"{name}_ci_low"], out[f"{name}_ci_high"] = (None, None) if undefined else (float(lo), float(hi))
    return out


def _total(rows: Iterable[Counts]) -> Counts:
    m = t = g = 0
    for x, y, z in rows:
        m, t, g = m + x, t + y, g + z
    return m, t, g
