"""The command line's argument types: numbers within their ranges, and ``-f`` files of two systems or more.

Each raises :class:`argparse.ArgumentTypeError` (or ends with a usage error) saying what was expected,
so a bad value is a usage error (exit status 2) naming the option.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import Any

__all__ = ["integer", "seconds", "fraction", "number", "beta", "tolerance", "level", "Systems"]


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
