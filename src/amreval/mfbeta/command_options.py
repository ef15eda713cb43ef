"""What the MFβ commands (``amreval mfbeta`` at either level, ``amreval mfbeta-robustness``) take alike from
their command line: the language model's scorer and the keywords of the scoring."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["command_scorer", "scoring_keywords"]


def command_scorer(args: argparse.Namespace) -> Any:
    """The Form scorer of ``--lm``, ``--lm-kind``, ``--device``, ``--dtype``, ``--max-tokens`` and ``--cache``."""
    from amreval.mfbeta.form import get_scorer

    return get_scorer(
        args.lm, args.lm_kind, args.device, dtype=args.dtype, max_tokens=args.max_tokens, cache=args.cache
    )


def scoring_keywords(args: argparse.Namespace) -> dict[str, Any]:
    """β, the tolerance, the search, the batches, the device, the cache, the workers and the progress bars."""
    return {
        "beta": args.beta,
        "tolerance": args.tolerance,
        "solver": args.solver,
        "seed": args.seed,
        "time_limit": args.time_limit,
        "batch_size": args.batch_size,
        "device": args.device,
        "cache": args.cache,
        "num_workers": args.workers,
        "progress": args.progress,
    }
