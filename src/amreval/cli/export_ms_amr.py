"""``amreval export-ms-amr``: the MS-AMR documents of an AMR 3.0 release as DocAMR Parquet files that
``datasets.load_dataset`` reads (one per representation and split, with a README naming the configs).

Example:
    amreval export-ms-amr --amr3 /data/amr_annotation_3.0 ms_amr_docamr
"""

from __future__ import annotations

import argparse

from amreval.cli.options import add_progress, add_verbose, usage_checked

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``amreval export-ms-amr``."""
    p.description = (
        "Convert the MS-AMR documents of an AMR 3.0 release root (LDC2020T02) and write Parquet "
        "per representation and split plus a README with configs:, loadable with "
        "datasets.load_dataset(OUT, 'docamr'). Needs the hub extra."
    )
    p.add_argument("--amr3", required=True, metavar="ROOT", help="AMR 3.0 release root (LDC2020T02)")
    p.add_argument("out", metavar="OUT", help="output folder")
    p.add_argument(
        "--config",
        nargs="+",
        default=None,
        metavar="REP",
        help="representations to export (default: docamr no-merge merge-names merge-all)",
    )
    p.add_argument("--strict", action="store_true", help="fail on a malformed document (default: skip it, warn)")
    p.add_argument(
        "--splits",
        nargs="+",
        default=None,
        metavar="SPLIT",
        help="the splits to export (default: train validation test validation_alternative, each of which the "
        "release must hold)",
    )
    add_progress(p)
    add_verbose(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Convert and write the Parquet files, say what was written."""
    from amreval.docamr import REPRESENTATIONS, check_representation, check_split
    from amreval.errors import MissingDependencyError

    configs = tuple(usage_checked(check_representation, c, "--config") for c in (args.config or REPRESENTATIONS))
    try:
        from amreval.hub.ms_amr import export_ms_amr
    except ImportError:
        raise MissingDependencyError("datasets", "hub", "export-ms-amr") from None
    chosen = None if args.splits is None else tuple(usage_checked(check_split, s, "--splits") for s in args.splits)
    written = export_ms_amr(args.amr3, args.out, configs, strict=args.strict, progress=args.progress, splits=chosen)
    for config, splits in written.items():
        print(f"{config}: " + ", ".join(f"{split} {n}" for split, n in splits.items()))
    print(f"written to {args.out}; load with datasets.load_dataset({args.out!r}, 'docamr')")
    return 0
