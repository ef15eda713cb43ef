"""The per-item counts of a Smatch, S²match or DocSmatch result's parts, for resampling and paired tests.

A result's ``pairs`` hold each item's ``(match, test, gold)``; a DocSmatch
result scored with ``coref=True`` holds its coreference counts too, and with
``fine_grained=True`` its fine-grained counts. :func:`parts_of` lists the parts
a result holds, :func:`part_counts` gives one part's items × 3 counts, and
:func:`result_parts` every part with its statistic, keyed as the result's own
outputs are (``f1``, ``coref_f1``, ``srl_f1``, ...).

Example:
    >>> from amreval.scores.results import PairScore
    >>> pairs = [PairScore(3, 4, 4, True, 3.0), PairScore(1, 2, 3, True, 1.0)]
    >>> part_counts(pairs).tolist(), parts_of(type("R", (), {"pairs": pairs})())
    ([[3.0, 4.0, 4.0], [1.0, 2.0, 3.0]], ['overall'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from amreval.errors import InputError
from amreval.scores.corpus_statistics import Statistic, prf_statistic
from amreval.scores.finegrained import MEASURES

__all__ = ["COREF_PARTS", "part_counts", "parts_of", "result_parts"]

#: DocSmatch's coreference sub-score and its breakdown (a document pair's :class:`~amreval.scores.coref.CorefCounts`).
COREF_PARTS = ("coref", "coref_named_entity", "coref_bridging", "coref_other", "noncoref")


def part_counts(pairs: Sequence[Any], part: str = "overall") -> np.ndarray:
    """Per-item ``(match, test, gold)`` of one score part, from a result's ``pairs``.

    Args:
        pairs: :class:`~amreval.scores.results.PairScore` (or DocSmatch's
            :class:`~amreval.scores.docsmatch.DocPairScore`) per item.
        part: ``overall`` (also ``smatch``, ``s2match``, ``docsmatch``), a
            coreference part (:data:`COREF_PARTS`, needs ``coref=True``), or a
            fine-grained measure (needs ``fine_grained=True``).

    Raises:
        InputError: the part is unknown or was not computed.
    """
    rows: list[tuple[float, float, float]] = []
    if part in ("overall", "smatch", "s2match", "docsmatch"):
        rows = [(p.match, p.test, p.gold) for p in pairs]
    elif part in COREF_PARTS:
        for k, p in enumerate(pairs):
            coref = getattr(p, "coref", None)
            if coref is None:
                raise InputError(f"item #{k + 1} has no coreference counts: score DocSmatch with coref=True")
            if part == "coref":
                rows.append(coref.total)
            elif part == "noncoref":
                rows.append(coref.noncoref(p.match, p.test, p.gold))
            else:
                rows.append(tuple(getattr(coref, part[len("coref_") :])))
    elif part in MEASURES:
        for k, p in enumerate(pairs):
            fine = getattr(p, "fine_grained", None)
            if fine is None:
                raise InputError(f"item #{k + 1} has no fine-grained counts: score DocSmatch with fine_grained=True")
            rows.append(tuple(fine[part]))
    else:
        known = ("overall", *COREF_PARTS, *MEASURES)
        raise InputError(f"unknown part {part!r}; expected one of {', '.join(known)}")
    return np.asarray(rows, dtype=np.float64).reshape(len(rows), 3)


def parts_of(result: Any) -> list[str]:
    """The score parts a result holds, overall first."""
    parts = ["overall"]
    pairs = result.pairs
    if pairs and getattr(pairs[0], "coref", None) is not None:
        parts += list(COREF_PARTS)
    if pairs and getattr(pairs[0], "fine_grained", None) is not None:
        parts += list(MEASURES)
    return parts


def result_parts(result: Any, statistic: str = "f1") -> dict[str, tuple[Statistic, np.ndarray]]:
    """Every part a result holds, as output key → ``(statistic, per-item counts)``.

    The key of a part is the result's key of the statistic: ``f1`` for the
    overall score, ``coref_f1``, ``noncoref_f1``, ``srl_f1``, ... (with
    ``statistic="recall"``: ``recall``, ``coref_recall``, ...).
    """
    stat = prf_statistic(statistic)
    return {
        (statistic if part == "overall" else f"{part}_{statistic}"): (stat, part_counts(result.pairs, part))
        for part in parts_of(result)
    }
