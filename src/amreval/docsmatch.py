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

Example:
    >>> doc = "(d / document :snt1 (a / boy) :snt2 (b / boy))"
    >>> r = docsmatch([doc], [doc])
    >>> r.f1, r.match
    (1.0, 6)
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

import numpy as np

from .alignment import DEFAULT_RESTARTS, DEFAULT_SOLVER
from .graph import Graph
from .smatch import (
    GraphLike,
    PairScore,
    SmatchResult,
    _as_graph,
    _pair_seed,
    _score_pair,
    config_string,
    score_corpus,
)
from .triples import Triples, graph_triples

__all__ = ["sentence_groups", "sentence_constraint", "docsmatch", "docsmatch_pair"]

_SNT = re.compile(r"^snt(\d+)$", re.IGNORECASE)
_REVERSE_ALWAYS = frozenset({"coref", "part", "subset"})


def sentence_groups(graph: Graph, variables: Sequence[str] | None = None) -> np.ndarray | None:
    """The sentences each node belongs to, as a boolean matrix.

    Args:
        graph: a document graph.
        variables: the node order of the rows (default: ``graph.instances`` order).

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
                roots[int(m.group(1))] = e.target
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


def sentence_constraint(pred: Graph, gold: Graph, a: Triples, b: Triples) -> np.ndarray | None:
    """The allowed-candidate matrix for two document graphs (None: no constraint)."""
    ga = sentence_groups(pred, a.variables)
    gb = sentence_groups(gold, b.variables)
    if ga is None and gb is None:
        return None
    if ga is None:
        ga = np.ones((len(a.variables), 1), dtype=bool)
    if gb is None:
        gb = np.ones((len(b.variables), 1), dtype=bool)
    k = max(ga.shape[1], gb.shape[1])
    ga = np.pad(ga, ((0, 0), (0, k - ga.shape[1])))
    gb = np.pad(gb, ((0, 0), (0, k - gb.shape[1])))
    allowed = (ga.astype(np.int32) @ gb.T.astype(np.int32)) > 0
    # nodes in no sentence may align with each other
    allowed |= np.outer(~ga.any(axis=1), ~gb.any(axis=1))
    return allowed


def docsmatch_pair(
    prediction: GraphLike,
    gold: GraphLike,
    *,
    solver: str = DEFAULT_SOLVER,
    restarts: int = DEFAULT_RESTARTS,
    seed: int = 0,
    time_limit: float = 30.0,
) -> PairScore:
    """DocSmatch of one predicted document graph against one gold document graph."""
    return _score(_as_graph(prediction, "prediction", 0), _as_graph(gold, "reference", 0),
                  solver, restarts, _pair_seed(seed, 0), time_limit)


def _score(pred: Graph, gold: Graph, solver: str, restarts: int, seed: int, time_limit: float) -> PairScore:
    a, b = graph_triples(pred), graph_triples(gold)
    return _score_pair(a, b, solver, restarts, seed, time_limit, allowed=sentence_constraint(pred, gold, a, b))


def docsmatch(
    predictions: Sequence[GraphLike] | Iterable[GraphLike],
    references: Sequence[GraphLike] | Iterable[GraphLike],
    *,
    solver: str = DEFAULT_SOLVER,
    restarts: int = DEFAULT_RESTARTS,
    seed: int = 0,
    time_limit: float = 30.0,
    bootstrap: int = 0,
    confidence: float = 0.95,
    progress: bool | None = None,
) -> SmatchResult:
    """Corpus DocSmatch: documents paired by position, counts micro-averaged.

    Takes the same arguments as :func:`amreval.smatch.smatch`.

    Raises:
        InputError: lengths differ, no documents, or an entry is not a graph.
        DecodeError: a PENMAN string is malformed (the message names it).
    """
    return score_corpus(
        predictions, references,
        lambda a, b, pair_seed: _score(a, b, solver, restarts, pair_seed, time_limit),
        solver=solver, restarts=restarts, seed=seed, bootstrap=bootstrap, confidence=confidence,
        progress=progress, desc="docsmatch", unit="doc", config=config_string(solver, restarts, seed, score="docsmatch"),
    )
