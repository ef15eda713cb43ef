"""An SVG picture in a web page: fitted to the width, with zoom buttons and an SVG download.

:func:`svg_viewer` wraps the SVG text of a picture (a Graphviz rendering, say)
in HTML: a toolbar (*Fit width*, *−*, *+*, *100 %*, the zoom level, *Download
SVG*) above a scrolling box that holds the picture, fitted to the box's width
at first (a picture narrower than the box keeps its own size). The download
is a ``data:`` link to the SVG as given, so it needs no server. The buttons
act through one click handler on the page element that holds the viewer, :data:`VIEWER_JS` (Gradio's ``js_on_load`` of a
``gr.HTML``; ``element`` is that page element), so the HTML itself carries no
script and works wherever HTML is shown as is.

Example:
    >>> html = svg_viewer('<svg width="300pt" height="60pt" viewBox="0 0 300 60"><g/></svg>', filename="a.svg")
    >>> 'data-width="400"' in html, 'width="100%"' in html, "download='a.svg'" in html
    (True, True, True)
"""

from __future__ import annotations

import base64
import html
import re

from amreval.errors import InputError

__all__ = ["VIEWER_JS", "svg_viewer"]

#: The click handler of the viewer's buttons (run once, with ``element`` the page element holding viewers).
VIEWER_JS = """
element.addEventListener('click', (event) => {
  const button = event.target.closest('[data-svg-zoom]');
  if (!button) return;
  const viewer = button.closest('.svg-viewer');
  const svg = viewer ? viewer.querySelector('.svg-box svg') : null;
  if (!svg) return;
  const natural = parseFloat(viewer.dataset.width) || svg.getBoundingClientRect().width;
  const action = button.dataset.svgZoom;
  let width = null;
  if (action === 'actual') width = natural;
  else if (action === 'in') width = svg.getBoundingClientRect().width * 1.25;
  else if (action === 'out') width = svg.getBoundingClientRect().width * 0.8;
  svg.style.width = width === null ? '100%' : width + 'px';
  svg.style.maxWidth = width === null ? (viewer.dataset.width > 0 ? natural + 'px' : '100%') : 'none';
  viewer.dataset.zoom = width === null ? 'fit' : String(Math.round(100 * width / natural));
  const level = viewer.querySelector('.svg-zoom-level');
  if (level) level.textContent = width === null ? 'fitted' : viewer.dataset.zoom + ' %';
});
"""

_OPEN_TAG = re.compile(r"<svg\b[^>]*>")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_WIDTH = re.compile(r"""\swidth\s*=\s*(["'])\s*([0-9.eE+-]+)\s*(pt|px)?\s*\1""")
_SIZES = re.compile(r"""\s(?:width|height)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)""")
_STYLE = re.compile(r"""\sstyle\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_BUTTON = (
    "<button type='button' data-svg-zoom='{action}' title='{title}' "
    "style='padding:2px 10px;border:1px solid #bdbdbd;border-radius:4px;background:#fafafa;cursor:pointer'>"
    "{text}</button>"
)


def _length(value: str) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[0-9.]+(px|pt|em|rem|vh|vw|%)", value.strip()):
        raise InputError(f"max_height: expected a CSS length such as 80vh or 600px, got {value!r}")
    return value.strip()


def svg_viewer(svg: str, *, filename: str = "picture.svg", max_height: str = "80vh") -> str:
    """The picture in a viewer (see the module docs): HTML to put in a page.

    Args:
        svg: the SVG text (an XML declaration and doctype before ``<svg`` are dropped from the page
            and kept in the download).
        filename: the name the download gets.
        max_height: the height of the box beyond which it scrolls (a CSS length).

    The SVG is put in the page as it is: it must be trusted, as amreval's own pictures are (Graphviz escapes
    every label). The file name and the height are escaped.

    Raises:
        InputError: ``svg`` is not text, or ``max_height`` is not a CSS length.
    """
    if not isinstance(svg, str):
        raise InputError(f"svg_viewer: expected the SVG as text, got {type(svg).__name__}")
    tag = _OPEN_TAG.search(_COMMENT.sub(lambda m: " " * len(m.group(0)), svg))  # a <svg inside a comment is not it
    natural = 0.0
    shown = svg
    if tag:
        shown = svg[tag.start() :]
        opening = svg[tag.start() : tag.end()]
        width = _WIDTH.search(opening)
        if width:
            try:
                value = float(width.group(2))
                natural = value * 4 / 3 if width.group(3) == "pt" else value  # 1 pt = 4/3 CSS px
            except ValueError:
                natural = 0.0
            if not (0 < natural < 1e7):  # a width that is not a length in pt or px: fitted to the box
                natural = 0.0
        own_style = _STYLE.search(opening)
        own = (own_style.group(1) or own_style.group(2) or "") if own_style else ""
        kept = own.strip().rstrip(";") + ";" if own.strip() else ""
        fitted = f"max-width:{natural:g}px" if natural else "max-width:100%"  # fitted, never enlarged
        bare = _STYLE.sub("", _SIZES.sub("", opening))
        opened = bare.replace(
            "<svg", f'<svg width="100%" style="{html.escape(kept, quote=True)}{fitted};height:auto"', 1
        )
        shown = opened + shown[len(opening) :]
    data = base64.b64encode(svg.encode("utf-8", "replace")).decode("ascii")
    buttons = "".join(
        _BUTTON.format(action=action, title=title, text=text)
        for action, title, text in (
            ("fit", "fit the picture to the width", "Fit width"),
            ("out", "zoom out", "&minus;"),
            ("in", "zoom in", "+"),
            ("actual", "actual size", "100 %"),
        )
    )
    return (
        f'<div class="svg-viewer" data-width="{natural:g}" data-zoom="fit">'
        "<div class='svg-tools' role='toolbar' style='display:flex;gap:6px;align-items:center;margin:4px 0'>"
        f"{buttons}<span class='svg-zoom-level' style='min-width:4em;color:#616161'>fitted</span>"
        f"<a class='svg-download' download='{html.escape(filename, quote=True)}' "
        f"href='data:image/svg+xml;base64,{data}'>Download SVG</a></div>"
        f"<div class='svg-box' style='overflow:auto;max-height:{_length(max_height)}'>{shown}</div>"
        "</div>"
    )
