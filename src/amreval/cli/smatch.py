"""``amreval smatch``: sentence-level Smatch of two PENMAN files, printed as smatch.py does.

The files are read and scored as a stream (bounded memory, ``-j N`` workers); a reading other than
smatch 1.0.4's, SMATCH++'s tab-separated triples and the averages over pairs read them whole, and
``--aspects`` prints SMATCH++'s aspect scores (:mod:`amreval.cli.aspects`).

Example:
    amreval smatch -f pred.amr gold.amr --pr
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from amreval.cli.aspects import add_aspects, check_frames, run_aspects
from amreval.cli.options import SMATCH_DIGITS, add_averages, add_num_workers, add_scoring_flags, add_standardize
from amreval.cli.output import (
    PairOutput,
    averages,
    intervals,
    pair_label,
    pair_rows,
    print_footer,
    print_prf,
    read_pair_files,
    scoring_options,
    standardize_keyword,
)
from amreval.errors import UsageError

__all__ = ["add_arguments", "run", "print_whole"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``amreval smatch``."""
    p.description = (
        "Smatch of predicted against gold AMR graphs, printed as smatch.py does: two digits after the point "
        "by default (smatch.py's), so that scripts reading its output keep working; --significant 4 prints "
        "four, as every other command does."
    )
    add_scoring_flags(p, significant_why=SMATCH_DIGITS)
    add_averages(p)
    p.add_argument("--tsv", action="store_true", help="the files hold SMATCH++'s tab-separated triples")
    add_aspects(p, "smatch")
    add_standardize(p)
    add_num_workers(p, "read and score the pairs")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Score and print: the aspect scores, the stream, or the files read whole."""
    if check_frames(args):
        if args.averages or args.ci:
            raise UsageError("--aspects: not with --averages or --ci")
        return run_aspects(args)
    if standardize_keyword(args) or args.averages or args.tsv:
        from amreval.scores.smatch import smatch

        pred, gold = read_pair_files(args, "graphs")
        result = smatch(pred, gold, num_workers=args.num_workers, **scoring_options(args), **standardize_keyword(args))
        return print_whole(result, pred, gold, args)
    return _stream(args)


def print_whole(result: Any, pred: list, gold: list, args: argparse.Namespace) -> int:
    """A result of files read whole (Smatch or S²match) printed as smatch.py does, or as JSON."""
    averaged = averages(result, args)
    if args.json:
        out: dict[str, Any] = dict(result.as_dict())
        out.update(intervals(result, args))
        if averaged is not None:
            out["averages"] = averaged.as_dict()
        out["pairs"] = pair_rows(result, pred, gold)
        print(json.dumps(out, indent=2))
        return 0
    if args.ms:
        for k, (s, p, g) in enumerate(zip(result.pairs, pred, gold)):
            print(pair_label("Pair", k, p, g))
            print_prf(s.precision, s.recall, s.f1, args)
    else:
        print_prf(result.precision, result.recall, result.f1, args)
    print_footer(result, args, averaged)
    return 0


def _stream(args: argparse.Namespace) -> int:
    """The files read, scored and printed as a stream (:mod:`amreval.scores.stream`)."""
    from amreval.match.options import SearchOptions
    from amreval.scores.harness import strict_option
    from amreval.scores.results import Config
    from amreval.scores.smatch import identical_smatch_score, score_smatch_pair
    from amreval.scores.stream import stream_score

    options = scoring_options(args)
    config = Config(
        "smatch",
        SearchOptions.from_keywords(
            solver=options["solver"],
            restarts=options["restarts"],
            seed=options["seed"],
            time_limit=options["time_limit"],
            work_limit=options["work_limit"],
        ),
        strict_option(args.strict),
    )

    def print_pair(label: str, s: Any) -> None:
        print(label)
        print_prf(s.precision, s.recall, s.f1, args)

    with PairOutput(args, "Pair", "pairs", print_pair) as output:
        result = stream_score(
            args.f[0],
            args.f[1],
            score_smatch_pair,
            config,
            on_pair=output,
            num_workers=args.num_workers,
            strict=args.strict,
            bootstrap=args.resamples if args.ci else 0,
            identical=identical_smatch_score if config.search.solver == "exact" else None,
        )
        if args.json:
            out: dict[str, Any] = dict(result.as_dict())
            out.update(intervals(result, args))
            output.write_json(out)
            return 0
    if not args.ms:
        print_prf(result.precision, result.recall, result.f1, args)
    print_footer(result, args)
    return 0
