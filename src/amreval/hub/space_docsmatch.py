"""The DocSmatch Space's page: score predicted DocAMR documents against gold ones in the browser.

Every number comes from the metric given to :func:`docsmatch_demo` (what a user gets with ``evaluate.load``
on the Space's folder); the page only reads the inputs, calls ``compute`` and lays the result out.
``metrics/docsmatch/app.py`` loads the metric beside it, calls :func:`warm_up` and builds the page with
the folder's examples. gradio is imported when the page is built (:func:`~amreval.hub.space_app.gradio`).

Example:
    >>> overall_html({"precision": 1.0, "recall": 0.5, "f1": float("nan"), "match": 1, "test": 1, "gold": 2,
    ...               "n_pairs": 1, "n_optimal": 1, "n_unreadable": 0, "config": "score=docsmatch"}).count("<td")
    3
"""

from __future__ import annotations

import html
import re
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from amreval.amr.parse import blank_line_parts, split_blocks
from amreval.amr.read import loads_graphs
from amreval.errors import AmrevalError, AmrevalWarning
from amreval.hub.space_app import (
    STYLE,
    computed,
    gradio,
    note,
    notes_html,
    picture_box,
    score_cell,
    show_results_js,
    svg_picture,
    text_with_upload,
)
from amreval.match.options import DEFAULT_RESTARTS, DEFAULT_SOLVER, SOLVERS
from amreval.scores.finegrained import MEASURE_LABELS, MEASURES
from amreval.scores.paired_tests import ALTERNATIVES, DEFAULT_RESAMPLES, TESTS

if TYPE_CHECKING:
    import gradio as gr

__all__ = [
    "warm_up",
    "docsmatch_demo",
    "overall_html",
    "coref_html",
    "fine_grained_html",
    "per_document_html",
    "predicted_items",
    "read_documents",
    "comparison_html",
    "differences_html",
    "pictures",
    "make_scorer",
    "make_comparer",
]

DOCUMENTS = "each graph is a document (DocAMR)"
SENTENCES = "the graphs are the sentences of one document"
MAX_RESTARTS = 100

COREF_ROWS = [
    ("coref", "Coreference (all)"),
    ("coref_named_entity", "named entity"),
    ("coref_bridging", "bridging"),
    ("coref_other", "other"),
    ("noncoref", "Non-coreference remainder"),
]
# the core's labels, with room to spell out "Named Ent."
MEASURE_NAMES = {**MEASURE_LABELS, "named_ent": "Named entities"}

INTRO = """\
# DocSmatch
Smatch for document-level AMR (DocAMR), with node alignments restricted to aligned sentences, and the
coreference sub-score of Naseem et al. (2022). Paste or upload predicted and gold PENMAN graphs
(several graphs separated by blank lines, paired by position), choose the options and press **Score**,
or click an example below. As in the metric, a predicted graph that cannot be read is scored as an empty
graph and counted; a gold graph that cannot be read is an error.
"""

# the document of the start-up call: two sentences and a merged node
WARM_UP_DOCUMENT = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 b))"

NO_PICTURE_YET = "Score some documents to see their alignment."


def warm_up() -> float:
    """One tiny DocSmatch call, so that the alignment kernels are loaded and amreval's modules imported
    when the app is built rather than on the first visitor's request; returns its F1 (1.0)."""
    from amreval.scores.docsmatch import docsmatch

    return docsmatch([WARM_UP_DOCUMENT], [WARM_UP_DOCUMENT], coref=True, progress=False).f1


def _prf_table(elem_id: str, rows: list[tuple[str, str]], out: dict) -> str:
    """Precision, recall and F1 of each ``(prefix, label)`` row whose values are in ``out``."""
    body = "".join(
        f"<tr><th scope='row'>{html.escape(label)}</th>"
        + "".join(score_cell(f"{prefix}_{part}", out[f"{prefix}_{part}"]) for part in ("precision", "recall", "f1"))
        + "</tr>"
        for prefix, label in rows
        if f"{prefix}_f1" in out
    )
    return (
        f"<table id='{elem_id}'><thead><tr><th></th><th>Precision</th><th>Recall</th><th>F1</th></tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


def overall_html(out: dict, notes: list[str] | None = None) -> str:
    """The overall score, the counts behind it, the config string and the warnings of ``compute``."""
    counts = (
        f"<p>Matched triples <b data-key='match'>{out['match']}</b> of <b data-key='test'>{out['test']}</b> "
        f"predicted and <b data-key='gold'>{out['gold']}</b> gold, over <b data-key='n_pairs'>{out['n_pairs']}</b> "
        f"document pair(s), <b data-key='n_optimal'>{out['n_optimal']}</b> proven optimal; "
        f"<b data-key='n_unreadable'>{out['n_unreadable']}</b> unreadable prediction(s), each scored as "
        "an empty graph.</p>"
    )
    config = f"<p><small>config: <code data-key='config'>{html.escape(str(out['config']))}</code></small></p>"
    table = (
        "<table id='overall'><thead><tr><th></th><th>Precision</th><th>Recall</th><th>F1</th></tr></thead>"
        "<tbody><tr><th scope='row'>DocSmatch</th>"
        + "".join(score_cell(part, out[part]) for part in ("precision", "recall", "f1"))
        + "</tr></tbody></table>"
    )
    return table + counts + notes_html(notes or []) + config


def coref_html(out: dict) -> str:
    """The coreference sub-score and its breakdown, or a note when it was not computed."""
    if "coref_f1" not in out:
        return "<p><i>The coreference sub-score was not computed (coref is off).</i></p>"
    return _prf_table("coref", COREF_ROWS, out)


def fine_grained_html(out: dict) -> str:
    """The Damonte et al. (2017) scores, or a note when they were not computed."""
    if f"{MEASURES[0]}_f1" not in out:
        return "<p><i>Fine-grained scores were not asked for.</i></p>"
    return _prf_table("fine-grained", [(m, MEASURE_NAMES.get(m, m)) for m in MEASURES], out)


def per_document_html(labels: list[str], f1s: list[float]) -> str:
    """One row per document pair: its position, its id and its F1."""
    body = "".join(
        f"<tr><td>{k}</td><td>{html.escape(label)}</td>{score_cell(f'doc_{k}_f1', f1)}</tr>"
        for k, (label, f1) in enumerate(zip(labels, f1s), start=1)
    )
    return (
        "<table id='per-document'><thead><tr><th>#</th><th>Document</th><th>F1</th></tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


def _graphs(text: str, what: str) -> list:
    """The graphs of pasted or loaded PENMAN text (never read as a file name)."""
    gr = gradio()
    if not text or not text.strip():
        raise gr.Error(f"Paste or upload the {what} graphs.")
    try:
        graphs = loads_graphs(text, name=what)
    except AmrevalError as exc:
        raise gr.Error(str(exc)) from None
    if not graphs:
        raise gr.Error(f"No graph found in the {what} text.")
    return graphs


def _readable(text: str) -> list:
    """The graphs of one block of PENMAN text, or [] when it cannot be read."""
    errors: list = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AmrevalWarning)  # compute warns about the same text
        graphs = loads_graphs(text, errors=errors)
    return [] if errors else graphs


def predicted_items(text: str) -> list[tuple]:
    """``(graph, text for compute)`` for each predicted graph of the text, read as the lenient readers read
    a file: a graph that cannot be read keeps its position and is given to ``compute`` as written
    (``graph`` None), which scores it as an empty graph and counts it in ``n_unreadable``, as it would
    for the same text given directly. A block that runs over blank lines is read part by part."""
    if not text or not text.strip():
        raise gradio().Error("Paste or upload the predicted graphs.")
    items: list[tuple] = []
    for block in split_blocks(text):
        graphs = _readable(block.text)
        if graphs:
            items += [(g, g.to_string()) for g in graphs]
            continue
        parts = blank_line_parts(block)
        for part in parts if len(parts) > 1 else [block]:
            graphs = _readable(part.text) if len(parts) > 1 else []
            items += [(g, g.to_string()) for g in graphs] or [(None, part.text)]
    if not items:
        raise gradio().Error("No graph found in the predicted text.")
    return items


def read_documents(pred_text: str, gold_text: str, mode: str) -> tuple[list, list, list[str]]:
    """Documents for ``compute`` from the two texts, and a label for each pair.

    In document mode each graph is one DocAMR document (a PENMAN string); in sentence
    mode all graphs of a text are the sentences of one document (a list of strings).
    A predicted graph that cannot be read is passed as written (see :func:`predicted_items`);
    a gold graph that cannot be read is an error, as in ``compute``.
    """
    pred, gold = predicted_items(pred_text), _graphs(gold_text, "gold")
    if mode == SENTENCES:
        return [[t for _, t in pred]], [[g.to_string() for g in gold]], ["document"]
    if len(pred) != len(gold):
        raise gradio().Error(
            f"{len(pred)} predicted document(s) but {len(gold)} gold document(s); they pair by position."
        )
    ids = [getattr(p, "id", None) for p, _ in pred]  # None: an unreadable prediction
    labels = [g.id or i or f"document {k}" for k, (i, g) in enumerate(zip(ids, gold), start=1)]
    return [t for _, t in pred], [g.to_string() for g in gold], labels


def _choices(labels: list[str]) -> list[str]:
    """Distinct dropdown entries for the document pairs."""
    return [f"{k}. {label}" for k, label in enumerate(labels, start=1)]


def scored_mappings(state: dict) -> list:
    """The node mappings behind the scores, kept in ``state`` once found.

    ``compute`` returns numbers only; the core function it calls, called again with the same
    inputs and options, finds the same alignments (the search is deterministic for a seed).
    """
    if "mappings" not in state:
        from amreval.scores.docsmatch import docsmatch

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AmrevalWarning)  # shown with the scores
            result = docsmatch(
                state["predictions"], state["references"], coref=state["coref"], progress=False, **state["options"]
            )
        state["mappings"] = [getattr(pair, "mapping", None) for pair in result.pairs]
    return state["mappings"]


def pictures(state: dict | None, choice: str | None) -> tuple[str, str, str, dict | None]:
    """The scored alignment of the chosen document pair and both graphs (and ``state``, with the mappings)."""
    if not state or not state.get("labels"):
        return (*(note(NO_PICTURE_YET),) * 3, state)
    choices = _choices(state["labels"])
    k = choices.index(choice) if choice in choices else 0
    pred, gold = state["predictions"][k], state["references"][k]
    mapping = scored_mappings(state)[k]
    drawing = {"mapping": mapping} if mapping is not None else state["options"]
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", str(choice or f"document {k + 1}")).strip("_")
    return (
        svg_picture(lambda draw: draw.alignment_svg(pred, gold, **drawing), f"alignment-{name}.svg"),
        svg_picture(lambda draw: draw.document_graph_svg(pred), f"predicted-{name}.svg"),
        svg_picture(lambda draw: draw.document_graph_svg(gold), f"gold-{name}.svg"),
        state,
    )


def cleared_results() -> tuple:
    """Empty score outputs (overall, coref, fine-grained, per document, raw, document choice, state) and
    pictures, shown while scoring, so that an error never leaves the previous inputs' results on the page."""
    empty = note(NO_PICTURE_YET)
    return "", "", "", "", None, gradio().update(choices=[], value=None), None, empty, empty, empty


def cleared_comparison() -> tuple[str, str, str]:
    """Empty comparison outputs, shown while comparing (an error leaves them empty)."""
    return "", "", ""


#: The search's keywords among :func:`compute_options`' (what a picture's mapping is searched with again).
SEARCH_OPTIONS = ("solver", "restarts", "seed")


def compute_options(restarts: Any, seed: Any, solver: str, coref: Any, fine_grained: Any) -> dict:
    """The metric's keywords from the controls both buttons read (scores per document, for the table)."""
    return {
        "restarts": int(restarts),
        "seed": int(seed),
        "solver": solver,
        "coref": bool(coref),
        "fine_grained": bool(fine_grained),
        "per_document": True,
    }


def make_scorer(metric: Any) -> Any:
    """The event handler that scores the inputs with ``metric`` and lays the result out."""

    def score(pred_text, gold_text, mode, restarts, seed, solver, coref, fine_grained):
        predictions, references, labels = read_documents(pred_text, gold_text, mode)
        options = compute_options(restarts, seed, solver, coref, fine_grained)
        out, notes = computed(metric, predictions=predictions, references=references, **options)
        state = {
            "predictions": predictions,
            "references": references,
            "labels": labels,
            "options": {k: options[k] for k in SEARCH_OPTIONS},
            "coref": options["coref"],
        }
        return (
            overall_html(out, notes),
            coref_html(out),
            fine_grained_html(out),
            per_document_html(labels, out["per_document_f1"]),
            out,
            gradio().update(choices=_choices(labels), value=_choices(labels)[0]),
            state,
        )

    return score


COMPARE_INTRO = """\
Is the predicted system better than a second one? Paste or upload the second system's graphs for the same
documents (same order), choose the test and press **Compare**: both systems are scored against the gold graphs
above, with the options above, and a paired test over documents tests the difference of the corpus scores
(counts re-summed in every resample). Or click the example below.
"""
COMPARE_ROWS = [("f1", "DocSmatch")] + [(f"{prefix}_f1", label) for prefix, label in COREF_ROWS]


def comparison_html(out: dict) -> str:
    """Both systems' F1, their difference with its interval, and the p-value, for every score compared."""
    rows = [(base, label) for base, label in COMPARE_ROWS if f"{base}_difference" in out]
    rows += [(f"{m}_f1", MEASURE_NAMES.get(m, m)) for m in MEASURES if f"{m}_f1_difference" in out]
    body = "".join(
        f"<tr><th scope='row'>{html.escape(label)}</th>{score_cell(base, out[base])}"
        + score_cell(f"compare_{base}", out[f"compare_{base}"])
        + "".join(
            score_cell(f"{base}_{part}", out[f"{base}_{part}"])
            for part in ("difference", "difference_ci_low", "difference_ci_high", "p_value")
        )
        + "</tr>"
        for base, label in rows
    )
    return (
        "<table id='comparison-table'><thead><tr><th>F1</th><th>Predicted</th><th>Second</th><th>Difference</th>"
        "<th>CI low</th><th>CI high</th><th>p</th></tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


def differences_html(labels: list[str], first: list[float], second: list[float]) -> str:
    """One row per document pair, the largest differences first: both F1 and their difference."""
    order = sorted(range(len(labels)), key=lambda k: (-abs(first[k] - second[k]), k))
    body = "".join(
        f"<tr><td>{k + 1}</td><td>{html.escape(labels[k])}</td>{score_cell(f'cmp_{k + 1}_first', first[k])}"
        f"{score_cell(f'cmp_{k + 1}_second', second[k])}"
        f"{score_cell(f'cmp_{k + 1}_difference', first[k] - second[k])}</tr>"
        for k in order
    )
    return (
        "<table id='differences-table'><thead><tr><th>#</th><th>Document</th><th>Predicted</th><th>Second</th>"
        f"<th>Difference</th></tr></thead><tbody>{body}</tbody></table>"
    )


def differences_picture(labels: list[str], out: dict) -> str:
    """The per-document differences, sorted, and the corpus difference with its interval, as SVG."""
    from amreval.report.comparison import differences_svg

    svg = differences_svg(
        labels,
        out["per_document_f1"],
        out["compare_per_document_f1"],
        names=("predicted", "second"),
        difference=out["f1_difference"],
        interval=(out["f1_difference_ci_low"], out["f1_difference_ci_high"]),
        p_value=out["f1_p_value"],
    )
    return f"<div class='svg-box' style='overflow:auto'>{svg}</div>"


def make_comparer(metric: Any) -> Any:
    """The event handler that compares the predicted graphs with a second system's through ``metric``."""

    def compare(pred_text, other_text, gold_text, mode, restarts, seed, solver, coref, fine_grained, test, n, alt):
        predictions, references, labels = read_documents(pred_text, gold_text, mode)
        if not other_text or not other_text.strip():
            raise gradio().Error("Paste or upload the second system's graphs.")
        other, _, _ = read_documents(other_text, gold_text, mode)
        out, _ = computed(
            metric,
            predictions=predictions,
            references=references,
            compare_predictions=other,
            test=test,
            n_resamples=int(n),
            alternative=alt,
            **compute_options(restarts, seed, solver, coref, fine_grained),
        )
        return (
            comparison_html(out),
            differences_html(labels, out["per_document_f1"], out["compare_per_document_f1"]),
            differences_picture(labels, out),
        )

    return compare


def docsmatch_demo(metric: Any, examples: Path) -> gr.Blocks:
    """The DocSmatch page on ``metric``, with the example files of the folder ``examples``."""
    gr = gradio()
    examples = Path(examples)
    score = make_scorer(metric)
    compare = make_comparer(metric)

    def example(name: str) -> str:
        return (examples / name).read_text(encoding="utf-8")

    with gr.Blocks(title="DocSmatch") as demo:
        gr.HTML(STYLE, container=False, padding=False, elem_id="style")
        gr.Markdown(INTRO)
        with gr.Row():
            with gr.Column():
                pred_text, _ = text_with_upload(
                    "Predicted graphs (PENMAN)",
                    "pred-text",
                    12,
                    upload="Upload a predicted file…",
                    upload_id="pred-file",
                    penman=True,
                )
            with gr.Column():
                gold_text, _ = text_with_upload(
                    "Gold graphs (PENMAN)",
                    "gold-text",
                    12,
                    upload="Upload a gold file…",
                    upload_id="gold-file",
                    penman=True,
                )
        mode = gr.Radio([DOCUMENTS, SENTENCES], value=DOCUMENTS, label="Input", elem_id="mode")
        with gr.Row():
            restarts = gr.Slider(0, MAX_RESTARTS, value=DEFAULT_RESTARTS, step=1, label="Restarts", elem_id="restarts")
            seed = gr.Number(value=0, precision=0, label="Seed", elem_id="seed")
            solver = gr.Radio(list(SOLVERS), value=DEFAULT_SOLVER, label="Solver", elem_id="solver")
        with gr.Row():
            coref = gr.Checkbox(value=True, label="Coreference sub-score", elem_id="coref")
            fine_grained = gr.Checkbox(value=False, label="Fine-grained scores", elem_id="fine-grained")
        button = gr.Button("Score", variant="primary", elem_id="score")
        clicked = gr.Examples(
            examples=[
                [example("pred.docamr.amr"), example("gold.docamr.amr"), DOCUMENTS],
                [example("pred.sentences.amr"), example("gold.sentences.amr"), SENTENCES],
            ],
            example_labels=["Two DocAMR documents with coreference", "Three sentences as one document"],
            inputs=[pred_text, gold_text, mode],
            label="Examples (click to load and score)",
        )

        gr.Markdown("## Scores", elem_id="scores-heading")
        overall = gr.HTML(elem_id="overall-scores")
        with gr.Row():
            with gr.Column():
                gr.Markdown("### Coreference sub-score")
                coref_out = gr.HTML(elem_id="coref-scores")
            with gr.Column():
                gr.Markdown("### Per document")
                per_doc = gr.HTML(elem_id="per-document-scores")
        with gr.Accordion("Fine-grained scores", open=True):
            fine_out = gr.HTML(elem_id="fine-grained-scores")
        with gr.Accordion("All values returned by compute", open=False):
            raw = gr.JSON(elem_id="raw")
        gr.Markdown(
            "## Pictures\nThe alignment of a document pair: matched triples in green, missing (gold only) in red, "
            "extra (prediction only) in blue; coreference in magenta in the graphs."
        )
        document = gr.Dropdown(choices=[], label="Document", interactive=True, elem_id="document")
        with gr.Tabs():
            with gr.Tab("Alignment"):
                picture = picture_box(note(NO_PICTURE_YET), "picture")
            with gr.Tab("Predicted graph"):
                pred_picture = picture_box(note(NO_PICTURE_YET), "pred-picture")
            with gr.Tab("Gold graph"):
                gold_picture = picture_box(note(NO_PICTURE_YET), "gold-picture")
        state = gr.State()

        inputs = [pred_text, gold_text, mode, restarts, seed, solver, coref, fine_grained]
        outputs = [overall, coref_out, fine_out, per_doc, raw, document, state]
        drawn = [picture, pred_picture, gold_picture, state]
        for event in (button.click, clicked.load_input_event.then):
            event(cleared_results, None, [*outputs, *drawn[:3]], queue=False).then(
                score, inputs, outputs, concurrency_id="score"
            ).success(None, None, None, js=show_results_js("scores-heading")).then(
                pictures, [state, document], drawn, concurrency_id="picture"
            )
        document.input(pictures, [state, document], drawn, concurrency_id="picture")

        with gr.Tabs():
            with gr.Tab("Compare two systems", elem_id="compare-tab"):
                gr.Markdown(COMPARE_INTRO)
                other_text, _ = text_with_upload(
                    "Second system's graphs (PENMAN)",
                    "other-text",
                    10,
                    upload="Upload the second system's file…",
                    upload_id="other-file",
                    penman=True,
                )
                with gr.Row():
                    test = gr.Radio(list(TESTS), value="permutation", label="Paired test", elem_id="test")
                    n_resamples = gr.Number(
                        value=DEFAULT_RESAMPLES, precision=0, label="Resamples", elem_id="n-resamples"
                    )
                    alternative = gr.Radio(
                        list(ALTERNATIVES), value="two-sided", label="Alternative", elem_id="alternative"
                    )
                compare_button = gr.Button("Compare", variant="primary", elem_id="compare")
                compare_examples = gr.Examples(
                    examples=[
                        [example("pred.docamr.amr"), example("pred2.docamr.amr"), example("gold.docamr.amr"), DOCUMENTS]
                    ],
                    example_labels=["Two systems on two DocAMR documents"],
                    inputs=[pred_text, other_text, gold_text, mode],
                    label="Example (click to load and compare)",
                )
                gr.Markdown("### Scores compared")
                comparison = gr.HTML(elem_id="comparison")
                gr.Markdown("### Documents, the largest differences first")
                differences = gr.HTML(elem_id="differences")
                differences_svg = gr.HTML(elem_id="differences-picture")
        compare_inputs = [pred_text, other_text, *inputs[1:], test, n_resamples, alternative]
        compared = [comparison, differences, differences_svg]
        for event in (compare_button.click, compare_examples.load_input_event.then):
            event(cleared_comparison, None, compared, queue=False).then(
                compare, compare_inputs, compared, concurrency_id="score"
            )
    return demo
