"""MFβ (Opitz & Frank 2021): Meaning and Form of text generated from AMR.

* **Meaning** M: corpus S²match (:mod:`amreval.scores.s2match`) between the parse
  of each generated sentence and its gold AMR, or, without gold AMRs, the
  parse of the reference sentence. A parse that fails becomes the authors'
  one-node dummy graph ``(er / serialization-error)``
  (:func:`~amreval.mfbeta.parsers.failed_parse_graph`) and is counted
  (``parse_failures``).
* **Form** F: the share of generated sentences a language model finds
  acceptable next to their reference (:mod:`amreval.mfbeta.form`).
* **MFβ** = (1 + β²)·M·F / (β²·M + F), 0 when M = F = 0: β > 1 weights Form
  more, β < 1 Meaning more.

An empty (or blank) generated sentence is scored, never an error for the
corpus: it is not sent to the parser, its parse fails (the dummy graph, even
when a parse is given for it), and its Form score (mtp) is 0, so it is never
preferred to its reference
(:func:`~amreval.mfbeta.form.form_score`). In the authors' scripts the empty
line is parsed and scored like any other (the language model then scores
only the end-of-text token after the start token) and is not preferred;
fixing its score at 0 keeps that outcome whatever the model. Reference
sentences must not be empty.

With ``clean=True`` (or a spaCy pipeline, or a cleaner) both the generated
and the reference sentences are cleaned before parsing and Form scoring, as
the authors' scripts do (:mod:`amreval.mfbeta.clean`); the configuration
records it (``clean=basic(en_core_web_sm)``, ``clean=none`` without).

The settings come as option values (:mod:`amreval.mfbeta.options`): ``form=``
(:class:`~amreval.mfbeta.options.FormOptions`: the language model), ``meaning=``
(:class:`~amreval.mfbeta.options.MeaningOptions`: the parser and S²match) and
``search=`` (:class:`~amreval.match.options.SearchOptions`), or field by field
as keywords of the same name (``lm=``, ``parser=``, ``cutoff=``, ``solver=``, ...).

With ``explain=True`` each example carries what the generation lost and
added relative to the gold graph, read off the S²match alignment: gold
triples that earned nothing (*lost*), generated triples that earned nothing
(*added*), and concept pairs credited partly (*approximate*).

A pair whose S²match alignment problem is over the memory budget
(:data:`~amreval.match.problem.MEMORY_BUDGET`) is aligned within it
(:mod:`amreval.match.approximate`), its graded match a lower bound, counted
(``n_over_budget``; the dimensions' alignments ``dimension_n_over_budget``)
and named in a warning; ``strict=True`` raises
:class:`~amreval.errors.TooLargeError` instead. A failed parse is MFβ's own
outcome, counted whatever ``strict``.

Example:
    >>> round(mf_beta(0.8, 0.5, 1.0), 4), round(mf_beta(0.8, 0.5, 2.0), 4), mf_beta(0.0, 0.0, 1.0)
    (0.6154, 0.5405, 0.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from amreval.amr.graph import Graph
from amreval.errors import InputError
from amreval.match.diff import triple_diff
from amreval.match.options import SearchOptions
from amreval.mfbeta.clean import CleanLike, clean_sentences, cleaner_name, get_cleaner
from amreval.mfbeta.combine import BETAS, mf_beta
from amreval.mfbeta.dimensions import check_dimensions, dimension_measures, dimension_scores, score_dimension_pairs
from amreval.mfbeta.form import check_sentences, form_score, get_scorer
from amreval.mfbeta.graphs import given_parses, gold_graphs
from amreval.mfbeta.options import FormOptions, MeaningOptions, mfbeta_options
from amreval.mfbeta.parsers import failed_parse_graph, get_parser, parse_sentences
from amreval.scores.checks import check_bool
from amreval.scores.f1 import prf
from amreval.scores.harness import pair_search, warn_over_budget
from amreval.scores.results import Config, Result
from amreval.scores.s2match import S2Alignment, align_s2match, s2match_config
from amreval.scores.text import plural
from amreval.scores.vectors import WordVectors, lookup_words, resolve_vectors
from amreval.scores.workers import map_pairs, pair_name

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from amreval.mfbeta.options import MFBetaKeywords

# mf_beta and BETAS (mfbeta.combine), gold_graphs and given_parses (mfbeta.graphs) live in modules that the
# dimensions share with this one without importing it; they stay importable from here
__all__ = ["mf_beta", "MFResult", "mfbeta", "explain_alignment", "gold_graphs", "given_parses", "BETAS"]


def explain_alignment(al: S2Alignment) -> dict[str, list]:
    """What a generated graph lost and added relative to the gold graph.

    Returns:
        ``lost``: gold triples that earned nothing; ``added``: generated
        triples that earned nothing; ``approximate``: ``[gold concept,
        generated concept, credit]`` for concept pairs credited partly.
        Triples are written with concepts in place of variables
        (``want-01 :ARG0 boy``; a concept alone for an instance triple).
    """
    a, b = al.a, al.b
    diff = triple_diff(a, b, al.mapping, concept_credit=al.similarity)
    lost: list[str] = [b.concepts[j] for j in diff.missing("instance")]
    added: list[str] = [a.concepts[i] for i in diff.extra("instance")]
    approximate: list[list[Any]] = [
        [b.concepts[j], a.concepts[i], round(float(al.similarity[i, j]), 4)]
        for i, j in diff.matched("instance")
        if al.similarity[i, j] < 1
    ]
    lost += [f"{b.concepts[j]} :{r} {v}" for r, j, v in (b.attributes[q] for q in diff.missing("attribute"))]
    added += [f"{a.concepts[i]} :{r} {v}" for r, i, v in (a.attributes[p] for p in diff.extra("attribute"))]
    lost += [f"{b.concepts[j]} :{r} {b.concepts[k]}" for r, j, k in (b.relations[q] for q in diff.missing("relation"))]
    added += [f"{a.concepts[i]} :{r} {a.concepts[k]}" for r, i, k in (a.relations[p] for p in diff.extra("relation"))]
    return {"lost": lost, "added": added, "approximate": approximate}


@dataclass
class MFResult(Result):
    """MFβ of a corpus.

    Attributes:
        meaning, form: M and F; ``beta`` and ``mf_beta`` the requested β and
        its score; ``scores`` MFβ for β in :data:`BETAS` (keys ``mf_1``,
        ``mf_0.5``, ``mf_2``).
        meaning_counts: graded match, test and gold triple counts of M.
        parse_failures: generated sentences whose parse failed (indices in
            ``failed``); ``reference_parse_failures`` likewise when the
            references were parsed.
        pref_scores, acceptable: per example (Form); ``s2match_f1`` per example (Meaning).
        meaning_items: per example, Meaning's graded match, test and gold triple counts.
        explanations: per example, when asked (see :func:`explain_alignment`).
        dimensions: with ``dimensions=``, per fine-grained measure its ``precision``, ``recall``,
            ``meaning`` (F1) and ``mf_beta`` (None with nothing to score); ``dimension_items`` its counts per example
            (:mod:`amreval.mfbeta.dimensions`).
        over_budget: examples whose Meaning alignment problem was over the memory budget and was aligned
            within it (their graded match a lower bound); ``dimension_over_budget`` likewise for any of the
            dimensions' alignments (None without dimensions).
        config: the settings (:class:`~amreval.scores.results.Config`).
    """

    meaning: float
    form: float
    beta: float
    mf_beta: float
    scores: dict[str, float]
    meaning_counts: tuple[float, int, int]
    parse_failures: int
    failed: list[int]
    reference_parse_failures: int
    pref_scores: list[float]
    acceptable: list[bool]
    s2match_f1: list[float]
    explanations: list[dict[str, list]] | None = None
    config: Config = field(default_factory=lambda: Config("mfbeta"))
    meaning_items: list[tuple[float, int, int]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    dimensions: dict[str, dict[str, float | None]] | None = None
    dimension_items: list[dict[str, tuple[float, int, int]]] | None = None
    over_budget: list[int] = field(default_factory=list)
    dimension_over_budget: list[int] | None = None

    def as_dict(self, per_example: bool = False) -> dict[str, Any]:
        """Flat numbers and the config; per-example lists when asked (and the explanations when computed).
        ``n_over_budget`` counts the examples of :attr:`over_budget`; with dimensions,
        ``dimension_n_over_budget`` those of :attr:`dimension_over_budget`."""
        out: dict[str, Any] = {
            "mf_beta": self.mf_beta,
            **self.scores,
            "meaning": self.meaning,
            "form": self.form,
            "beta": self.beta,
            "parse_failures": self.parse_failures,
            "reference_parse_failures": self.reference_parse_failures,
            "n_over_budget": len(self.over_budget),
        }
        if per_example:
            out["pref_scores"] = list(self.pref_scores)
            out["acceptable"] = list(self.acceptable)
            out["s2match_f1"] = list(self.s2match_f1)
        for measure, values in (self.dimensions or {}).items():
            out[f"meaning_{measure}"], out[f"mf_beta_{measure}"] = values["meaning"], values["mf_beta"]
        if self.dimensions is not None:
            out["dimension_n_over_budget"] = len(self.dimension_over_budget or [])
        if self.explanations is not None:
            out["explanations"] = self.explanations
        out["score"] = self.config.score
        out["config"] = self.config.as_string()
        return out


def _parse(sentences: list[str], meaning: MeaningOptions, progress: bool | None) -> tuple[list[Graph], list[int]]:
    """Parse the sentences with Meaning's parser; an empty one is not sent to the parser and its parse fails."""
    kept = [k for k, s in enumerate(sentences) if s.strip()]
    assert meaning.parser is not None  # checked where the call comes in
    result = parse_sentences(
        get_parser(meaning.parser, batch_size=meaning.batch_size, device=meaning.device),
        [sentences[k] for k in kept],
        batch_size=meaning.batch_size,
        device=meaning.device,
        progress=progress,
        cache=meaning.cache,
    )
    graphs = [failed_parse_graph(s) for s in sentences]
    for graph, k in zip(result.graphs, kept):
        graphs[k] = graph
    failed = set(range(len(sentences))) - set(kept)
    failed.update(kept[j] for j in result.failures)
    return graphs, sorted(failed)


def _meaning_pair(
    pred: Graph,
    gold: Graph,
    search: SearchOptions,
    *,
    vectors: WordVectors,
    cutoff: float,
    diffsense: float,
    explain: bool,
) -> tuple[float, int, int, float, dict[str, list] | None, bool]:
    """S²match of one parse against its gold graph: match, test, gold, F1, (``explain``) the explanation, and
    whether its alignment problem was over the memory budget."""
    al = align_s2match(pred, gold, vectors, search, cutoff=cutoff, diffsense=diffsense)
    s = al.score
    return s.match, s.test, s.gold, s.f1, explain_alignment(al) if explain else None, bool(s.over_budget)


def mfbeta(
    generated: Sequence[str],
    references: Sequence[str],
    *,
    reference_amrs: Sequence[str | Graph] | None = None,
    prediction_amrs: Sequence[str | Graph | None] | None = None,
    form: FormOptions | None = None,
    meaning: MeaningOptions | None = None,
    search: SearchOptions | None = None,
    beta: float = 1.0,
    clean: CleanLike = False,
    explain: bool = False,
    dimensions: str | None = None,
    progress: bool | None = None,
    strict: bool = False,
    **shortcuts: Unpack[MFBetaKeywords],
) -> MFResult:
    """MFβ of generated sentences against references (see the module docs).

    Args:
        generated: the generated sentences; an empty one is scored (its parse
            fails, it is never preferred to its reference).
        references: the reference sentences (Form compares with them).
        reference_amrs: gold AMRs (PENMAN); without them Meaning compares
            with the parses of ``references``.
        prediction_amrs: parses of ``generated`` made beforehand (None or an
            unreadable string marks a failed parse); otherwise Meaning's
            ``parser`` parses.
        form: the language model and its settings
            (:class:`~amreval.mfbeta.options.FormOptions`: ``lm``, ``lm_kind``
            or a loaded ``scorer``, ``tolerance``, ``device``, ``dtype``,
            ``max_tokens``, ``cache``).
        meaning: the parser and S²match's settings
            (:class:`~amreval.mfbeta.options.MeaningOptions`: ``parser``,
            ``batch_size``, ``device``, ``cache``, ``vectors``, ``cutoff``,
            ``diffsense``, ``num_workers``).
        search: the S²match search (:class:`~amreval.match.options.SearchOptions`).
        beta: the β of ``mf_beta`` (β = 1, 0.5 and 2 are always reported).
        clean: clean the generated and reference sentences before parsing and
            Form scoring, as the authors do (:mod:`amreval.mfbeta.clean`):
            ``True`` (spaCy's ``en_core_web_sm``), a spaCy pipeline name or
            object, a :class:`~amreval.mfbeta.clean.SentenceCleaner`, or any
            callable ``list[str] -> list[str]``; ``False`` (default) leaves
            them as given. Recorded in the config as ``clean=``.
        explain: add per-example explanations (lost, added, approximate triples).
        dimensions: also Meaning and MFβ for each fine-grained measure
            (:mod:`amreval.mfbeta.dimensions`): ``"s2align"`` (the authors' script's measures, under
            S²match's graded alignment) or ``"smatch"`` (Damonte's, under the Smatch alignment).
            Recorded in the config as ``dimensions=``.
        progress: progress bars (default: on a terminal only).
        strict: a pair whose alignment problem (Meaning's, or a dimension's) is over the memory budget
            raises :class:`~amreval.errors.TooLargeError` (naming the pair) instead of being aligned within
            it and counted (``n_over_budget``); failed parses are counted either way.
        **shortcuts: any field of the three option values as a keyword of its own, for the option
            value it belongs to (:class:`~amreval.mfbeta.options.MFBetaKeywords`): ``lm=``,
            ``lm_kind=``, ``scorer=``, ``tolerance=``, ``dtype=``, ``max_tokens=``; ``parser=``,
            ``batch_size=``, ``vectors=``, ``cutoff=``, ``diffsense=``, ``num_workers=``; ``device=``
            and ``cache=`` (both sides); ``solver=``, ``restarts=``, ``seed=``, ``time_limit=``.
            References are the same for every system: with a cache (``"memory"`` by default), a
            second system against them scores and parses only its own sentences.

    Raises:
        InputError: lengths differ, an empty reference sentence, an unreadable
            gold AMR (the message names the index), neither a parser nor
            parses given, a wrong setting, or a shortcut given together with
            the option value that holds it.
        TypeError: a keyword that is neither an argument nor a shortcut.
        MissingDependencyError: cleaning asked for without sacremoses or spaCy
            (``pip install 'amreval[lm]'``).
    """
    form, meaning, search = mfbeta_options(form, meaning, search, shortcuts)
    explain = bool(check_bool("explain", explain))
    dimensions = check_dimensions(dimensions)
    progress = check_bool("progress", progress, optional=True)
    if check_bool("strict", strict):
        search = search.as_strict()
    gen = check_sentences(generated, "generated", allow_empty=True)
    refs = check_sentences(references, "reference")
    n = len(gen)
    if len(refs) != n:
        raise InputError(f"{n} generated sentences but {plural(len(refs), 'reference')}; they are paired by position")
    if n == 0:
        raise InputError("nothing to score: no generated sentences")
    mf_beta(1.0, 1.0, beta)  # validates beta
    if prediction_amrs is None and meaning.parser is None:
        raise InputError(
            "Meaning needs the generated sentences' AMRs: pass parser= (an amrlib model folder or a "
            "callable) or prediction_amrs="
        )
    if reference_amrs is None and meaning.parser is None:
        raise InputError("without reference_amrs, Meaning compares with parsed references: pass parser=")
    gold = gold_graphs(reference_amrs, n) if reference_amrs is not None else None
    cleaner = get_cleaner(clean)
    if cleaner is not None:
        gen = clean_sentences(cleaner, gen, "generated")
        refs = check_sentences(clean_sentences(cleaner, refs, "reference"), "cleaned reference")
    if prediction_amrs is not None:
        pred, failed = given_parses(prediction_amrs, gen)
    else:
        pred, failed = _parse(gen, meaning, progress)
    ref_failed: list[int] = []
    if gold is None:
        gold, ref_failed = _parse(refs, meaning, progress)
    concepts = [c for g in (*pred, *gold) for c in g.instances.values() if isinstance(c, str)]
    vecs = resolve_vectors(meaning.vectors, words=lookup_words(concepts))  # a text file is read for these words only
    if meaning.num_workers > 1:  # the workers get the part of the table these graphs consult
        vecs_used = vecs.subset(concepts)
    else:
        vecs_used = vecs
    cutoff, diffsense = meaning.cutoff, meaning.diffsense
    pairs = map_pairs(
        partial(_meaning_pair, vectors=vecs_used, cutoff=cutoff, diffsense=diffsense, explain=explain),
        pred,
        gold,
        [pair_search(search, k) for k in range(n)],
        num_workers=meaning.num_workers,
        progress=progress,
        desc="meaning (S²match)",
    )
    match = sum(p[0] for p in pairs)
    test = sum(p[1] for p in pairs)
    total = sum(p[2] for p in pairs)
    m = prf(match, test, total)[2]
    over = [k for k, p in enumerate(pairs) if p[5]]
    if over:
        warn_over_budget([pair_name(k, (pred[k], gold[k])) for k in over[:10]], len(over), n)
    dimension_items = dimension_over = None
    if dimensions is not None:
        dimension_items, dimension_over = score_dimension_pairs(
            pred, gold, search, dimensions=dimensions, vectors=vecs_used, cutoff=cutoff, diffsense=diffsense,
            num_workers=meaning.num_workers, progress=progress,
        )  # fmt: skip
    scorer = form.scorer
    if scorer is None:
        scorer = get_scorer(
            form.lm, form.lm_kind, form.device, dtype=form.dtype, max_tokens=form.max_tokens, cache=form.cache
        )
    f = form_score(gen, refs, scorer=scorer, tolerance=form.tolerance, progress=progress)
    s2 = s2match_config(search, cutoff, diffsense, vecs, search.strict)
    config = Config(
        "mfbeta",
        search,
        (
            ("beta", beta),
            ("tolerance", form.tolerance),
            ("lm", getattr(scorer, "name_or_path", form.lm)),
            ("lm_kind", getattr(scorer, "kind", form.lm_kind)),
            *((("lm_dtype", dtype),) if (dtype := getattr(scorer, "dtype", "float32")) != "float32" else ()),
            ("clean", "none" if cleaner is None else cleaner_name(cleaner)),
            *((("dimensions", dimensions),) if dimensions is not None else ()),
            *s2.options,
        ),
    )
    return MFResult(
        meaning=m,
        form=f.form,
        beta=beta,
        mf_beta=mf_beta(m, f.form, beta),
        scores={f"mf_{b:g}": mf_beta(m, f.form, b) for b in BETAS},
        meaning_counts=(match, test, total),
        parse_failures=len(failed),
        failed=failed,
        reference_parse_failures=len(ref_failed),
        pref_scores=list(f.pref_scores),
        acceptable=list(f.acceptable),
        s2match_f1=[p[3] for p in pairs],
        explanations=[p[4] for p in pairs] if explain else None,  # type: ignore[misc]
        config=config,
        meaning_items=[(p[0], p[1], p[2]) for p in pairs],
        dimensions=None
        if dimension_items is None
        else dimension_scores(dimension_items, dimension_measures(str(dimensions)), f.form, beta),
        dimension_items=dimension_items,
        over_budget=over,
        dimension_over_budget=dimension_over,
    )
