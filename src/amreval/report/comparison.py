"""Reports of a comparison of systems: text, CSV and an SVG picture (``amreval compare`` prints them).

Everything here lays out a :class:`~amreval.scores.comparison_results.Comparison`
(or plain numbers, for the picture); every number is computed in
:mod:`amreval.scores.compare`. The picture is plain SVG text: no extra needed.

Example:
    >>> svg = differences_svg(["s1", "s2", "s3"], [0.5, 1.0, 0.8], [0.7, 0.6, 0.8], names=("A", "B"),
    ...                       difference=0.0667, interval=(-0.2, 0.3), p_value=0.5)
    >>> svg.startswith("<svg") and svg.count('class="item') == 2
    True
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from html import escape

from amreval.errors import InputError
from amreval.scores.comparison_results import Comparison, PairedTest
from amreval.scores.corpus_statistics import PRF_COLUMNS
from amreval.scores.f1 import UNDEFINED_TEXT, score_text
from amreval.scores.text import plural

__all__ = [
    "summary_text",
    "test_runs",
    "items_csv",
    "differences_svg",
    "comparison_svg",
]

_LABELS = {"smatch": "Smatch", "s2match": "S²match", "docsmatch": "DocSmatch", "mfbeta": "MFβ"}
_STAT_LABELS = {"f1": "F1", "precision": "precision", "recall": "recall"}


def _label(score: str) -> str:
    return _LABELS.get(score, score)


def _stat_label(statistic: str) -> str:
    return _STAT_LABELS.get(statistic) or _LABELS.get(statistic) or statistic


def _num(value: float | None, digits: int) -> str:
    return score_text(value, digits)


def _signed(value: float | None, digits: int) -> str:
    return score_text(value, digits, signed=True)


def _p(value: float | None, digits: int) -> str:
    """A p-value to ``digits`` places, or ``< 10^-digits`` when it rounds to zero (``n/a`` when there
    was nothing to test)."""
    if value is None:
        return UNDEFINED_TEXT
    if value < 0.5 * 10**-digits:
        return f"< {10**-digits:.{digits}f}"
    return f"{value:.{digits}f}"


def _interval(low: float | None, high: float | None, digits: int, *, signed: bool = True) -> str:
    """``[low, high]``, or ``n/a`` for the interval of an undefined score."""
    if low is None or high is None:
        return UNDEFINED_TEXT
    if signed:
        return f"[{_signed(low, digits)}, {_signed(high, digits)}]"
    return f"[{_num(low, digits)}, {_num(high, digits)}]"


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(r[j]) for r in rows) for j in range(len(rows[0]))]
    return [
        "  ".join(cell.rjust(widths[j]) if j in right else cell.ljust(widths[j]) for j, cell in enumerate(r)).rstrip()
        for r in rows
    ]


def _test_line(t: PairedTest, digits: int, statistic: str) -> str:
    pct = f"{100 * t.confidence:g}%"
    p = f"p = {_p(t.p_value, digits)}"
    if t.p_holm is not None:
        p += f" (Holm {_p(t.p_holm, digits)})"
    if t.difference is None:
        return f"{t.a} - {t.b}: {statistic} difference {UNDEFINED_TEXT} (nothing to score on a side), {p}"
    return (
        f"{t.a} - {t.b}: {statistic} difference {_signed(t.difference, digits)}, {pct} CI "
        f"[{_signed(t.ci_low, digits)}, {_signed(t.ci_high, digits)}], {p}"
    )


def test_runs(t: PairedTest, n_items: int) -> str:
    """What a paired test ran: ``10000 resamples``, or for an exact permutation test ``exact, all 8 swaps`` (every
    swap pattern of the items enumerated: the resample count was only a ceiling)."""
    return f"exact, all {2**n_items} swaps" if t.exact else f"{t.n_resamples} resamples"


def summary_text(cmp: Comparison, *, top: int = 10, digits: int = 4) -> str:
    """The comparison as the command line prints it: systems ranked, tests, breakdown, items that differ most."""
    stat = _stat_label(cmp.statistic)
    first = cmp.tests[0]
    runs = test_runs(first, cmp.n_items)
    what = stat if cmp.score == cmp.statistic else f"{_label(cmp.score)} {stat}"
    lines = [
        f"{what} of {plural(cmp.n_items, 'item')}; {first.test} test ({first.alternative}, "
        f"{runs}, seed {first.seed}); intervals: paired bootstrap",
        "",
    ]
    pct = f"{100 * first.confidence:g}% CI"
    rows = [["rank", "system", stat, pct]]
    for rank, name in enumerate(cmp.ranking(), start=1):
        lo, hi = cmp.intervals[name]
        rows.append([str(rank), name, _num(cmp.scores[name], digits), _interval(lo, hi, digits, signed=False)])
    lines += _table(rows, {0, 2})
    lines.append("")
    lines += [_test_line(t, digits, stat) for t in cmp.tests]
    if len(cmp.names) > 2:
        ranked = cmp.ranking()
        lines += ["", "Pairwise p-values, Holm-corrected over all pairs:"]
        grid = [["", *ranked]]
        for a in ranked:
            row = [a]
            for b in ranked:
                t = _find(cmp, a, b)
                row.append("-" if t is None else _p(t.p_holm if t.p_holm is not None else t.p_value, digits))
            grid.append(row)
        lines += _table(grid, set(range(1, len(ranked) + 1)))
    if cmp.breakdown:
        a, b = cmp.names[0], cmp.names[1]
        lines += ["", f"Breakdown ({stat}, {a} - {b}):"]
        rows = [["score", a, b, "difference", pct, "p"]]
        for t in cmp.breakdown:
            rows.append(
                [
                    t.score,
                    _num(t.score_a, digits),
                    _num(t.score_b, digits),
                    _signed(t.difference, digits),
                    _interval(t.ci_low, t.ci_high, digits),
                    _p(t.p_value, digits),
                ]
            )
        lines += _table(rows, {1, 2, 3, 5})
    if top > 0:
        a, b = cmp.names[0], cmp.names[1]
        rows = [["item", "id", a, b, "difference"]]
        for d in cmp.differences(a, b)[:top]:
            rows.append(
                [
                    str(d.number),
                    d.id,
                    _num(d.score_a, digits),
                    _num(d.score_b, digits),
                    _signed(d.difference, digits),
                ]
            )
        lines += ["", f"Items that differ most ({stat} of each item alone, {a} - {b}):"]
        lines += _table(rows, {0, 2, 3, 4})
    return "\n".join(lines) + "\n"


def _find(cmp: Comparison, a: str, b: str) -> PairedTest | None:
    for t in cmp.tests:
        if {t.a, t.b} == {a, b} and a != b:
            return t
    return None


def items_csv(cmp: Comparison, a: str | None = None, b: str | None = None) -> str:
    """Every item as CSV, the largest differences first: position (from 1, as every printed item number),
    id, both scores, difference (``n/a`` where an item has nothing to score), and both systems' counts."""
    a = a if a is not None else cmp.names[0]
    b = b if b is not None else cmp.names[1]
    names: Sequence[str] = PRF_COLUMNS
    if cmp.counts[a].shape[1] != len(PRF_COLUMNS):
        from amreval.mfbeta.counts import MF_COLUMNS

        names = MF_COLUMNS
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["position", "id", a, b, "difference", *(f"{a}_{c}" for c in names), *(f"{b}_{c}" for c in names)])
    for d in cmp.differences(a, b):
        writer.writerow(
            [
                d.number,
                d.id,
                _csv_score(d.score_a),
                _csv_score(d.score_b),
                _csv_score(d.difference),
                *(_count(x) for x in cmp.counts[a][d.index]),
                *(_count(x) for x in cmp.counts[b][d.index]),
            ]
        )
    return out.getvalue()


def _csv_score(x: float | None) -> str:
    return UNDEFINED_TEXT if x is None else repr(x)


def _count(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


# --------------------------------------------------------------------------- the picture

_W, _H = 760, 440
_LEFT, _RIGHT = 70, 24
_TOP, _BOTTOM = 58, 292  # the items' panel
_CI_Y = 372  # the corpus difference's axis
_BLUE, _RED, _GREY = "#1f77b4", "#d62728", "#555555"


def _fmt(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".") if abs(x) >= 0.01 else f"{x:.4f}".rstrip("0").rstrip(".")


def differences_svg(
    ids: Sequence[str],
    scores_a: Sequence[float],
    scores_b: Sequence[float],
    *,
    names: tuple[str, str] = ("A", "B"),
    difference: float,
    interval: tuple[float, float],
    p_value: float | None = None,
    statistic: str = "F1",
    confidence: float = 0.95,
) -> str:
    """An SVG picture of per-item score differences, sorted, above the corpus difference and its interval.

    Each item is a bar from zero to ``scores_a - scores_b`` (blue where A
    scores higher, red where B does; its tooltip names the item and both
    scores), items sorted by difference; a dashed line marks the corpus
    difference on the same scale. Below, on a scale of its own, the corpus
    difference with its interval and the line of no difference.

    Args:
        ids, scores_a, scores_b: per item, its id and each system's own score.
        difference, interval: the corpus-level difference and its interval.
        p_value: printed under the interval when given.
    """
    n = len(ids)
    diffs = [float(x) - float(y) for x, y in zip(scores_a, scores_b)]
    order = sorted(range(n), key=lambda k: (diffs[k], k))
    span = max([abs(d) for d in diffs] + [abs(difference), 1e-12])
    span = math.ceil(span * 20) / 20 if span > 0.05 else span * 1.1
    mid = (_TOP + _BOTTOM) / 2
    scale = (_BOTTOM - _TOP) / 2 / span
    width = (_W - _LEFT - _RIGHT) / max(n, 1)
    a, b = (escape(x) for x in names)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{_H}" viewBox="0 0 {_W} {_H}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{_W}" height="{_H}" fill="white"/>',
        f'<text x="{_W / 2}" y="22" text-anchor="middle" font-size="15">{a} − {b}: per-item {escape(statistic)} '
        f"differences, sorted ({plural(n, 'item')})</text>",
    ]
    better_a = sum(d > 0 for d in diffs)
    better_b = sum(d < 0 for d in diffs)
    out.append(
        f'<text x="{_W / 2}" y="42" text-anchor="middle" fill="{_GREY}">'
        f'<tspan fill="{_BLUE}">{a} higher on {better_a}</tspan>, <tspan fill="{_RED}">{b} higher on {better_b}'
        f"</tspan>, equal on {n - better_a - better_b}</text>"
    )
    # axis of the items' panel
    for value in (-span, 0.0, span):
        y = mid - value * scale
        out.append(f'<line x1="{_LEFT}" x2="{_W - _RIGHT}" y1="{y:.2f}" y2="{y:.2f}" stroke="#dddddd"/>')
        out.append(f'<text x="{_LEFT - 6}" y="{y + 4:.2f}" text-anchor="end">{_fmt(value)}</text>')
    out.append(f'<line x1="{_LEFT}" x2="{_W - _RIGHT}" y1="{mid}" y2="{mid}" stroke="{_GREY}"/>')
    for slot, k in enumerate(order):
        d = diffs[k]
        if d == 0:
            continue
        x = _LEFT + slot * width
        y = mid - max(d, 0.0) * scale
        colour = _BLUE if d > 0 else _RED
        title = (
            f"{escape(str(ids[k]))}: {a} {float(scores_a[k]):.4f}, {b} {float(scores_b[k]):.4f}, difference {d:+.4f}"
        )
        out.append(
            f'<rect class="item" x="{x:.3f}" y="{y:.3f}" width="{max(width, 0.5):.3f}" height="{abs(d) * scale:.3f}" '
            f'fill="{colour}"><title>{title}</title></rect>'
        )
    y = mid - difference * scale
    out.append(
        f'<line class="corpus" x1="{_LEFT}" x2="{_W - _RIGHT}" y1="{y:.2f}" y2="{y:.2f}" stroke="black" '
        f'stroke-dasharray="5,3"/>'
    )
    out.append(
        f'<text x="{_LEFT}" y="{_BOTTOM + 18}" fill="{_GREY}">items, sorted by difference (hover a bar for its id '
        f"and scores); dashed: the corpus difference, {difference:+.4f}</text>"
    )
    # the corpus difference and its interval, on a scale of its own
    lo, hi = float(interval[0]), float(interval[1])
    left = min(lo, difference, 0.0)
    right = max(hi, difference, 0.0)
    pad = (right - left) * 0.1 or 1e-4
    left, right = left - pad, right + pad

    def x_of(v: float) -> float:
        return _LEFT + (v - left) / (right - left) * (_W - _LEFT - _RIGHT)

    pct = f"{100 * confidence:g}%"
    out.append(
        f'<text x="{_W / 2}" y="{_CI_Y - 30}" text-anchor="middle">corpus {escape(statistic)} difference '
        f"{a} − {b} with its {pct} interval</text>"
    )
    out.append(f'<line x1="{_LEFT}" x2="{_W - _RIGHT}" y1="{_CI_Y + 16}" y2="{_CI_Y + 16}" stroke="{_GREY}"/>')
    x0 = x_of(0.0)
    out.append(
        f'<line class="zero" x1="{x0:.2f}" x2="{x0:.2f}" y1="{_CI_Y - 18}" y2="{_CI_Y + 20}" stroke="{_GREY}" '
        f'stroke-dasharray="2,2"/>'
    )
    out.append(f'<text x="{x0:.2f}" y="{_CI_Y + 32}" text-anchor="middle" fill="{_GREY}">0</text>')
    xl, xh, xd = x_of(lo), x_of(hi), x_of(difference)
    out.append(
        f'<line class="interval" x1="{xl:.2f}" x2="{xh:.2f}" y1="{_CI_Y}" y2="{_CI_Y}" stroke="black" '
        f'stroke-width="2"/>'
    )
    for xe, value in ((xl, lo), (xh, hi)):
        out.append(f'<line x1="{xe:.2f}" x2="{xe:.2f}" y1="{_CI_Y - 7}" y2="{_CI_Y + 7}" stroke="black"/>')
        out.append(f'<text x="{xe:.2f}" y="{_CI_Y - 11}" text-anchor="middle">{value:+.4f}</text>')
    out.append(f'<circle class="difference" cx="{xd:.2f}" cy="{_CI_Y}" r="4.5" fill="black"/>')
    note = f"difference {difference:+.4f}, {pct} interval [{lo:+.4f}, {hi:+.4f}]"
    if p_value is not None:
        note += f", p = {p_value:.4g}"
    out.append(f'<text x="{_W / 2}" y="{_CI_Y + 52}" text-anchor="middle">{note}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def comparison_svg(cmp: Comparison, a: str | None = None, b: str | None = None) -> str:
    """:func:`differences_svg` of two systems of a comparison (default: the first two)."""
    a = a if a is not None else cmp.names[0]
    b = b if b is not None else cmp.names[1]
    t = cmp.test(a, b)
    if t.difference is None or t.ci_low is None or t.ci_high is None:
        raise InputError(f"{cmp.score} {cmp.statistic}: nothing to score for {a} or {b}, so no difference to draw")
    # items with nothing to score on a side have no difference to draw
    kept = [
        k for k in range(cmp.n_items) if not (math.isnan(cmp.item_scores[a][k]) or math.isnan(cmp.item_scores[b][k]))
    ]
    return differences_svg(
        [cmp.ids[k] for k in kept],
        [float(cmp.item_scores[a][k]) for k in kept],
        [float(cmp.item_scores[b][k]) for k in kept],
        names=(a, b),
        difference=t.difference,
        interval=(t.ci_low, t.ci_high),
        p_value=t.p_value,
        statistic=_stat_label(cmp.statistic),
        confidence=t.confidence,
    )
