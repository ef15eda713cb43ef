"""The SVG viewer of the Space apps: fitted to the width, zoom buttons, an SVG download (no browser needed)."""

from __future__ import annotations

import base64
import re

from amreval.report.viewer import VIEWER_JS, svg_viewer

GRAPHVIZ_LIKE = (
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
    '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n'
    '<svg width="6713pt" height="512pt"\n viewBox="0.00 0.00 6713.00 512.00" xmlns="http://www.w3.org/2000/svg">\n'
    '<g id="graph0" class="graph"><text x="10" y="20">sentence 1 &amp; 2</text></g>\n</svg>\n'
)


def test_fitted_with_its_natural_size_kept():
    page = svg_viewer(GRAPHVIZ_LIKE, filename="alignment-doc_1.svg")
    # 6713 pt are 6713 * 4 / 3 = 8950.67 CSS pixels, what "100 %" restores
    assert 'data-width="8950.67"' in page and 'data-zoom="fit"' in page
    opening = re.search(r"<svg\b[^>]*>", page).group(0)
    assert opening.startswith('<svg width="100%" style="max-width:8950.67px;height:auto"')  # never enlarged
    assert "6713pt" not in opening and "512pt" not in opening and 'viewBox="0.00 0.00 6713.00 512.00"' in opening
    assert "<?xml" not in page.split("href=")[0] and "<!DOCTYPE" not in page
    assert "sentence 1 &amp; 2" in page


def test_buttons_and_a_download_of_the_svg_as_given():
    page = svg_viewer(GRAPHVIZ_LIKE, filename="a'b.svg")
    assert [m for m in re.findall(r"data-svg-zoom='(\w+)'", page)] == ["fit", "out", "in", "actual"]
    assert "download='a&#x27;b.svg'" in page
    data = re.search(r"href='data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)'", page).group(1)
    assert base64.b64decode(data).decode("utf-8") == GRAPHVIZ_LIKE
    # the page holds no script: the buttons act through the handler run once by the page
    assert "<script" not in page and "onclick" not in page
    assert "element.addEventListener('click'" in VIEWER_JS and "data-svg-zoom" in VIEWER_JS


def test_an_svg_without_a_size_is_shown_as_it_is():
    page = svg_viewer('<svg viewBox="0 0 10 10"><g/></svg>')
    assert 'data-width="0"' in page and "download='picture.svg'" in page
    assert '<svg width="100%" style="max-width:100%;height:auto"' in page


def test_odd_svg_openings_give_one_width_and_keep_their_style():
    import pytest

    from amreval.errors import InputError

    cases = {
        # a commented-out <svg is not the picture
        '<!-- <svg width="1"> --><svg width="300pt" viewBox="0 0 300 10"><g/></svg>': "400",
        "<svg width='150px' height='20px' style='background:red'><g/></svg>": "150",
        '<svg width="50%" height="3em"><g/></svg>': "0",
        '<svg width="1.2.3" style="color:blue;"><g/></svg>': "0",
        '<svg width = "30em"><g/></svg>': "0",
        '<svg width="' + "9" * 400 + '"><g/></svg>': "0",
    }
    for svg, natural in cases.items():
        page = svg_viewer(svg)
        opening = re.search(r"<svg\b[^>]*>", page[page.index("class='svg-box'") :]).group(0)
        names = re.findall(r"\s([a-zA-Z-]+)\s*=", opening)
        assert names.count("width") == 1 and names.count("style") == 1 and "height" not in names, opening
        assert f'data-width="{natural}"' in page, (svg, page[:80])
    kept = svg_viewer("<svg width='150px' style='background:red'><g/></svg>")
    assert 'style="background:red;max-width:150px;height:auto"' in kept
    with pytest.raises(InputError, match="expected the SVG as text"):
        svg_viewer(b"<svg/>")
    with pytest.raises(InputError, match="max_height: expected a CSS length"):
        svg_viewer("<svg/>", max_height="1px;background:url(x)")
