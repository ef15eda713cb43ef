"""The corpus harness every score shares: pairing, seeds, the reading of predictions, micro-average.

A scorer provides one function, ``score_pair(prediction, gold, search)``,
that scores one pair of graphs with a :class:`~amreval.match.SearchOptions`
whose seed belongs to that pair. :func:`score_corpus` checks the two lists,
derives each pair's seed from the user's seed and the pair's position (so a
pair's result depends neither on the other pairs nor on the number of
workers), scores the pairs in order or in worker processes
(:mod:`amreval.scores.workers`), and sums match, test and gold counts over all
pairs before precision, recall and F1 are computed (:mod:`amreval.scores.f1`):
the micro-average, which is the published definition of Smatch. What it gives
back is in :mod:`amreval.scores.results`.

Example:
    >>> pair_seed(0, 5)
    5
    >>> result = summarize([PairScore(3, 4, 4, True, 3), PairScore(1, 2, 4, True, 1)], Config("smatch"))
    >>> result.match, result.test, result.gold, round(result.f1, 4)  # 4 of 6 and of 8
    (4, 6, 8, 0.5714)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from amreval._warn import warn_caller
from amreval.amr.graph import Graph
from amreval.amr.read import UnreadableGraph, as_graph
from amreval.errors import InputError
from amreval.match.options import SearchOptions
from amreval.scores.checks import check_bool, check_confidence, check_int
from amreval.scores.f1 import bootstrap_f1, prf
from amreval.scores.results import Config, PairScore, SmatchResult
from amreval.scores.text import plural
from amreval.scores.workers import map_pairs, pair_name

__all__ = [
    "score_corpus",
    "summarize",
    "pair_search",
    "pair_seed",
    "read_predictions",
    "warn_unreadable",
    "warn_over_budget",
    "warn_timed_out",
    "strict_option",
    "ScorePair",
    "ReadGraph",
]


#: ``score_pair(prediction, gold, search)``: one pair's score under a pair's own search options.
ScorePair = Callable[[Graph, Graph, SearchOptions], PairScore]


def pair_search(search: SearchOptions, index: int) -> SearchOptions:
    """The search options of the pair at ``index``: its own seed, derived from the user's.

    Example:
        >>> pair_search(SearchOptions(seed=1), 2).seed
        2654435763
    """
    return search.with_seed(pair_seed(search.seed, index))


_MASK64 = (1 << 64) - 1
_INT63 = 1 << 63


def pair_seed(seed: int, index: int) -> int:
    """The seed of the pair at ``index`` under the user's ``seed``: any Python int gives a value in ``[0, 2**63)``.

    For a seed in ``[0, 2**64)`` it is ``(seed * 0x9E3779B1 + index) mod 2**64``
    whenever that is below ``2**63`` (so seed 0 gives ``index``); otherwise it
    is 63 bits of a hash of the seed and the index. It depends on nothing
    else (not on other calls, not on the process).

    Example:
        >>> pair_seed(0, 5), pair_seed(1, 2)
        (5, 2654435763)
        >>> 0 <= pair_seed(-1, 0) < 2**63 and 0 <= pair_seed(7174667213974021846, 3) < 2**63
        True
    """
    seed, index = int(seed), int(index)
    legacy = (seed * 0x9E3779B1 + index) & _MASK64
    if 0 <= seed <= _MASK64 and 0 <= index and legacy < _INT63:
        return legacy
    import hashlib

    digest = hashlib.blake2b(f"{seed},{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


ReadGraph = Callable[..., Graph]


def strict_option(strict: bool) -> tuple[tuple[str, Any], ...]:
    """The ``strict`` entry of a :class:`Config`'s options: recorded only when true."""
    return (("strict", True),) if strict else ()


def read_predictions(
    predictions: Sequence[object], read: ReadGraph = as_graph, *, strict: bool = False, noun: str = "graphs"
) -> tuple[list[Graph], list[int]]:
    """Read predictions by the one rule for bad predictions.

    A prediction that cannot be read (malformed or empty PENMAN) is scored as an empty graph, and
    a sentence that cannot be read in a list of sentences as an empty sentence; their positions
    are returned. One :class:`~amreval.errors.AmrevalWarning` names the predictions scored empty
    and one the sentences, counted by what they are (``noun``: ``"graphs"``, ``"documents"``) and
    attributed to the caller. With ``strict=True`` the first such prediction raises its error.

    Returns:
        The graphs and the positions of the predictions with anything unreadable.
    """
    graphs: list[Graph] = []
    failed: list[int] = []
    whole: list[tuple[int, InputError]] = []  # scored as empty graphs
    sentences: list[tuple[int, list[InputError]]] = []  # documents with sentences scored as empty
    for k, item in enumerate(predictions):
        errors: list[InputError] | None = None if strict else []
        graph = read(item, "prediction", k, errors=errors)
        graphs.append(graph)
        if errors:
            failed.append(k)
            if isinstance(graph, UnreadableGraph):
                whole.append((k, errors[0]))
            else:
                sentences.append((k, errors))
    n = len(graphs)
    if whole:
        warn_unreadable([k for k, _ in whole], n, whole[0][1], noun=noun)
    if sentences:
        count = sum(len(errors) for _, errors in sentences)
        scored = "was scored as an empty sentence" if count == 1 else "were scored as empty sentences"
        of_n = f"{n} predicted {noun.removesuffix('s') if n == 1 else noun}"
        warn_caller(
            f"{plural(count, 'sentence')} of {len(sentences)} of {of_n} could not be read "
            f"and {scored} ({_listed(k for k, _ in sentences)}; the first: "
            f"{sentences[0][1][0]}); {_ADVICE}"
        )
    return graphs, failed


_ADVICE = "pass strict=True (--strict) to stop at the first"


def warn_unreadable(failed: Sequence[int], n: int, first: object, noun: str = "graphs") -> None:
    """The one warning that names the predictions (of ``n``) that could not be read and were scored as
    empty graphs; ``first`` is the first's error."""
    scored = "was scored as an empty graph" if len(failed) == 1 else "were scored as empty graphs"
    of_n = f"{n} predicted {noun.removesuffix('s') if n == 1 else noun}"
    warn_caller(
        f"{len(failed)} of {of_n} could not be read and {scored} ({_listed(failed)}; the first: {first}); {_ADVICE}"
    )


def _listed(positions: Iterable[int]) -> str:
    shown = [f"#{k + 1}" for k in positions]  # counted from 1, as every message numbers them ("prediction #1")
    listed = ", ".join(shown[:10]) + (", ..." if len(shown) > 10 else "")
    return ("prediction " if len(shown) == 1 else "predictions ") + listed


def score_corpus(
    predictions: Iterable[object],
    references: Iterable[object],
    score_pair: ScorePair,
    config: Config,
    *,
    bootstrap: int = 0,
    confidence: float = 0.95,
    progress: bool | None = None,
    desc: str = "scoring",
    unit: str = "pair",
    num_workers: int = 1,
    strict: bool = False,
    read: ReadGraph = as_graph,
    noun: str = "graphs",
) -> SmatchResult:
    """Check two lists paired by position, score each pair, micro-average.

    With ``num_workers > 1`` pairs are scored in that many processes and
    ``score_pair`` must be picklable (a module-level function or a
    ``functools.partial`` of one); the workers end when this process ends.
    Every graph is read and checked here first, so a bad input is reported
    by its index before any work. A prediction that cannot be read is scored
    as an empty graph (see :func:`read_predictions`; ``strict=True`` raises
    instead); a reference that cannot be read is an error.

    Args:
        read: ``read(item, what, index, errors=...)`` gives the graph of one
            entry (default :func:`~amreval.amr.read.as_graph`).

    Raises:
        InputError: the lists differ in length or are empty, an entry is not
            a graph, a reference cannot be read, or ``num_workers``,
            ``bootstrap`` or ``confidence`` is out of range, or ``strict`` or ``progress`` is not a bool.
    """
    strict = bool(check_bool("strict", strict))
    progress = check_bool("progress", progress, optional=True)
    num_workers = check_int("num_workers", num_workers, 1)
    bootstrap = check_int("bootstrap", bootstrap, 0)
    confidence = check_confidence(confidence)
    preds = list(predictions)
    refs = list(references)
    if len(preds) != len(refs):
        raise InputError(
            f"{plural(len(preds), 'prediction')} but {plural(len(refs), 'reference')}; they are paired by position"
        )
    if not preds:
        raise InputError("nothing to score: predictions and references are empty")
    golds = [read(r, "reference", k) for k, r in enumerate(refs)]
    graphs, failed = read_predictions(preds, read, strict=strict, noun=noun)
    search = config.search.as_strict(strict)
    searches = [pair_search(search, k) for k in range(len(graphs))]
    pairs = map_pairs(
        score_pair, graphs, golds, searches, num_workers=num_workers, progress=progress, desc=desc, unit=unit
    )
    for s, graph, gold in zip(pairs, graphs, golds):  # the pair's id: the gold graph's, else the prediction's
        s.id = getattr(gold, "id", None) or getattr(graph, "id", None)
    result = summarize(pairs, config, bootstrap=bootstrap, confidence=confidence)
    result.unreadable_predictions = failed
    over = result.over_budget
    if over:
        warn_over_budget([pair_name(k, (graphs[k], golds[k])) for k in over[:10]], len(over), len(pairs))
    timed = result.timed_out
    if timed:
        names = [pair_name(k, (graphs[k], golds[k])) for k in timed[:10]]
        warn_timed_out(names, len(timed), len(pairs), config.search.time_limit)
    return result


def warn_over_budget(names: Sequence[str], count: int, n: int, *, where: str = "") -> None:
    """The one warning that names the pairs (``count`` of ``n``; ``names``: the first few, as
    :func:`~amreval.scores.workers.pair_name` names them) whose alignment problem was over the memory
    budget and was aligned within it (over each node's best candidates, or without the LP bounds), their
    scores not proven; ``where`` (``"in ..."``) says which of a score's alignments, where not its main one."""
    from amreval.match.problem import MEMORY_BUDGET

    listed = "; ".join(names) + ("; ..." if count > len(names) else "")
    were = "was" if count == 1 else "were"
    place = f" {where}" if where else ""
    warn_caller(
        f"{count} of {plural(n, 'pair')} {were} over the alignment's memory budget ({MEMORY_BUDGET / 1024**3:.1f} GiB)"
        f"{place} and {were} aligned within it, scores not proven optimal ({listed}); "
        "pass strict=True (--strict) to stop at the first"
    )


def warn_timed_out(names: Sequence[str], count: int, n: int, seconds: float) -> None:
    """The one warning that names the pairs (``count`` of ``n``; ``names``: the first few) whose search the
    time limit (``seconds``, the safety net) stopped: unlike the work limits, where it stopped depends on the
    machine's speed and load, so their numbers may differ on another run."""
    listed = "; ".join(names) + ("; ..." if count > len(names) else "")
    were = "was" if count == 1 else "were"
    warn_caller(
        f"the search of {count} of {plural(n, 'pair')} {were} stopped by the time limit of {seconds:g} s, the "
        f"safety net, not by its work limits ({listed}): where it stopped depends on the machine's speed and load, so "
        "these pairs' numbers may differ on another run; raise time_limit (--time-limit) for results decided "
        "by counts alone"
    )


def summarize(
    pairs: list[PairScore],
    config: Config,
    *,
    bootstrap: int = 0,
    confidence: float = 0.95,
) -> SmatchResult:
    """Micro-average pair scores into a :class:`SmatchResult`."""
    match = sum(p.match for p in pairs)
    test = sum(p.test for p in pairs)
    gold = sum(p.gold for p in pairs)
    p, r, f = prf(match, test, gold)
    # one pair has no interval to resample: undefined (None), not an error that loses the score
    ci = (
        bootstrap_f1(pairs, n_resamples=bootstrap, confidence=confidence, seed=config.search.seed)
        if bootstrap and len(pairs) >= 2
        else None
    )
    return SmatchResult(p, r, f, match, test, gold, pairs, sum(bool(x.optimal) for x in pairs), ci, config)
