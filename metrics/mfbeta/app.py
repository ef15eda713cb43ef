"""The MFβ Space: Meaning and Form of sentences generated from AMR, in the browser.

Every number comes from the metric a user gets with ``evaluate.load`` on this folder;
the app only reads the inputs, calls ``compute`` and lays the result out.
The language model is ``gpt2`` unless the ``MFBETA_LM`` environment variable names
another (a Hub name or a local folder). Run it with ``python app.py``;
``build_demo()`` returns the Blocks without launching.
"""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Any, NamedTuple

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr

from amreval import loads_graphs
from amreval.errors import AmrevalError, MissingDependencyError
from amreval.mfbeta.form import DEFAULT_MODEL, DEFAULT_TOLERANCE
from amreval.mfbeta.parsers import FAILED_PARSE

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE / "examples"

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


def _fmt(value: float) -> str:
    return f"{value:.4f}"


def _cell(key: str, value: float) -> str:
    """A table cell showing ``value`` to 4 places; ``data-key`` and ``data-value`` keep the exact number."""
    value = float(value)
    return f'<td data-key="{html.escape(key)}" data-value="{value!r}">{_fmt(value)}</td>'


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
    body = "".join(f"<tr><th scope='row'>{label}</th>{_cell(key, out[key])}</tr>" for key, label in rows)
    failures = (
        f"<p>Failed parses: <b data-key='parse_failures'>{out['parse_failures']}</b> of the generations, "
        f"<b data-key='reference_parse_failures'>{out['reference_parse_failures']}</b> of the references "
        f"(each scored as the MFβ authors' one-node graph <code id='failed-parse'>{html.escape(FAILED_PARSE)}</code>: "
        "a parse that is missing, empty or unreadable, and the parse of an empty generation). "
        f"Acceptable: prefScore ≥ {_fmt(0.5 - tolerance)}.</p>"
    )
    config = f"<p><small>config: <code data-key='config'>{html.escape(str(out['config']))}</code></small></p>"
    return f"<table id='scores'><tbody>{body}</tbody></table>{failures}{config}"


def per_example_html(generated: list[str], references: list[str], out: dict) -> str:
    """One row per example: the sentences, prefScore, acceptability and S²match F1."""
    body = "".join(
        f"<tr><td>{k}</td><td>{html.escape(g)}</td><td>{html.escape(r)}</td>{_cell(f'pref_{k}', p)}"
        f"<td data-key='acceptable_{k}' data-value='{a}'>{'yes' if a else 'no'}</td>{_cell(f's2match_{k}', f)}</tr>"
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
        raise gr.Error(f"Give the {what} sentences, one per line.")
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
        raise gr.Error(str(exc)) from None
    if len(graphs) != n:
        raise gr.Error(f"{len(graphs)} {what} but {n} sentences; they pair by position.")
    return ["" if g.is_empty() else g.to_string() for g in graphs]


def read_inputs(generated_text, references_text, gold_text, source, prediction_text, parser_path) -> dict:
    """The keyword arguments of ``compute`` for the text inputs."""
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


def _note(message: str) -> str:
    return f"<p class='picture-note'><i>{html.escape(message)}</i></p>"


def _choices(n: int) -> list[str]:
    return [f"example {k}" for k in range(1, n + 1)]


def picture(state: dict | None, choice: str | None) -> str:
    """An SVG of the S²match alignment of the chosen example's parse with its gold AMR (the alignment
    Meaning scores: graded concept credit, the default search and vectors), or a note."""
    if not state:
        return _note("Score some sentences to see the alignment of a parse with its gold AMR.")
    if not state.get("prediction_amrs") or not state.get("reference_amrs"):
        return _note("The picture needs the prediction AMRs and the gold AMRs given as input.")
    choices = _choices(len(state["prediction_amrs"]))
    k = choices.index(choice) if choice in choices else 0
    try:
        from amreval.report.draw import alignment_svg
        from amreval.report.viewer import svg_viewer
    except MissingDependencyError as exc:
        return _note(f"No picture: {exc}")
    except ImportError:
        return _note("No picture: this version of amreval cannot draw alignments.")
    try:
        sentence = (state.get("predictions") or [""] * len(choices))[k]
        al = s2match_alignment(state["prediction_amrs"][k], state["reference_amrs"][k], k, sentence)
        svg = alignment_svg(
            al.prediction,
            al.gold,
            doc=False,
            title=f"example {k + 1}",
            mapping=al.mapping,
            credit=al.similarity,
            scores=("S²match", al.score.precision, al.score.recall, al.score.f1),
        )
    except AmrevalError as exc:  # MissingDependencyError included: Graphviz is not installed
        return _note(f"No picture: {exc}")
    return svg_viewer(svg, filename=f"mfbeta-example-{k + 1}.svg")


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


def load_file(path: str | None) -> str:
    """The text of an uploaded file, to be shown and edited in its text box."""
    if not path:
        return ""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise gr.Error("The file is not UTF-8 text.") from None


def make_scorer(metric):
    """The event handler that scores the inputs with ``metric`` and lays the result out."""

    def score(
        generated_text, references_text, gold_text, source, prediction_text, parser_path, beta, tolerance, lm, lm_kind
    ):
        kw = read_inputs(generated_text, references_text, gold_text, source, prediction_text, parser_path)
        if beta is None or beta <= 0:
            raise gr.Error("β must be > 0.")
        lm = (lm or "").strip() or os.environ.get(LM_VARIABLE) or DEFAULT_MODEL
        try:
            out = metric.compute(
                **kw,
                lm=lm,
                lm_kind=lm_kind,
                beta=float(beta),
                tolerance=float(tolerance),
                per_example=True,
                explain=True,
            )
        except (AmrevalError, ValueError, OSError) as exc:
            raise gr.Error(str(exc)) from None
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


def _example(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


def _text_with_upload(label: str, elem_id: str, lines: int, placeholder: str = "", penman: bool = False) -> tuple:
    text = gr.Textbox(
        label=label,
        lines=lines,
        max_lines=30,
        placeholder=placeholder,
        elem_id=elem_id,
        elem_classes="penman" if penman else None,
    )
    upload = gr.UploadButton("Upload a file…", size="sm", elem_id=f"{elem_id}-file")
    upload.upload(load_file, upload, text)
    return text, upload


# PENMAN boxes in a monospace font (a style element in the page: Gradio 6 takes css only in launch())
STYLE = """<style>
.penman textarea { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
</style>"""

#: Brings the scores into view once they are there (an example click happens far below them).
SHOW_RESULTS_JS = (
    "() => document.getElementById('scores-heading')?.scrollIntoView({behavior: 'smooth', block: 'start'})"
)


def cleared_results() -> tuple:
    """Empty outputs (scores, per example, explanations, raw, example choice, state, picture), shown while
    scoring, so that an error never leaves the previous inputs' results on the page."""
    note = _note("Score some sentences to see the alignment of a parse with its gold AMR.")
    return "", "", "", None, gr.update(choices=[], value=None), None, note


def picture_box(value: str, elem_id: str) -> gr.HTML:
    """An HTML component for pictures whose viewer buttons work (their click handler runs on load)."""
    try:
        from amreval.report.viewer import VIEWER_JS
    except ImportError:  # an amreval without the viewer: pictures without buttons
        return gr.HTML(value, elem_id=elem_id)
    return gr.HTML(value, elem_id=elem_id, js_on_load=VIEWER_JS)


def build_demo(metric=None, warm: bool = True) -> gr.Blocks:
    """The app's Blocks, on ``metric`` (default: ``evaluate.load`` of this folder); ``warm``: call
    :func:`warm_up` first."""
    if metric is None:
        import evaluate

        metric = evaluate.load(str(HERE / "mfbeta.py"))  # the script, whatever the folder is called
    if warm:
        warm_up()
    score = make_scorer(metric)

    with gr.Blocks(title="MFβ") as demo:
        gr.HTML(STYLE, container=False, padding=False, elem_id="style")
        gr.Markdown(INTRO)
        with gr.Row():
            with gr.Column():
                generated, _ = _text_with_upload("Generated sentences (one per line)", "generated", 5)
            with gr.Column():
                references, _ = _text_with_upload("Reference sentences (one per line)", "references", 5)
        with gr.Row():
            with gr.Column():
                gold, _ = _text_with_upload(
                    "Gold AMRs of the references (PENMAN; optional with a parser)", "gold", 10, penman=True
                )
            with gr.Column():
                source = gr.Radio([GIVEN, PARSE], value=GIVEN, label="Meaning from", elem_id="source")
                prediction, _ = _text_with_upload(
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
        examples = gr.Examples(
            examples=[
                [
                    _example("generated.txt"),
                    _example("references.txt"),
                    _example("gold.amr"),
                    GIVEN,
                    _example("parsed.amr"),
                ]
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
        example = gr.Dropdown(choices=[], label="Example", interactive=True, elem_id="example")
        drawn = picture_box(_note("Score some sentences to see the alignment of a parse with its gold AMR."), "picture")
        state = gr.State()

        inputs = [generated, references, gold, source, prediction, parser, beta, tolerance, lm, lm_kind]
        outputs = [scores, per_example, explanations, raw, example, state]
        for event in (button.click, examples.load_input_event.then):
            event(cleared_results, None, [*outputs, drawn], queue=False).then(
                score, inputs, outputs, concurrency_id="score"
            ).success(None, None, None, js=SHOW_RESULTS_JS).then(
                picture, [state, example], drawn, concurrency_id="picture"
            )
        example.input(picture, [state, example], drawn, concurrency_id="picture")
    return demo


if __name__ == "__main__":
    build_demo().launch()
