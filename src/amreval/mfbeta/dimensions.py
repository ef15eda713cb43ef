"""MFβ by dimension: Meaning, and MFβ, for each fine-grained measure beside the S²match Meaning.

MFβ's Meaning (:mod:`amreval.mfbeta.score`) is one S²match number. The MFβ
authors break it down with ``fined_grained_semantic_analyis.sh``
(``Heidelberg-NLP/MFscore``), which runs ``evaluation-fixed-s2match.sh`` of
``flipz357/amr-metric-suite`` (``py3-Smatch-and-S2match``) on the parses and
the gold AMRs. ``dimensions`` chooses the measures:

* ``"s2align"``: that script's measures, under S²match's graded alignment:

  * **unlabeled**: S²match after every role but TOP is replaced by one label
    (``unlabel.py``), edges in the direction they were written (an ``-of`` role
    turned round);
  * **no_wsd**: S²match after every sense suffix is replaced by ``-01`` (its
    ``perl`` line);
  * **concepts**, **frames** (concepts ending in ``-`` and two digits),
    **non_sense_frames** (those without their sense), **named_ent** (concepts of
    the sources of ``:name``), **negations** (of the sources of ``:polarity``),
    **wikification** (``:wiki`` values) and **ignore_vars** (every attribute and
    relation triple with concepts in place of variables, TOP included as
    ``(TOP, root concept, root concept)``): ``[shared, predicted, gold]`` of the
    two graphs' **sets** (``scores-enhanced-s2align.py``: a concept that occurs
    twice counts once);
  * **reentrancies**, **srl**: S²match of the subgraphs of the edges into nodes
    with more than one incoming edge, and of the ``:ARGn`` edges (``-of`` turned
    round), as ``compute_s2match_from_two_lists`` builds them: the instance
    triples of the nodes the edges touch (an ``:ARGn`` to a constant adds its
    source's), each edge ``(role, s, t)`` both as a relation and as the attribute
    ``(role, s, concept of t)``, no TOP triple; concepts graded, the rest exact.
    Directions are the script's reader's: a ``:mod`` edge is ``(mod, parent,
    child)``, so a tree has no reentrancy.

  A corpus measure with nothing to score is undefined (None; ``n/a`` in the
  table), as every score of amreval with nothing to score
  (:func:`~amreval.scores.f1.undefined`): the script prints 1.00 when neither
  side has, say, a negation, which reads as a perfect score. Otherwise P, R and
  F1 of the summed counts: precision undefined without predicted items, recall
  without gold items, each 0 when nothing matched.

* ``"smatch"``: Damonte's measures as ``amreval`` computes them for Smatch and
  DocSmatch (:mod:`amreval.scores.finegrained`, the Smatch alignment,
  multisets), so that MFβ's breakdown reads as the parser evaluations' do.

Each measure's Meaning M_d gives MFβ_d = MFβ(M_d, Form) with MFβ's β.

The script's old reader (``smatch/amr_py3.py``) reads some graphs otherwise
than ours, and ours is kept (the README's MFβ section lists the differences):
it keeps one attribute per role on a node and one relation per pair of nodes
(after ``unlabel.py`` that is one attribute per node: ``:op1 "New" :op2 "York"``
keeps ``York`` alone, and two edges between the same nodes are one); an ``-of``
role followed by another role (``:ARG0-of b :mod c``) is not turned round;
quoted constants are not equal to unquoted ones; ``consist-of`` and the like are
inverses; roles and concepts are case-sensitive; ``reentrancy`` and ``srl``'s
subgraphs keep one attribute per role and source. The script's search is a hill
climb; ours finds the optimum.

Example:
    >>> from amreval.amr.read import loads_graph
    >>> from amreval.scores.vectors import WordVectors
    >>> g = loads_graph("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))")
    >>> p = loads_graph("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))")
    >>> c = s2align_counts(p, g, WordVectors.from_dict({"cat": [1.0, 0.0]}), SearchOptions())
    >>> c["no_wsd"], c["frames"], c["non_sense_frames"], c["reentrancies"]
    ((7.0, 7, 7), (1, 2, 2), (2, 2, 2), (6.5, 7, 7))
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import Any, NamedTuple, TypeVar

import numpy as np

from amreval.amr.graph import Graph
from amreval.errors import InputError
from amreval.match.options import SearchOptions
from amreval.match.triples import Triples, graph_triples
from amreval.mfbeta.combine import mf_beta
from amreval.mfbeta.graphs import given_parses, gold_graphs
from amreval.scores.corpus_statistics import Statistic, prf_undefined, prf_values
from amreval.scores.docsmatch import score_docsmatch_pair
from amreval.scores.f1 import prf_or_none, score_text
from amreval.scores.finegrained import MEASURE_LABELS, MEASURES, no_wsd_triples, reference_triples
from amreval.scores.harness import pair_search, warn_over_budget
from amreval.scores.s2match import DEFAULT_CUTOFF, DEFAULT_DIFFSENSE, graded_alignment, similarity_matrix
from amreval.scores.text import plural
from amreval.scores.vectors import WordVectors, lookup_words, resolve_vectors
from amreval.scores.workers import map_pairs, pair_name

__all__ = [
    "DIMENSION_SETS",
    "S2ALIGN_MEASURES",
    "DIMENSION_LABELS",
    "check_dimensions",
    "dimension_measures",
    "graded_match",
    "s2align_counts",
    "smatch_dimension_counts",
    "dimension_counts",
    "dimension_prf",
    "dimension_scores",
    "dimension_statistic",
    "dimension_items",
    "score_dimensions",
    "DimensionPairs",
    "score_dimension_pairs",
    "dimension_parts",
    "dimensions_table",
    "result_dimension_parts",
]

#: The choices of ``dimensions``.
DIMENSION_SETS = ("s2align", "smatch")
#: The measures of ``dimensions="s2align"``, in the order the authors' script prints them.
S2ALIGN_MEASURES = (
    "unlabeled",
    "no_wsd",
    "concepts",
    "frames",
    "non_sense_frames",
    "named_ent",
    "negations",
    "wikification",
    "ignore_vars",
    "reentrancies",
    "srl",
)
#: The printed name of each measure (the authors' script's labels).
DIMENSION_LABELS = {**MEASURE_LABELS, "frames": "Frames", "non_sense_frames": "Non_sense_frames"}
DIMENSION_LABELS["ignore_vars"] = "IgnoreVars"

Counts = tuple[float, int, int]
_FRAME = re.compile(r"-\d\d$")
_SENSE = re.compile(r"-\d+$")
T = TypeVar("T")


def check_dimensions(dimensions: Any) -> str | None:
    """``dimensions`` checked: None (or False) for none, else one of :data:`DIMENSION_SETS`.

    Raises:
        InputError: anything else.
    """
    if dimensions is None or dimensions is False:
        return None
    if not isinstance(dimensions, str) or dimensions not in DIMENSION_SETS:
        raise InputError(f"dimensions must be one of {', '.join(DIMENSION_SETS)} or None, got {dimensions!r}")
    return dimensions


def dimension_measures(dimensions: str) -> tuple[str, ...]:
    """The measures of a choice of :data:`DIMENSION_SETS`."""
    return S2ALIGN_MEASURES if check_dimensions(dimensions) == "s2align" else MEASURES


def graded_match(
    a: Triples,
    b: Triples,
    vectors: WordVectors,
    search: SearchOptions,
    *,
    cutoff: float = DEFAULT_CUTOFF,
    diffsense: float = DEFAULT_DIFFSENSE,
    cache: dict[tuple[str, str], float] | None = None,
) -> float:
    """S²match's graded match of two triple sets (instance triples graded; a TOP triple, when both have
    one, earns the similarity of the two roots' concepts, as in S²match). A problem over the memory budget
    is aligned within it (:func:`~amreval.match.approximate.build_within_budget`; ``search.strict``: the
    error instead); :func:`s2align_counts` with ``over_budget`` says which measures were."""
    return _graded(a, b, vectors, search, cutoff=cutoff, diffsense=diffsense, cache=cache)[0]


def _graded(
    a: Triples,
    b: Triples,
    vectors: WordVectors,
    search: SearchOptions,
    *,
    cutoff: float = DEFAULT_CUTOFF,
    diffsense: float = DEFAULT_DIFFSENSE,
    cache: dict[tuple[str, str], float] | None = None,
) -> tuple[float, bool]:
    """:func:`graded_match` and whether its problem was over the memory budget (aligned within it)."""
    if not a.concepts or not b.concepts:
        return 0.0, False
    sim = similarity_matrix(a, b, vectors, cutoff, diffsense, cache)
    top_a = [i for r, i, _ in a.attributes if r == "TOP"]
    weights = np.ones(len(b.attributes), dtype=np.float64)
    for q, (r, j, _) in enumerate(b.attributes):
        if r == "TOP":
            weights[q] = sim[top_a[0], j] if top_a else 0.0
    found = graded_alignment(a, b, sim, (None, weights, None), search)
    return float(found.score), bool(found.over_budget)


def _unlabeled(t: Triples, relations: list[tuple[str, int, int]]) -> Triples:
    """Every role but TOP one label (``label``, ``label#2`` for a parallel copy), edges in the direction
    ``unlabel.py`` leaves them: an inverted role turned round, ``:mod`` as written."""
    attributes = [a for a in t.attributes if a[0] == "TOP"]
    rest = [(i, c) for r, i, c in t.attributes if r != "TOP"]
    attributes += [(label, i, c) for label, (i, c) in zip(_numbered(rest), rest)]
    edges = [(s, o) for _, s, o in relations]
    return Triples(
        t.variables, t.concepts, attributes, [(label, s, o) for label, (s, o) in zip(_numbered(edges), edges)]
    )


def _numbered(keys: list[tuple[int, Any]]) -> list[str]:
    seen: dict[tuple[int, Any], int] = {}
    out = []
    for key in keys:
        seen[key] = seen.get(key, 0) + 1
        out.append("label" if seen[key] == 1 else f"label#{seen[key]}")
    return out


def _set_counts(a: Sequence[Any], b: Sequence[Any]) -> Counts:
    sa, sb = set(a), set(b)
    return (len(sa & sb), len(sa), len(sb))


def _sources(t: Triples, role: str) -> list[str]:
    return [t.concepts[s] for r, s, _ in (*t.attributes, *t.relations) if r == role]


def _ignore_vars(t: Triples, relations: list[tuple[str, int, int]]) -> list[tuple[str, str, str]]:
    c = t.concepts
    out = [(r, c[i], c[i] if r == "TOP" else v) for r, i, v in t.attributes]
    return out + [(r, c[s], c[o]) for r, s, o in relations]


def _edge_subgraph(t: Triples, edges: list[tuple[str, int, int]], extra: list[int]) -> Triples:
    """The script's subgraph of some edges: their nodes' instance triples, each edge as a relation and as the
    attribute ``(role, source, concept of target)``, and the nodes ``extra`` (sources of edges to constants)."""
    order: dict[int, None] = {}
    for _, s, o in edges:
        order[s] = order[o] = None
    for i in extra:
        order[i] = None
    new = {old: k for k, old in enumerate(order)}
    relations = list(dict.fromkeys((r, new[s], new[o]) for r, s, o in edges))
    attributes = list(dict.fromkeys((r, new[s], t.concepts[o]) for r, s, o in edges))
    return Triples([t.variables[i] for i in order], [t.concepts[i] for i in order], attributes, relations)


def _reentrancy_subgraph(
    t: Triples, attributes: list[tuple[str, int, str]], relations: list[tuple[str, int, int]]
) -> Triples:
    """The subgraph of the edges into nodes with more than one incoming edge."""
    incoming: list[list[tuple[str, int, int]]] = [[] for _ in range(len(t.concepts))]
    for rel in relations:
        incoming[rel[2]].append(rel)
    return _edge_subgraph(t, [rel for node in incoming if len(node) > 1 for rel in node], [])


def _srl_subgraph(t: Triples, attributes: list[tuple[str, int, str]], relations: list[tuple[str, int, int]]) -> Triples:
    """The subgraph of the ``:ARGn`` edges, with the sources of ``:ARGn`` edges to constants."""
    return _edge_subgraph(
        t, [r for r in relations if r[0].startswith("arg")], [i for r, i, _ in attributes if r.startswith("arg")]
    )


def s2align_counts(
    pred: Graph,
    gold: Graph,
    vectors: WordVectors,
    search: SearchOptions,
    *,
    cutoff: float = DEFAULT_CUTOFF,
    diffsense: float = DEFAULT_DIFFSENSE,
    cache: dict[tuple[str, str], float] | None = None,
    over_budget: list[str] | None = None,
) -> dict[str, Counts]:
    """The ``[match, test, gold]`` counts of every measure of :data:`S2ALIGN_MEASURES` for one pair
    (see the module docs); the graded ones' match is a float.

    A graded measure whose alignment problem is over the memory budget is aligned within it, its match a
    lower bound (``search.strict``: :class:`~amreval.errors.TooLargeError` instead); its name is appended
    to ``over_budget`` when a list is given."""
    settings: dict[str, Any] = dict(cutoff=cutoff, diffsense=diffsense, cache={} if cache is None else cache)
    over = over_budget if over_budget is not None else []

    def graded(name: str, x: Triples, y: Triples) -> Counts:
        match, big = _graded(x, y, vectors, search, **settings)
        if big:
            over.append(name)
        return (match, x.count, y.count)

    a, b = graph_triples(pred), graph_triples(gold)
    out: dict[str, Counts] = {}
    (atts_a, rels_a), (atts_b, rels_b) = reference_triples(pred, a), reference_triples(gold, b)
    out["unlabeled"] = graded("unlabeled", _unlabeled(a, rels_a), _unlabeled(b, rels_b))
    out["no_wsd"] = graded("no_wsd", no_wsd_triples(a), no_wsd_triples(b))
    out["concepts"] = _set_counts(a.concepts, b.concepts)
    fa, fb = [c for c in a.concepts if _FRAME.search(c)], [c for c in b.concepts if _FRAME.search(c)]
    out["frames"] = _set_counts(fa, fb)
    out["non_sense_frames"] = _set_counts([_FRAME.sub("", c) for c in fa], [_FRAME.sub("", c) for c in fb])
    out["named_ent"] = _set_counts(_sources(a, "name"), _sources(b, "name"))
    out["negations"] = _set_counts(_sources(a, "polarity"), _sources(b, "polarity"))
    out["wikification"] = _set_counts(
        [v for r, _, v in a.attributes if r == "wiki"], [v for r, _, v in b.attributes if r == "wiki"]
    )
    out["ignore_vars"] = _set_counts(_ignore_vars(a, rels_a), _ignore_vars(b, rels_b))
    sides = ((a, atts_a, rels_a), (b, atts_b, rels_b))
    for name, subgraph in (("reentrancies", _reentrancy_subgraph), ("srl", _srl_subgraph)):
        out[name] = graded(name, *(subgraph(*side) for side in sides))
    return out


def smatch_dimension_counts(
    pred: Graph, gold: Graph, search: SearchOptions, *, over_budget: list[str] | None = None
) -> dict[str, Counts]:
    """Damonte's ``[match, test, gold]`` counts of one pair under the Smatch alignment
    (:func:`~amreval.scores.finegrained.fine_grained_counts`, as ``compare --score srl`` scores them).

    ``over_budget``, when given, gets ``"smatch"`` appended where the pair's alignment, or one of the
    measures' re-alignments, was over the memory budget and aligned within it."""
    scored = score_docsmatch_pair(pred, gold, search, fine_grained=True)
    if over_budget is not None and (scored.over_budget or scored.fine_grained_over_budget):
        over_budget.append("smatch")
    fine = scored.fine_grained or {}
    return {m: (float(fine[m][0]), int(fine[m][1]), int(fine[m][2])) for m in MEASURES}


def dimension_counts(
    pred: Graph,
    gold: Graph,
    search: SearchOptions,
    *,
    dimensions: str,
    vectors: WordVectors,
    cutoff: float = DEFAULT_CUTOFF,
    diffsense: float = DEFAULT_DIFFSENSE,
    over_budget: list[str] | None = None,
) -> dict[str, Counts]:
    """One pair's counts of every measure of ``dimensions`` (``s2align`` or ``smatch``); ``over_budget``
    as :func:`s2align_counts` and :func:`smatch_dimension_counts` fill it."""
    if check_dimensions(dimensions) == "s2align":
        return s2align_counts(pred, gold, vectors, search, cutoff=cutoff, diffsense=diffsense, over_budget=over_budget)
    return smatch_dimension_counts(pred, gold, search, over_budget=over_budget)


def _dimension_pair(
    pred: Graph, gold: Graph, search: SearchOptions, **settings: Any
) -> tuple[dict[str, Counts], list[str]]:
    """:func:`dimension_counts` of one pair and the alignments of it that were over the memory budget
    (what a worker sends back)."""
    over: list[str] = []
    return dimension_counts(pred, gold, search, over_budget=over, **settings), over


def dimension_prf(match: float, test: float, gold: float) -> tuple[float | None, float | None, float | None]:
    """Precision, recall and F1 of a measure's summed counts, None where there is nothing to score
    (:func:`~amreval.scores.f1.prf_or_none`; the authors' script has 1.0 when neither side has any).

    Example:
        >>> dimension_prf(0, 0, 0), dimension_prf(0, 0, 3), dimension_prf(1, 2, 1)
        ((None, None, None), (None, 0.0, 0.0), (0.5, 1.0, 0.6666666666666666))
    """
    return prf_or_none(match, test, gold)


def dimension_scores(
    items: Sequence[dict[str, Counts]], measures: Sequence[str], form: float, beta: float
) -> dict[str, dict[str, float | None]]:
    """Per measure, from per-item counts: ``precision``, ``recall``, ``meaning`` (F1) and ``mf_beta``
    (MFβ of that Meaning and ``form``; None where Meaning is)."""
    out: dict[str, dict[str, float | None]] = {}
    for m in measures:
        sums = [sum(item[m][k] for item in items) for k in range(3)]
        p, r, f = dimension_prf(*sums)
        out[m] = {"precision": p, "recall": r, "meaning": f, "mf_beta": None if f is None else mf_beta(f, form, beta)}
    return out


def dimension_statistic(beta: float, part: str) -> Statistic:
    """``meaning`` (F1) or ``mfbeta`` of summed ``(match, test, gold, acceptable)`` of one measure, for
    paired tests and intervals: undefined where test and gold are both 0 (a resample with nothing to score
    counts 1.0, the authors' value, so that intervals keep their numbers; a reported score there is None)."""
    if part not in ("meaning", "mfbeta"):
        raise InputError(f"a dimension's part is meaning or mfbeta, got {part!r}")
    b2 = float(beta) ** 2

    def function(sums: np.ndarray, n: int) -> np.ndarray:
        empty = (sums[..., 1] == 0) & (sums[..., 2] == 0)
        meaning = np.where(empty, 1.0, prf_values(sums[..., :3], "f1"))
        if part == "meaning":
            return meaning
        form = sums[..., 3] / n
        denominator = b2 * meaning + form
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(denominator > 0, (1 + b2) * meaning * form / denominator, 0.0)

    return Statistic(part, ("match", "test", "gold", "acceptable"), function, partial(prf_undefined, "f1"))


def dimension_items(
    items: Sequence[dict[str, Counts]], acceptable: Sequence[bool], measures: Sequence[str]
) -> dict[str, np.ndarray]:
    """Per measure, the items × ``(match, test, gold, acceptable)`` array of a system."""
    flags = np.asarray([bool(x) for x in acceptable], dtype=np.float64)
    if len(flags) != len(items):
        raise InputError(f"{plural(len(items), 'item')} of counts but {len(flags)} acceptability flags")
    return {
        m: np.column_stack([np.asarray([item[m] for item in items], dtype=np.float64).reshape(len(items), 3), flags])
        for m in measures
    }


class DimensionPairs(NamedTuple):
    """Every pair's counts of the measures of a choice of :data:`DIMENSION_SETS` (``items``) and the
    positions of the pairs one of whose alignments was over the memory budget (``over_budget``: aligned
    within it, their graded matches lower bounds)."""

    items: list[dict[str, Counts]]
    over_budget: list[int]


def score_dimension_pairs(
    pred: Sequence[Graph],
    gold: Sequence[Graph],
    search: SearchOptions,
    *,
    dimensions: str,
    vectors: WordVectors,
    cutoff: float = DEFAULT_CUTOFF,
    diffsense: float = DEFAULT_DIFFSENSE,
    num_workers: int = 1,
    progress: bool | None = None,
) -> DimensionPairs:
    """Every pair's counts of the measures of ``dimensions``, the pairs aligned in ``num_workers`` processes
    (each pair with its own seed, as MFβ's Meaning).

    A pair one of whose alignment problems is over the memory budget is aligned within it
    (:mod:`amreval.match.approximate`), counted in ``over_budget`` and named in one warning
    (:func:`~amreval.scores.harness.warn_over_budget`); with ``search.strict`` it raises
    :class:`~amreval.errors.TooLargeError` naming the pair instead."""
    pairs = map_pairs(
        partial(_dimension_pair, dimensions=dimensions, vectors=vectors, cutoff=cutoff, diffsense=diffsense),
        pred,
        gold,
        [pair_search(search, k) for k in range(len(pred))],
        num_workers=num_workers,
        progress=progress,
        desc=f"meaning by dimension ({dimensions})",
    )
    over = [k for k, (_, measures) in enumerate(pairs) if measures]
    if over:
        names = [f"{pair_name(k, (pred[k], gold[k]))}: {', '.join(pairs[k][1])}" for k in over[:10]]
        warn_over_budget(names, len(over), len(pairs), where=f"in Meaning by dimension ({dimensions})")
    return DimensionPairs([counts for counts, _ in pairs], over)


def score_dimensions(
    pred: Sequence[Graph],
    gold: Sequence[Graph],
    search: SearchOptions,
    *,
    dimensions: str,
    vectors: WordVectors,
    cutoff: float = DEFAULT_CUTOFF,
    diffsense: float = DEFAULT_DIFFSENSE,
    num_workers: int = 1,
    progress: bool | None = None,
) -> list[dict[str, Counts]]:
    """Every pair's counts of the measures of ``dimensions``: :func:`score_dimension_pairs`' ``items``
    (pairs over the memory budget aligned within it and named in a warning)."""
    return score_dimension_pairs(
        pred,
        gold,
        search,
        dimensions=dimensions,
        vectors=vectors,
        cutoff=cutoff,
        diffsense=diffsense,
        num_workers=num_workers,
        progress=progress,
    ).items


def dimension_parts(
    parses: Mapping[str, Sequence[Any]],
    references: Sequence[Any],
    acceptable: Mapping[str, Sequence[bool]],
    *,
    dimensions: str,
    beta: float = 1.0,
    vectors: Any = None,
    cutoff: float | None = None,
    diffsense: float | None = None,
    **search: Any,
) -> dict[str, tuple[Statistic, dict[str, np.ndarray]]]:
    """The per-measure parts of a comparison of systems by MFβ: ``meaning_<measure>`` and
    ``mfbeta_<measure>`` → ``(statistic, {system: items × (match, test, gold, acceptable)})``.

    Args:
        parses: system → the parses of its generated sentences (None or unreadable: a failed parse).
        references: the gold AMRs; ``acceptable``: system → Form's flags per item.
        dimensions, beta: the measures and MFβ's β; ``vectors``, ``cutoff``, ``diffsense``: S²match's.
        search: ``solver``, ``restarts``, ``seed``, ``time_limit``, ``progress``.
    """
    dims = check_dimensions(dimensions)
    if dims is None:
        return {}
    progress = search.pop("progress", None)
    options = SearchOptions.from_keywords(**search)
    golds = gold_graphs(references, len(references))
    preds = {name: given_parses(p, [""] * len(golds), blank_fails=False)[0] for name, p in parses.items()}
    concepts = [c for gs in (golds, *preds.values()) for g in gs for c in g.instances.values() if isinstance(c, str)]
    table = resolve_vectors(vectors, words=lookup_words(concepts))
    cut = DEFAULT_CUTOFF if cutoff is None else cutoff
    sense = DEFAULT_DIFFSENSE if diffsense is None else diffsense
    measures = dimension_measures(dims)
    items = {
        name: dimension_items(
            score_dimensions(
                p, golds, options, dimensions=dims, vectors=table, cutoff=cut, diffsense=sense, progress=progress
            ),
            acceptable[name],
            measures,
        )
        for name, p in preds.items()
    }
    return _measure_parts(beta, measures, lambda m: {name: items[name][m] for name in items}, "mfbeta")


def dimensions_table(dimensions: Mapping[str, Mapping[str, float | None]], beta: float, digits: int = 4) -> str:
    """The per-measure table of an MFβ result's ``dimensions``: the measure (the authors' labels), P, R,
    Meaning (F1) and MFβ, one line each (``n/a`` where there is nothing to score)."""
    w = digits + 6
    rows = [f"{'Dimension':<18}{'P':>{w}}{'R':>{w}}{'Meaning':>{w}}{'MF_' + format(beta, 'g'):>{w}}"]
    for m, v in dimensions.items():
        p, r, f, mf = (score_text(v[k], digits) for k in ("precision", "recall", "meaning", "mf_beta"))
        rows.append(f"{DIMENSION_LABELS.get(m, m):<18}{p:>{w}}{r:>{w}}{f:>{w}}{mf:>{w}}")
    return "\n".join(rows) + "\n"


def result_dimension_parts(result: Any) -> dict[str, tuple[Statistic, np.ndarray]]:
    """The per-measure parts of an :class:`~amreval.mfbeta.score.MFResult` scored with ``dimensions``, as
    output key (``meaning_<measure>``, ``mf_beta_<measure>``) → ``(statistic, items)``: what
    :func:`~amreval.scores.compare.compare_against` compares (empty without dimensions)."""
    if not result.dimensions or result.dimension_items is None:
        return {}
    items = dimension_items(result.dimension_items, result.acceptable, list(result.dimensions))
    return _measure_parts(result.beta, items, items.__getitem__, "mf_beta")


def _measure_parts(
    beta: float, measures: Iterable[str], items: Callable[[str], T], mf_key: str
) -> dict[str, tuple[Statistic, T]]:
    """``meaning_<measure>`` and ``<mf_key>_<measure>`` → ``(statistic, items(measure))``, measure by measure."""
    statistics = {"meaning": dimension_statistic(beta, "meaning"), mf_key: dimension_statistic(beta, "mfbeta")}
    return {f"{key}_{m}": (statistic, items(m)) for m in measures for key, statistic in statistics.items()}
