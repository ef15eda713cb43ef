"""``amreval compare``: is one system better than another? Paired tests over items, intervals, the
per-item report.

Each system's file is scored once against the gold file (:func:`~amreval.scores.compare.compare_systems`,
or :func:`~amreval.mfbeta.counts.compare_mfbeta_systems` for MFβ's parts); with several systems, a ranking
with Holm-corrected pairwise p-values.

Example:
    amreval compare -f parser_a.amr parser_b.amr --gold gold.amr --csv items.csv
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from amreval.cli.options import (
    Systems,
    add_progress,
    add_search,
    add_standardize,
    beta,
    integer,
    level,
    system_names,
    tolerance,
)
from amreval.cli.output import standardize_keyword
from amreval.errors import InputError

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``amreval compare`` (their choices come from the scores' modules)."""
    from amreval.mfbeta.counts import MF_PARTS
    from amreval.scores.compare import SCORES
    from amreval.scores.corpus_statistics import STATISTICS
    from amreval.scores.paired_tests import ALTERNATIVES, DEFAULT_RESAMPLES, TESTS

    scores = (*SCORES, *MF_PARTS)
    p.description = (
        "Score each system's file once against the gold file, then test the difference of the corpus scores "
        "with a paired permutation or bootstrap test over items (sentences or documents), with intervals; with "
        "several systems, a ranking with Holm-corrected pairwise p-values."
    )

    p.add_argument(
        "-f",
        nargs="+",
        required=True,
        action=Systems,
        metavar="SYSTEM",
        help="one PENMAN file per system (at least two), graphs paired by position with --gold",
    )
    p.add_argument("--gold", required=True, metavar="GOLD", help="the gold PENMAN file")
    p.add_argument(
        "--names", nargs="+", metavar="NAME", help="the systems' names (default: the file names up to the first dot)"
    )
    p.add_argument(
        "--score",
        choices=scores,
        default="smatch",
        metavar="SCORE",
        help="what to compare (default smatch): " + ", ".join(scores),
    )
    p.add_argument("--statistic", choices=STATISTICS, default="f1", help="of the score (default f1)")
    p.add_argument("--test", choices=TESTS, default="permutation", help="paired test over items (default permutation)")
    p.add_argument(
        "--resamples",
        type=integer(1),
        default=DEFAULT_RESAMPLES,
        metavar="N",
        help=f"resamples of the test and the intervals (default {DEFAULT_RESAMPLES})",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the resampling and of the search (default 0)")
    p.add_argument(
        "--alternative",
        choices=ALTERNATIVES,
        default="two-sided",
        help="greater: the first system scores higher (default two-sided)",
    )
    p.add_argument("--confidence", type=level, default=0.95, help="of the intervals (default 0.95)")
    p.add_argument(
        "--top", type=integer(0), default=10, metavar="K", help="items that differ most to print (default 10)"
    )
    p.add_argument("--significant", type=int, default=4, metavar="D", help="digits after the decimal point (default 4)")
    p.add_argument("--json", action="store_true", help="print the whole comparison as JSON")
    p.add_argument("--csv", metavar="OUT", help="write every item's scores (first two systems) to a CSV file")
    p.add_argument(
        "--svg", metavar="OUT", help="write the picture of per-item differences (first two systems) to an SVG file"
    )
    add_search(p)
    p.add_argument("--fine-grained", action="store_true", help="DocSmatch scores: add the fine-grained breakdown")
    p.add_argument(
        "--frames",
        metavar="FILE",
        help="aspect scores: a PropBank frame description file (SMATCH++'s propbank-amr-frames-arg-descr.txt) "
        "whose argument descriptions rename core roles, as SMATCH++ does",
    )
    p.add_argument(
        "-j", "--num-workers", type=integer(1), default=1, metavar="N", help="processes for DocSmatch scores"
    )
    p.add_argument("--vectors", metavar="FILE", help="S²match and MFβ: GloVe text file or glove-6b-100d")
    p.add_argument("--cutoff", type=float, default=None, help="S²match and MFβ: similarity cutoff")
    p.add_argument("--diffsense", type=float, default=None, help="S²match and MFβ: credit for another sense")
    p.add_argument(
        "--form",
        nargs="+",
        metavar="FILE",
        help="MFβ and Form scores: one file per system, one preference score (or 1/0 for acceptable or not) per "
        "line (--score meaning needs none: S²match of the parses, no language model)",
    )
    p.add_argument("--beta", type=beta, default=1.0, help="MFβ's β (default 1)")
    add_standardize(p)
    p.add_argument("--tolerance", type=tolerance, default=None, help="MFβ: acceptable when prefScore >= 0.5 - it")
    p.add_argument("--dimensions", choices=("s2align", "smatch"), help="MFβ: test each fine-grained measure too")
    add_progress(p)
    p.set_defaults(func=run)


def _read_form(path: str) -> list[float]:
    """A ``--form`` file: one preference score (or 1/0) per line, blank lines skipped."""
    from amreval.amr.read import read_text

    values = []
    text, _ = read_text(path, what="file of preference scores")  # the one rule of every reader
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            values.append(float(line))
        except ValueError:
            raise InputError(f"{path}, line {line_no}: expected a number, got {line.strip()!r}") from None
    return values


def run(args: argparse.Namespace) -> int:
    """Score each system once, compare, print; write CSV and SVG when asked."""
    from pathlib import Path

    from amreval.amr.read import read_graphs
    from amreval.mfbeta.counts import MF_PARTS
    from amreval.report.comparison import comparison_svg, items_csv, summary_text

    names = system_names(args.f, args.names)
    systems = {name: read_graphs(path) for name, path in zip(names, args.f)}
    gold = read_graphs(args.gold)
    options: dict[str, Any] = dict(
        score=args.score,
        statistic=args.statistic,
        test=args.test,
        n_resamples=args.resamples,
        seed=args.seed,
        alternative=args.alternative,
        confidence=args.confidence,
        solver=args.solver,
        restarts=args.r,
        time_limit=args.time_limit,
        work_limit=args.work_limit,
        progress=args.progress,
        **standardize_keyword(args),
    )
    if args.score in ("s2match", *MF_PARTS):
        options.update(vectors=args.vectors, cutoff=args.cutoff, diffsense=args.diffsense)
    if args.frames is not None:
        options["frames"] = args.frames
    if args.score in MF_PARTS:
        from amreval.mfbeta.counts import compare_mfbeta_systems

        if options.pop("standardize", None):
            raise InputError(f"--standardize: only the smatch score reads triples another way; got {args.score}")
        form: dict[str, list[float]] | None = None  # Meaning alone needs no Form (no language model)
        if args.form or args.score != "meaning":
            if not args.form or len(args.form) != len(names):
                raise InputError(f"--score {args.score} needs --form with one file per system ({len(names)})")
            form = {name: _read_form(path) for name, path in zip(names, args.form)}
        options["dimensions"] = args.dimensions
        cmp = compare_mfbeta_systems(systems, gold, form=form, beta=args.beta, tolerance=args.tolerance, **options)
    else:
        from amreval.scores.compare import compare_systems

        if args.dimensions:
            raise InputError(f"--dimensions breaks down the MFβ scores ({', '.join(MF_PARTS)}); got {args.score}")
        if args.score not in ("smatch", "s2match"):
            options.update(fine_grained=args.fine_grained, num_workers=args.num_workers)
        cmp = compare_systems(systems, gold, **options)
    if args.csv:
        Path(args.csv).write_text(items_csv(cmp), encoding="utf-8")
    if args.svg:
        Path(args.svg).write_text(comparison_svg(cmp), encoding="utf-8")
    if args.json:
        print(json.dumps(cmp.as_dict(), indent=2))
    else:
        print(summary_text(cmp, top=args.top, digits=args.significant), end="")
    return 0
