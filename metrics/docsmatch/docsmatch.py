"""DocSmatch: Smatch for document-level AMR (DocAMR), with the coreference sub-score.

A thin door into ``amreval.scores.docsmatch``: every number is computed there.
"""

from typing import Any

import datasets
import evaluate

from amreval.amr.graph import Graph
from amreval.errors import InputError, numbered
from amreval.hub.metric_compute import docsmatch_results
from amreval.hub.metric_io import ZERO_DIVISION, check_batch, check_zero_division, penman_text
from amreval.match.options import DEFAULT_RESTARTS, DEFAULT_SOLVER, DEFAULT_TIME_LIMIT, DEFAULT_WORK_LIMIT, SOLVERS
from amreval.scores.checks import check_bool, interval_resamples
from amreval.scores.paired_tests import DEFAULT_RESAMPLES
from amreval.scores.text import plural

_CITATION = """\
@inproceedings{naseem-etal-2022-docamr,
    title = "{D}oc{AMR}: Multi-Sentence {AMR} Representation and Evaluation",
    author = "Naseem, Tahira and Blodgett, Austin and Kumaravel, Sadhana and O{'}Gorman, Tim and
      Lee, Young-Suk and Flanigan, Jeffrey and Astudillo, Ram{\\'o}n and Florian, Radu and
      Roukos, Salim and Schneider, Nathan",
    booktitle = "Proceedings of the 2022 Conference of the North American Chapter of the Association
      for Computational Linguistics: Human Language Technologies",
    year = "2022",
    pages = "3496--3505",
}
@inproceedings{cai-knight-2013-smatch,
    title = "{S}match: an Evaluation Metric for Semantic Feature Structures",
    author = "Cai, Shu and Knight, Kevin",
    booktitle = "Proceedings of the 51st Annual Meeting of the Association for Computational Linguistics
      (Volume 2: Short Papers)",
    year = "2013",
    pages = "748--752",
}
"""

_DESCRIPTION = """\
DocSmatch scores predicted document-level AMR graphs (DocAMR) against gold ones: Smatch, with node
alignments restricted to nodes of aligned sentences (sentence k with sentence k, from the graph's
`:sntK` edges), which makes whole documents tractable. With `coref=True` it also reports the
coreference sub-score of Naseem et al. (2022): coref nodes (`coref-entity`, `implicit-role`),
nodes merged across sentences, and the edges into them, counted under the overall alignment, with
a breakdown into named-entity, bridging and other coreference, and the non-coref remainder. Counts
are micro-averaged over documents. The search is deterministic for a seed; among alignments with the
same overall score it prefers the one with the most coreference matches.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: predicted documents, each a DocAMR PENMAN string or an amreval `Graph`, or a list of
        sentence PENMAN strings or Graphs (joined under a `document` node without coreference; a
        file's graphs: `amreval.read_graphs(path)`); the forms may be mixed,
        in a batch and between predictions and references. A prediction that cannot be read is
        scored as an empty graph (a sentence of a list: an empty sentence), counted in
        `n_unreadable` and named in a warning.
    references: gold documents, in the same forms, paired with `predictions` by position; a
        reference that cannot be read is an error.
    solver (str): "exact" (default: every document's proven optimum, unless a work limit of its search
        runs out; such documents are counted in `n_unproven` with their `gap`), "hillclimb" (fast, not
        certified) or "auto". The config name given to `evaluate.load` ("exact", "hillclimb" or
        "auto") sets this default for the loaded metric; any other config name is an error.
    time_limit (float): seconds per document, the certified search's safety net (default 600): its steps stop at
        counts, the same on every machine; a document the clock stops first is counted in `n_timed_out`.
    work_limit (int): simplex iterations of HiGHS per LP bound of a document (default 50,000): a count, so
        scores and proofs are the same on every machine and under any load.
    restarts (int): random restarts of hill climbing after the greedy start (default 19).
    seed (int): seed of the random restarts (default 0); same inputs and seed, same result.
    coref (bool): compute the coreference sub-score (default None: on, as in every other door of
        amreval, unless `standardize` is another reading than "smatch").
    fine_grained (bool): add the Damonte et al. (2017) scores (default False).
    num_workers (int): documents are scored in this many processes (default 1).
    per_document (bool): add `per_document_f1`, the F1 of each document (default False).
    strict (bool): raise on a prediction that cannot be read (default False).
    progress (bool): progress bars (default None: on a terminal only).
    ci (bool): add bootstrap intervals (documents resampled `n_resamples` times; default False)
        of every precision, recall and F1 returned: `precision_ci_low`, `precision_ci_high`,
        `recall_ci_*`, `f1_ci_*`, `coref_f1_ci_*`, ...
    confidence (float): of the intervals (default 0.95).
    compare_predictions: a second system's predictions of the same references: adds a paired test
        of the first system against it, for every score returned (see below).
    test (str): "permutation" (default) or "bootstrap": the paired test over documents.
    n_resamples (int): resamples of every resampling: the intervals (`ci`), the test and the interval
        of the difference (default 10000).
    alternative (str): "two-sided" (default), "greater" (the first system scores higher) or "less".
    standardize (str): how triples are read: "smatch" (default, smatch 1.0.4's reading), "none" (as
        written), "smatchpp-generic" or "smatchpp-amr" (SMATCH++ 1.8's); another than "smatch" needs
        `fine_grained` off (and turns the default `coref` off), and is recorded in `config`.
    aspects (str): None (default), "onealign" or "multialign": add SMATCH++'s aspect scores of the
        documents (AGENT, LOCATION, POLARITY, ..., cut from the triples of `standardize`, or of
        "smatchpp-amr" when it is "smatch"): each aspect's triples counted under DocSmatch's alignment
        of the documents (onealign) or aligned anew under the sentence constraint (multialign).
    frames (str): with `aspects`, a PropBank frame description file (SMATCH++'s
        propbank-amr-frames-arg-descr.txt) whose descriptions rename core roles (default None).
    averages (bool): add the micro and the macro average over documents (the mean of the documents'
        precision, recall and F1), each with its bootstrap interval (`n_resamples` resamples, `seed`,
        `confidence`): micro_f1, micro_f1_ci_low, macro_f1, ... (default False).
    zero_division (float): the value used for an undefined score, one that is 0/0 (a precision
        without predicted items, a recall without gold items, an F1 with neither), its interval, and a
        paired test's difference, interval and p-value involving it: None (default: undefined, `null`
        in JSON, as in every output of amreval), 0.0 (Smatch's convention), 1.0, or float("nan")
        (not valid JSON when saved).
    bootstrap (int): the old spelling of `ci=True, n_resamples=N` (0: `ci=False`); deprecated, it warns
        once. With it the intervals take N resamples and a test keeps `n_resamples`.
Returns:
    precision, recall, f1: overall DocSmatch, micro-averaged.
    coref_precision, coref_recall, coref_f1: the coreference sub-score (when `coref`), and
        coref_named_entity_*, coref_bridging_*, coref_other_*, noncoref_* likewise; each with its
        counts (`_match`, `_test`, `_gold`); None (`zero_division`) where there is nothing to score
        (no predicted items: precision; no gold items: recall; neither: F1); coref_n_unproven: documents
        whose main count is proven but whose coreference tie-break is not (their coref counts a lower bound).
    unlabeled_*, no_wsd_*, concepts_*, named_ent_*, negations_*, wikification_*,
        reentrancies_*, srl_*: fine-grained scores (when `fine_grained`), and fine_grained_n_over_budget
        (documents one of whose measures' re-alignments was over the memory budget, aligned within it).
    aspect_main_*, aspect_agent_*, aspect_cause_*, aspect_concept_*, aspect_focus_*,
        aspect_instrument_*, aspect_location_*, aspect_maths_*, aspect_ner_*, aspect_patient_*,
        aspect_polarity_*, aspect_possession_*, aspect_purpose_*, aspect_quantifier_*,
        aspect_question_*, aspect_srl_core_*, aspect_time_*, aspect_topic_*, aspect_wiki_*,
        aspect_reentrancies_*: the aspect scores with their counts (when `aspects`; aspect_main: the
        whole documents under the aspects' reading), aspect_n_unproven and aspect_n_over_budget
        (documents with an aspect alignment not proven optimal, or over the memory budget).
    micro_precision, micro_recall, micro_f1, macro_precision, macro_recall, macro_f1, each with
        `_ci_low` and `_ci_high` (when `averages`).
    match, test, gold, n_pairs, n_optimal, n_unreadable, n_unproven, n_over_budget, gap: the counts
        behind the scores.
    config: the one string: solver, restarts, seed, the score (`score=docsmatch`), its options and
        the amreval version. Every other value is a number, or None where undefined
        (`per_document_f1`: a list of them).
    With `compare_predictions`, for `f1` and every other F1 (`coref_f1`, `srl_f1`, ...):
        compare_f1 (the second system's), f1_difference (first minus second), its interval
        f1_difference_ci_low and f1_difference_ci_high (paired bootstrap), and f1_p_value;
        with `per_document`, compare_per_document_f1.
Examples:
    >>> docsmatch = evaluate.load("metrics/docsmatch")  # checkout root; anywhere: load_metric("docsmatch")
    >>> gold = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 b))"
    >>> pred = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 (b2 / boy)))"
    >>> results = docsmatch.compute(predictions=[pred], references=[gold])
    >>> round(results["f1"], 4), results["coref_recall"], round(results["noncoref_f1"], 4)
    (0.8421, 0.0, 0.8235)
    >>> results["coref_precision"], results["coref_test"]  # no coref items predicted: nothing to score
    (None, 0)
    >>> results = docsmatch.compute(predictions=[["(w / want-01 :ARG0 (b / boy))", "(g / go-02)"]],
    ...                             references=[gold], coref=False)
    >>> results["match"], results["test"], results["gold"]
    (8, 8, 9)
"""


# a document as stored: a list of sentence strings, or a DocAMR string as a list of one
_DOCUMENT = {"strings": datasets.Sequence(datasets.Value("string")), "is_list": datasets.Value("bool")}


def _stored_one(doc, what, index=None):
    """One document in the stored format: PENMAN text (a Graph is written as PENMAN), checked."""
    if isinstance(doc, (str, Graph)):
        return {"strings": [penman_text(doc, what, index)], "is_list": False}
    if isinstance(doc, (list, tuple)):
        strings = [penman_text(s, f"{numbered(what, index)}, sentence", k) for k, s in enumerate(doc)]
        return {"strings": strings, "is_list": True}
    got = "None" if doc is None else type(doc).__name__
    raise InputError(
        f"{numbered(what, index)}: expected a DocAMR string, a Graph or a list of sentence strings or Graphs, got {got}"
    )


def _stored(documents, what):
    """The documents of a batch in the stored format."""
    return [_stored_one(doc, what.rstrip("s"), k) for k, doc in enumerate(check_batch(documents, what))]


def _document(stored):
    """A stored document back in the form it was given (graphs as their PENMAN text)."""
    return list(stored["strings"]) if stored["is_list"] else stored["strings"][0]


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Docsmatch(evaluate.Metric):
    def _info(self):
        if self.config_name != "default" and self.config_name not in SOLVERS:
            raise ValueError(
                f"unknown config name {self.config_name!r} for docsmatch; expected one of {', '.join(SOLVERS)} "
                "(the default solver of the loaded metric)"
            )
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            # one format for both forms (a DocAMR string, a list of sentence strings), so that any mix works
            features=datasets.Features({"predictions": _DOCUMENT, "references": _DOCUMENT}),
            codebase_urls=["https://github.com/IBM/docAMR", "https://github.com/snowblink14/smatch"],
            reference_urls=["https://aclanthology.org/2022.naacl-main.256/"],
        )

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Add a batch of predicted and gold documents (DocAMR strings or Graphs, or lists of sentence strings
        or Graphs, mixed at will)."""
        predictions, references = _stored(predictions, "predictions"), _stored(references, "references")
        if len(predictions) != len(references):
            raise InputError(
                f"{plural(len(predictions), 'prediction')} but {plural(len(references), 'reference')}; "
                "they are paired by position"
            )
        super().add_batch(predictions=predictions, references=references, **kwargs)

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Add one predicted and one gold document (a DocAMR string or Graph, or a list of sentence strings
        or Graphs, each)."""
        super().add(
            prediction=_stored_one(prediction, "prediction"), reference=_stored_one(reference, "reference"), **kwargs
        )

    def _compute(
        self,
        predictions,
        references,
        coref=None,
        fine_grained=False,
        per_document=False,
        solver=None,
        restarts=DEFAULT_RESTARTS,
        seed=0,
        time_limit=DEFAULT_TIME_LIMIT,
        work_limit=DEFAULT_WORK_LIMIT,
        num_workers=1,
        strict=False,
        progress=None,
        ci=False,
        confidence=0.95,
        compare_predictions=None,
        test="permutation",
        n_resamples=DEFAULT_RESAMPLES,
        alternative="two-sided",
        standardize="smatch",
        aspects=None,
        frames=None,
        averages=False,
        zero_division=ZERO_DIVISION,
        bootstrap=None,
    ) -> dict[str, Any]:
        # the config name is the default solver; the core checks every other setting, and
        # amreval.hub.metric_compute adds what MFβ's door adds too (per-item F1, intervals, the paired test)
        per_document = check_bool("per_document", per_document)
        averages = check_bool("averages", averages)
        zero_division = check_zero_division(zero_division)
        intervals = interval_resamples(ci, n_resamples, bootstrap)
        if compare_predictions is not None:
            compare_predictions = [_document(d) for d in _stored(compare_predictions, "compare_predictions")]
        if solver is None:
            solver = self.config_name if self.config_name in SOLVERS else DEFAULT_SOLVER
        return docsmatch_results(
            [_document(p) for p in predictions],
            [_document(r) for r in references],
            compare_predictions=compare_predictions,
            per_document=per_document,
            intervals=intervals,
            averages=averages,
            test=test,
            n_resamples=n_resamples,
            alternative=alternative,
            zero_division=zero_division,
            coref=coref,
            fine_grained=fine_grained,
            solver=solver,
            restarts=restarts,
            seed=seed,
            time_limit=time_limit,
            work_limit=work_limit,
            num_workers=num_workers,
            strict=strict,
            progress=progress,
            confidence=confidence,
            standardize=standardize,
            aspects=aspects,
            frames=frames,
        )
