"""Fine-grained scores (Damonte et al. 2017), per document pair.

* **unlabeled**: Smatch after every role is replaced by one label (edges
  keep the direction in which they were written);
* **no_wsd**: Smatch after sense suffixes (``-01``) are removed from concepts;
* **concepts**: F-score of the sets of concepts (sets per pair, as Damonte
  et al. count them: fifty ``person`` nodes in a document count once);
* **named_ent**: F-score of the sets of concepts of nodes with a ``:name``;
* **negations**: F-score of the sets of concepts of nodes with ``:polarity``;
* **wikification**: F-score of the sets of ``:wiki`` values;
* **reentrancies**: Smatch of the subgraphs made of the relation triples
  into nodes with more than one incoming relation (canonical direction),
  with the concepts of their ends;
* **srl**: Smatch of the subgraphs made of the ``:ARGn`` relation triples,
  with the concepts of their ends.

The Smatch-based ones are aligned anew on their own triples, under the same
candidate restriction as the overall score, starting from the overall
alignment, with at most :data:`FINE_RESTARTS` random restarts. Counts are ``[match, test,
gold]`` and are summed over documents (micro-average).

Example:
    >>> from amreval.amr.read import loads_graph
    >>> from amreval.match.triples import graph_triples
    >>> g = loads_graph("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b) :polarity -)")
    >>> counts = fine_grained_counts(g, g, graph_triples(g), graph_triples(g), None, _exact_matches)
    >>> counts["srl"], counts["negations"], counts["reentrancies"]
    ([6, 6, 6], [1, 1, 1], [5, 5, 5])
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from amreval.amr.graph import Graph
from amreval.match.triples import Triples

__all__ = ["MEASURES", "fine_grained_counts"]

#: Random restarts of the fine-grained searches (they start from the overall alignment).
FINE_RESTARTS = 4
MEASURES = ("unlabeled", "no_wsd", "concepts", "named_ent", "negations", "wikification", "reentrancies", "srl")
_SENSE = re.compile(r"-\d+$")
_LABEL = "label"

#: ``aligner(a, b, allowed, init) -> match count`` for two triple sets; ``init``
#: is a start mapping (node of ``b`` per node of ``a``, -1 for none).
Aligner = Callable[[Triples, Triples, "np.ndarray | None", "np.ndarray | None"], int]


def _unlabeled(graph: Graph, t: Triples) -> Triples:
    index = {v: k for k, v in enumerate(t.variables)}
    attributes = [(r if r == "TOP" else _LABEL, i, c) for r, i, c in t.attributes]
    relations: dict[tuple[str, int, int], None] = {}
    for e in graph.edges:
        s, o = index[e.source], index[e.target]
        relations[(_LABEL, o, s) if e.inverted else (_LABEL, s, o)] = None
    return Triples(t.variables, t.concepts, list(dict.fromkeys(attributes)), list(relations))


def _no_wsd(t: Triples) -> Triples:
    return Triples(t.variables, [_SENSE.sub("", c) for c in t.concepts], t.attributes, t.relations)


def _subgraph(t: Triples, relations: list[tuple[str, int, int]]) -> tuple[Triples, np.ndarray]:
    keep = sorted({i for _, s, o in relations for i in (s, o)})
    new = {old: k for k, old in enumerate(keep)}
    sub = Triples(
        [t.variables[i] for i in keep],
        [t.concepts[i] for i in keep],
        [],
        [(r, new[s], new[o]) for r, s, o in relations],
    )
    return sub, np.asarray(keep, dtype=np.int64)


def _reentrant(t: Triples) -> list[tuple[str, int, int]]:
    incoming = np.zeros(len(t.variables), dtype=np.int64)
    for _, _, o in t.relations:
        incoming[o] += 1
    return [rel for rel in t.relations if incoming[rel[2]] > 1]


def _srl(t: Triples) -> list[tuple[str, int, int]]:
    return [rel for rel in t.relations if rel[0].startswith("arg")]


def _set_counts(a: set, b: set) -> list[int]:
    return [len(a & b), len(a), len(b)]


def _named(t: Triples) -> set[str]:
    return {t.concepts[s] for r, s, _ in t.relations if r == "name"}


def _negated(t: Triples) -> set[str]:
    return {t.concepts[s] for r, s, _ in t.attributes if r == "polarity"}


def _wiki(t: Triples) -> set[str]:
    return {c for r, _, c in t.attributes if r == "wiki"}


def _restrict(mapping: np.ndarray | None, ka: np.ndarray, kb: np.ndarray) -> np.ndarray | None:
    """A mapping between subgraphs (node lists ``ka``, ``kb``) from one between the whole graphs."""
    if mapping is None:
        return None
    where = {int(j): k for k, j in enumerate(kb)}
    return np.array([where.get(int(mapping[i]), -1) for i in ka], dtype=np.int64)


def fine_grained_counts(
    pred: Graph,
    gold: Graph,
    a: Triples,
    b: Triples,
    allowed: np.ndarray | None,
    aligner: Aligner,
    mapping: np.ndarray | None = None,
) -> dict[str, list[int]]:
    """The eight fine-grained ``[match, test, gold]`` counts of one pair.

    Args:
        pred, gold: the graphs; ``a``, ``b`` their triples.
        allowed: the candidate restriction of the overall score (or None).
        aligner: aligns two triple sets under a restriction, from a start
            mapping, and returns the match count.
        mapping: the overall alignment, used as the start of every search.
    """
    out: dict[str, list[int]] = {}
    ua, ub = _unlabeled(pred, a), _unlabeled(gold, b)
    out["unlabeled"] = [aligner(ua, ub, allowed, mapping), ua.count, ub.count]
    na, nb = _no_wsd(a), _no_wsd(b)
    out["no_wsd"] = [aligner(na, nb, allowed, mapping), na.count, nb.count]
    out["concepts"] = _set_counts(set(a.concepts), set(b.concepts))
    out["named_ent"] = _set_counts(_named(a), _named(b))
    out["negations"] = _set_counts(_negated(a), _negated(b))
    out["wikification"] = _set_counts(_wiki(a), _wiki(b))
    for name, select in (("reentrancies", _reentrant), ("srl", _srl)):
        sa, ka = _subgraph(a, select(a))
        sb, kb = _subgraph(b, select(b))
        sub_allowed = None if allowed is None else allowed[np.ix_(ka, kb)]
        match = aligner(sa, sb, sub_allowed, _restrict(mapping, ka, kb)) if sa.count and sb.count else 0
        out[name] = [match, sa.count, sb.count]
    return out


def _exact_matches(a: Triples, b: Triples, allowed: np.ndarray | None, init: np.ndarray | None = None) -> int:
    """Exact aligner (for examples and tests)."""
    from amreval.match.alignment import SearchOptions, align_triples

    return int(round(align_triples(a, b, SearchOptions("exact", 0), allowed=allowed).score))
