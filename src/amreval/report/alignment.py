"""The alignment diff as data: two graphs aligned as DocSmatch aligns them, their triples sorted.

Needs neither Graphviz nor its Python package; :mod:`amreval.report.draw`
draws what this module computes.

Example:
    >>> d = alignment_diff("(w / want-01 :ARG0 (b / boy))", "(w / want-01 :ARG0 (g / girl))")
    >>> d.mapping, d.missing, d.extra
    ({'w': 'w', 'b': 'g'}, [('instance', 'g', 'girl')], [('instance', 'b', 'boy')])
    >>> len(d.matched), round(d.f1, 2)
    (3, 0.75)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from amreval.amr.graph import Graph
from amreval.docamr.document import document_graph, sentence_groups
from amreval.errors import InputError
from amreval.match.alignment import align_triples
from amreval.match.diff import KINDS, TripleDiff, triple_diff
from amreval.match.options import SearchOptions
from amreval.match.triples import Triples, graph_triples
from amreval.scores.docsmatch import sentence_constraint
from amreval.scores.f1 import prf
from amreval.scores.harness import pair_search

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from amreval.match.options import SearchKeywords

__all__ = ["AlignmentDiff", "AlignedPair", "DiffItem", "DocumentLike", "align_pair", "alignment_diff", "diff_items"]

#: A graph, its PENMAN (DocAMR) text, or a list of sentence graphs.
DocumentLike = Graph | str | Sequence[Graph | str]


class DiffItem(NamedTuple):
    """One triple of the diff: ``kind`` is instance/attribute/relation, indices into the
    prediction's and the gold's triples of that kind (instance: the node)."""

    status: str
    kind: str
    pred: int | None
    gold: int | None


@dataclass
class AlignmentDiff:
    """The triples of two aligned graphs, sorted into matched, missing and extra.

    Attributes:
        prediction, gold: the two graphs.
        mapping: each predicted variable and the gold variable it is aligned
            with (``None`` when unaligned).
        matched: the gold triples that the prediction matches.
        missing: the gold triples it does not match.
        extra: the predicted triples without a match.

    Triples are ``(role, variable, value)`` as in
    :meth:`amreval.match.triples.Triples.as_strings` (instance triples read
    ``("instance", var, concept)``, the top ``("TOP", var, "top")``).
    """

    prediction: Graph
    gold: Graph
    mapping: dict[str, str | None]
    matched: list[tuple[str, str, str]] = field(default_factory=list)
    missing: list[tuple[str, str, str]] = field(default_factory=list)
    extra: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def counts(self) -> tuple[int, int, int]:
        """``(match, test, gold)`` triple counts, as Smatch counts them."""
        m = len(self.matched)
        return m, m + len(self.extra), m + len(self.missing)

    @property
    def precision(self) -> float:
        return prf(*self.counts)[0]

    @property
    def recall(self) -> float:
        return prf(*self.counts)[1]

    @property
    def f1(self) -> float:
        return prf(*self.counts)[2]


@dataclass
class AlignedPair:
    pred: Graph
    gold: Graph
    a: Triples
    b: Triples
    mapping: np.ndarray
    items: list[DiffItem]
    groups_a: np.ndarray | None
    groups_b: np.ndarray | None


def align_pair(
    prediction: DocumentLike,
    gold: DocumentLike,
    *,
    doc: bool,
    search: SearchOptions,
    mapping: Sequence[int] | np.ndarray | None = None,
) -> AlignedPair:
    """The two graphs read and aligned (with ``search``, as the pair of a corpus' first position),
    or taken with ``mapping``, and their triples sorted."""
    pred = document_graph(prediction, "prediction", None)
    ref = document_graph(gold, "reference", None)
    a, b = graph_triples(pred), graph_triples(ref)
    ga = sentence_groups(pred, a.variables) if a.variables else None
    gb = sentence_groups(ref, b.variables) if b.variables else None
    if mapping is None:
        allowed = sentence_constraint(pred, ref, a, b) if doc else None
        mapping = align_triples(a, b, pair_search(search, 0), allowed=allowed).mapping
    mapping = np.asarray(mapping, dtype=np.int64)
    if mapping.shape != (len(a.variables),) or (mapping >= len(b.variables)).any():
        raise InputError(
            f"the mapping must give a gold node (or -1) for each of the {len(a.variables)} predicted nodes"
        )
    return AlignedPair(pred, ref, a, b, mapping, diff_items(triple_diff(a, b, mapping)), ga, gb)


def diff_items(diff: TripleDiff) -> list[DiffItem]:
    """Every triple of both graphs as matched (once), missing or extra, kind by kind."""
    items: list[DiffItem] = []
    for kind in KINDS:
        for q, p in enumerate(diff.gold_to_pred[kind].tolist()):
            items.append(DiffItem("matched", kind, p, q) if p >= 0 else DiffItem("missing", kind, None, q))
        items.extend(DiffItem("extra", kind, p, None) for p in diff.extra(kind))
    return items


def triple_string(t: Triples, kind: str, k: int) -> tuple[str, str, str]:
    v = t.variables
    if kind == "instance":
        return ("instance", v[k], t.concepts[k])
    if kind == "attribute":
        role, i, value = t.attributes[k]
        return (role, v[i], value)
    role, i, j = t.relations[k]
    return (role, v[i], v[j])


def alignment_diff(
    prediction: DocumentLike,
    gold: DocumentLike,
    *,
    doc: bool = True,
    mapping: Sequence[int] | np.ndarray | None = None,
    **search: Unpack[SearchKeywords],
) -> AlignmentDiff:
    """Align two graphs and sort their triples into matched, missing and extra.

    The alignment is the one :func:`amreval.scores.docsmatch.docsmatch_pair` (with
    ``doc=True``) or :func:`amreval.scores.smatch.smatch_pair` (``doc=False``)
    scores, so ``counts`` equals their match, test and gold counts.

    Args:
        prediction, gold: graphs, PENMAN (DocAMR) strings or lists of sentence graphs.
        doc: apply DocSmatch's sentence constraint (graphs without ``:snt``
            edges are aligned by plain Smatch either way).
        mapping: an alignment already found (e.g. ``DocPairScore.mapping``, the
            one a score was computed on): for each predicted node in
            :func:`~amreval.match.triples.graph_triples` order, the gold node or -1.
            When given, nothing is searched.
        **search: ``solver``, ``restarts``, ``seed``, ``time_limit``, ``work_limit``: as for
            :func:`amreval.scores.smatch.smatch`.

    Returns:
        An :class:`AlignmentDiff`; it does not need Graphviz.
    """
    al = align_pair(prediction, gold, doc=doc, search=SearchOptions.from_keywords(**search), mapping=mapping)
    diff = AlignmentDiff(
        al.pred,
        al.gold,
        {v: (al.b.variables[j] if j >= 0 else None) for v, j in zip(al.a.variables, al.mapping.tolist())},
    )
    for item in al.items:
        if item.status == "extra":
            diff.extra.append(triple_string(al.a, item.kind, item.pred))  # type: ignore[arg-type]
        else:
            getattr(diff, item.status).append(triple_string(al.b, item.kind, item.gold))  # type: ignore[arg-type]
    return diff
