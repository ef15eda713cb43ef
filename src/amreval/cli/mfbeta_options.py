"""What the MFβ commands (``amreval mfbeta`` at either level, ``amreval mfbeta-robustness``) take alike:
the options of the language model, the parser and the search, the scorer and keywords made of them, and
the files of sentences they pair by line."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from amreval.cli.options import (
    add_num_workers,
    add_progress,
    add_search,
    add_significant,
    add_verbose,
    beta,
    integer,
    tolerance,
)
from amreval.errors import InputError
from amreval.scores.text import plural

__all__ = ["add_model_options", "command_scorer", "scoring_keywords", "sentence_lines", "check_paired_by_line"]


def add_model_options(p: argparse.ArgumentParser) -> None:
    """The options of the language model (Form), the parser and the vectors (Meaning), the search, β and
    the output that both MFβ commands take."""
    from amreval.mfbeta.lm import DEFAULT_KIND, DEFAULT_MODEL, DTYPES, KINDS

    p.add_argument("--lm", default=DEFAULT_MODEL, help=f"language model name or folder (default {DEFAULT_MODEL})")
    p.add_argument("--lm-kind", choices=KINDS, default=DEFAULT_KIND, help=f"default {DEFAULT_KIND}")
    p.add_argument("--device", help="cpu, cuda, cuda:1, mps (default: CUDA, else MPS, else CPU)")
    p.add_argument("--dtype", choices=(*sorted(set(DTYPES.values())), "auto"), help="default float32")
    p.add_argument("--max-tokens", type=integer(1), metavar="N", help="padded tokens per forward pass")
    p.add_argument("--batch-size", type=integer(1), default=16, metavar="N", help="sentences per parser call")
    p.add_argument(
        "--cache",
        default="memory",
        metavar="WHERE",
        help="keep language model scores and parses: memory (default), disk (the evaluate cache folder), "
        "none (or off), or a folder",
    )
    add_num_workers(p, "align S²match pairs")
    p.add_argument("--beta", type=beta, default=1.0, help="the β of MFβ (default 1; 0.5 and 2 are printed too)")
    p.add_argument("--tolerance", type=tolerance, default=0.05, help="acceptable when prefScore >= 0.5 - it")
    p.add_argument("--vectors", metavar="FILE", help="GloVe text file or glove-6b-100d (default GloVe 6B 50-d)")
    add_search(p, restarts=False)
    p.add_argument("--seed", type=int, default=0, help="seed of the search (default 0)")
    add_significant(p, 4)
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    add_progress(p)
    add_verbose(p)


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
            f"{path} has {plural(len(lines), 'line')} but {references} has {len(reference_lines)}; they "
            "are paired by line"
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
        "work_limit": args.work_limit,
        "batch_size": args.batch_size,
        "device": args.device,
        "cache": args.cache,
        "num_workers": args.num_workers,
        "progress": args.progress,
    }
