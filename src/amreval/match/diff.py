"""The one triple diff: matched, missing and extra triples under a mapping.

Under a node mapping from graph A (predicted) to graph B (gold), a triple of
B is *matched* when A has the triple with its variables mapped onto it; a
triple of B that is not matched is *missing*, a triple of A that matches no
triple of B is *extra*. The count of matched triples is Smatch's M. The
coreference counts, the pictures and MFβ's explanations all read this diff.

For graded scores (S²match) a ``concept_credit`` matrix says how much the
instance triple of ``i`` earns against that of ``j``: the instance triple is
matched when the credit is positive.

Example:
    >>> import numpy as np
    >>> from amreval.amr.read import loads_graph
    >>> from amreval.match.triples import graph_triples
    >>> a = graph_triples(loads_graph("(w / want-01 :ARG0 (b / boy))"))
    >>> b = graph_triples(loads_graph("(x / want-01 :ARG0 (y / girl))"))
    >>> d = triple_diff(a, b, np.array([0, 1]))
    >>> d.match, d.missing("instance"), d.extra("instance")
    (3, [1], [1])
    >>> d.gold_to_pred["relation"].tolist(), d.pred_to_gold["attribute"].tolist()
    ([0], [0])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np

from amreval.match.problem import inverse_mapping
from amreval.match.triples import Triples

__all__ = ["KINDS", "TripleDiff", "triple_diff"]

#: The kinds of triple, in the order the diff lists them.
KINDS = ("instance", "attribute", "relation")


@dataclass(frozen=True)
class TripleDiff:
    """Which triples match under a mapping.

    Attributes:
        gold_to_pred: per kind, for each triple of B the index of the triple
            of A that matches it, or -1 (instance triples are indexed by node).
        pred_to_gold: per kind, for each triple of A the index of the triple
            of B it matches, or -1.
    """

    gold_to_pred: dict[str, np.ndarray]
    pred_to_gold: dict[str, np.ndarray]

    @property
    def match(self) -> int:
        """Number of matched triples (Smatch's M)."""
        return int(sum(int((v >= 0).sum()) for v in self.gold_to_pred.values()))

    def matched(self, kind: str) -> list[tuple[int, int]]:
        """``(index in A, index in B)`` of each matched triple of ``kind``, in B's order."""
        return [(int(p), q) for q, p in enumerate(self.gold_to_pred[kind]) if p >= 0]

    def missing(self, kind: str) -> list[int]:
        """Indices in B of the triples of ``kind`` that nothing matches."""
        return [q for q, p in enumerate(self.gold_to_pred[kind]) if p < 0]

    def extra(self, kind: str) -> list[int]:
        """Indices in A of the triples of ``kind`` that match nothing."""
        return [p for p, q in enumerate(self.pred_to_gold[kind]) if q < 0]


def triple_diff(a: Triples, b: Triples, mapping: np.ndarray, concept_credit: np.ndarray | None = None) -> TripleDiff:
    """The :class:`TripleDiff` of ``a`` against ``b`` under ``mapping`` (node of B per node of A, or -1)."""
    mapping = np.asarray(mapping, dtype=np.int64)
    inverse = inverse_mapping(mapping, len(b.variables))
    inst_b = np.full(len(b.concepts), -1, dtype=np.int64)
    inst_a = np.full(len(a.concepts), -1, dtype=np.int64)
    for i, j in enumerate(mapping):
        if j < 0:
            continue
        hit = concept_credit[i, j] > 0 if concept_credit is not None else a.concepts[i] == b.concepts[j]
        if hit:
            inst_a[i], inst_b[j] = j, i
    g2p = {"instance": inst_b}
    p2g = {"instance": inst_a}
    for kind, ta, tb in (("attribute", a.attributes, b.attributes), ("relation", a.relations, b.relations)):
        where_a = {t: k for k, t in enumerate(ta)}
        to_pred = np.full(len(tb), -1, dtype=np.int64)
        to_gold = np.full(len(ta), -1, dtype=np.int64)
        for q, (role, j, value) in enumerate(tb):
            i = int(inverse[j])
            if i < 0:
                continue
            if kind == "relation":
                k = int(inverse[cast(int, value)])
                if k < 0:
                    continue
                p = where_a.get((role, i, k))
            else:
                p = where_a.get((role, i, value))
            if p is not None:
                to_pred[q], to_gold[p] = p, q
        g2p[kind], p2g[kind] = to_pred, to_gold
    return TripleDiff(g2p, p2g)
