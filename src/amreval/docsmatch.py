"""DocSmatch (Naseem et al. 2022): Smatch of document graphs under the sentence constraint.

A document graph has ``:snt1 ... :sntN`` edges from its top node to the
sentence roots. A node belongs to sentence k when it is reachable from the
root of sentence k, following each edge, stored as (role, source, target):

* source -> target, for every edge except ``coref`` edges and ``domain``
  edges written as ``:mod``;
* target -> source, for every edge written inverted (``:X-of``, ``:mod``)
  and for every ``coref``, ``part`` and ``subset`` edge however written.

A node can belong to several sentences; the top node alone forms group 0.
Predicted sentence k is aligned with gold sentence k, and ``i -> j`` is a
candidate only when some sentence of ``i`` is some sentence of ``j``. The
rest is Smatch, on the shared engine. Graphs without ``:snt`` edges are
scored with plain Smatch.

With ``coref=True`` the coreference sub-score (:mod:`amreval.coref`) is
counted under the overall mapping. Several mappings can share the best
overall count and differ in coref matches; the search then prefers the one
with the most coref matches: each gold coref item matched by a predicted
coref item earns ``1 + eps`` instead of 1, with ``eps = 1 / (2 (n + 1))``
for ``n`` gold coref items, so the bonus never outweighs one overall match.
(A relation from a node to itself is folded into the node pair's own weight,
so its bonus does not check that the predicted one is a coref edge.) The
overall score is recounted with unit weights. ``fine_grained=True`` adds the Damonte et al. (2017) scores
(:mod:`amreval.finegrained`).

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

import re
import warnings
from dataclasses import dataclass, field, fields
from functools import partial
from typing import Iterable, Sequence

import numpy as np

from .alignment import DEFAULT_RESTARTS, DEFAULT_SOLVER, align, build_problem
from .coref import CorefCounts, coref_items, count_coref, matched_triples
from .finegrained import FINE_RESTARTS, MEASURES, fine_grained_counts
from .errors import AmrevalWarning, InputError
from .graph import Attribute, Edge, Graph
from .smatch import (
    GraphLike,
    PairScore,
    SmatchResult,
    _as_graph,
    _pair_seed,
    align_triples,
    config_string,
    prf,
    score_corpus,
)
from .triples import Triples, encode_pair, graph_triples

__all__ = [
    "sentence_groups",
    "sentence_constraint",
    "docsmatch",
    "docsmatch_pair",
    "DocPairScore",
    "DocsmatchResult",
    "join_sentences",
    "document_graph",
]

_SNT = re.compile(r"^snt(\d+)$", re.IGNORECASE)
_REVERSE_ALWAYS = frozenset({"coref", "part", "subset"})


def sentence_groups(graph: Graph, variables: Sequence[str] | None = None) -> np.ndarray | None:
    """The sentences each node belongs to, as a boolean matrix.

    Args:
        graph: a document graph.
        variables: the node order of the rows (default: ``graph.instances`` order).

    Raises:
        InputError: an ``:snt0`` edge, or two ``:sntK`` edges with the same K.

    Returns:
        ``None`` when the graph has no ``:sntK`` edge from its top; otherwise a
        matrix with one row per node and one column per group: column 0 is the
        top node alone, column k is sentence k. A node reached from no
        sentence has an all-False row.
    """
    top = graph.top
    roots: dict[int, str] = {}
    for e in graph.edges:
        if e.source == top and not e.inverted:
            m = _SNT.match(e.role)
            if m:
                k = int(m.group(1))
                if k == 0 or k in roots:
                    problem = "sentences are numbered from :snt1" if k == 0 else f"two :snt{k} edges"
                    raise InputError(f"{graph.origin}: {problem}; expected :snt1 ... :sntN, each once")
                roots[k] = e.target
    if not roots:
        return None
    order = list(variables) if variables is not None else list(graph.instances)
    index = {v: k for k, v in enumerate(order)}
    adj: dict[str, list[str]] = {}
    for e in graph.edges:
        role = e.role.lower()
        if e.source == top and _SNT.match(role):
            continue
        forward = role != "coref" and not (e.inverted and e.written == "mod")
        backward = e.inverted or role in _REVERSE_ALWAYS
        if forward:
            adj.setdefault(e.source, []).append(e.target)
        if backward:
            adj.setdefault(e.target, []).append(e.source)
    groups = np.zeros((len(order), max(roots) + 1), dtype=bool)
    if top in index:
        groups[index[top], 0] = True
    for k, root in roots.items():
        seen = {root}
        stack = [root]
        while stack:
            node = stack.pop()
            if node in index:
                groups[index[node], k] = True
            for nxt in adj.get(node, ()):
                if nxt not in seen and nxt != top:
                    seen.add(nxt)
                    stack.append(nxt)
    return groups


def join_sentences(sentences: Sequence[Graph], doc_id: str | None = None) -> Graph:
    """Join sentence graphs under a ``document`` node, without coreference.

    Sentence k (from 1) becomes ``:sntk``; its variables are renamed
    ``s<k>.<var>`` and edges keep the direction in which they were written.
    An empty sentence graph keeps its number and adds nothing, so that the
    sentences of a prediction stay aligned with the gold ones (an empty
    string in a list given to :func:`document_graph` becomes one, with a
    warning).

    Example:
        >>> from amreval.graph import read_graph
        >>> g = join_sentences([read_graph("(b / boy)"), read_graph("(g / go-02 :ARG0-of (x / y))")])
        >>> print(g.to_string(indent=None))
        (d / document :snt1 (s1.b / boy) :snt2 (s2.g / go-02 :ARG0-of (s2.x / y)))
    """
    doc = Graph(top="d", instances={"d": "document"}, origin="<joined sentences>")
    if doc_id is not None:
        doc.metadata["id"] = doc_id
    for k, g in enumerate(sentences, start=1):
        if g.is_empty():
            continue
        name = {v: f"s{k}.{v}" for v in g.instances}
        doc.instances.update((name[v], c) for v, c in g.instances.items())
        doc.edges.append(Edge("d", f"snt{k}", name[g.top], f"snt{k}"))  # type: ignore[index]
        doc.edges.extend(Edge(name[e.source], e.role, name[e.target], e.written) for e in g.edges)
        doc.attributes.extend(Attribute(name[a.source], a.role, a.value) for a in g.attributes)
    return doc


def document_graph(doc: object, what: str = "document", index: int = 0) -> Graph:
    """A document graph from a DocAMR PENMAN string, a :class:`Graph`, or a list of
    sentence graphs or PENMAN strings (joined by :func:`join_sentences`).

    Raises:
        InputError: an empty list or string, or an entry of the wrong type
            (the message names ``what`` and ``index``).
        DecodeError: a PENMAN string is malformed (the message names the
            document and the sentence).
    """
    if isinstance(doc, (Graph, str)):
        return _as_graph(doc, what, index)
    if isinstance(doc, (list, tuple)):
        if not doc:
            raise InputError(f"{what} #{index}: empty list; expected a DocAMR string or a non-empty list "
                             "of sentence graphs")
        sentences = []
        for k, s in enumerate(doc, start=1):
            if isinstance(s, str) and not s.strip():
                warnings.warn(f"{what} #{index}, sentence {k}: empty string; scored as an empty graph",
                              AmrevalWarning, stacklevel=3)
                sentences.append(Graph.empty())
            else:
                sentences.append(_as_graph(s, f"{what} #{index}, sentence", k))
        return join_sentences(sentences)
    raise InputError(f"{what} #{index}: expected a DocAMR string, a Graph or a list of sentence graphs, "
                     f"got {type(doc).__name__}")


def sentence_constraint(
    pred: Graph, gold: Graph, a: Triples, b: Triples,
    groups: tuple[np.ndarray | None, np.ndarray | None] | None = None,
) -> np.ndarray | None:
    """The allowed-candidate matrix for two document graphs (None: no constraint).

    ``groups`` may pass both graphs' :func:`sentence_groups` when known.
    """
    ga, gb = groups if groups is not None else (sentence_groups(pred, a.variables), sentence_groups(gold, b.variables))
    if ga is None or gb is None:
        # a graph without :snt edges is one group: plain Smatch
        return None
    k = max(ga.shape[1], gb.shape[1])
    ga = np.pad(ga, ((0, 0), (0, k - ga.shape[1])))
    gb = np.pad(gb, ((0, 0), (0, k - gb.shape[1])))
    allowed = (ga.astype(np.float32) @ gb.T.astype(np.float32)) > 0
    # nodes in no sentence may align with each other
    allowed |= np.outer(~ga.any(axis=1), ~gb.any(axis=1))
    return allowed


@dataclass
class DocPairScore(PairScore):
    """DocSmatch of one document pair.

    Attributes:
        coref: coref counts (when asked).
        fine_grained: ``measure -> [match, test, gold]`` (when asked).
        mapping: the alignment scored: for each predicted node (in
            :func:`~amreval.triples.graph_triples` order) the gold node, or -1.
    """

    coref: CorefCounts | None = None
    fine_grained: dict[str, list[int]] | None = None
    mapping: np.ndarray | None = field(default=None, repr=False, compare=False)


@dataclass
class DocsmatchResult(SmatchResult):
    """Corpus DocSmatch: the overall score plus, when asked, the coref sub-score
    (micro-summed :class:`~amreval.coref.CorefCounts`) and fine-grained counts."""

    coref: CorefCounts | None = None
    fine_grained: dict[str, list[int]] | None = None

    @property
    def coref_precision(self) -> float:
        return prf(*self._coref_total())[0]

    @property
    def coref_recall(self) -> float:
        return prf(*self._coref_total())[1]

    @property
    def coref_f1(self) -> float:
        return prf(*self._coref_total())[2]

    def _coref_total(self) -> tuple[int, int, int]:
        if self.coref is None:
            raise AttributeError("the coref sub-score was not computed; pass coref=True")
        return self.coref.total

    def as_dict(self) -> dict[str, float | int | str]:
        """Flat numbers: overall, then ``coref_*``, ``coref_<category>_*``,
        ``noncoref_*`` and ``<measure>_*`` when computed, then ``config``."""
        out = super().as_dict()
        config = out.pop("config")
        if self.coref is not None:
            m, t, g = self.coref.total
            rows = [("coref", (m, t, g))]
            rows += [(f"coref_{c}", tuple(getattr(self.coref, c))) for c in ("named_entity", "bridging", "other")]
            rows.append(("noncoref", self.coref.noncoref(self.match, self.test, self.gold)))
            for name, counts in rows:
                p, r, f = prf(*counts)
                out[f"{name}_precision"], out[f"{name}_recall"], out[f"{name}_f1"] = p, r, f
        if self.fine_grained is not None:
            for name in MEASURES:
                p, r, f = prf(*self.fine_grained[name])
                out[f"{name}_precision"], out[f"{name}_recall"], out[f"{name}_f1"] = p, r, f
        out["config"] = config
        return out


def docsmatch_pair(
    prediction: GraphLike,
    gold: GraphLike,
    *,
    solver: str = DEFAULT_SOLVER,
    restarts: int = DEFAULT_RESTARTS,
    seed: int = 0,
    time_limit: float = 30.0,
    coref: bool = False,
    fine_grained: bool = False,
) -> DocPairScore:
    """DocSmatch of one predicted document graph against one gold document graph."""
    return _score(document_graph(prediction, "prediction", 0), document_graph(gold, "reference", 0),
                  _pair_seed(seed, 0), solver=solver, restarts=restarts, time_limit=time_limit,
                  coref=coref, fine_grained=fine_grained)


def _score(
    pred: Graph, gold: Graph, seed: int, *, solver: str, restarts: int, time_limit: float,
    coref: bool = False, fine_grained: bool = False,
) -> DocPairScore:
    a, b = graph_triples(pred), graph_triples(gold)
    ga, gb = sentence_groups(pred, a.variables), sentence_groups(gold, b.variables)
    allowed = sentence_constraint(pred, gold, a, b, groups=(ga, gb))
    if coref:
        items_a, items_b = coref_items(pred, a, ga), coref_items(gold, b, gb)
        eps = 1.0 / (2 * (items_b.count + 1))
        problem = build_problem(
            encode_pair(a, b), allowed=allowed,
            b_weights=(1.0 + eps * items_b.nodes, None, 1.0 + eps * items_b.edges),
        )
        if problem.n_terms:
            # the bonus only where the predicted triple is a coref edge too
            problem.term_w[~items_a.edges[problem.term_ta] & items_b.edges[problem.term_tb]] -= eps
        result = align(problem, solver=solver, restarts=restarts, seed=seed, time_limit=time_limit)  # type: ignore[arg-type]
        match = matched_triples(a, b, result.mapping)
        bound = float(np.floor(result.bound + 1e-6))
        score = DocPairScore(match, a.count, b.count, bool(result.optimal or match >= bound), bound,
                             coref=count_coref(a, b, items_a, items_b, result.mapping), mapping=result.mapping)
    else:
        result, _ = align_triples(a, b, solver=solver, restarts=restarts, seed=seed, time_limit=time_limit,
                                  allowed=allowed)
        score = DocPairScore(int(round(result.score)), a.count, b.count, result.optimal, float(result.bound),
                             mapping=result.mapping)
    if fine_grained:
        def aligner(x: Triples, y: Triples, sub: np.ndarray | None, init: np.ndarray | None) -> int:
            problem = build_problem(encode_pair(x, y), allowed=sub)
            found = align(problem, solver=solver, restarts=min(restarts, FINE_RESTARTS), seed=seed,  # type: ignore[arg-type]
                          time_limit=time_limit, init=init)
            return int(round(found.score))

        score.fine_grained = fine_grained_counts(pred, gold, a, b, allowed, aligner, score.mapping)
    return score


def docsmatch(
    predictions: Sequence[GraphLike] | Iterable[GraphLike],
    references: Sequence[GraphLike] | Iterable[GraphLike],
    *,
    solver: str = DEFAULT_SOLVER,
    restarts: int = DEFAULT_RESTARTS,
    seed: int = 0,
    time_limit: float = 30.0,
    coref: bool = False,
    fine_grained: bool = False,
    num_workers: int = 1,
    bootstrap: int = 0,
    confidence: float = 0.95,
    progress: bool | None = None,
) -> DocsmatchResult:
    """Corpus DocSmatch: documents paired by position, counts micro-averaged.

    Takes the arguments of :func:`amreval.smatch.smatch`, and:

    Args:
        predictions, references: documents as DocAMR PENMAN strings, graphs,
            or lists of sentence graphs (see :func:`document_graph`).
        coref: also compute the coreference sub-score (``coref_precision``,
            ``coref_recall``, ``coref_f1`` and the counts in ``coref``), with
            the tie-break described in the module docs.
        fine_grained: also compute the Damonte et al. (2017) scores.
        num_workers: score documents in this many processes (the result does
            not depend on it).

    Raises:
        InputError: lengths differ, no documents, or an entry is not a graph.
        DecodeError: a PENMAN string is malformed (the message names it).
    """
    preds = [document_graph(p, "prediction", k) for k, p in enumerate(predictions)]
    refs = [document_graph(r, "reference", k) for k, r in enumerate(references)]
    extra: dict[str, object] = {"score": "docsmatch"}
    if coref:
        extra["coref"] = "tiebreak"
    if fine_grained:
        extra["fine_grained"] = True
    base = score_corpus(
        preds, refs,
        partial(_score, solver=solver, restarts=restarts, time_limit=time_limit, coref=coref,
                fine_grained=fine_grained),
        solver=solver, restarts=restarts, seed=seed, bootstrap=bootstrap, confidence=confidence,
        progress=progress, desc="docsmatch", unit="doc", config=config_string(solver, restarts, seed, **extra),
        num_workers=num_workers,
    )
    result = DocsmatchResult(**{f.name: getattr(base, f.name) for f in fields(SmatchResult)})
    pairs: list[DocPairScore] = base.pairs  # type: ignore[assignment]
    if coref:
        result.coref = sum((p.coref for p in pairs if p.coref is not None), CorefCounts())
    if fine_grained:
        result.fine_grained = {
            m: [sum(p.fine_grained[m][k] for p in pairs if p.fine_grained) for k in range(3)] for m in MEASURES
        }
    return result
