"""The pieces the Space apps share: number cells, notes, pictures in a viewer, upload boxes, the page style.

The apps (``metrics/smatch/app.py``, ``metrics/docsmatch/app.py``, ``metrics/mfbeta/app.py``) are built by
:mod:`amreval.hub.space_smatch`, :mod:`amreval.hub.space_docsmatch` and :mod:`amreval.hub.space_mfbeta` from
these pieces, in the amreval package, so that a Space folder's ``app.py`` stays a few lines: the amreval the
folder installs when the app starts (:func:`~amreval.hub.space_package.bootstrap_code`) brings the apps
with it, of the same version as the metric script beside them.

gradio is imported when a page is built or an event handled (:func:`gradio`), not with the module: amreval
imports, and its tests collect, without the ``space`` extra.

Example:
    >>> score_cell("f1", 0.5)
    '<td data-key="f1" data-value="0.5">0.5000</td>'
    >>> score_cell("coref_f1", float("nan"))
    '<td data-key="coref_f1" data-value="" title="nothing to score">n/a</td>'
    >>> note("No picture: <none>")
    "<p class='picture-note'><i>No picture: &lt;none&gt;</i></p>"
"""

from __future__ import annotations

import html
import os
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from amreval.errors import AmrevalError, AmrevalWarning, MissingDependencyError

if TYPE_CHECKING:
    import gradio as gr

__all__ = [
    "STYLE",
    "gradio",
    "show_results_js",
    "fmt",
    "number_cell",
    "score_cell",
    "note",
    "notes_html",
    "svg_picture",
    "picture_box",
    "load_file",
    "text_with_upload",
    "compute_or_error",
    "computed",
]

# PENMAN boxes in a monospace font (a style element in the page: Gradio 6 takes css only in launch())
STYLE = """<style>
.penman textarea { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
</style>"""


def gradio() -> Any:
    """The gradio module, imported with its usage analytics off unless the environment says otherwise
    (a Space's page must work offline, and so must the tests that drive it)."""
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    import gradio as gr

    return gr


def show_results_js(elem_id: str) -> str:
    """The script that brings the element ``elem_id`` (the scores' heading) into view once the scores are
    there: an example is clicked far below them."""
    return f"() => document.getElementById('{elem_id}')?.scrollIntoView({{behavior: 'smooth', block: 'start'}})"


def fmt(value: float) -> str:
    """A score as the tables show it: 4 places."""
    return f"{value:.4f}"


def number_cell(key: str, value: float) -> str:
    """A table cell showing ``value`` to 4 places; ``data-key`` and ``data-value`` keep the exact number
    (what the browser tests compare with ``compute``)."""
    value = float(value)
    return f'<td data-key="{html.escape(key)}" data-value="{value!r}">{fmt(value)}</td>'


def score_cell(key: str, value: float | None) -> str:
    """:func:`number_cell`, or ``n/a`` when there was nothing to score (None, the metrics' 0/0; NaN with
    ``zero_division=float("nan")``), with an empty ``data-value``: the one rule of
    :func:`~amreval.scores.f1.undefined`."""
    if value is None or value != value:
        return f'<td data-key="{html.escape(key)}" data-value="" title="nothing to score">n/a</td>'
    return number_cell(key, value)


def note(message: str) -> str:
    """A note in place of a picture (why there is none yet, or none at all)."""
    return f"<p class='picture-note'><i>{html.escape(message)}</i></p>"


def notes_html(messages: Iterable[str]) -> str:
    """The warnings of ``compute``, one a line."""
    return "".join(f"<p class='score-note'><i>{html.escape(m)}</i></p>" for m in messages)


def svg_picture(draw: Callable[[Any], str], filename: str, what: str = "graphs") -> str:
    """The SVG that ``draw(amreval.report.draw)`` makes, in a viewer (fitted to the width, zoom, an SVG
    download named ``filename``), or a short note why there is none: the drawing extra is missing, this
    amreval cannot draw ``what``, or drawing failed (Graphviz is not installed, a graph that cannot be
    drawn): a picture never stops the scores from being shown."""
    try:
        from amreval.report import draw as drawing
        from amreval.report.viewer import svg_viewer
    except MissingDependencyError as exc:
        return note(f"No picture: {exc}")
    except ImportError:
        return note(f"No picture: this version of amreval cannot draw {what}.")
    try:
        svg = draw(drawing)
    except AmrevalError as exc:  # MissingDependencyError included: Graphviz is not installed
        return note(f"No picture: {exc}")
    return svg_viewer(svg, filename=filename)


def picture_box(value: str, elem_id: str) -> gr.HTML:
    """An HTML component for pictures whose viewer buttons work (their click handler runs on load)."""
    gr = gradio()
    try:
        from amreval.report.viewer import VIEWER_JS
    except ImportError:  # an amreval without the viewer: pictures without buttons
        return gr.HTML(value, elem_id=elem_id)
    return gr.HTML(value, elem_id=elem_id, js_on_load=VIEWER_JS)


def load_file(path: str | None) -> str:
    """The text of an uploaded file, to be shown and edited in its text box."""
    if not path:
        return ""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise gradio().Error("The file is not UTF-8 text.") from None


def text_with_upload(
    label: str,
    elem_id: str,
    lines: int,
    *,
    upload: str = "Upload a file…",
    upload_id: str | None = None,
    penman: bool = False,
    **textbox: Any,
) -> tuple[gr.Textbox, gr.UploadButton]:
    """A text box (``penman``: in the monospace font) and, below it, an upload button (``upload_id``,
    default ``<elem_id>-file``) whose file's text fills the box; ``textbox``: more of ``gr.Textbox``'s
    keywords."""
    gr = gradio()
    text = gr.Textbox(
        label=label,
        lines=lines,
        max_lines=30,
        elem_id=elem_id,
        elem_classes="penman" if penman else None,
        **textbox,
    )
    button = gr.UploadButton(upload, size="sm", elem_id=upload_id or f"{elem_id}-file")
    button.upload(load_file, button, text)
    return text, button


def compute_or_error(metric: Any, errors: tuple[type[BaseException], ...], **kwargs: Any) -> Any:
    """``metric.compute(**kwargs)``; one of ``errors`` is shown on the page as its message (``gr.Error``)."""
    try:
        return metric.compute(**kwargs)
    except errors as exc:
        raise gradio().Error(str(exc)) from None


def computed(metric: Any, **kwargs: Any) -> tuple[dict, list[str]]:
    """``metric.compute(**kwargs)`` and the messages of the amreval warnings it gave (an unreadable
    prediction, ...), each once, to be shown beside the scores; an input error is shown as its message."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AmrevalWarning)
        out = compute_or_error(metric, (AmrevalError, ValueError), **kwargs)
    return out, list(dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, AmrevalWarning)))
