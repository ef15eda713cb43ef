"""Fine-grained scores (Damonte et al. 2017), per pair of graphs (sentences or documents).

The definitions are those of Damonte's current code (``mdtux89/amr-evaluation``:
``evaluation.sh`` for the first two, ``scores.py`` and ``utils.py`` for the rest),
applied to our reading of the graphs (:mod:`amreval.match.triples`):

* **unlabeled**: Smatch after every role is replaced by one label
  (``evaluation.sh``'s ``sed``): edges keep the direction in which they were
  written, attributes become ``(label, node, constant)``, the TOP triple stays.
  Parallel edges stay apart: ``:ARG0 b :ARG1 b`` is two unlabeled edges from the
  same node to ``b``, and two against three such edges match twice;
* **no_wsd**: Smatch after every sense suffix is replaced by ``-01``
  (``evaluation.sh``'s ``perl`` line: ``go-02`` and ``go-01`` match, ``go`` and
  ``go-01`` do not);
* **concepts**: the concepts of all nodes, as multisets (``utils.concepts``,
  numbered by ``utils.disambig``: two ``boy`` nodes count twice);
* **named_ent**: the concepts of the sources of ``:name`` triples, multisets
  (``utils.namedent``);
* **negations**: the concepts of the sources of ``:polarity`` triples, whatever
  the value, multisets (``utils.negations``);
* **wikification**: the ``:wiki`` values, multisets (``utils.wikification``);
* **reentrancies**: Smatch of the subgraphs made of every edge into a node with
  more than one incoming edge (``utils.reentrancies``), the instance triples
  of their ends and a TOP triple. Direction is the reference's: inverted roles
  turned round, but a ``:mod`` edge stays ``(mod, parent, child)``, so a tree has
  no reentrancy;
* **srl**: the same with every ``:ARGn`` triple (``utils.srl``; an ``:ARGn`` to a
  constant is kept as an attribute).

Multiset counts are ``[shared, predicted, gold]`` with the shared count the
multiset intersection. The subgraphs' TOP triple is the one the reference's
reader builds (``smatch_fromlists.parse_relations``): ``(TOP, n, concept of n)``
for the source ``n`` of the first selected triple, triples taken attributes first,
then by source in order of appearance, each source's in written order.

Where our reading of the graph differs from the reference's old reader, ours is
kept: a triple written twice counts once (so a node is not reentrant because of
a repeated edge); ``consist-of``, ``prep-on-behalf-of`` and ``prep-out-of`` are
roles, not inverses; a constant is never a node (the reference takes a constant
spelled like a variable, or a TOP value equal to a variable name, for an edge
into that node); roles, concepts and constants compare as in Smatch
(case-insensitive, a quoted constant equals the unquoted one). Smatch-based
measures never count a triple pair more than once, so none exceeds 1.0.

The Smatch-based measures are aligned anew on their own triples, under the same
candidate restriction as the overall score, starting from the overall alignment,
with at most :data:`FINE_RESTARTS` random restarts and the overall search's other
settings: its work limit and counts decide where each re-alignment stops, so the
counts are the same on every machine and under any load (the time limit is the
safety net; a re-alignment it stops marks the pair ``timed_out``). Counts are
``[match, test, gold]`` and are summed over pairs (micro-average).

Example:
    >>> from amreval.amr.read import loads_graph
    >>> from amreval.match.triples import graph_triples
    >>> g = loads_graph("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b) :polarity -)")
    >>> counts = fine_grained_counts(g, g, graph_triples(g), graph_triples(g), None, _exact_matches)
    >>> counts["srl"], counts["negations"], counts["reentrancies"]
    ([7, 7, 7], [1, 1, 1], [6, 6, 6])
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable

import numpy as np

from amreval.amr.graph import Graph, canonical_role
from amreval.match.problem import Candidates
from amreval.match.triples import Triples

__all__ = [
    "MEASURES",
    "MEASURE_LABELS",
    "FINE_RESTARTS",
    "fine_grained_counts",
    "no_wsd_triples",
    "reference_triples",
]

#: Random restarts of the fine-grained searches (they start from the overall alignment).
FINE_RESTARTS = 4
MEASURES = ("unlabeled", "no_wsd", "concepts", "named_ent", "negations", "wikification", "reentrancies", "srl")
#: The printed name of each measure, in the order of :data:`MEASURES` (the reference's output's labels).
MEASURE_LABELS = {
    "unlabeled": "Unlabeled",
    "no_wsd": "No WSD",
    "concepts": "Concepts",
    "named_ent": "Named Ent.",
    "negations": "Negations",
    "wikification": "Wikification",
    "reentrancies": "Reentrancies",
    "srl": "SRL",
}
_SENSE = re.compile(r"-\d+$")
_LABEL = "label"

#: ``aligner(a, b, allowed, init) -> match count`` for two triple sets; ``init``
#: is a start mapping (node of ``b`` per node of ``a``, -1 for none).
Aligner = Callable[[Triples, Triples, "Candidates | None", "np.ndarray | None"], int]

Relation = tuple[str, int, int]
Attribute = tuple[str, int, str]


def _numbered(keys: Iterable[tuple]) -> list[str]:
    """A label per key: ``label`` for its first occurrence, ``label#k`` for the k-th.

    Parallel triples then stay distinct, and k parallel triples against m match ``min(k, m)`` times.
    """
    seen: Counter[tuple] = Counter()
    out = []
    for key in keys:
        seen[key] += 1
        out.append(_LABEL if seen[key] == 1 else f"{_LABEL}#{seen[key]}")
    return out


def _unlabeled(graph: Graph, t: Triples) -> Triples:
    index = {v: k for k, v in enumerate(t.variables)}
    attributes = [a for a in t.attributes if a[0] == "TOP"]
    rest = [(i, c) for r, i, c in t.attributes if r != "TOP"]
    attributes += [(label, i, c) for label, (i, c) in zip(_numbered(rest), rest)]
    written: list[tuple[int, int]] = []
    seen: set[Relation] = set()
    for e in graph.edges:
        s, o = index[e.source], index[e.target]
        key = (e.role.lower(), s, o)
        if key in seen:
            continue
        seen.add(key)
        written.append((o, s) if canonical_role(e.written)[1] else (s, o))
    relations = [(label, s, o) for label, (s, o) in zip(_numbered(written), written)]
    return Triples(t.variables, t.concepts, attributes, relations)


def no_wsd_triples(t: Triples) -> Triples:
    """The triples ``t`` with every sense suffix replaced by ``-01``."""
    return Triples(t.variables, [_SENSE.sub("-01", c) for c in t.concepts], t.attributes, t.relations)


def reference_triples(graph: Graph, t: Triples) -> tuple[list[Attribute], list[Relation]]:
    """Attributes (TOP aside) and relations in the reference's direction and order.

    Relations are canonical except that a ``:mod`` edge is ``(mod, parent, child)``,
    not the inverse of ``:domain``. Both lists are ordered by source, in order of
    appearance, each source's triples in written order.
    """
    index = {v: k for k, v in enumerate(t.variables)}
    relations: dict[Relation, None] = {}
    for e in graph.edges:
        s, o = index[e.source], index[e.target]
        if e.role.lower() == "domain" and e.written.lower() in ("mod", "mod-of"):
            relations[("mod", o, s)] = None
        else:
            relations[(e.role.lower(), s, o)] = None
    attributes = sorted((a for a in t.attributes if a[0] != "TOP"), key=lambda a: a[1])
    return attributes, sorted(relations, key=lambda r: r[1])


def _reentrancies(attributes: list[Attribute], relations: list[Relation], n: int) -> tuple[list, list]:
    incoming: list[list[Relation]] = [[] for _ in range(n)]
    for rel in relations:
        incoming[rel[2]].append(rel)
    return [], [rel for node in incoming if len(node) > 1 for rel in node]


def _srl(attributes: list[Attribute], relations: list[Relation], n: int) -> tuple[list, list]:
    return [a for a in attributes if a[0].startswith("arg")], [r for r in relations if r[0].startswith("arg")]


def _subgraph(t: Triples, attributes: list[Attribute], relations: list[Relation]) -> tuple[Triples, np.ndarray]:
    """The subgraph of the selected triples, with the instance triples of their nodes and the
    reference's TOP triple on the source of the first one (attributes first); its node 0."""
    if not attributes and not relations:
        return Triples([], []), np.zeros(0, dtype=np.int64)
    first = attributes[0][1] if attributes else relations[0][1]
    others = {i for _, i, _ in attributes} | {i for _, s, o in relations for i in (s, o)}
    keep = [first, *sorted(others - {first})]
    new = {old: k for k, old in enumerate(keep)}
    sub = Triples(
        [t.variables[i] for i in keep],
        [t.concepts[i] for i in keep],
        [("TOP", 0, t.concepts[first])] + [(r, new[i], c) for r, i, c in attributes],
        [(r, new[s], new[o]) for r, s, o in relations],
    )
    return sub, np.asarray(keep, dtype=np.int64)


def _multiset_counts(a: list[str], b: list[str]) -> list[int]:
    return [sum((Counter(a) & Counter(b)).values()), len(a), len(b)]


def _sources(t: Triples, role: str) -> list[str]:
    """Concepts of the sources of every ``role`` triple (relations, then attributes)."""
    return [t.concepts[s] for r, s, _ in t.relations if r == role] + [
        t.concepts[s] for r, s, _ in t.attributes if r == role
    ]


def _wiki(t: Triples) -> list[str]:
    return [c for r, _, c in t.attributes if r == "wiki"]


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
    allowed: Candidates | None,
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
    na, nb = no_wsd_triples(a), no_wsd_triples(b)
    out["no_wsd"] = [aligner(na, nb, allowed, mapping), na.count, nb.count]
    out["concepts"] = _multiset_counts(a.concepts, b.concepts)
    out["named_ent"] = _multiset_counts(_sources(a, "name"), _sources(b, "name"))
    out["negations"] = _multiset_counts(_sources(a, "polarity"), _sources(b, "polarity"))
    out["wikification"] = _multiset_counts(_wiki(a), _wiki(b))
    ref_a, ref_b = reference_triples(pred, a), reference_triples(gold, b)
    for name, select in (("reentrancies", _reentrancies), ("srl", _srl)):
        sa, ka = _subgraph(a, *select(*ref_a, len(a.variables)))
        sb, kb = _subgraph(b, *select(*ref_b, len(b.variables)))
        sub_allowed = None if allowed is None else allowed.subset(ka, kb)
        match = aligner(sa, sb, sub_allowed, _restrict(mapping, ka, kb)) if sa.count and sb.count else 0
        out[name] = [match, sa.count, sb.count]
    return out


def _exact_matches(a: Triples, b: Triples, allowed: Candidates | None, init: np.ndarray | None = None) -> int:
    """Exact aligner (for examples and tests)."""
    from amreval.match.alignment import align_triples
    from amreval.match.options import SearchOptions

    return int(round(align_triples(a, b, SearchOptions("exact", 0), allowed=allowed).score))
