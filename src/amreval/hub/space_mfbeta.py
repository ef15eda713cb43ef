"""The MFβ Space's page: Meaning and Form of sentences generated from AMR, in the browser.

Every number comes from the metric given to :func:`mfbeta_demo` (what a user gets with ``evaluate.load`` on
the Space's folder); the page only reads the inputs, calls ``compute`` and lays the result out. The language
model is ``gpt2`` unless the ``MFBETA_LM`` environment variable names another (a Hub name or a local folder).
``metrics/mfbeta/app.py`` loads the metric beside it, calls :func:`warm_up` and builds the page with the
folder's examples. gradio is imported when the page is built (:func:`~amreval.hub.space_app.gradio`).

Example:
    >>> explanations_html({"explanations": [{"lost": ["a :ARG0 b"], "added": [], "approximate": []}]}).count("<li>")
    3
"""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from amreval.amr.read import loads_graphs
from amreval.errors import AmrevalError
from amreval.hub.space_app import (
    STYLE,
    compute_or_error,
    fmt,
    gradio,
    note,
    number_cell,
    picture_box,
    show_results_js,
    svg_picture,
    text_with_upload,
)
from amreval.mfbeta.form import DEFAULT_MODEL, DEFAULT_TOLERANCE
from amreval.mfbeta.parsers import FAILED_PARSE
from amreval.scores.text import plural

if TYPE_CHECKING:
    import gradio as gr

__all__ = [
    "LM_VARIABLE",
    "warm_up",
    "mfbeta_demo",
    "scores_html",
    "per_example_html",
    "explanations_html",
    "read_inputs",
    "picture",
    "s2match_alignment",
    "make_scorer",
]

#: The environment variable that overrides the default language model.
LM_VARIABLE = "MFBETA_LM"

GIVEN = "prediction AMRs given below"
PARSE = "parse with an amrlib model"

INTRO = """\
# MFβ
Meaning and Form of text generated from AMR (Opitz & Frank, 2021). **Meaning**: the generated sentences
are parsed back to AMR and compared with the gold AMRs by S²match. **Form**: a language model compares each
generated sentence with its reference; a generation is acceptable when its prefScore ≥ 0.5 − tolerance.
**MFβ** is their weighted harmonic mean (β > 1 weights Form more). Give one sentence per line and AMRs as
PENMAN graphs separated by blank lines, all paired by position; or click the example below.
"""

NO_PICTURE_YET = "Score some sentences to see the alignment of a parse with its gold AMR."


def scores_html(out: dict, tolerance: float) -> str:
    """MFβ at the chosen β and at β = 1, 0.5, 2; Meaning, Form, failures and the config."""
    rows = [
        ("mf_beta", f"MFβ (β = {out['beta']:g})"),
        ("mf_1", "MF1"),
        ("mf_0.5", "MF0.5 (Meaning weighted more)"),
        ("mf_2", "MF2 (Form weighted more)"),
        ("meaning", "Meaning M (S²match)"),
        ("form", "Form F (share acceptable)"),
    ]
    body = "".join(f"<tr><th scope='row'>{label}</th>{number_cell(key, out[key])}</tr>" for key, label in rows)
    failures = (
        f"<p>Failed parses: <b data-key='parse_failures'>{out['parse_failures']}</b> of the generations, "
        f"<b data-key='reference_parse_failures'>{out['reference_parse_failures']}</b> of the references "
        f"(each scored as the MFβ authors' one-node graph <code id='failed-parse'>{html.escape(FAILED_PARSE)}</code>: "
        "a parse that is missing, empty or unreadable, and the parse of an empty generation). "
        f"Acceptable: prefScore ≥ {fmt(0.5 - tolerance)}.</p>"
    )
    config = f"<p><small>config: <code data-key='config'>{html.escape(str(out['config']))}</code></small></p>"
    return f"<table id='scores'><tbody>{body}</tbody></table>{failures}{config}"


def per_example_html(generated: list[str], references: list[str], out: dict) -> str:
    """One row per example: the sentences, prefScore, acceptability and S²match F1."""
    body = "".join(
        f"<tr><td>{k}</td><td>{html.escape(g)}</td><td>{html.escape(r)}</td>{number_cell(f'pref_{k}', p)}"
        f"<td data-key='acceptable_{k}' data-value='{a}'>{'yes' if a else 'no'}</td>"
        f"{number_cell(f's2match_{k}', f)}</tr>"
        for k, (g, r, p, a, f) in enumerate(
            zip(generated, references, out["pref_scores"], out["acceptable"], out["s2match_f1"]), start=1
        )
    )
    return (
        "<table id='per-example'><thead><tr><th>#</th><th>Generated</th><th>Reference</th><th>prefScore</th>"
        f"<th>Acceptable</th><th>S²match F1</th></tr></thead><tbody>{body}</tbody></table>"
    )


def _items(key: str, items: list[str]) -> str:
    inner = "".join(f"<li>{html.escape(item)}</li>" for item in items) or "<li><i>none</i></li>"
    return f"<td data-key='{key}'><ul>{inner}</ul></td>"


def explanations_html(out: dict) -> str:
    """Per example: gold triples lost, triples added, and concepts credited partly."""
    rows = []
    for k, e in enumerate(out.get("explanations") or [], start=1):
        approximate = [f"{gold} → {pred} ({credit:g})" for gold, pred, credit in e["approximate"]]
        rows.append(
            f"<tr><td>{k}</td>{_items(f'lost_{k}', e['lost'])}{_items(f'added_{k}', e['added'])}"
            f"{_items(f'approximate_{k}', approximate)}</tr>"
        )
    return (
        "<table id='explanations'><thead><tr><th>#</th><th>Lost (gold only)</th><th>Added (generation only)</th>"
        f"<th>Approximate (gold → generated, credit)</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _sentences(text: str, what: str) -> list[str]:
    lines = [line.strip() for line in (text or "").splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        raise gradio().Error(f"Give the {what} sentences, one per line.")
    return lines


def _amrs(text: str, what: str, n: int, lenient: bool = False) -> list[str]:
    """PENMAN strings of the graphs of pasted or loaded text (never read as a file name).

    ``lenient`` (the prediction AMRs): a graph that cannot be read keeps its position as the empty
    string, which ``compute`` scores as a failed parse, as it does the unreadable text itself.
    """
    errors: list | None = [] if lenient else None
    try:
        graphs = loads_graphs(text, name=what, errors=errors)
    except AmrevalError as exc:
        raise gradio().Error(str(exc)) from None
    if len(graphs) != n:
        raise gradio().Error(f"{len(graphs)} {what} but {plural(n, 'sentence')}; they pair by position.")
    return ["" if g.is_empty() else g.to_string() for g in graphs]


def read_inputs(generated_text, references_text, gold_text, source, prediction_text, parser_path) -> dict:
    """The keyword arguments of ``compute`` for the text inputs."""
    gr = gradio()
    generated = _sentences(generated_text, "generated")
    references = _sentences(references_text, "reference")
    if len(generated) != len(references):
        raise gr.Error(f"{len(generated)} generated but {len(references)} reference sentences.")
    kw: dict = {"predictions": generated, "references": references}
    if gold_text and gold_text.strip():
        kw["reference_amrs"] = _amrs(gold_text, "gold AMRs", len(generated))
    if source == PARSE:
        if not parser_path or not parser_path.strip():
            raise gr.Error("Give the folder of an amrlib parsing model, or paste the prediction AMRs.")
        kw["parser"] = parser_path.strip()
    else:
        if not prediction_text or not prediction_text.strip():
            raise gr.Error("Paste or upload the prediction AMRs, or choose a parser.")
        if "reference_amrs" not in kw:
            raise gr.Error("Without a parser the gold AMRs are needed: paste or upload them.")
        kw["prediction_amrs"] = _amrs(prediction_text, "prediction AMRs", len(generated), lenient=True)
    return kw


def _choices(n: int) -> list[str]:
    return [f"example {k}" for k in range(1, n + 1)]


def picture(state: dict | None, choice: str | None) -> str:
    """An SVG of the S²match alignment of the chosen example's parse with its gold AMR (the alignment
    Meaning scores: graded concept credit, the default search and vectors), or a note."""
    if not state:
        return note(NO_PICTURE_YET)
    if not state.get("prediction_amrs") or not state.get("reference_amrs"):
        return note("The picture needs the prediction AMRs and the gold AMRs given as input.")
    choices = _choices(len(state["prediction_amrs"]))
    k = choices.index(choice) if choice in choices else 0

    def draw(drawing: Any) -> str:
        sentence = (state.get("predictions") or [""] * len(choices))[k]
        al = s2match_alignment(state["prediction_amrs"][k], state["reference_amrs"][k], k, sentence)
        return drawing.alignment_svg(
            al.prediction,
            al.gold,
            doc=False,
            title=f"example {k + 1}",
            mapping=al.mapping,
            credit=al.similarity,
            scores=("S²match", al.score.precision, al.score.recall, al.score.f1),
        )

    return svg_picture(draw, f"mfbeta-example-{k + 1}.svg", what="alignments")


class Aligned(NamedTuple):
    """The S²match alignment of one parse with its gold AMR."""

    prediction: Any
    gold: Any
    mapping: Any
    similarity: Any
    score: Any


def s2match_alignment(prediction_amr: str | None, gold_amr: str, k: int, sentence: str | None = None) -> Aligned:
    """Align the ``k``-th parse (None: a failed parse, the authors' dummy graph, as for a blank generated
    ``sentence``) with its gold AMR as Meaning does: S²match with the default vectors and the search of pair ``k``."""
    from amreval.match.options import SearchOptions
    from amreval.mfbeta.score import given_parses, gold_graphs
    from amreval.scores.harness import pair_search
    from amreval.scores.s2match import align_s2match
    from amreval.scores.vectors import resolve_vectors

    pred = given_parses([prediction_amr], [sentence or ""], blank_fails=sentence is not None)[0][0]
    gold = gold_graphs([gold_amr], 1)[0]
    al = align_s2match(pred, gold, resolve_vectors(None), pair_search(SearchOptions(), k))
    return Aligned(pred, gold, al.mapping, al.similarity, al.score)


def warm_up() -> float:
    """One S²match alignment, so that the alignment kernels are loaded
    and the word vectors read when the app is built, not on the first visitor's request; returns its F1."""
    amr = "(w / want-01 :ARG0 (b / boy))"
    return s2match_alignment(amr, amr, 0).score.f1


def make_scorer(metric: Any) -> Any:
    """The event handler that scores the inputs with ``metric`` and lays the result out."""

    def score(
        generated_text, references_text, gold_text, source, prediction_text, parser_path, beta, tolerance, lm, lm_kind
    ):
        gr = gradio()
        kw = read_inputs(generated_text, references_text, gold_text, source, prediction_text, parser_path)
        if beta is None or beta <= 0:
            raise gr.Error("β must be > 0.")
        lm = (lm or "").strip() or os.environ.get(LM_VARIABLE) or DEFAULT_MODEL
        out = compute_or_error(
            metric,
            (AmrevalError, ValueError, OSError),
            **kw,
            lm=lm,
            lm_kind=lm_kind,
            beta=float(beta),
            tolerance=float(tolerance),
            per_example=True,
            explain=True,
        )
        n = len(kw["predictions"])
        state = {
            "prediction_amrs": kw.get("prediction_amrs"),
            "reference_amrs": kw.get("reference_amrs"),
            "predictions": kw["predictions"],
        }
        return (
            scores_html(out, float(tolerance)),
            per_example_html(kw["predictions"], kw["references"], out),
            explanations_html(out),
            out,
            gr.update(choices=_choices(n), value=_choices(n)[0]),
            state,
        )

    return score


def cleared_results() -> tuple:
    """Empty outputs (scores, per example, explanations, raw, example choice, state, picture), shown while
    scoring, so that an error never leaves the previous inputs' results on the page."""
    return "", "", "", None, gradio().update(choices=[], value=None), None, note(NO_PICTURE_YET)


def mfbeta_demo(metric: Any, examples: Path) -> gr.Blocks:
    """The MFβ page on ``metric``, with the example files of the folder ``examples``."""
    gr = gradio()
    examples = Path(examples)
    score = make_scorer(metric)

    def example(name: str) -> str:
        return (examples / name).read_text(encoding="utf-8")

    with gr.Blocks(title="MFβ") as demo:
        gr.HTML(STYLE, container=False, padding=False, elem_id="style")
        gr.Markdown(INTRO)
        with gr.Row():
            with gr.Column():
                generated, _ = text_with_upload("Generated sentences (one per line)", "generated", 5)
            with gr.Column():
                references, _ = text_with_upload("Reference sentences (one per line)", "references", 5)
        with gr.Row():
            with gr.Column():
                gold, _ = text_with_upload(
                    "Gold AMRs of the references (PENMAN; optional with a parser)", "gold", 10, penman=True
                )
            with gr.Column():
                source = gr.Radio([GIVEN, PARSE], value=GIVEN, label="Meaning from", elem_id="source")
                prediction, _ = text_with_upload(
                    "Prediction AMRs: parses of the generated sentences (PENMAN)", "prediction", 10, penman=True
                )
                parser = gr.Textbox(label="amrlib model folder (when parsing)", elem_id="parser")
        with gr.Row():
            beta = gr.Number(value=1.0, minimum=0.01, label="β", elem_id="beta")
            tolerance = gr.Slider(0.0, 0.5, value=DEFAULT_TOLERANCE, step=0.01, label="Tolerance", elem_id="tolerance")
            lm = gr.Textbox(
                value=os.environ.get(LM_VARIABLE) or DEFAULT_MODEL, label="Language model (name or path)", elem_id="lm"
            )
            lm_kind = gr.Radio(["causal", "masked"], value="causal", label="Language model kind", elem_id="lm-kind")
        button = gr.Button("Score", variant="primary", elem_id="score")
        clicked = gr.Examples(
            examples=[
                [example("generated.txt"), example("references.txt"), example("gold.amr"), GIVEN, example("parsed.amr")]
            ],
            example_labels=["Four generations with gold AMRs and their parses"],
            inputs=[generated, references, gold, source, prediction],
            label="Example (click to load and score)",
        )

        gr.Markdown("## Scores", elem_id="scores-heading")
        scores = gr.HTML(elem_id="mf-scores")
        gr.Markdown("### Per example")
        per_example = gr.HTML(elem_id="per-example-scores")
        gr.Markdown("### What each generation lost and added (from the S²match alignment)")
        explanations = gr.HTML(elem_id="explanation")
        with gr.Accordion("All values returned by compute", open=False):
            raw = gr.JSON(elem_id="raw")
        gr.Markdown(
            "## Alignment picture\nThe S²match alignment that Meaning scores, of a parse with its gold AMR: matched "
            "triples in green, lost (gold only) in red, added (parse only) in blue; an aligned concept that differs "
            "is orange, with its graded credit."
        )
        chosen = gr.Dropdown(choices=[], label="Example", interactive=True, elem_id="example")
        drawn = picture_box(note(NO_PICTURE_YET), "picture")
        state = gr.State()

        inputs = [generated, references, gold, source, prediction, parser, beta, tolerance, lm, lm_kind]
        outputs = [scores, per_example, explanations, raw, chosen, state]
        for event in (button.click, clicked.load_input_event.then):
            event(cleared_results, None, [*outputs, drawn], queue=False).then(
                score, inputs, outputs, concurrency_id="score"
            ).success(None, None, None, js=show_results_js("scores-heading")).then(
                picture, [state, chosen], drawn, concurrency_id="picture"
            )
        chosen.input(picture, [state, chosen], drawn, concurrency_id="picture")
    return demo
