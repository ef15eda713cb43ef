"""Corpus scores of two files read, scored and reported as a stream.

:func:`stream_score` reads the predicted and the gold file in step (a block of
PENMAN at a time, :func:`~amreval.amr.read.open_blocks`), scores the pairs in
chunks, in this process or in worker processes fed chunk by chunk, and hands
each pair's score to a callback as it comes, in order; the corpus counts are
summed as they come. What stays in memory is the chunks in flight and, per
pair, five numbers (match, test, gold, whether proven, bound), which the
result keeps for :attr:`~amreval.scores.results.SmatchResult.pairs` (the
mappings are not kept). The counts are those of the in-memory scorers: the
same reading rules (a prediction that cannot be read is an empty graph unless
``strict``; a reference that cannot be read is an error), the same per-pair
seeds, the same search.

Workers get the chunks' PENMAN text and read it themselves, so the reading is
shared out too. A chunk whose text does not give one graph per block on both
sides (two graphs in one block, a block that is read part by part), or whose
scoring raises, is read and scored again here, with everything after it, so
the pairing and the errors (which name the pair) are exactly those of reading
the files whole.

Example:
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "p.amr").write_text("(w / want-01 :ARG0 (b / boy))\\n\\n(a / b)\\n")
    >>> _ = (folder / "g.amr").write_text("(w / want-01 :ARG0 (g / girl))\\n\\n(a / b)\\n")
    >>> from amreval.scores.smatch import score_smatch_pair
    >>> r = stream_score(folder / "p.amr", folder / "g.amr", score_smatch_pair, Config("smatch"))
    >>> r.match, r.test, r.gold, [p.match for p in r.pairs]
    (5, 6, 6, [3, 2])
    >>> import shutil; shutil.rmtree(folder)
"""

from __future__ import annotations

import os
import warnings
from array import array
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, islice
from typing import Any, overload

from amreval._warn import warn_caller
from amreval.amr.graph import Graph
from amreval.amr.parse import Block
from amreval.amr.read import as_graph, graphs_of_blocks, open_blocks
from amreval.errors import AmrevalError, InputError
from amreval.match.options import SearchOptions
from amreval.scores.checks import check_int
from amreval.scores.f1 import bootstrap_f1, prf
from amreval.scores.harness import (
    ReadGraph,
    ScorePair,
    pair_search,
    warn_over_budget,
    warn_timed_out,
    warn_unreadable,
)
from amreval.scores.results import Config, PairScore, SmatchResult
from amreval.scores.text import plural
from amreval.scores.workers import score_named, start_workers

__all__ = ["stream_score", "PairRecord", "CompactPairs", "CHUNK"]

#: Pairs per chunk (read, then scored, then reported).
CHUNK = 256

#: One pair as the callback gets it: (index, score, predicted graph's id, gold graph's id, unreadable).
PairRecord = tuple[int, PairScore, "str | None", "str | None", bool]


class CompactPairs(Sequence[PairScore]):
    """Per-pair scores kept as seven numbers each; items are :class:`PairScore` (without mapping)."""

    def __init__(self) -> None:
        self._match = array("d")
        self._test = array("q")
        self._gold = array("q")
        self._optimal = array("b")
        self._bound = array("d")
        self._over_budget = array("b")
        self._timed_out = array("b")

    def append(self, s: PairScore) -> None:
        """Keep one pair's numbers."""
        self._match.append(s.match)
        self._test.append(s.test)
        self._gold.append(s.gold)
        self._optimal.append(bool(s.optimal))
        self._bound.append(s.bound)
        self._over_budget.append(bool(s.over_budget))
        self._timed_out.append(bool(s.timed_out))

    def __len__(self) -> int:
        return len(self._test)

    @overload
    def __getitem__(self, k: int) -> PairScore: ...

    @overload
    def __getitem__(self, k: slice) -> list[PairScore]: ...

    def __getitem__(self, k: int | slice) -> PairScore | list[PairScore]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        m = self._match[k]
        return PairScore(
            int(m) if m.is_integer() else m,
            self._test[k],
            self._gold[k],
            bool(self._optimal[k]),
            self._bound[k],
            over_budget=bool(self._over_budget[k]),
            timed_out=bool(self._timed_out[k]),
        )


def _checked_paths(pred: str | os.PathLike[str], gold: str | os.PathLike[str]) -> tuple[str, str]:
    return os.fspath(pred), os.fspath(gold)


def stream_score(
    predictions: str | os.PathLike[str],
    references: str | os.PathLike[str],
    score_pair: ScorePair,
    config: Config,
    *,
    on_pair: Callable[[PairRecord], None] | None = None,
    num_workers: int = 1,
    strict: bool = False,
    noun: str = "graphs",
    chunk: int = CHUNK,
    bootstrap: int = 0,
    confidence: float = 0.95,
    read: ReadGraph = as_graph,
    keep: list[PairScore] | None = None,
    identical: Callable[[Graph], PairScore | None] | None = None,
) -> SmatchResult:
    """Score the pairs of two PENMAN files, paired by position, as a stream.

    Args:
        predictions, references: the files (paths).
        score_pair: the pair scorer (module level, for the workers).
        config: the result's configuration; its search gives each pair's options.
        on_pair: called with each pair's :data:`PairRecord`, in order, as it is scored.
        num_workers: processes that read and score chunks (1: this process).
        strict: a prediction that cannot be read raises its error (default: an empty graph, counted).
        noun: what the files hold, for the messages.
        chunk: pairs per chunk.
        bootstrap, confidence: a bootstrap interval of F1 (as :func:`~amreval.scores.f1.bootstrap_f1`).
        read: ``read(graph, what, index, errors=...)`` gives the graph that is scored (default
            :func:`~amreval.amr.read.as_graph`; DocSmatch's :func:`~amreval.docamr.document.document_graph`).
        keep: where the pairs' scores (without mappings) are kept for the result's ``pairs``
            (default: a :class:`CompactPairs`, five numbers a pair; a list keeps all of each score).
        identical: the score of a graph against itself where it is known without the search (None: search);
            it is asked for the pairs whose two blocks are the same text, read without a warning
            (:func:`~amreval.scores.smatch.identical_smatch_score`).

    Raises:
        InputError: no such file; a file without graphs; the files hold different numbers of graphs
            (found at the end, after the pairs before have been reported); a reference, or with
            ``strict`` a prediction, cannot be read (as it is reached).
    """
    num_workers = check_int("num_workers", num_workers, 1)
    chunk = check_int("chunk", chunk, 1)
    pred_path, gold_path = _checked_paths(predictions, references)
    pred_label, pred_blocks = open_blocks(pred_path)
    gold_label, gold_blocks = open_blocks(gold_path)
    state = _State(config, on_pair, CompactPairs() if keep is None else keep)
    state.labels = (pred_label, gold_label)
    job = _Job(score_pair, config.search.as_strict(strict), pred_label, gold_label, strict, read, identical)
    if num_workers > 1:
        rest = _score_in_workers(job, pred_blocks, gold_blocks, state, num_workers, chunk)
    else:
        rest = (pred_blocks, gold_blocks)
    if rest is not None:
        _score_here(job, rest[0], rest[1], state, chunk)
    n_pred, n_gold = state.n_pred, state.n_gold
    for path, n in ((pred_path, n_pred), (gold_path, n_gold)):
        if n == 0:
            raise AmrevalError(f"{path}: no graphs found; expected PENMAN {noun}")
    if n_pred != n_gold:
        raise AmrevalError(
            f"{pred_path} has {plural(n_pred, noun.removesuffix('s'))} but {gold_path} has {n_gold}; "
            "they are paired by position"
        )
    if state.failed:
        warn_unreadable(state.failed, len(state.pairs), state.first_error, noun=noun)
    if state.over_budget:
        warn_over_budget(state.over_budget_names, len(state.over_budget), len(state.pairs))
    if state.timed_out:
        warn_timed_out(state.timed_out_names, len(state.timed_out), len(state.pairs), config.search.time_limit)
    p, r, f = prf(state.match, state.test, state.gold)
    result = SmatchResult(p, r, f, state.match, state.test, state.gold, n_optimal=state.n_optimal, config=config)
    result.pairs = state.pairs  # type: ignore[assignment]  # a sequence of PairScore, not a list
    result.unreadable_predictions = state.failed
    if bootstrap and len(result.pairs) >= 2:  # one pair: the interval is undefined (None)
        result.ci = bootstrap_f1(result.pairs, n_resamples=bootstrap, confidence=confidence, seed=config.search.seed)
    return result


class _State:
    """The sums and per-pair numbers so far."""

    def __init__(
        self, config: Config, on_pair: Callable[[PairRecord], None] | None, pairs: CompactPairs | list[PairScore]
    ) -> None:
        self.config = config
        self.on_pair = on_pair
        self.pairs = pairs
        self.match: float = 0
        self.test = 0
        self.gold = 0
        self.n_optimal = 0
        self.n_pred = 0
        self.n_gold = 0
        self.failed: list[int] = []
        self.first_error: object = None
        self.labels = ("predictions", "references")
        self.over_budget: list[int] = []
        self.over_budget_names: list[str] = []  # the first ten
        self.timed_out: list[int] = []
        self.timed_out_names: list[str] = []  # the first ten

    def add(self, index: int, s: PairScore, pred_id: str | None, gold_id: str | None, error: str | None) -> None:
        self.pairs.append(s)
        self.match += s.match
        self.test += s.test
        self.gold += s.gold
        self.n_optimal += bool(s.optimal)
        self.n_pred += 1
        self.n_gold += 1
        for flagged, positions, names in (
            (s.over_budget, self.over_budget, self.over_budget_names),
            (s.timed_out, self.timed_out, self.timed_out_names),
        ):
            if flagged:
                positions.append(index)
                if len(names) < 10:
                    pred, gold = self.labels
                    names.append(f"pair #{index + 1} ({pred}, graph #{index + 1} against {gold}, graph #{index + 1})")
        if error is not None:
            self.failed.append(index)
            if self.first_error is None:
                self.first_error = error
        if self.on_pair is not None:
            self.on_pair((index, s, pred_id, gold_id, error is not None))


class _Job:
    """What every chunk is scored with (picklable where ``score_pair`` is)."""

    def __init__(
        self,
        score_pair: ScorePair,
        search: SearchOptions,
        pred_label: str,
        gold_label: str,
        strict: bool,
        read: ReadGraph = as_graph,
        identical: Callable[[Graph], PairScore | None] | None = None,
    ) -> None:
        self.score_pair = score_pair
        self.identical = identical
        self.search = search
        self.pred_label = pred_label
        self.gold_label = gold_label
        self.strict = strict
        self.read = read

    def score(self, index: int, pred: Graph, gold: Graph) -> tuple[PairScore, str | None]:
        """One pair's score without its mapping, and the prediction's error when it could not be read."""
        errors: list[InputError] | None = None if self.strict else []
        g = self.read(gold, "reference", index)
        # one graph read for both (the same text): checked once, unless reading says more (a document's warnings)
        p = g if pred is gold and self.read is as_graph else self.read(pred, "prediction", index, errors=errors)
        s = self.identical(p) if p is g and self.identical is not None else None
        if s is None:
            s = score_named(self.score_pair, index, p, g, pair_search(self.search, index))
            s.mapping = None
        return s, (str(errors[0]) if errors else None)


Row = tuple[PairScore, "str | None", "str | None", "str | None"]
Read = tuple[Graph, Graph]
#: The warnings a worker gave while reading and scoring a chunk: message and category, in order.
Caught = list[tuple[str, type[Warning]]]


def _read_chunk(job: _Job, start: int, preds: list[Block], golds: list[Block]) -> tuple[list[Read], Caught] | None:
    """The graph pairs of a chunk of blocks, one graph to a block on both sides, with the warnings given on
    the way (recorded, for the caller to give in order); None where the blocks do not pair one graph with
    one, or reading one raises (the caller reads them again graph by graph, which raises as reading the
    files whole does). A gold block whose text is the predicted block's gets the predicted graph itself
    when that was read without a warning (the same text gives the same graph)."""
    if len(preds) != len(golds):
        return None
    pairs: list[Read] = []
    pred_errors: list[InputError] | None = None if job.strict else []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # every one is given again, under the caller's filters
        try:
            for k, (pb, gb) in enumerate(zip(preds, golds)):
                index = start + k
                seen = len(caught)
                p = list(graphs_of_blocks([pb], job.pred_label, True, pred_errors, index))
                if pb.text == gb.text and len(caught) == seen and len(p) == 1 and not pred_errors:
                    g = p
                else:
                    g = list(graphs_of_blocks([gb], job.gold_label, True, None, index))
                if len(p) != 1 or len(g) != 1:
                    return None
                if pred_errors:
                    pred_errors.clear()
                pairs.append((p[0], g[0]))
        except Exception:
            return None
    return pairs, [(str(w.message), w.category) for w in caught]


def _score_chunk(job: _Job, start: int, preds: list[Block], golds: list[Block]) -> tuple[list[Row], Caught] | None:
    """In a worker: read (:func:`_read_chunk`) and score a chunk of blocks, with the warnings given on the
    way (for this process to give); None where its blocks do not pair one graph with one."""
    read = _read_chunk(job, start, preds, golds)
    if read is None:
        return None
    rows: list[Row] = []
    pairs, caught = read
    with warnings.catch_warnings(record=True) as scoring:
        warnings.simplefilter("always")
        try:
            for k, (p, g) in enumerate(pairs):
                s, error = job.score(start + k, p, g)
                rows.append((s, p.id, g.id, error))
        except Exception:  # scored again in the parent, which raises it as reading the files whole does
            return None
    return rows, caught + [(str(w.message), w.category) for w in scoring]


def _score_in_workers(
    job: _Job,
    pred_blocks: Iterator[Block],
    gold_blocks: Iterator[Block],
    state: _State,
    num_workers: int,
    chunk: int,
) -> tuple[Iterable[Block], Iterable[Block]] | None:
    """Chunks to the workers, results reported in order; the blocks left to score here after a chunk that
    the workers could not score (None when all are done)."""
    pending: deque[tuple[Any, int, list[Block], list[Block]]] = deque()
    start = 0
    done = False
    pool = start_workers(num_workers)
    try:
        while True:
            while not done and len(pending) < 2 * num_workers:
                preds = list(islice(pred_blocks, chunk))
                golds = list(islice(gold_blocks, chunk))
                if not preds and not golds:
                    done = True
                    break
                pending.append((pool.submit(_score_chunk, job, start, preds, golds), start, preds, golds))
                start += max(len(preds), len(golds))
            if not pending:
                return None
            future, first, preds, golds = pending.popleft()
            done_chunk = future.result()
            if done_chunk is None:
                later_p = [b for _, _, ps, _ in pending for b in ps]
                later_g = [b for _, _, _, gs in pending for b in gs]
                return chain(preds, later_p, pred_blocks), chain(golds, later_g, gold_blocks)
            rows, caught = done_chunk
            for message, category in caught:
                warn_caller(message, category)
            for k, (s, pid, gid, error) in enumerate(rows):
                state.add(first + k, s, pid, gid, error)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _score_here(
    job: _Job, pred_blocks: Iterable[Block], gold_blocks: Iterable[Block], state: _State, chunk: int
) -> None:
    """Read and score here a chunk at a time (the graphs of a chunk are read before it is scored, so
    reading warnings come before the chunk's results): block by block (:func:`_read_chunk`) while the
    blocks pair one graph with one, then graph by graph."""
    pred_blocks, gold_blocks = iter(pred_blocks), iter(gold_blocks)
    while True:
        start = state.n_pred
        preds = list(islice(pred_blocks, chunk))
        golds = list(islice(gold_blocks, chunk))
        if not preds and not golds:
            return
        read = _read_chunk(job, start, preds, golds)
        if read is None:
            _score_graphs(job, chain(preds, pred_blocks), chain(golds, gold_blocks), state, chunk)
            return
        pairs, caught = read
        for message, category in caught:
            warn_caller(message, category)
        for k, (p, g) in enumerate(pairs):
            s, error = job.score(start + k, p, g)
            state.add(start + k, s, p.id, g.id, error)


def _score_graphs(
    job: _Job, pred_blocks: Iterable[Block], gold_blocks: Iterable[Block], state: _State, chunk: int
) -> None:
    """Read and score here, graph by graph, a chunk at a time."""
    start = state.n_pred
    errors: list[InputError] | None = None if job.strict else []  # the graphs carry their errors
    preds = graphs_of_blocks(pred_blocks, job.pred_label, True, errors, start)
    golds = graphs_of_blocks(gold_blocks, job.gold_label, True, None, start)
    index = start
    while True:
        ps = list(islice(preds, chunk))
        gs = list(islice(golds, chunk))
        for p, g in zip(ps, gs):
            s, error = job.score(index, p, g)
            state.add(index, s, p.id, g.id, error)
            index += 1
        if errors:
            errors.clear()
        if len(ps) != len(gs) or not ps:
            n = min(len(ps), len(gs))
            state.n_pred += len(ps) - n + sum(1 for _ in preds)
            state.n_gold += len(gs) - n + sum(1 for _ in golds)
            return
