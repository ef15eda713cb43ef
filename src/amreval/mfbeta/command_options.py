"""What the MFβ commands (``amreval mfbeta`` at either level, ``amreval mfbeta-robustness``) take alike from
their command line: the language model's scorer and the keywords of the scoring; and the files of sentences
they pair by line."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from amreval.errors import InputError

__all__ = ["command_scorer", "scoring_keywords", "sentence_lines", "check_paired_by_line"]


def sentence_lines(path: str, what: str = "text file of sentences") -> list[str]:
    """A text file of sentences (or paragraphs), one a line: an empty line is an empty one, and the newline
    that ends the last line ends it (no empty one after it). Lines end at ``\\n`` only (``\\r\\n`` read as
    one), as ``wc -l`` counts them: a form feed or a Unicode line separator inside a line keeps
    it one line. ``what`` is what the file holds, for the message when it is a folder."""
    from amreval.amr.read import read_text

    text, _ = read_text(path, what=what)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def check_paired_by_line(path: str, lines: Sequence[str], references: str, reference_lines: Sequence[str]) -> None:
    """The lines of ``path`` (generated text) and of ``references``, one for one.

    Raises:
        InputError: naming both files and their line counts.
    """
    if len(lines) != len(reference_lines):
        raise InputError(
            f"{path} has {len(lines)} lines but {references} has {len(reference_lines)}; they are paired by line"
        )


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
