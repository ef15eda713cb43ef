"""Smatch: sentence-level AMR parsing scored against gold graphs, certified optimal by default.

A thin door into ``amreval.scores.smatch``: every number is computed there, as ``amreval smatch`` computes it.
"""

from typing import Any

import datasets
import evaluate

from amreval.errors import InputError
from amreval.hub.metric_compute import smatch_results
from amreval.hub.metric_io import ZERO_DIVISION, check_batch, check_zero_division, penman_text
from amreval.match.options import DEFAULT_RESTARTS, DEFAULT_SOLVER, DEFAULT_TIME_LIMIT, DEFAULT_WORK_LIMIT, SOLVERS
from amreval.scores.checks import check_bool, interval_resamples
from amreval.scores.paired_tests import DEFAULT_RESAMPLES
from amreval.scores.text import plural

_CITATION = """\
@inproceedings{cai-knight-2013-smatch,
    title = "{S}match: an Evaluation Metric for Semantic Feature Structures",
    author = "Cai, Shu and Knight, Kevin",
    booktitle = "Proceedings of the 51st Annual Meeting of the Association for Computational Linguistics
      (Volume 2: Short Papers)",
    year = "2013",
    pages = "748--752",
}
@inproceedings{opitz-2023-smatch,
    title = "{SMATCH}++: Standardized and Extended Evaluation of Semantic Graphs",
    author = "Opitz, Juri",
    booktitle = "Findings of the Association for Computational Linguistics: EACL 2023",
    year = "2023",
    pages = "1595--1607",
}
"""

_DESCRIPTION = """\
Smatch scores predicted AMR graphs against gold ones: the F1 of matched triples under the best one-to-one
mapping of the predicted nodes to the gold nodes, with the counts summed over all pairs before precision,
recall and F1 are computed (smatch.py's corpus score). By default every pair's mapping is proven optimal
(hill climbing, then upper bounds and, where needed, an integer program), so the score does not depend on
random restarts; smatch.py 1.0.4's hill climbing is the `hillclimb` solver. The numbers are those of
`amreval smatch --json` on the same graphs.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: predicted sentence graphs, each a PENMAN string or an amreval `Graph` (a file's graphs:
        `amreval.read_graphs(path)`). A prediction that cannot be read is scored as an empty graph,
        counted in `n_unreadable` and named in a warning.
    references: gold graphs in the same forms, paired with `predictions` by position; a reference that
        cannot be read is an error.
    repair (bool): read each prediction as a training loop reads a generation (default False): a graph cut
        short or unbalanced scores its readable prefix (brackets closed, a dangling role dropped, ...), as
        `amreval.hub.score_generations` and the trainer's `compute_metrics` score it; adds `n_intact`,
        `n_repaired` and `n_unrepairable` (no node could be read: an empty graph, in `n_unreadable` too).
    solver (str): "exact" (default: every pair's proven optimum, unless a work limit of its search runs out; such
        pairs are counted in `n_unproven` with their `gap`), "hillclimb" (smatch.py's search, not
        certified) or "auto". The config name given to `evaluate.load` ("exact", "hillclimb" or "auto")
        sets this default for the loaded metric; any other config name is an error.
    time_limit (float): seconds per pair, the certified search's safety net (default 600): its steps stop at
        counts, the same on every machine; a pair the clock stops first is counted in `n_timed_out`.
    work_limit (int): simplex iterations of HiGHS per LP bound of a pair (default 50,000): a count, so
        scores and proofs are the same on every machine and under any load.
    restarts (int): random restarts of hill climbing after the greedy start (default 19).
    seed (int): seed of the random restarts (default 0); same inputs and seed, same result.
    num_workers (int): pairs are scored in this many processes (default 1).
    standardize (str): how triples are read: "smatch" (default, smatch 1.0.4's reading), "none" (as
        written), "smatchpp-generic" or "smatchpp-amr" (SMATCH++ 1.8's); recorded in `config`.
    per_sentence (bool): add `per_sentence_f1`, the F1 of each pair (default False).
    strict (bool): raise on a prediction that cannot be read (default False).
    progress (bool): a progress bar (default None: on a terminal only).
    ci (bool): add bootstrap intervals (pairs resampled `n_resamples` times; default False) of
        precision, recall and F1: `precision_ci_low`, `precision_ci_high`, `recall_ci_*`, `f1_ci_*`.
    confidence (float): of the intervals (default 0.95).
    averages (bool): add the micro and the macro average over pairs, each with its bootstrap interval
        (`n_resamples` resamples): micro_f1, micro_f1_ci_low, macro_f1, ... (default False).
    compare_predictions: a second system's predictions of the same references: adds a paired test of
        the first system against it (read with the same `repair` and settings).
    test (str): "permutation" (default) or "bootstrap": the paired test over pairs.
    n_resamples (int): resamples of every resampling: the intervals (`ci`), the test and the interval
        of the difference (default 10000).
    alternative (str): "two-sided" (default), "greater" (the first system scores higher) or "less".
    zero_division (float): the value used for an undefined score, one that is 0/0 (a precision
        without predicted triples, a recall without gold triples, an F1 with neither), and a paired
        test's values involving it: None (default: undefined, `null` in JSON, as in every output of
        amreval), 0.0 (Smatch's convention), 1.0, or float("nan") (not valid JSON when saved).
    bootstrap (int): the old spelling of `ci=True, n_resamples=N` (0: `ci=False`); deprecated, it warns
        once. With it the intervals take N resamples and a test keeps `n_resamples`.
Returns:
    precision, recall, f1: corpus Smatch, micro-averaged.
    match, test, gold, n_pairs, n_optimal, n_unproven, gap, n_unreadable: the counts behind the scores.
    config: the one string: solver, restarts, seed, time limit, the score (`score=smatch`), its options
        and the amreval version. Every other value is a number (`per_sentence_f1`: a list of numbers).
    With `compare_predictions`: compare_f1 (the second system's), f1_difference (first minus second),
        its interval f1_difference_ci_low and f1_difference_ci_high (paired bootstrap), and f1_p_value;
        with `per_sentence`, compare_per_sentence_f1.
Examples:
    >>> smatch = evaluate.load("metrics/smatch")  # checkout root; anywhere: load_metric("smatch")
    >>> results = smatch.compute(predictions=["(w / want-01 :ARG0 (b / boy))"],
    ...                          references=["(w / want-01 :ARG0 (g / girl))"])
    >>> results["match"], results["test"], results["gold"], results["f1"]
    (3, 4, 4, 0.75)
    >>> results = smatch.compute(predictions=["(w / want-01 :ARG0 (b / boy"],
    ...                          references=["(w / want-01 :ARG0 (b / boy))"], repair=True)
    >>> results["f1"], results["n_repaired"]
    (1.0, 1)
"""


def _stored(items, what):
    """The graphs of a batch as PENMAN text (a Graph is written as PENMAN), checked."""
    return [penman_text(item, what.rstrip("s"), k) for k, item in enumerate(check_batch(items, what))]


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Smatch(evaluate.Metric):
    def _info(self):
        if self.config_name != "default" and self.config_name not in SOLVERS:
            raise ValueError(
                f"unknown config name {self.config_name!r} for smatch; expected one of {', '.join(SOLVERS)} "
                "(the default solver of the loaded metric)"
            )
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {"predictions": datasets.Value("string"), "references": datasets.Value("string")}
            ),
            codebase_urls=["https://github.com/snowblink14/smatch", "https://github.com/flipz357/smatchpp"],
            reference_urls=["https://aclanthology.org/P13-2131/", "https://aclanthology.org/2023.findings-eacl.118/"],
        )

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Add a batch of predicted and gold graphs (PENMAN strings or Graphs)."""
        predictions, references = _stored(predictions, "predictions"), _stored(references, "references")
        if len(predictions) != len(references):
            raise InputError(
                f"{plural(len(predictions), 'prediction')} but {plural(len(references), 'reference')}; "
                "they are paired by position"
            )
        super().add_batch(predictions=predictions, references=references, **kwargs)

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Add one predicted and one gold graph (a PENMAN string or Graph each)."""
        super().add(
            prediction=penman_text(prediction, "prediction", None),
            reference=penman_text(reference, "reference", None),
            **kwargs,
        )

    def _compute(
        self,
        predictions,
        references,
        repair=False,
        per_sentence=False,
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
        averages=False,
        zero_division=ZERO_DIVISION,
        bootstrap=None,
    ) -> dict[str, Any]:
        # the config name is the default solver; the core checks every other setting, and
        # amreval.hub.metric_compute adds what the other doors add too (per-item F1, intervals, the paired test)
        repair = check_bool("repair", repair)
        per_sentence = check_bool("per_sentence", per_sentence)
        averages = check_bool("averages", averages)
        zero_division = check_zero_division(zero_division)
        intervals = interval_resamples(ci, n_resamples, bootstrap)
        if compare_predictions is not None:
            compare_predictions = _stored(compare_predictions, "compare_predictions")
            if len(compare_predictions) != len(references):
                raise InputError(
                    f"{len(compare_predictions)} compare_predictions but {plural(len(references), 'reference')}; "
                    "they are paired by position"
                )
        if solver is None:
            solver = self.config_name if self.config_name in SOLVERS else DEFAULT_SOLVER
        return smatch_results(
            list(predictions),
            list(references),
            compare_predictions=compare_predictions,
            repair=repair,
            per_sentence=per_sentence,
            intervals=intervals,
            averages=averages,
            test=test,
            n_resamples=n_resamples,
            alternative=alternative,
            zero_division=zero_division,
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
        )
