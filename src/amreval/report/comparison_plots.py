"""Pictures of a comparison of several systems: the matrix of pairwise tests and the breakdown by score part.

Both are plain SVG text (no extra needed), like :func:`amreval.report.comparison.differences_svg`, and lay out
a :class:`~amreval.scores.comparison_results.Comparison`: every number is computed in
:mod:`amreval.scores.compare`. The comparison Space shows them; ``amreval compare`` prints the same numbers.

Example:
    >>> from amreval.scores.compare import compare_counts
    >>> cmp = compare_counts({"A": [[3, 4, 4], [5, 5, 6]], "B": [[2, 4, 4], [5, 6, 6]], "C": [[1, 4, 4], [4, 6, 6]]},
    ...                      n_resamples=100)
    >>> svg = pairwise_svg(cmp)
    >>> svg.startswith("<svg") and svg.count('class="cell"') == 6
    True
"""

from __future__ import annotations

from html import escape

from amreval.scores.comparison_results import Comparison, PairedTest
from amreval.scores.text import plural

__all__ = ["pairwise_svg", "breakdown_svg", "pair_test", "shown_p"]

_BLUE, _RED, _GREY = "#1f77b4", "#d62728", "#555555"
_COLOURS = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
    "#d62728",
)


def pair_test(cmp: Comparison, a: str, b: str) -> tuple[PairedTest, float] | None:
    """The test of ``a`` against ``b`` and the sign that makes its difference ``a - b`` (tests are of earlier
    against later systems), or None when ``a`` is ``b``."""
    for t in cmp.tests:
        if (t.a, t.b) == (a, b):
            return t, 1.0
        if (t.a, t.b) == (b, a):
            return t, -1.0
    return None


def shown_p(t: PairedTest) -> float | None:
    """The p-value a matrix shows: Holm's (corrected over all pairs) when there are more than two systems;
    None where the test is undefined (a score with nothing to score)."""
    return t.p_holm if t.p_holm is not None else t.p_value


def _cell_colour(difference: float, p: float, level: float) -> str:
    """Blue where the row's system scores higher, red where lower; strong when ``p < level``, pale otherwise."""
    if difference == 0:
        return "#eeeeee"
    if p < level:
        return "#9ecae1" if difference > 0 else "#fcae91"
    return "#deebf7" if difference > 0 else "#fee5d9"


def pairwise_svg(cmp: Comparison, *, level: float = 0.05, digits: int = 4) -> str:
    """The matrix of pairwise tests as SVG: systems ranked down the rows and across the columns; each cell
    the row's score minus the column's, and the p-value (Holm-corrected with more than two systems), blue
    where the row scores higher and red where lower, strong where ``p < level``. Each cell's tooltip gives
    the interval of the difference."""
    ranked = cmp.ranking()
    n = len(ranked)
    cell_w, cell_h = 118, 46
    left = 20 + 8 * max(len(name) for name in ranked)
    top = 90
    width = max(left + n * cell_w + 20, 520)  # room for the lines of text
    height = top + n * cell_h + 60
    holm = n > 2
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">Pairwise paired tests '
        f"({escape(cmp.tests[0].test)}), row − column</text>",
        f'<text x="{width / 2}" y="38" text-anchor="middle" fill="{_GREY}">p-values '
        f"{'Holm-corrected over all pairs' if holm else '(two systems)'}; strong colour: p &lt; {level:g}</text>",
    ]
    for j, name in enumerate(ranked):
        x = left + j * cell_w + cell_w / 2
        out.append(f'<text x="{x}" y="{top - 10}" text-anchor="middle" font-weight="bold">{escape(name)}</text>')
    for i, a in enumerate(ranked):
        y = top + i * cell_h
        out.append(
            f'<text x="{left - 8}" y="{y + cell_h / 2 + 4}" text-anchor="end" font-weight="bold">{escape(a)}</text>'
        )
        for j, b in enumerate(ranked):
            x = left + j * cell_w
            found = pair_test(cmp, a, b)
            if found is None:
                out.append(f'<rect x="{x}" y="{y}" width="{cell_w}" height="{cell_h}" fill="#f7f7f7" stroke="white"/>')
                continue
            t, sign = found
            p = shown_p(t)
            if t.difference is None or t.ci_low is None or t.ci_high is None or p is None or t.p_value is None:
                out.append(
                    f'<g class="cell" data-a="{escape(a)}" data-b="{escape(b)}"><title>{escape(a)} − {escape(b)}: '
                    f'n/a (nothing to score)</title><rect x="{x}" y="{y}" width="{cell_w}" height="{cell_h}" '
                    f'fill="#f7f7f7" stroke="white"/><text x="{x + cell_w / 2}" y="{y + 27}" text-anchor="middle" '
                    f'fill="{_GREY}">n/a</text></g>'
                )
                continue
            d = sign * t.difference
            low, high = sorted((sign * t.ci_low, sign * t.ci_high))
            title = (
                f"{escape(a)} − {escape(b)}: {d:+.{digits}f}, {100 * t.confidence:g}% interval "
                f"[{low:+.{digits}f}, {high:+.{digits}f}], p = {t.p_value:.{digits}g}"
                + (f", Holm {p:.{digits}g}" if holm else "")
            )
            out.append(
                f'<g class="cell" data-a="{escape(a)}" data-b="{escape(b)}"><title>{title}</title>'
                f'<rect x="{x}" y="{y}" width="{cell_w}" height="{cell_h}" fill="{_cell_colour(d, p, level)}" '
                'stroke="white"/>'
                f'<text x="{x + cell_w / 2}" y="{y + 19}" text-anchor="middle">{d:+.{digits}f}</text>'
                f'<text x="{x + cell_w / 2}" y="{y + 36}" text-anchor="middle" fill="{_GREY}">p {p:.{digits}f}</text>'
                "</g>"
            )
    out.append(
        f'<text x="{left}" y="{top + n * cell_h + 24}" fill="{_GREY}">{escape(cmp.score)} {escape(cmp.statistic)}, '
        f"{plural(cmp.n_items, 'item')}; hover a cell for the interval of its difference</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def breakdown_svg(cmp: Comparison, *, digits: int = 4) -> str:
    """The breakdown of the first two systems as SVG bars: per score part, both systems' scores side by side,
    with the difference, its interval and p beside them (a starred p is below 0.05); an empty string when the
    score has no parts (Smatch, S²match)."""
    rows = cmp.breakdown
    if not rows:
        return ""
    a, b = cmp.names[0], cmp.names[1]
    label_w = 20 + 7 * max(len(t.score) for t in rows)
    bar_w = 300
    row_h = 40
    top = 64
    width = label_w + bar_w + 300
    height = top + len(rows) * row_h + 30
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">Breakdown by part '
        f"({escape(cmp.statistic)}): {escape(a)} and {escape(b)}</text>",
        f'<rect x="{label_w}" y="32" width="12" height="12" fill="{_COLOURS[0]}"/>'
        f'<text x="{label_w + 16}" y="42">{escape(a)}</text>'
        f'<rect x="{label_w + 120}" y="32" width="12" height="12" fill="{_COLOURS[1]}"/>'
        f'<text x="{label_w + 136}" y="42">{escape(b)}</text>',
    ]
    for k, t in enumerate(rows):
        y = top + k * row_h
        out.append(f'<g class="part" data-part="{escape(t.score)}">')
        out.append(f'<text x="{label_w - 8}" y="{y + 20}" text-anchor="end">{escape(t.score)}</text>')
        for slot, (value, colour) in enumerate(((t.score_a, _COLOURS[0]), (t.score_b, _COLOURS[1]))):
            w = 0.0 if value is None else max(0.0, min(1.0, value)) * bar_w
            shown = "n/a" if value is None else f"{value:.{digits}f}"
            out.append(
                f'<rect x="{label_w}" y="{y + 4 + slot * 15}" width="{w:.2f}" height="13" fill="{colour}">'
                f"<title>{escape(t.score)}: {escape((a, b)[slot])} {shown}</title></rect>"
            )
            out.append(f'<text x="{label_w + w + 4:.2f}" y="{y + 15 + slot * 15}">{shown}</text>')
        if t.difference is None or t.ci_low is None or t.ci_high is None or t.p_value is None:
            tested = "n/a (nothing to score)"
        else:
            star = "*" if t.p_value < 0.05 else ""
            tested = (
                f"{t.difference:+.{digits}f} [{t.ci_low:+.{digits}f}, {t.ci_high:+.{digits}f}] "
                f"p {t.p_value:.{digits}f}{star}"
            )
        out.append(f'<text x="{label_w + bar_w + 70}" y="{y + 20}">{tested}</text>')
        out.append("</g>")
    out.append(
        f'<text x="{label_w}" y="{height - 10}" fill="{_GREY}">right: {escape(a)} − {escape(b)}, its '
        f"{100 * rows[0].confidence:g}% interval and p ({escape(rows[0].test)} test)</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"
