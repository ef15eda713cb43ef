"""``amreval docsmatch``: DocSmatch of two files of document graphs, printed in the reference's layout.

Smatch under the sentence constraint, with the coreference sub-score (on by default, ``--no-coref-subscore``
turns it off), Damonte's
fine-grained measures (``--fine-grained``), the averages, SMATCH++'s aspects (:mod:`amreval.cli.aspects`)
and the alignment pictures (``--svg``).

Example:
    amreval docsmatch -f pred.docamr.amr gold.docamr.amr
"""

from __future__ import annotations

import argparse
import logging
import warnings
from typing import Any

from amreval.cli.aspects import add_aspects, check_frames, doc_aspects_conflicts, run_doc_aspects
from amreval.cli.options import add_averages, add_num_workers, add_scoring_flags, add_standardize
from amreval.cli.output import (
    SVG_HELP,
    PairOutput,
    averages,
    decimals,
    intervals,
    pair_id,
    print_averages,
    print_intervals,
    print_prf,
    print_unproven,
    read_pair_files,
    scoring_options,
    standardize_keyword,
    svg_paths,
)
from amreval.errors import UsageError

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``amreval docsmatch``."""
    p.description = (
        "DocSmatch (Smatch under the sentence constraint) of predicted against gold document graphs, paired by "
        "position, printed in the reference's layout."
    )
    add_scoring_flags(p, significant=4, pr_help="precision and recall are always printed (the reference's layout)")
    p.add_argument(
        "--coref-subscore",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="the coreference sub-score (coref nodes, merged nodes, coref edges), printed after the overall "
        "score: on by default, as DocSmatch's report in the DocAMR paper has it (off with --standardize); "
        "--no-coref-subscore prints the reference docSmatch's default layout, the overall score alone",
    )
    p.add_argument(
        "--fine-grained", action="store_true", help="also print the fine-grained scores of Damonte et al. (2017)"
    )
    add_averages(p, "documents'")
    add_aspects(p, "docsmatch")
    add_standardize(p)
    p.add_argument(
        "--svg",
        metavar="OUT",
        help="also draw each document's alignment (matched, missing, extra triples) to SVG: " + SVG_HELP,
    )
    add_num_workers(p, "score documents")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The documents read, scored and printed as a stream (:func:`~amreval.scores.docsmatch.stream_docsmatch`);
    with ``--svg``, which names the pictures by every document's id and draws the mappings, the files are
    read whole."""
    if check_frames(args):
        if doc_aspects_conflicts(args):
            raise UsageError(f"--aspects: not with {', '.join(doc_aspects_conflicts(args))}")
        return run_doc_aspects(args)
    from amreval._progress import progress_counter
    from amreval.scores.docsmatch import coref_setting, docsmatch, stream_docsmatch

    args.coref_subscore = coref_setting(args.coref_subscore, getattr(args, "standardize", "smatch"))
    options = scoring_options(args)
    progress = options.pop("progress")
    keywords = dict(coref=args.coref_subscore, fine_grained=args.fine_grained, num_workers=args.num_workers)
    keywords.update(standardize_keyword(args))
    if not args.json:
        args.pr = True  # the reference's layout

    def print_pair(label: str, s: Any) -> None:
        print(label)
        _print_scores(s, args)

    with PairOutput(args, "Document", "documents", print_pair) as output:
        if args.svg:
            pred, gold = read_pair_files(args, "documents")
            result = docsmatch(pred, gold, progress=progress, **keywords, **options)
            unreadable = set(result.unreadable_predictions)
            for k, (s, p, g) in enumerate(zip(result.pairs, pred, gold)):
                output((k, s, getattr(p, "id", None), getattr(g, "id", None), k in unreadable))
        else:
            with progress_counter(float("inf"), enable=progress, desc="docsmatch", unit="doc") as bar:

                def on_pair(record: tuple[int, Any, str | None, str | None, bool]) -> None:
                    output(record)
                    bar.update(1)

                result = stream_docsmatch(
                    args.f[0],
                    args.f[1],
                    on_pair=on_pair,
                    keep_scores=bool(args.ci) or args.averages,
                    **keywords,
                    **options,
                )
        averaged = averages(result, args)
        if args.json:
            out: dict[str, Any] = dict(result.as_dict())
            out.update(intervals(result, args))
            if averaged is not None:
                out["averages"] = averaged.as_dict()
            tail: dict[str, Any] = {}
            if result.coref is not None:
                from amreval.scores.coref import CATEGORIES

                tail["coref_counts"] = {c: getattr(result.coref, c) for c in CATEGORIES}
                tail["coref_counts"]["mixed"] = result.coref.mixed
                tail["coref_counts"]["across"] = result.coref.across
            if result.fine_grained is not None:
                tail["fine_grained_counts"] = result.fine_grained
            output.write_json(out, tail)
        else:
            _print_docsmatch(result, args)
            if averaged is not None:
                print_averages(averaged, args)
    if args.svg:
        # draw the alignments that were scored, after the scores are out
        from amreval._progress import progress_bar
        from amreval.report.draw import alignment_svg

        paths = svg_paths(args.svg, [pair_id(p, g) for p, g in zip(pred, gold)])
        drawn = progress_bar(
            list(enumerate(zip(paths, pred, gold, result.pairs))), enable=progress, desc="drawing", unit="doc"
        )
        for k, (path, p, g, scored) in drawn:
            if k in result.unreadable_predictions:
                warnings.warn(f"no picture for document {k + 1}: its prediction could not be read", stacklevel=1)
                continue
            alignment_svg(p, g, path, mapping=scored.mapping)
    return 0


def _print_scores(s: Any, args: argparse.Namespace) -> None:
    """A document's or the corpus's scores in the reference's layout."""
    from amreval.scores.f1 import prf_or_none

    print("Overall Score:")
    print_prf(s.precision, s.recall, s.f1, args)
    if args.coref_subscore:
        print("Coref Score")
        print_prf(*prf_or_none(*s.coref.total), args)


def _print_docsmatch(result: Any, args: argparse.Namespace) -> None:
    """What follows the documents' scores (printed as they came with ``--ms``)."""
    from amreval.scores.f1 import prf_or_none
    from amreval.scores.finegrained import MEASURE_LABELS

    if not args.ms:
        _print_scores(result, args)
    print_unproven(result)
    if result.ci is not None:
        print_intervals(result, args)
    if result.fine_grained is not None:
        for name, label in MEASURE_LABELS.items():
            p, r, f = (decimals(x, args.significant) for x in prf_or_none(*result.fine_grained[name]))
            print(f"{label} -> P: {p}, R: {r}, F: {f}")
    logging.getLogger("amreval").info(
        "%d documents, match %d, test %d, gold %d, %d proven optimal (%s)",
        len(result.pairs),
        result.match,
        result.test,
        result.gold,
        result.n_optimal,
        result.config.as_string(),
    )
