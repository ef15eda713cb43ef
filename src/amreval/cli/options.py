"""What the commands' options share: the argument types, the options several commands take, the systems' names.

The types (numbers within their ranges, ``-f`` files of two systems or more) raise
:class:`argparse.ArgumentTypeError` (or end with a usage error) saying what was expected, so a bad value
is a usage error (exit status 2) naming the option. The ``add_*`` functions give each option one spelling,
one default and one help text in every command that takes it.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from typing import Any

from amreval.errors import AmrevalError, InputError, UsageError
from amreval.match.options import DEFAULT_RESTARTS, DEFAULT_SOLVER, DEFAULT_TIME_LIMIT, DEFAULT_WORK_LIMIT, SOLVERS
from amreval.scores.checks import DEFAULT_RESAMPLES
from amreval.scores.text import plural

__all__ = [
    "integer",
    "seconds",
    "fraction",
    "number",
    "beta",
    "tolerance",
    "level",
    "Systems",
    "usage_checked",
    "system_names",
    "RenamedOption",
    "CiOption",
    "add_renamed",
    "add_num_workers",
    "add_significant",
    "SMATCH_DIGITS",
    "add_pair_files",
    "add_search",
    "add_scoring_flags",
    "add_standardize",
    "add_averages",
    "add_progress",
    "add_verbose",
]


def integer(low: int) -> Callable[[str], int]:
    """An argparse type: an integer >= ``low``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer >= {low}, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be an integer >= {low}, got {value}")
        return value

    return parse


def seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds > 0, got {text}")
    return value


def fraction(upper_open: bool) -> Callable[[str], float]:
    """An argparse type: a number in [0, 1] (or [0, 1))."""
    bound = "1)" if upper_open else "1]"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number in [0, {bound}, got {text!r}") from None
        if not (0.0 <= value < 1.0 if upper_open else 0.0 <= value <= 1.0):
            raise argparse.ArgumentTypeError(f"must be in [0, {bound}, got {text}")
        return value

    return parse


def number(test: Callable[[float], bool], expected: str) -> Callable[[str], float]:
    """An argparse type: a number for which ``test`` holds (``expected`` says which, for messages)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number {expected}, got {text!r}") from None
        if not test(value):
            raise argparse.ArgumentTypeError(f"must be {expected}, got {text}")
        return value

    return parse


#: MFβ's β and tolerance
beta = number(lambda v: v > 0 and math.isfinite(v), "finite and > 0")
tolerance = number(lambda v: 0.0 <= v <= 0.5, "in [0, 0.5]")


def level(text: str) -> float:
    """An argparse type: a confidence level, strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1 (exclusive), got {text}")
    return value


class Systems(argparse.Action):
    """``-f``: at least two files."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        if len(values) < 2:
            parser.error(f"{option_string} needs at least two systems' files, got {len(values)}")
        setattr(namespace, self.dest, values)


def usage_checked(check: Callable[[str], str], value: str, option: str) -> str:
    """``check(value)``, its error a usage error naming ``option``."""
    try:
        return check(value)
    except AmrevalError as exc:
        raise UsageError(f"{option}: {exc}") from None


def system_names(paths: Sequence[str], given: Sequence[str] | None) -> list[str]:
    """``--names``, or the file names up to the first dot (the paths when those are not distinct).

    Raises:
        InputError: as many names as systems are needed, and no two alike.
    """
    from pathlib import Path  # loaded where used: not by amreval smatch

    if given:
        if len(given) != len(paths):
            raise InputError(f"{len(given)} names for {plural(len(paths), 'system')}")
        names = list(given)
    else:
        names = [Path(p).name.split(".")[0] or Path(p).name for p in paths]
        if len(set(names)) < len(names):
            names = [str(p) for p in paths]
    if len(set(names)) < len(names):
        raise InputError(f"the systems' names must differ: {', '.join(names)}")
    return names


class RenamedOption(argparse.Action):
    """An option's old spelling, still taken (hidden from the help): it sets the new option's value and is
    noted in ``renamed_options`` on the namespace, for :func:`amreval.cli.main` to warn about once the
    warnings are set up (:func:`amreval._warn.warn_renamed`, once per process)."""

    def __init__(self, option_strings: Sequence[str], dest: str, *, new: str, **kwargs: Any) -> None:
        self.new = new
        super().__init__(option_strings, dest, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, self.const if self.nargs == 0 else values)
        renamed = list(getattr(namespace, "renamed_options", []))
        namespace.renamed_options = [*renamed, (option_string or self.option_strings[0], self.new)]


class CiOption(argparse.Action):
    """``--ci``: a switch; ``--ci N``, its old form (the interval's resamples), is ``--ci --resamples N``
    (``--ci 0``: no interval), taken with a warning as an old spelling (:class:`RenamedOption`)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        if values is True:
            namespace.ci = True
            return
        namespace.ci = values > 0
        if values > 0:
            namespace.resamples = values
        renamed = list(getattr(namespace, "renamed_options", []))
        namespace.renamed_options = [*renamed, ("--ci N", "--ci --resamples N")]


def add_renamed(p: argparse.ArgumentParser, old: str, new: str, dest: str, **kwargs: Any) -> None:
    """``old``, the former spelling of the option ``new`` (same ``dest``), taken with a warning."""
    p.add_argument(old, dest=dest, action=RenamedOption, new=new, help=argparse.SUPPRESS, **kwargs)


def add_num_workers(p: argparse.ArgumentParser, what: str) -> None:
    """``-j/--num-workers N``: the processes of every command that scores in several (``num_workers`` in the
    API and the metrics; ``--workers`` is its old spelling)."""
    p.add_argument(
        "-j",
        "--num-workers",
        type=integer(1),
        default=1,
        metavar="N",
        help=f"{what} in N processes (default 1; the result does not depend on it)",
    )
    add_renamed(p, "--workers", "--num-workers", "num_workers", type=integer(1), metavar="N")


def add_pair_files(p: argparse.ArgumentParser) -> None:
    """``-f PRED GOLD``: the two files of a scoring command."""
    p.add_argument(
        "-f",
        nargs=2,
        required=True,
        metavar=("PRED", "GOLD"),
        help="two PENMAN files, predicted first, graphs paired by position",
    )


def add_search(p: argparse.ArgumentParser, *, restarts: bool = True, full_help: bool = False) -> None:
    """The search's options: ``-r`` (unless ``restarts`` is false: MFβ's searches take none), ``--solver``,
    ``--work-limit`` and ``--time-limit`` (the scoring commands' with the long help)."""
    if restarts:
        p.add_argument(
            "-r",
            type=integer(0),
            default=DEFAULT_RESTARTS,
            metavar="N",
            help=f"random restarts of hill climbing after the greedy start (default {DEFAULT_RESTARTS})",
        )
    solver_help = f"search (default {DEFAULT_SOLVER})"
    limit_help = "seconds per pair, a safety net (work limits decide where a search stops)"
    work_help = "simplex iterations per LP bound of a pair"
    if full_help:
        solver_help = (
            "search: hill climbing alone, certified (a climb, then the exact search by branch and bound, "
            "block by block on documents, the bounds, the LP and the integer program until one proves it), "
            f"or certified when small (default {DEFAULT_SOLVER})"
        )
        limit_help = (
            "seconds per pair, the certified search's safety net: its steps stop at counts (subtrees, simplex "
            "iterations, --work-limit, branch-and-bound nodes), the same on every machine; a pair the clock "
            "stops first is reported apart (n_timed_out, 'not proven (time limit)') since where it stopped "
            f"depends on the machine's speed and load (default {DEFAULT_TIME_LIMIT:g})"
        )
        work_help = (
            "simplex iterations of HiGHS per LP bound of a pair (the LP relaxation, or the priced LP over all "
            "its rounds): a count, so where the certified search stops, and its scores and proofs, are the "
            "same on every machine and under any load; a pair it stops is 'not proven (work limit)' "
            f"(default {DEFAULT_WORK_LIMIT:,})"
        )
    p.add_argument("--solver", choices=SOLVERS, default=DEFAULT_SOLVER, help=solver_help)
    p.add_argument("--time-limit", type=seconds, default=DEFAULT_TIME_LIMIT, metavar="S", help=limit_help)
    p.add_argument("--work-limit", type=integer(1), default=DEFAULT_WORK_LIMIT, metavar="N", help=work_help)


#: Why ``amreval smatch`` prints two digits, said where the user meets it (its help).
SMATCH_DIGITS = (
    "2, as smatch.py prints them, so that scripts reading its output keep working; two parsers that differ "
    "in the third digit print the same score: pass --significant 4, as the other commands print"
)


def add_significant(p: argparse.ArgumentParser, default: int, why: str = "") -> None:
    """``--significant D``: the digits after the point of every printed score, its default in the help."""
    p.add_argument(
        "--significant",
        type=integer(0),
        default=default,
        metavar="D",
        help=f"digits after the decimal point (default {why or default})",
    )


def add_scoring_flags(
    p: argparse.ArgumentParser,
    *,
    significant: int = 2,
    significant_why: str = "",
    pr_help: str = "print precision and recall as well as F-score",
) -> None:
    """The options of every command that scores a pair of files (smatch, s2match, docsmatch)."""
    add_pair_files(p)
    add_significant(p, significant, significant_why)
    p.add_argument("--pr", action="store_true", help=pr_help)
    p.add_argument(
        "--ms",
        action="store_true",
        help="print one score per pair (with its position and id) instead of the corpus score",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the random restarts, any integer (default 0)")
    add_search(p, full_help=True)
    p.add_argument(
        "--ci",
        nargs="?",
        const=True,
        default=False,
        action=CiOption,
        type=integer(0),
        metavar="N",
        help="print the 95%% bootstrap confidence interval of F (pairs resampled --resamples times); "
        "--ci N, the old form, is --ci --resamples N",
    )
    p.add_argument(
        "--resamples",
        type=integer(1),
        default=DEFAULT_RESAMPLES,
        metavar="N",
        help=f"resamples of the intervals (--ci, --averages) (default {DEFAULT_RESAMPLES})",
    )
    p.add_argument("--json", action="store_true", help="print the full result as JSON")
    p.add_argument(
        "--strict",
        action="store_true",
        help="stop at a predicted graph that cannot be read (default: score it as an empty graph, count it, warn)",
    )
    add_verbose(p)
    add_progress(p)


def add_standardize(p: argparse.ArgumentParser) -> None:
    """``--standardize``: how triples are read."""
    from amreval.amr.standardize import DEFAULT_STANDARDIZATION, STANDARDIZATIONS

    how = "how triples are read: smatch 1.0.4's way (default), as written (none), or by SMATCH++ 1.8's standardizations"
    p.add_argument("--standardize", choices=STANDARDIZATIONS, default=DEFAULT_STANDARDIZATION, help=how)


def add_averages(p: argparse.ArgumentParser, items: str = "pairs'") -> None:
    """``--averages``: the micro and the macro average over the items (smatch, s2match, docsmatch)."""
    mean = f"print the micro and the macro average (mean of the {items} scores), 95%% intervals (--resamples)"
    p.add_argument("--averages", action="store_true", help=mean)


def add_progress(p: argparse.ArgumentParser) -> None:
    """``--progress`` / ``--no-progress``."""
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bars (default: on a terminal only)",
    )


def add_verbose(p: argparse.ArgumentParser) -> None:
    """``-v``, taken after the command too (SUPPRESS keeps the value given before it)."""
    p.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help="log what is done to stderr")
