"""Reports of a comparison: the text table, the CSV of items, the SVG picture."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET

from amreval.report.comparison import comparison_svg, differences_svg, items_csv, summary_text
from amreval.scores.compare import compare_counts
from amreval.scores.f1 import prf

A3 = [[3, 4, 4], [5, 5, 6], [2, 4, 3]]
B3 = [[2, 4, 4], [5, 6, 6], [1, 4, 3]]
SVG = "{http://www.w3.org/2000/svg}"


def two():
    return compare_counts({"one": A3, "two": B3}, ids=["x<1", "y", "z"])


def test_summary_text_of_two_systems():
    text = summary_text(two())
    lines = text.splitlines()
    assert lines[0] == (
        "F1 of 3 items; permutation test (two-sided, exact, all 8 swaps, seed 0); intervals: paired bootstrap"
    )
    assert lines[3].split()[:3] == ["1", "one", "0.7692"] and lines[4].split()[:3] == ["2", "two", "0.5926"]
    # 20/26 - 16/27 = 0.1766; 2 of the 8 swaps reach it
    assert lines[6].startswith("one - two: F1 difference +0.1766, 95% CI [") and lines[6].endswith("p = 0.2500")
    # each item's F alone: z 4/7 against 2/7, x 3/4 against 1/2, y 10/11 against 10/12
    assert lines[-4:] == [
        "item  id      one     two  difference",
        "   3  z    0.5714  0.2857     +0.2857",
        "   1  x<1  0.7500  0.5000     +0.2500",
        "   2  y    0.9091  0.8333     +0.0758",
    ]
    assert "Items that differ most" not in summary_text(two(), top=0)
    assert summary_text(two(), top=1).splitlines()[-1].startswith("   3  z")


def test_summary_text_of_three_systems_has_the_holm_table():
    cmp = compare_counts({"one": A3, "two": B3, "three": A3}, n_resamples=100)
    lines = summary_text(cmp, top=0).splitlines()
    # p-values 1/4, 1, 1/4: Holm 3/4, 1, 3/4
    assert "one - two: F1 difference +0.1766" in lines[7] and lines[7].endswith("p = 0.2500 (Holm 0.7500)")
    assert lines[-5:] == [
        "Pairwise p-values, Holm-corrected over all pairs:",
        "          one   three     two",
        "one         -  1.0000  0.7500",
        "three  1.0000       -  0.7500",
        "two    0.7500  0.7500       -",
    ]


def test_items_csv():
    rows = list(csv.reader(io.StringIO(items_csv(two()))))
    assert rows[0] == [
        "position",
        "id",
        "one",
        "two",
        "difference",
        "one_match",
        "one_test",
        "one_gold",
        "two_match",
        "two_test",
        "two_gold",
    ]
    assert [r[:2] for r in rows[1:]] == [["3", "z"], ["1", "x<1"], ["2", "y"]]
    assert rows[2][2:] == ["0.75", "0.5", "0.25", "3", "4", "4", "2", "4", "4"]
    z = prf(2, 4, 3)[2], prf(1, 4, 3)[2]
    assert [float(x) for x in rows[1][2:5]] == [z[0], z[1], z[0] - z[1]]
    # the other way round
    assert list(csv.reader(io.StringIO(items_csv(two(), "two", "one"))))[1][4] == repr(z[1] - z[0])


def test_picture_bars_and_interval():
    svg = differences_svg(
        ["a", "b", "c&d"],
        [0.5, 1.0, 0.3],
        [0.7, 0.6, 0.3],
        names=("P<", "Q"),
        difference=0.1,
        interval=(-0.1, 0.3),
        p_value=0.25,
    )
    root = ET.fromstring(svg)  # well-formed, names escaped
    bars = root.findall(f".//{SVG}rect[@class='item']")
    # item c is alike: no bar; bars sorted by difference: a (-0.2), then b (+0.4)
    assert [b.find(f"{SVG}title").text for b in bars] == [
        "a: P< 0.5000, Q 0.7000, difference -0.2000",
        "b: P< 1.0000, Q 0.6000, difference +0.4000",
    ]
    # the scale spans +-0.4 over 234 px: 292.5 px per unit around y = 175
    assert [(b.get("y"), b.get("height"), b.get("fill")) for b in bars] == [
        ("175.000", "58.500", "#d62728"),
        ("58.000", "117.000", "#1f77b4"),
    ]
    assert root.find(f".//{SVG}line[@class='corpus']").get("y1") == "145.75"
    # the lower axis runs from -0.14 to 0.34 over 666 px from x = 70
    interval = root.find(f".//{SVG}line[@class='interval']")
    assert (interval.get("x1"), interval.get("x2")) == ("125.50", "680.50")
    assert root.find(f".//{SVG}line[@class='zero']").get("x1") == "264.25"
    assert root.find(f".//{SVG}circle[@class='difference']").get("cx") == "403.00"
    text = "".join(root.itertext())
    assert "P< higher on 1, Q higher on 1, equal on 1" in text
    assert "difference +0.1000, 95% interval [-0.1000, +0.3000], p = 0.25" in text


def test_comparison_svg_draws_the_test():
    cmp = two()
    t = cmp.test()
    root = ET.fromstring(comparison_svg(cmp))
    assert len(root.findall(f".//{SVG}rect[@class='item']")) == 3
    assert f"difference {t.difference:+.4f}, 95% interval [{t.ci_low:+.4f}, {t.ci_high:+.4f}]" in "".join(
        root.itertext()
    )
