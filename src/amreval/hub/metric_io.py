"""What the ``evaluate`` metrics take and what they give back.

Inputs: a PENMAN graph may be given as its text or as an amreval :class:`~amreval.amr.graph.Graph`
(from :func:`amreval.read_graphs`, say); the metrics store text, so a graph is written as PENMAN
first. Every item is checked before ``evaluate`` and pyarrow see it: ``None``, another type, or text
that cannot be stored as UTF-8 (a lone surrogate) is an :class:`~amreval.errors.InputError` that names
the argument and the item; a flag that is not ``True`` or ``False`` likewise.

Outputs: every value of a metric's results is a number (``int`` or ``float``), except ``config``,
the one string, and the per-item lists asked for (``per_document_f1``; MFβ's ``per_example`` lists and
``explanations``), and the scores with nothing to score. A score that is 0/0 (a precision without
predicted items, a recall without gold items, an F1 with neither) is undefined, and is ``None`` by
default, as in every output of amreval (:func:`~amreval.scores.f1.undefined`): ``evaluate.save`` and
``json.dumps`` write it as ``null``, valid JSON. ``zero_division`` is the value used for it instead, for
those who want a number: ``0.0`` (Smatch's published convention), ``1.0`` (counted as perfect) or
``float("nan")`` (scikit-learn's ``zero_division=np.nan``; ``json.dumps`` then writes ``NaN``, which
strict JSON readers reject). The bootstrap interval of such a score, and a paired test's difference,
interval and p-value involving one, are ``zero_division`` too.

Example:
    >>> r = numeric_results({"precision": 0.0, "recall": 0.0, "f1": 0.0, "match": 0, "test": 0, "gold": 3,
    ...                      "coref_precision": None, "coref_recall": None, "coref_f1": None,
    ...                      "coref_match": 0, "coref_test": 0, "coref_gold": 0,
    ...                      "score": "docsmatch", "config": "score=docsmatch"}, zero_division=0.0)
    >>> r["precision"], r["coref_f1"], "score" in r, r["config"]
    (0.0, 0.0, False, 'score=docsmatch')
    >>> numeric_results({"f1": 0.0, "match": 0, "test": 0, "gold": 0})["f1"] is None
    True
    >>> numeric_results({"f1": None, "match": 0, "test": 0, "gold": 0}, zero_division=float("nan"))["f1"]
    nan
    >>> penman_text(None, "prediction", 2)  # predictions[2], the third: counted from 1 in the message
    Traceback (most recent call last):
    ...
    amreval.errors.InputError: prediction #3: expected a PENMAN string or a Graph, got None
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from amreval.amr.graph import Graph
from amreval.amr.read import UnreadableGraph
from amreval.errors import InputError, numbered

__all__ = [
    "ZERO_DIVISION",
    "check_zero_division",
    "check_text",
    "check_batch",
    "penman_text",
    "sentence_text",
    "numeric_results",
    "per_item_f1",
]

#: The default value of a 0/0 score in the metrics' results: None, undefined (JSON ``null``).
ZERO_DIVISION = None


def check_zero_division(value: object) -> float | None:
    """The value of a 0/0 score: None (undefined, the default), ``0``, ``1`` or NaN (``float("nan")``).

    Raises:
        InputError: anything else.
    """
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and (math.isnan(value) or value in (0, 1)):
        return float(value)
    raise InputError(f'zero_division must be None, 0.0, 1.0 or float("nan"), got {value!r}')


def check_text(text: str, what: str) -> str:
    """``text``, checked to be storable as UTF-8 (no lone surrogate).

    Raises:
        InputError: naming ``what`` and the position of the first character that cannot be encoded.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(
            f"{what}: not valid Unicode text: {text[exc.start]!r} at character {exc.start} is a lone surrogate "
            "(decode the source with errors='replace', or fix its encoding)"
        ) from None
    return text


def check_batch(items: object, what: str) -> Sequence[Any]:
    """A batch of items: a list or tuple (one item per example), not a string or None.

    Raises:
        InputError: naming ``what`` and the type given.
    """
    if isinstance(items, (list, tuple)):
        return items
    if items is None:
        raise InputError(f"{what}: expected a list with one item per example, got None")
    raise InputError(f"{what}: expected a list with one item per example, got {type(items).__name__}")


def penman_text(item: object, what: str, index: int | None) -> str:
    """One graph as the metrics store it: its PENMAN text (a :class:`Graph` written as PENMAN).

    A graph without nodes (an :class:`~amreval.amr.read.UnreadableGraph` of a lenient reader, say)
    is stored as the empty string: as a prediction it is scored as an unreadable, empty graph; as
    a reference it is an error.

    Raises:
        InputError: ``None``, another type, or text that is not valid Unicode (naming the item as
            :func:`~amreval.errors.numbered` does: ``prediction #1`` is the first).
    """
    if isinstance(item, Graph):
        if isinstance(item, UnreadableGraph) or item.is_empty():
            return ""
        return item.to_string()
    if isinstance(item, str):
        return check_text(item, numbered(what, index))
    got = "None" if item is None else type(item).__name__
    raise InputError(f"{numbered(what, index)}: expected a PENMAN string or a Graph, got {got}")


def sentence_text(item: object, what: str, index: int | None) -> str:
    """One sentence, checked: a string of valid Unicode.

    Raises:
        InputError: ``None``, another type, or a lone surrogate (naming the item as
            :func:`~amreval.errors.numbered` does: ``prediction #1`` is the first).
    """
    if isinstance(item, str):
        return check_text(item, numbered(what, index))
    got = "None" if item is None else type(item).__name__
    raise InputError(f"{numbered(what, index)}: expected a string, got {got}")


def _count(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def numeric_results(out: Mapping[str, Any], *, zero_division: float | None = ZERO_DIVISION) -> dict[str, Any]:
    """A core result's flat dict as a metric returns it: 0/0 scores ``zero_division``, no ``score``.

    Every score ``X`` with counts ``X_match``, ``X_test``, ``X_gold`` (``match``, ``test``, ``gold`` for
    the overall score) follows the one rule: precision is ``zero_division`` when ``test`` is 0, recall
    when ``gold`` is 0, F1 when both are; so are their bootstrap bounds (``X_f1_ci_low``, ...). The
    score's name, which ``config`` holds (``score=docsmatch``), is dropped; a ``None`` left (a paired
    test's difference and p-value where a score is undefined, an MFβ dimension) or a NaN is
    ``zero_division``.
    """
    result = {key: value for key, value in out.items() if key != "score"}
    for key in out:
        if key != "test" and not key.endswith("_test"):
            continue
        prefix = key[: -len("test")]
        test, gold = _count(out[key]), _count(out.get(prefix + "gold"))
        if test is None or gold is None or prefix + "f1" not in out:
            continue
        undefined = {"precision": test == 0, "recall": gold == 0, "f1": test == 0 and gold == 0}
        for measure, is_undefined in undefined.items():
            if is_undefined:
                for name in (f"{prefix}{measure}", f"{prefix}{measure}_ci_low", f"{prefix}{measure}_ci_high"):
                    if name in result:
                        result[name] = zero_division
    for key, value in result.items():
        if value is None or (isinstance(value, float) and math.isnan(value)):
            result[key] = zero_division
    return result


def per_item_f1(
    counts: Sequence[tuple[float, float, float]], *, zero_division: float | None = ZERO_DIVISION
) -> list[float | None]:
    """The F1 of each item from its ``(match, test, gold)``: ``zero_division`` when both ``test`` and
    ``gold`` are 0, else ``2 match / (test + gold)`` as :func:`~amreval.scores.f1.prf` computes it."""
    from amreval.scores.f1 import prf

    return [zero_division if test == 0 and gold == 0 else prf(m, test, gold)[2] for m, test, gold in counts]
