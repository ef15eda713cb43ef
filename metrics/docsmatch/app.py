"""The DocSmatch Space: score predicted DocAMR documents against gold ones in the browser.

Every number comes from the metric a user gets with ``evaluate.load`` on this folder;
the app only reads the inputs, calls ``compute`` and lays the result out.
Run it with ``python app.py``; ``build_demo()`` returns the Blocks without launching (it scores
one tiny document first, so that the alignment kernels are loaded before the first visitor).
"""

from __future__ import annotations

import html
import os
import re
import warnings
from pathlib import Path

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr

from amreval import loads_graphs
from amreval.amr.parse import blank_line_parts, split_blocks
from amreval.errors import AmrevalError, AmrevalWarning, MissingDependencyError
from amreval.match import DEFAULT_RESTARTS, DEFAULT_SOLVER, SOLVERS
from amreval.scores.finegrained import MEASURE_LABELS, MEASURES
from amreval.scores.paired_tests import ALTERNATIVES, DEFAULT_RESAMPLES, TESTS

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE / "examples"

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


# PENMAN boxes in a monospace font (a style element in the page: Gradio 6 takes css only in launch())
STYLE = """<style>
.penman textarea { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
</style>"""

# the document of the start-up call: two sentences and a merged node
WARM_UP_DOCUMENT = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 b))"


def warm_up() -> float:
    """One tiny DocSmatch call, so that the alignment kernels are loaded and amreval's modules imported
    when the app is built rather than on the first visitor's request; returns its F1 (1.0)."""
    from amreval.scores.docsmatch import docsmatch

    return docsmatch([WARM_UP_DOCUMENT], [WARM_UP_DOCUMENT], coref=True, progress=False).f1


def _fmt(value: float) -> str:
    return f"{value:.4f}"


def _cell(key: str, value: float | None) -> str:
    """A table cell showing ``value`` to 4 places, or "–" when there was nothing to score (NaN, the
    metric's 0/0; None in the core's dict); ``data-key`` and ``data-value`` keep the exact number (empty then)."""
    if value is None or value != value:
        return f'<td data-key="{html.escape(key)}" data-value="" title="nothing to score">–</td>'
    value = float(value)
    return f'<td data-key="{html.escape(key)}" data-value="{value!r}">{_fmt(value)}</td>'


def _prf_table(elem_id: str, rows: list[tuple[str, str]], out: dict) -> str:
    """Precision, recall and F1 of each ``(prefix, label)`` row whose values are in ``out``."""
    body = "".join(
        f"<tr><th scope='row'>{html.escape(label)}</th>"
        + "".join(_cell(f"{prefix}_{part}", out[f"{prefix}_{part}"]) for part in ("precision", "recall", "f1"))
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
        + "".join(_cell(part, out[part]) for part in ("precision", "recall", "f1"))
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
        f"<tr><td>{k}</td><td>{html.escape(label)}</td>{_cell(f'doc_{k}_f1', f1)}</tr>"
        for k, (label, f1) in enumerate(zip(labels, f1s), start=1)
    )
    return (
        "<table id='per-document'><thead><tr><th>#</th><th>Document</th><th>F1</th></tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


def _graphs(text: str, what: str) -> list:
    """The graphs of pasted or loaded PENMAN text (never read as a file name)."""
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
        raise gr.Error("Paste or upload the predicted graphs.")
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
        raise gr.Error("No graph found in the predicted text.")
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
        raise gr.Error(f"{len(pred)} predicted document(s) but {len(gold)} gold document(s); they pair by position.")
    ids = [getattr(p, "id", None) for p, _ in pred]  # None: an unreadable prediction
    labels = [g.id or i or f"document {k}" for k, (i, g) in enumerate(zip(ids, gold), start=1)]
    return [t for _, t in pred], [g.to_string() for g in gold], labels


def computed(metric, **kwargs) -> tuple[dict, list[str]]:
    """``metric.compute(**kwargs)`` and the messages of the warnings it gave (an unreadable prediction, ...)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AmrevalWarning)
        try:
            out = metric.compute(**kwargs)
        except (AmrevalError, ValueError) as exc:
            raise gr.Error(str(exc)) from None
    return out, list(dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, AmrevalWarning)))


def notes_html(messages: list[str]) -> str:
    """The warnings of ``compute``, one a line."""
    return "".join(f"<p class='score-note'><i>{html.escape(m)}</i></p>" for m in messages)


def _choices(labels: list[str]) -> list[str]:
    """Distinct dropdown entries for the document pairs."""
    return [f"{k}. {label}" for k, label in enumerate(labels, start=1)]


def _note(message: str) -> str:
    return f"<p class='picture-note'><i>{html.escape(message)}</i></p>"


def _svg(draw, *args, filename: str = "picture.svg", **kw) -> str:
    """The SVG of ``amreval.report.draw.<draw>(*args, **kw)`` in a viewer (fitted to the width, zoom, an SVG
    download), or a short note why there is none."""
    try:
        from amreval.report import draw as drawing
        from amreval.report.viewer import svg_viewer
    except MissingDependencyError as exc:
        return _note(f"No picture: {exc}")
    except ImportError:
        return _note("No picture: this version of amreval cannot draw graphs.")
    try:
        svg = getattr(drawing, draw)(*args, **kw)
    except AmrevalError as exc:  # MissingDependencyError included: Graphviz is not installed
        return _note(f"No picture: {exc}")
    return svg_viewer(svg, filename=filename)


def picture_box(value: str, elem_id: str) -> gr.HTML:
    """An HTML component for pictures whose viewer buttons work (their click handler runs on load)."""
    try:
        from amreval.report.viewer import VIEWER_JS
    except ImportError:  # an amreval without the viewer: pictures without buttons
        return gr.HTML(value, elem_id=elem_id)
    return gr.HTML(value, elem_id=elem_id, js_on_load=VIEWER_JS)


#: Brings the scores into view once they are there (an example click happens far below them).
SHOW_RESULTS_JS = "() => document.getElementById('{}')?.scrollIntoView({{behavior: 'smooth', block: 'start'}})"


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
        return (*(_note("Score some documents to see their alignment."),) * 3, state)
    choices = _choices(state["labels"])
    k = choices.index(choice) if choice in choices else 0
    pred, gold = state["predictions"][k], state["references"][k]
    mapping = scored_mappings(state)[k]
    drawing = {"mapping": mapping} if mapping is not None else state["options"]
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", str(choice or f"document {k + 1}")).strip("_")
    return (
        _svg("alignment_svg", pred, gold, filename=f"alignment-{name}.svg", **drawing),
        _svg("document_graph_svg", pred, filename=f"predicted-{name}.svg"),
        _svg("document_graph_svg", gold, filename=f"gold-{name}.svg"),
        state,
    )


def load_file(path: str | None) -> str:
    """The text of an uploaded PENMAN file, to be shown and edited in its text box."""
    if not path:
        return ""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise gr.Error("The file is not UTF-8 text.") from None


def cleared_results() -> tuple:
    """Empty score outputs (overall, coref, fine-grained, per document, raw, document choice, state) and
    pictures, shown while scoring, so that an error never leaves the previous inputs' results on the page."""
    empty = _note("Score some documents to see their alignment.")
    return "", "", "", "", None, gr.update(choices=[], value=None), None, empty, empty, empty


def cleared_comparison() -> tuple[str, str, str]:
    """Empty comparison outputs, shown while comparing (an error leaves them empty)."""
    return "", "", ""


#: The search's keywords among :func:`compute_options`' (what a picture's mapping is searched with again).
SEARCH_OPTIONS = ("solver", "restarts", "seed")


def compute_options(restarts, seed, solver, coref, fine_grained) -> dict:
    """The metric's keywords from the controls both buttons read (scores per document, for the table)."""
    return {
        "restarts": int(restarts),
        "seed": int(seed),
        "solver": solver,
        "coref": bool(coref),
        "fine_grained": bool(fine_grained),
        "per_document": True,
    }


def make_scorer(metric):
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
            gr.update(choices=_choices(labels), value=_choices(labels)[0]),
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
        f"<tr><th scope='row'>{html.escape(label)}</th>{_cell(base, out[base])}"
        + _cell(f"compare_{base}", out[f"compare_{base}"])
        + "".join(
            _cell(f"{base}_{part}", out[f"{base}_{part}"])
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
        f"<tr><td>{k + 1}</td><td>{html.escape(labels[k])}</td>{_cell(f'cmp_{k + 1}_first', first[k])}"
        f"{_cell(f'cmp_{k + 1}_second', second[k])}{_cell(f'cmp_{k + 1}_difference', first[k] - second[k])}</tr>"
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


def make_comparer(metric):
    """The event handler that compares the predicted graphs with a second system's through ``metric``."""

    def compare(pred_text, other_text, gold_text, mode, restarts, seed, solver, coref, fine_grained, test, n, alt):
        predictions, references, labels = read_documents(pred_text, gold_text, mode)
        if not other_text or not other_text.strip():
            raise gr.Error("Paste or upload the second system's graphs.")
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


def _example(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


def build_demo(metric=None, warm: bool = True) -> gr.Blocks:
    """The app's Blocks, on ``metric`` (default: ``evaluate.load`` of this folder); ``warm``: call
    :func:`warm_up` first."""
    if metric is None:
        import evaluate

        metric = evaluate.load(str(HERE / "docsmatch.py"))  # the script, whatever the folder is called
    if warm:
        warm_up()
    score = make_scorer(metric)
    compare = make_comparer(metric)

    with gr.Blocks(title="DocSmatch") as demo:
        gr.HTML(STYLE, container=False, padding=False, elem_id="style")
        gr.Markdown(INTRO)
        with gr.Row():
            with gr.Column():
                pred_text = gr.Textbox(
                    label="Predicted graphs (PENMAN)",
                    lines=12,
                    max_lines=30,
                    elem_id="pred-text",
                    elem_classes="penman",
                )
                pred_file = gr.UploadButton("Upload a predicted file…", size="sm", elem_id="pred-file")
            with gr.Column():
                gold_text = gr.Textbox(
                    label="Gold graphs (PENMAN)", lines=12, max_lines=30, elem_id="gold-text", elem_classes="penman"
                )
                gold_file = gr.UploadButton("Upload a gold file…", size="sm", elem_id="gold-file")
        mode = gr.Radio([DOCUMENTS, SENTENCES], value=DOCUMENTS, label="Input", elem_id="mode")
        with gr.Row():
            restarts = gr.Slider(0, MAX_RESTARTS, value=DEFAULT_RESTARTS, step=1, label="Restarts", elem_id="restarts")
            seed = gr.Number(value=0, precision=0, label="Seed", elem_id="seed")
            solver = gr.Radio(list(SOLVERS), value=DEFAULT_SOLVER, label="Solver", elem_id="solver")
        with gr.Row():
            coref = gr.Checkbox(value=True, label="Coreference sub-score", elem_id="coref")
            fine_grained = gr.Checkbox(value=False, label="Fine-grained scores", elem_id="fine-grained")
        button = gr.Button("Score", variant="primary", elem_id="score")
        examples = gr.Examples(
            examples=[
                [_example("pred.docamr.amr"), _example("gold.docamr.amr"), DOCUMENTS],
                [_example("pred.sentences.amr"), _example("gold.sentences.amr"), SENTENCES],
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
        empty = _note("Score some documents to see their alignment.")
        with gr.Tabs():
            with gr.Tab("Alignment"):
                picture = picture_box(empty, "picture")
            with gr.Tab("Predicted graph"):
                pred_picture = picture_box(empty, "pred-picture")
            with gr.Tab("Gold graph"):
                gold_picture = picture_box(empty, "gold-picture")
        state = gr.State()

        inputs = [pred_text, gold_text, mode, restarts, seed, solver, coref, fine_grained]
        outputs = [overall, coref_out, fine_out, per_doc, raw, document, state]
        drawn = [picture, pred_picture, gold_picture, state]
        for event in (button.click, examples.load_input_event.then):
            event(cleared_results, None, [*outputs, *drawn[:3]], queue=False).then(
                score, inputs, outputs, concurrency_id="score"
            ).success(None, None, None, js=SHOW_RESULTS_JS.format("scores-heading")).then(
                pictures, [state, document], drawn, concurrency_id="picture"
            )
        document.input(pictures, [state, document], drawn, concurrency_id="picture")
        pred_file.upload(load_file, pred_file, pred_text)
        gold_file.upload(load_file, gold_file, gold_text)

        with gr.Tabs():
            with gr.Tab("Compare two systems", elem_id="compare-tab"):
                gr.Markdown(COMPARE_INTRO)
                other_text = gr.Textbox(
                    label="Second system's graphs (PENMAN)",
                    lines=10,
                    max_lines=30,
                    elem_id="other-text",
                    elem_classes="penman",
                )
                other_file = gr.UploadButton("Upload the second system's file…", size="sm", elem_id="other-file")
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
                        [
                            _example("pred.docamr.amr"),
                            _example("pred2.docamr.amr"),
                            _example("gold.docamr.amr"),
                            DOCUMENTS,
                        ]
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
        other_file.upload(load_file, other_file, other_text)
    return demo


if __name__ == "__main__":
    build_demo().launch()
