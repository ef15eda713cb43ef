"""Counts in words, for the messages and reports of the scores (:func:`amreval.errors.plural`, which the readers
below the scores use too).

A warning that says "1 sentences" reads as a bug in the scorer; every message
that counts something takes its wording from here, so that they all agree.

Example:
    >>> plural(1, "sentence"), plural(3, "sentence"), plural(0, "graph")
    ('1 sentence', '3 sentences', '0 graphs')
"""

from __future__ import annotations

from amreval.errors import plural

__all__ = ["plural"]
