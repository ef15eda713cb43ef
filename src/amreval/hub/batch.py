"""Smatch as a batch function for ``datasets``: per-example counts that sum to the corpus score.

:func:`smatch_batch` takes a batch of a :class:`datasets.Dataset` with a column
of predicted and a column of gold PENMAN graphs and gives, for each example,
the Smatch counts of its pair (``match``, ``test``, ``gold``), whether the
match is proven optimal, whether the prediction could not be read (it is
then scored as an empty graph, as the command line scores it), and whether the
pair's alignment problem was over the memory budget (aligned within it, not
proven: :mod:`amreval.match.approximate`). Summed over the
dataset they are the corpus counts of ``amreval smatch`` on the same pairs, so
a corpus that outgrows one process is scored with ``Dataset.map(...,
batched=True, num_proc=N)``; :func:`corpus_counts` sums them and computes the
micro-averaged precision, recall and F1.

Each pair is searched with the seed of its position when the map passes the
indices (``with_indices=True``), as the command line seeds it; the certified
default finds the optimum whatever the seed, so only hill climbing
(``solver="hillclimb"``) and pairs whose time limit runs out depend on it.

With ``datasets``::

    from datasets import Dataset
    from amreval.hub.batch import corpus_counts, smatch_batch

    ds = Dataset.from_dict({"prediction": predicted_penman, "reference": gold_penman})
    scored = ds.map(smatch_batch, batched=True, with_indices=True, num_proc=2)
    corpus_counts(scored)["f1"]

Example (a batch as ``datasets`` passes it: a mapping of columns):
    >>> batch = {"prediction": ["(a / b)", "(w / want-01 :ARG0 (b / boy))"],
    ...          "reference": ["(a / b)", "(w / want-01 :ARG0 (g / girl))"]}
    >>> counts = smatch_batch(batch, [0, 1])
    >>> counts["match"], counts["test"], counts["gold"]
    ([2, 3], [2, 4], [2, 4])
    >>> round(corpus_counts(counts)["f1"], 4)
    0.8333
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from amreval.errors import InputError
from amreval.scores.text import plural

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from amreval.match.options import SearchKeywords

__all__ = ["smatch_batch", "corpus_counts", "BATCH_COLUMNS"]

#: The columns :func:`smatch_batch` adds.
BATCH_COLUMNS = ("match", "test", "gold", "optimal", "unreadable", "over_budget", "timed_out")


def smatch_batch(
    batch: Mapping[str, Sequence[Any]],
    indices: Sequence[int] | None = None,
    *,
    prediction_column: str = "prediction",
    reference_column: str = "reference",
    **search: Unpack[SearchKeywords],
) -> dict[str, list[Any]]:
    """Smatch counts of each example of a batch (for ``Dataset.map(smatch_batch, batched=True)``).

    Args:
        batch: columns of the batch; ``prediction_column`` and ``reference_column`` hold PENMAN strings
            (or :class:`~amreval.amr.Graph` objects).
        indices: the examples' positions in the dataset (``with_indices=True``), for their seeds;
            without, the positions in the batch.
        prediction_column, reference_column: the columns' names (pass them in ``fn_kwargs``).
        **search: the search settings of :func:`~amreval.scores.smatch.smatch` (``solver``, ``restarts``,
            ``seed``, ``time_limit``, ``work_limit``).

    Returns:
        The columns of :data:`BATCH_COLUMNS`, one value per example.

    Raises:
        InputError: a column is missing, the columns differ in length, or a reference cannot be read
            (the message names its position); a predicted graph that cannot be read is not an error.
    """
    from amreval.amr.read import as_graph
    from amreval.match.options import SearchOptions
    from amreval.scores.harness import pair_search
    from amreval.scores.smatch import identical_smatch_score, score_smatch_pair
    from amreval.scores.workers import score_named

    for column in (prediction_column, reference_column):
        if column not in batch:
            raise InputError(f"the batch has no column {column!r}; it has {', '.join(map(repr, batch))}")
    preds, golds = batch[prediction_column], batch[reference_column]
    if len(preds) != len(golds):
        raise InputError(f"{plural(len(preds), 'prediction')} but {plural(len(golds), 'reference')} in the batch")
    positions = list(indices) if indices is not None else list(range(len(preds)))
    options = SearchOptions.from_keywords(**search)
    out: dict[str, list[Any]] = {name: [] for name in BATCH_COLUMNS}
    for index, pred, gold in zip(positions, preds, golds):
        errors: list[InputError] = []
        g = as_graph(gold, "reference", index)
        # the same text on both sides: read once, and under the certified search scored without it
        same = isinstance(pred, str) and pred == gold
        p = g if same else as_graph(pred, "prediction", index, errors=errors)
        s = identical_smatch_score(g) if same and options.solver == "exact" else None
        if s is None:
            s = score_named(score_smatch_pair, index, p, g, pair_search(options, index))
        out["match"].append(s.match)
        out["test"].append(s.test)
        out["gold"].append(s.gold)
        out["optimal"].append(bool(s.optimal))
        out["unreadable"].append(bool(errors))
        out["over_budget"].append(bool(s.over_budget))
        out["timed_out"].append(bool(s.timed_out))
    return out


def corpus_counts(scored: Any) -> dict[str, float | int]:
    """The corpus score of examples scored by :func:`smatch_batch` (a Dataset or a mapping of its columns):
    summed counts, the number of pairs proven optimal, unreadable, over the memory budget and stopped by the
    time limit (the search's safety net; where the examples have those columns), micro-averaged precision,
    recall, F1."""
    from amreval.scores.f1 import prf

    match, test, gold = (sum(scored[c]) for c in ("match", "test", "gold"))
    p, r, f = prf(match, test, gold)
    return {
        "precision": p,
        "recall": r,
        "f1": f,
        "match": match,
        "test": test,
        "gold": gold,
        "n_pairs": len(scored["match"]),
        "n_optimal": sum(bool(x) for x in scored["optimal"]),
        "n_unreadable": sum(bool(x) for x in scored["unreadable"]),
        "n_over_budget": sum(bool(x) for x in scored["over_budget"]) if "over_budget" in scored else 0,
        "n_timed_out": sum(bool(x) for x in scored["timed_out"]) if "timed_out" in scored else 0,
    }
