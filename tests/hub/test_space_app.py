"""The pieces the Space apps share (amreval.hub.space_app), without a browser; the pages themselves are
driven in tests/spaces/test_spaces.py."""

from __future__ import annotations

import subprocess
import sys

import pytest

from amreval.errors import InputError
from amreval.hub.space_app import load_file, notes_html, number_cell, score_cell, show_results_js, svg_picture


def test_cells_keep_the_exact_number():
    assert number_cell("f1", 2 / 3) == '<td data-key="f1" data-value="0.6666666666666666">0.6667</td>'
    assert score_cell("f1", 1) == '<td data-key="f1" data-value="1.0">1.0000</td>'
    # nothing to score: n/a and no number, whether NaN (the metric's) or None (the core's)
    dash = '<td data-key="a&amp;b" data-value="" title="nothing to score">n/a</td>'
    assert score_cell("a&b", float("nan")) == score_cell("a&b", None) == dash


def test_notes_and_the_scroll_script():
    assert notes_html(["1 of 2 <documents>", "x"]) == (
        "<p class='score-note'><i>1 of 2 &lt;documents&gt;</i></p><p class='score-note'><i>x</i></p>"
    )
    assert show_results_js("scores-heading") == (
        "() => document.getElementById('scores-heading')?.scrollIntoView({behavior: 'smooth', block: 'start'})"
    )


def test_a_picture_in_the_viewer_or_a_note_why_not():
    pytest.importorskip("graphviz", reason="the draw extra (graphviz) is not installed")
    from amreval.report.viewer import svg_viewer

    svg = '<svg width="10" height="10"></svg>'
    assert svg_picture(lambda drawing: svg, "x.svg") == svg_viewer(svg, filename="x.svg")

    def fails(drawing):
        raise InputError("graph #1 has no top")

    assert svg_picture(fails, "x.svg") == "<p class='picture-note'><i>No picture: graph #1 has no top</i></p>"


def test_load_file(tmp_path):
    assert load_file(None) == "" and load_file("") == ""
    (tmp_path / "a.amr").write_text("(b / boy)\n", encoding="utf-8")
    assert load_file(str(tmp_path / "a.amr")) == "(b / boy)\n"


def test_the_pages_import_without_gradio():
    code = (
        "import sys; sys.modules['gradio'] = None; "
        "import amreval.hub.space_app, amreval.hub.space_docsmatch, amreval.hub.space_mfbeta; print('ok')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "ok", done.stderr
