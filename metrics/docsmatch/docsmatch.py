"""DocSmatch: Smatch for document-level AMR (DocAMR), with the coreference sub-score.

A thin door into ``amreval.scores.docsmatch``: every number is computed there.
"""

import datasets
import evaluate

from amreval.scores.docsmatch import docsmatch as score_documents

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
    predictions: predicted documents, each a DocAMR PENMAN string, or a list of sentence PENMAN
        strings (joined under a `document` node without coreference).
    references: gold documents, in the same forms, paired with `predictions` by position.
    restarts (int): random restarts of hill climbing after the greedy start (default 19).
    seed (int): seed of the random restarts (default 0); same inputs and seed, same result.
    solver (str): "hillclimb" (default), "exact" (integer program when not proven optimal)
        or "auto".
    coref (bool): compute the coreference sub-score (default True).
    fine_grained (bool): add the Damonte et al. (2017) scores (default False).
    num_workers (int): documents are scored in this many processes (default 1).
    per_document (bool): add `per_document_f1`, the F1 of each document (default False).
Returns:
    precision, recall, f1: overall DocSmatch, micro-averaged.
    coref_precision, coref_recall, coref_f1: the coreference sub-score (when `coref`), and
        coref_named_entity_*, coref_bridging_*, coref_other_*, noncoref_* likewise.
    unlabeled_*, no_wsd_*, concepts_*, named_ent_*, negations_*, wikification_*,
        reentrancies_*, srl_*: fine-grained scores (when `fine_grained`).
    match, test, gold, n_pairs, n_optimal: the counts behind the scores.
    config: solver, restarts, seed and amreval version.
Examples:
    >>> docsmatch = evaluate.load("metrics/docsmatch")
    >>> gold = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 b))"
    >>> pred = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 (b2 / boy)))"
    >>> results = docsmatch.compute(predictions=[pred], references=[gold])
    >>> round(results["f1"], 4), results["coref_recall"], round(results["noncoref_f1"], 4)
    (0.8421, 0.0, 0.8235)
    >>> results = docsmatch.compute(predictions=[["(w / want-01 :ARG0 (b / boy))", "(g / go-02)"]],
    ...                             references=[gold], coref=False)
    >>> results["match"], results["test"], results["gold"]
    (8, 8, 9)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Docsmatch(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                datasets.Features({"predictions": datasets.Value("string"), "references": datasets.Value("string")}),
                datasets.Features(
                    {
                        "predictions": datasets.Sequence(datasets.Value("string")),
                        "references": datasets.Value("string"),
                    }
                ),
                datasets.Features(
                    {
                        "predictions": datasets.Sequence(datasets.Value("string")),
                        "references": datasets.Sequence(datasets.Value("string")),
                    }
                ),
            ],
            codebase_urls=["https://github.com/IBM/docAMR", "https://github.com/snowblink14/smatch"],
            reference_urls=["https://aclanthology.org/2022.naacl-main.256/"],
        )

    def _compute(self, predictions, references, coref=True, per_document=False, **options):
        # restarts, seed, solver, time_limit, fine_grained, num_workers, ... go to the core with its defaults
        result = score_documents(predictions, references, coref=coref, **options)
        out = result.as_dict()
        if per_document:
            out["per_document_f1"] = [pair.f1 for pair in result.pairs]
        return out
