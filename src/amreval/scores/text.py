"""Counts in words, for the messages and reports of the scores.

A warning that says "1 sentences" reads as a bug in the scorer; every message
that counts something takes its wording from here, so that they all agree.

Example:
    >>> plural(1, "sentence"), plural(3, "sentence"), plural(0, "graph")
    ('1 sentence', '3 sentences', '0 graphs')
"""

from __future__ import annotations

__all__ = ["plural"]


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, with an ``s`` unless ``n`` is 1 (for words whose plural is regular)."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
