"""The Smatch Space's page: score predicted sentence AMR graphs against gold ones in the browser.

Every number comes from the metric given to :func:`smatch_demo` (what a user gets with ``evaluate.load`` on
the Space's folder); the page only reads the inputs, calls ``compute`` and lays the result out, with the
pieces the other Space pages share (:mod:`amreval.hub.space_app`) and the DocSmatch page's reader of pasted
predictions (:func:`~amreval.hub.space_docsmatch.predicted_items`: a graph that cannot be read keeps its place
and is scored as an empty graph, as ``compute`` scores it). ``metrics/smatch/app.py`` loads the metric beside
it, calls :func:`warm_up` and builds the page with the folder's examples.

Example:
    >>> overall_html({"precision": 0.75, "recall": 0.75, "f1": 0.75, "match": 3, "test": 4, "gold": 4,
    ...               "n_pairs": 1, "n_optimal": 1, "n_unreadable": 0, "config": "score=smatch"}).count("<td")
    3
"""

from __future__ import annotations

import html
import re
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
from amreval.hub.space_docsmatch import predicted_items
from amreval.match.options import DEFAULT_RESTARTS, DEFAULT_SOLVER, SOLVERS
from amreval.scores.paired_tests import ALTERNATIVES, DEFAULT_RESAMPLES, TESTS

if TYPE_CHECKING:
    import gradio as gr

__all__ = [
    "warm_up",
    "smatch_demo",
    "overall_html",
    "per_sentence_html",
    "read_sentences",
    "comparison_html",
    "pictures",
    "make_scorer",
    "make_comparer",
]

MAX_RESTARTS = 100
READINGS = ("smatch", "none", "smatchpp-generic", "smatchpp-amr")
WARM_UP_GRAPH = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"
NO_PICTURE_YET = "Score some graphs to see their alignment."

INTRO = """\
# Smatch
Score predicted AMR graphs against gold ones with **Smatch** (Cai & Knight, 2013): triples matched under the
best mapping of predicted to gold nodes, counted over all pairs. By default each pair's mapping is **proven
optimal** (solver `exact`), so the score does not depend on random restarts. Paste or upload PENMAN graphs (one
prediction per gold graph, same order), or click an example. **Repair cut generations** scores the readable
prefix of a graph cut short, as a training loop does; **Reading** chooses how triples are read (smatch 1.0.4's,
as written, or SMATCH++'s).
"""


def warm_up() -> float:
    """One tiny Smatch call, so that the alignment kernels are loaded and amreval's modules imported when the
    app is built rather than on the first visitor's request; returns its F1 (1.0)."""
    from amreval.scores.smatch import smatch

    return smatch([WARM_UP_GRAPH], ["(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"], progress=False).f1


def overall_html(out: dict, notes: list[str] | None = None) -> str:
    """The overall score, the counts behind it (with the repair's, when asked), the config string and the
    warnings of ``compute``."""
    table = (
        "<table id='overall'><thead><tr><th></th><th>Precision</th><th>Recall</th><th>F1</th></tr></thead>"
        "<tbody><tr><th scope='row'>Smatch</th>"
        + "".join(score_cell(part, out[part]) for part in ("precision", "recall", "f1"))
        + "</tr></tbody></table>"
    )
    counts = (
        f"<p>Matched triples <b data-key='match'>{out['match']}</b> of <b data-key='test'>{out['test']}</b> "
        f"predicted and <b data-key='gold'>{out['gold']}</b> gold, over <b data-key='n_pairs'>{out['n_pairs']}</b> "
        f"pair(s), <b data-key='n_optimal'>{out['n_optimal']}</b> proven optimal; "
        f"<b data-key='n_unreadable'>{out['n_unreadable']}</b> unreadable prediction(s), each scored as "
        "an empty graph.</p>"
    )
    if "n_repaired" in out:
        counts += (
            f"<p>Repair: <b data-key='n_intact'>{out['n_intact']}</b> intact, "
            f"<b data-key='n_repaired'>{out['n_repaired']}</b> repaired, "
            f"<b data-key='n_unrepairable'>{out['n_unrepairable']}</b> without a readable node.</p>"
        )
    config = f"<p><small>config: <code data-key='config'>{html.escape(str(out['config']))}</code></small></p>"
    return table + counts + notes_html(notes or []) + config


def per_sentence_html(labels: list[str], f1s: list[float]) -> str:
    """One row per pair: its position, its id and its F1."""
    body = "".join(
        f"<tr><td>{k}</td><td>{html.escape(label)}</td>{score_cell(f'snt_{k}_f1', f1)}</tr>"
        for k, (label, f1) in enumerate(zip(labels, f1s), start=1)
    )
    return (
        "<table id='per-sentence'><thead><tr><th>#</th><th>Graph</th><th>F1</th></tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


def _gold(text: str) -> list:
    gr = gradio()
    if not text or not text.strip():
        raise gr.Error("Paste or upload the gold graphs.")
    try:
        graphs = loads_graphs(text, name="gold")
    except AmrevalError as exc:
        raise gr.Error(str(exc)) from None
    if not graphs:
        raise gr.Error("No graph found in the gold text.")
    return graphs


def read_sentences(pred_text: str, gold_text: str) -> tuple[list[str], list[str], list[str]]:
    """The predicted and gold PENMAN strings for ``compute``, and a label for each pair (the gold graph's
    ``::id``, else the prediction's, else its position). A predicted graph that cannot be read is passed as
    written (see :func:`~amreval.hub.space_docsmatch.predicted_items`); a gold one is an error."""
    pred, gold = predicted_items(pred_text), _gold(gold_text)
    if len(pred) != len(gold):
        raise gradio().Error(f"{len(pred)} predicted graph(s) but {len(gold)} gold graph(s); they pair by position.")
    ids = [getattr(p, "id", None) for p, _ in pred]
    labels = [g.id or i or f"graph {k}" for k, (i, g) in enumerate(zip(ids, gold), start=1)]
    return [t for _, t in pred], [g.to_string() for g in gold], labels


def _choices(labels: list[str]) -> list[str]:
    return [f"{k}. {label}" for k, label in enumerate(labels, start=1)]


def _mappings(state: dict) -> list:
    """The node mappings behind the scores: the core function ``compute`` calls, called again with the same
    inputs and options, finds the same alignments (the search is deterministic for a seed)."""
    if "mappings" not in state:
        from amreval.scores.smatch import smatch

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AmrevalWarning)  # shown with the scores
            result = smatch(state["predictions"], state["references"], progress=False, **state["options"])
        state["mappings"] = [getattr(pair, "mapping", None) for pair in result.pairs]
    return state["mappings"]


def pictures(state: dict | None, choice: str | None) -> tuple[str, dict | None]:
    """The scored alignment of the chosen pair (and ``state``, with the mappings)."""
    if not state or not state.get("labels"):
        return note(NO_PICTURE_YET), state
    choices = _choices(state["labels"])
    k = choices.index(choice) if choice in choices else 0
    pred, gold = state["predictions"][k], state["references"][k]
    mapping = _mappings(state)[k]
    drawing = {"mapping": mapping} if mapping is not None else {}
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", str(choice or f"graph {k + 1}")).strip("_")
    return svg_picture(lambda draw: draw.alignment_svg(pred, gold, **drawing), f"alignment-{name}.svg"), state


def compute_options(restarts: Any, seed: Any, solver: str, repair: Any, standardize: str) -> dict:
    """The metric's keywords from the controls both buttons read (scores per sentence, for the table)."""
    return {
        "restarts": int(restarts),
        "seed": int(seed),
        "solver": solver,
        "repair": bool(repair),
        "standardize": standardize,
        "per_sentence": True,
    }


def make_scorer(metric: Any) -> Any:
    """The event handler that scores the inputs with ``metric`` and lays the result out."""

    def score(pred_text, gold_text, restarts, seed, solver, repair, standardize):
        predictions, references, labels = read_sentences(pred_text, gold_text)
        options = compute_options(restarts, seed, solver, repair, standardize)
        out, notes = computed(metric, predictions=predictions, references=references, **options)
        if options["repair"]:  # the pictures show what was scored
            from amreval.hub.metric_compute import repaired_predictions

            predictions = repaired_predictions(predictions)[0]
        state = {
            "predictions": predictions,
            "references": references,
            "labels": labels,
            "options": {k: options[k] for k in ("solver", "restarts", "seed", "standardize")},
        }
        return (
            overall_html(out, notes),
            per_sentence_html(labels, out["per_sentence_f1"]),
            out,
            gradio().update(choices=_choices(labels), value=_choices(labels)[0]),
            state,
        )

    return score


def comparison_html(out: dict) -> str:
    """Both systems' F1, their difference with its interval, and the p-value."""
    base = "f1"
    row = (
        f"<tr><th scope='row'>Smatch</th>{score_cell(base, out[base])}{score_cell('compare_f1', out['compare_f1'])}"
        + "".join(
            score_cell(f"{base}_{part}", out[f"{base}_{part}"])
            for part in ("difference", "difference_ci_low", "difference_ci_high", "p_value")
        )
        + "</tr>"
    )
    return (
        "<table id='comparison-table'><thead><tr><th>F1</th><th>Predicted</th><th>Second</th><th>Difference</th>"
        f"<th>CI low</th><th>CI high</th><th>p</th></tr></thead><tbody>{row}</tbody></table>"
    )


def make_comparer(metric: Any) -> Any:
    """The event handler that compares the predicted graphs with a second system's through ``metric``."""

    def compare(pred_text, other_text, gold_text, restarts, seed, solver, repair, standardize, test, n, alt):
        predictions, references, _ = read_sentences(pred_text, gold_text)
        if not other_text or not other_text.strip():
            raise gradio().Error("Paste or upload the second system's graphs.")
        other, _, _ = read_sentences(other_text, gold_text)
        out, _ = computed(
            metric,
            predictions=predictions,
            references=references,
            compare_predictions=other,
            test=test,
            n_resamples=int(n),
            alternative=alt,
            **compute_options(restarts, seed, solver, repair, standardize),
        )
        return comparison_html(out)

    return compare


def smatch_demo(metric: Any, examples: Path) -> gr.Blocks:
    """The Smatch page on ``metric``, with the example files of the folder ``examples``."""
    gr = gradio()
    examples = Path(examples)
    score, compare = make_scorer(metric), make_comparer(metric)

    def example(name: str) -> str:
        return (examples / name).read_text(encoding="utf-8")

    with gr.Blocks(title="Smatch") as demo:
        gr.HTML(STYLE, container=False, padding=False, elem_id="style")
        gr.Markdown(INTRO)
        with gr.Row():
            with gr.Column():
                pred_text, _ = text_with_upload(
                    "Predicted graphs (PENMAN)", "pred-text", 12, upload="Upload a predicted file…",
                    upload_id="pred-file", penman=True,
                )  # fmt: skip
            with gr.Column():
                gold_text, _ = text_with_upload(
                    "Gold graphs (PENMAN)", "gold-text", 12, upload="Upload a gold file…",
                    upload_id="gold-file", penman=True,
                )  # fmt: skip
        with gr.Row():
            restarts = gr.Slider(0, MAX_RESTARTS, value=DEFAULT_RESTARTS, step=1, label="Restarts", elem_id="restarts")
            seed = gr.Number(value=0, precision=0, label="Seed", elem_id="seed")
            solver = gr.Radio(list(SOLVERS), value=DEFAULT_SOLVER, label="Solver", elem_id="solver")
        with gr.Row():
            repair = gr.Checkbox(value=False, label="Repair cut generations", elem_id="repair")
            standardize = gr.Radio(list(READINGS), value="smatch", label="Reading", elem_id="standardize")
        button = gr.Button("Score", variant="primary", elem_id="score")
        clicked = gr.Examples(
            examples=[[example("pred.amr"), example("gold.amr")], [example("cut.amr"), example("gold.amr")]],
            example_labels=["Three parsed sentences", "Generations cut short (tick Repair)"],
            inputs=[pred_text, gold_text],
            label="Examples (click to load and score)",
        )
        gr.Markdown("## Scores", elem_id="scores-heading")
        overall = gr.HTML(elem_id="overall-scores")
        gr.Markdown("### Per sentence")
        per_sentence = gr.HTML(elem_id="per-sentence-scores")
        with gr.Accordion("All values returned by compute", open=False):
            raw = gr.JSON(elem_id="raw")
        gr.Markdown(
            "## Alignment\nMatched triples in green, missing (gold only) in red, extra (prediction only) in blue."
        )
        graph = gr.Dropdown(choices=[], label="Pair", interactive=True, elem_id="graph")
        picture = picture_box(note(NO_PICTURE_YET), "picture")
        state = gr.State()

        inputs = [pred_text, gold_text, restarts, seed, solver, repair, standardize]
        outputs = [overall, per_sentence, raw, graph, state]

        def cleared() -> tuple:
            return "", "", None, gr.update(choices=[], value=None), None, note(NO_PICTURE_YET)

        for event in (button.click, clicked.load_input_event.then):
            event(cleared, None, [*outputs, picture], queue=False).then(
                score, inputs, outputs, concurrency_id="score"
            ).success(None, None, None, js=show_results_js("scores-heading")).then(
                pictures, [state, graph], [picture, state], concurrency_id="picture"
            )
        graph.input(pictures, [state, graph], [picture, state], concurrency_id="picture")

        with gr.Tabs():
            with gr.Tab("Compare two systems", elem_id="compare-tab"):
                gr.Markdown(
                    "Is the predicted system better than a second one? Paste the second system's graphs for the "
                    "same gold graphs (same order) and press **Compare**: a paired test over sentences of the "
                    "difference of the corpus scores."
                )
                other_text, _ = text_with_upload(
                    "Second system's graphs (PENMAN)", "other-text", 10,
                    upload="Upload the second system's file…", upload_id="other-file", penman=True,
                )  # fmt: skip
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
                    examples=[[example("pred.amr"), example("pred2.amr"), example("gold.amr")]],
                    example_labels=["Two systems on three sentences"],
                    inputs=[pred_text, other_text, gold_text],
                    label="Example (click to load and compare)",
                )
                comparison = gr.HTML(elem_id="comparison")
        compare_inputs = [pred_text, other_text, *inputs[1:], test, n_resamples, alternative]
        for event in (compare_button.click, compare_examples.load_input_event.then):
            event(lambda: "", None, comparison, queue=False).then(
                compare, compare_inputs, comparison, concurrency_id="score"
            )
    return demo
