"""The LP bound of a large problem by pricing: solve a small LP, prove the rest cannot help.

A long document's problem has hundreds of thousands of candidate pairs, most
with no unary weight: pairs of a coreference node (in hundreds of sentences)
with nodes of other concepts, kept only for the relations they could match.
Its LP relaxation takes HiGHS many seconds and gigabytes. Here the LP is solved
over a **restricted** set of pairs (those with unary weight, plus the
incumbent's), with the terms between them, and its dual solution is extended
to a dual solution of the **whole** LP:

* the duals of node rows (``α`` for A, ``β`` for B) and of the group rows that
  exist are kept, repaired where HiGHS put a column's dual on its bound
  instead (the node's ``α`` is raised by what is missing, which raises the
  dual objective by as much);
* each left-out pair ``p = (i, j)`` gets duals ``γ'`` on its own (new) group
  rows, enough to cover each of its terms: what the term's weight exceeds the
  duals already on the other end's rows (when the other end is left out too,
  the two share the weight in proportion to their slack ``α_i + β_j - u_p``).
  Setting ``γ'`` of each of its A-triple rows to the largest need there
  covers every term, so ``p`` is priced out when the sum of those (or of the
  B-triple ones) is at most its slack.

Group rows have right-hand side 0, so the extended dual solution's objective is
``Σα + Σβ``: an upper bound on the whole LP, hence on the optimum. Pairs that
are not priced out join the restricted set and the LP is solved again, until
none is left (column generation). The restricted LP's solution is a solution of
the whole one (left-out pairs at zero), so its rounding is a mapping to score.

The rounds grow one HiGHS solver (:class:`_GrowingLP`): a round's new rows and
columns are added to the last round's model, so the simplex goes on from the
last basis and its factorization, where building each round's LP anew and
handing it the basis cost as much again as HiGHS's own work on a parsed
document.

The rounds share one budget of simplex iterations (``work_limit``, a count: where
it runs out is the same on every machine); the time limit is the safety net
only, and a priced LP it stops says so (:attr:`PricedLP.timed_out`).
"""

from __future__ import annotations

import ctypes
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from amreval.match.certify import bounds
from amreval.match.options import DEFAULT_WORK_LIMIT
from amreval.match.problem import Problem

__all__ = ["priced_lp", "PricedLP"]

_TOL = 1e-9
#: A round whose LP has at least this many columns and at most :data:`PRIMAL_SHARE` of them new starts from
#: the last round's basis with the primal simplex (the basis is still primal feasible: the new columns sit
#: at zero, the new rows' slacks are basic; the dual simplex would first mend the new columns' reduced
#: costs, which on the whole Little Prince as one document took as many iterations as a cold start).
PRIMAL_MIN_COLUMNS = 20_000
PRIMAL_SHARE = 0.1
_PRIMAL_SIMPLEX = 4  # HiGHS's simplex_strategy for the primal simplex
_DEFAULT_SIMPLEX = 1  # and its default (the dual simplex)


@dataclass
class PricedLP:
    """What :func:`priced_lp` found: ``bound`` (an upper bound on the optimum), ``pairs``
    (the restricted LP's solution rounded, a pair index per A node, or None), the rounds,
    the size of the last restricted LP, and ``slack``: per pair, the reduced cost of its
    column in the dual solution that gives ``bound`` (every mapping that uses pair ``p``
    is worth at most ``bound - slack[p]``), or None when the LP was not solved; the simplex
    iterations of all rounds, and whether the time limit (the safety net, not the work limit)
    stopped it."""

    bound: float
    pairs: np.ndarray | None
    rounds: int
    n_pairs: int
    n_terms: int
    slack: np.ndarray | None = None
    iterations: int = 0
    timed_out: bool = False


@lru_cache(maxsize=1)
def _malloc_trim() -> Callable[[int], int] | None:
    """The C library's ``malloc_trim`` (glibc, Linux), or None where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return getattr(ctypes.CDLL(None), "malloc_trim", None)  # None: a C library without it (musl)
    except OSError:  # pragma: no cover - no C library to load
        return None


def _return_freed() -> None:
    """Give the memory HiGHS freed back to the system, where the C library can.

    A round's working memory (about a kilobyte per row and column of the LP) is freed when the round
    ends, but the allocator keeps it, in pieces the next round's larger model does not all fit in, so
    without this each round adds a little to the process's peak (4 MB of 57 on a 100-sentence parsed
    document).
    """
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


def _lookup(keys: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Positions of ``wanted`` in the ascending ``keys``, -1 where absent."""
    pos = np.searchsorted(keys, wanted)
    pos = np.minimum(pos, max(len(keys) - 1, 0))
    found = (len(keys) > 0) & (keys[pos] == wanted) if len(keys) else np.zeros(len(wanted), dtype=bool)
    return np.where(found, pos, -1)


def _lookup_unsorted(keys: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Positions of ``wanted`` in ``keys`` (any order), -1 where absent."""
    if not len(keys):
        return np.full(len(wanted), -1, dtype=np.int64)
    order = np.argsort(keys, kind="stable")
    where = _lookup(keys[order], wanted)
    return np.where(where >= 0, order[np.maximum(where, 0)], -1)


class _GrowingLP:
    """The restricted LP of :func:`priced_lp`, grown round by round in one HiGHS solver: the rows and
    columns a round adds are appended to the last round's (new columns at zero, new rows' slacks basic), so
    the simplex starts from the last round's basis and factorization. Columns and rows are named by the
    whole problem's keys (a pair, ``P`` + a term; a group row's (triple, pair) key and kind), so each
    round's model (:func:`~amreval.match.certify.bounds.milp_model` of the restricted problem, in its own order) is
    matched to the solver's."""

    def __init__(self, n_pairs: int, n_nodes: int) -> None:
        self.P, self.n_nodes = n_pairs, n_nodes
        self.h: Any = None
        self.col_keys = np.zeros(0, dtype=np.int64)  # the solver's columns' keys, in its order
        self.row_keys = np.zeros(0, dtype=np.int64)  # its group rows' keys (after the node rows), in its order
        self.iterations = 0  # simplex iterations of all rounds
        self.timed_out = False  # the last round stopped by the time limit

    def _keys(self, sub: Problem, pairs: np.ndarray, terms: np.ndarray, model: dict) -> tuple[np.ndarray, np.ndarray]:
        sp = sub.n_pairs
        cols = np.concatenate([pairs, self.P + terms])
        rows = [((k // sp) * self.P + pairs[k % sp]) * 4 + c for c, k in enumerate(model["groups"])]
        return cols, np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)

    def solve(
        self, sub: Problem, pairs: np.ndarray, terms: np.ndarray, model: dict, time_limit: float, work_limit: int
    ) -> tuple[np.ndarray, np.ndarray] | None:
        """The round's LP solved within ``work_limit`` simplex iterations (and ``time_limit`` seconds, the safety
        net): its duals (rows) and values (columns) in the model's order, or None when HiGHS did not solve it
        (:attr:`timed_out` says whether the time limit stopped it)."""
        cols, rows = self._keys(sub, pairs, terms, model)
        n_nodes = self.n_nodes
        if self.h is None:
            self.h = bounds.highs_solver(sub, False, time_limit, work_limit=work_limit, model=model)
            self.col_keys, self.row_keys = cols, rows
            col_at = np.arange(len(cols))
            row_at = np.arange(n_nodes + len(rows))
        else:
            h = self.h
            h.setOptionValue("time_limit", float(time_limit))
            h.setOptionValue("simplex_iteration_limit", int(work_limit))
            h.setOptionValue("presolve", "off")
            col_at = _lookup_unsorted(self.col_keys, cols)
            new_cols = col_at < 0
            col_at[new_cols] = len(self.col_keys) + np.arange(int(new_cols.sum()))
            group_at = _lookup_unsorted(self.row_keys, rows)
            new_rows = group_at < 0
            group_at[new_rows] = n_nodes + len(self.row_keys) + np.arange(int(new_rows.sum()))
            group_at[~new_rows] += n_nodes
            row_at = np.concatenate([np.arange(n_nodes), group_at])
            # the model's entries, by the solver's rows and columns
            start = model["a_start"].astype(np.int64)
            entry_row = np.repeat(np.arange(model["num_row"]), np.diff(start))
            h_row, h_col = row_at[entry_row], col_at[model["a_index"]]
            value = model["a_value"]
            n_old_cols = len(self.col_keys)
            # new rows, with their entries on the old columns (in the solver's row order)
            on_new_row = (h_row >= n_nodes + len(self.row_keys)) & (h_col < n_old_cols)
            n_new_rows = int(new_rows.sum())
            if n_new_rows:
                order = np.argsort(h_row[on_new_row], kind="stable")
                r = h_row[on_new_row][order] - (n_nodes + len(self.row_keys))
                starts = np.searchsorted(r, np.arange(n_new_rows)).astype(np.int32)
                upper = np.empty(n_new_rows)
                upper[group_at[new_rows] - n_nodes - len(self.row_keys)] = model["row_upper"][n_nodes:][new_rows]
                h.addRows(
                    n_new_rows, np.full(n_new_rows, -np.inf), upper, len(r), starts,
                    h_col[on_new_row][order].astype(np.int32), value[on_new_row][order],
                )  # fmt: skip
            n_new_cols = int(new_cols.sum())
            if n_new_cols:
                on_new_col = h_col >= n_old_cols
                order = np.argsort(h_col[on_new_col], kind="stable")
                c = h_col[on_new_col][order] - n_old_cols
                starts = np.searchsorted(c, np.arange(n_new_cols)).astype(np.int32)
                cost = np.empty(n_new_cols)
                cost[col_at[new_cols] - n_old_cols] = model["cost"][new_cols]
                h.addCols(
                    n_new_cols, cost, np.zeros(n_new_cols), np.ones(n_new_cols), len(c), starts,
                    h_row[on_new_col][order].astype(np.int32), value[on_new_col][order],
                )  # fmt: skip
            n_cols = len(cols)
            primal_first = n_cols >= PRIMAL_MIN_COLUMNS and n_new_cols <= PRIMAL_SHARE * n_cols
            h.setOptionValue("simplex_strategy", _PRIMAL_SIMPLEX if primal_first else _DEFAULT_SIMPLEX)
            self.col_keys = np.concatenate([self.col_keys, cols[new_cols][np.argsort(col_at[new_cols])]])
            self.row_keys = np.concatenate([self.row_keys, rows[new_rows][np.argsort(group_at[new_rows])]])
        self.h.run()
        _return_freed()
        self.iterations += bounds.iterations(self.h)
        if not bounds.solved(self.h):
            self.timed_out = bounds.timed_out(self.h)
            return None
        solution = self.h.getSolution()
        dual = np.maximum(np.asarray(solution.row_dual, dtype=np.float64), 0.0)[row_at]
        primal = np.asarray(solution.col_value, dtype=np.float64)[col_at]
        return dual, primal


def priced_lp(
    problem: Problem, incumbent: np.ndarray | None, *, time_limit: float, work_limit: int = DEFAULT_WORK_LIMIT
) -> PricedLP:
    """The LP bound by pricing (see module docs) within ``work_limit`` simplex iterations over all its rounds.

    Args:
        problem: the problem.
        incumbent: the best mapping so far as a pair index per A node (-1: none), kept in the LP.
        time_limit: seconds, the safety net; when they run out the simple bound is returned, marked
            ``timed_out``.
        work_limit: simplex iterations of all rounds (a count: the same on every machine); when they run out
            the simple bound is returned.
    """
    deadline = time.perf_counter() + time_limit
    P = problem.n_pairs
    keep = problem.pair_u > 0
    if incumbent is not None:
        keep[incumbent[incumbent >= 0]] = True
    n_a, n_b = problem.n_a, problem.n_b
    tp, tq, ta, tb, tw = problem.term_p, problem.term_q, problem.term_ta, problem.term_tb, problem.term_w
    rounds = 0
    lp = _GrowingLP(P, n_a + n_b)
    while True:
        rounds += 1
        left = deadline - time.perf_counter()
        work_left = work_limit - lp.iterations
        if left <= 0 or work_left <= 0:
            return PricedLP(problem.bound, None, rounds, int(keep.sum()), 0, None, lp.iterations, left <= 0)
        sub, pairs, terms = problem.restrict(keep)
        model = bounds.milp_model(sub)
        if len(pairs):
            found = lp.solve(sub, pairs, terms, model, left, work_left)
            if found is None:
                return PricedLP(problem.bound, None, rounds, len(pairs), len(terms), None, lp.iterations, lp.timed_out)
            dual, primal = found
        else:
            # nothing kept (no pair has unary weight): every dual is zero
            dual = np.zeros(model["num_row"])
            primal = np.zeros(0)
        alpha = dual[:n_a].copy()
        beta = dual[n_a : n_a + n_b].copy()
        # the group rows' duals, by (triple, restricted pair) key, per kind of row
        gammas = []
        at = n_a + n_b
        for keys in model["groups"]:
            gammas.append(dual[at : at + len(keys)].copy())
            at += len(keys)
        sp = len(pairs)
        ends_of = (sub.term_p, sub.term_q, sub.term_p, sub.term_q)
        trips_of = (sub.term_ta, sub.term_ta, sub.term_tb, sub.term_tb)
        rows = [
            _lookup(model["groups"][c], trips_of[c] * sp + ends_of[c]) if sub.n_terms else np.zeros(0, np.int64)
            for c in range(4)
        ]
        # repair the terms: the four rows of each term must cover its weight (raise its first row)
        if sub.n_terms:
            cover = sum(gammas[c][rows[c]] for c in range(4))
            short = sub.term_w - cover
            need = short > 0
            raise_by = np.zeros(len(gammas[0]))
            np.maximum.at(raise_by, rows[0][need], short[need])
            gammas[0] += raise_by
        # repair the pairs: alpha_i + beta_j - (their group rows' duals) >= u_p
        taken = np.zeros(sp)
        for c in range(4):
            if sub.n_terms:
                np.add.at(taken, model["groups"][c] % sp, gammas[c])
        slack = alpha[sub.pair_src] + beta[sub.pair_tgt] - taken - sub.pair_u
        lift = np.zeros(n_a)
        np.maximum.at(lift, sub.pair_src, np.maximum(-slack, 0.0))
        alpha += lift
        bound = float(alpha.sum() + beta.sum())
        # price the pairs left out
        local = np.full(P, -1, dtype=np.int64)
        local[pairs] = np.arange(sp)
        out_terms = ~(keep[tp] & keep[tq])
        slack_out = np.full(P, np.inf)
        missing = ~keep
        slack_out[missing] = (
            alpha[problem.pair_src[missing]] + beta[problem.pair_tgt[missing]] - problem.pair_u[missing]
        )
        need_pair: list[np.ndarray] = []
        need_a: list[np.ndarray] = []
        need_b: list[np.ndarray] = []
        need_r: list[np.ndarray] = []
        for this, other, c_a, c_b in ((tp, tq, 1, 3), (tq, tp, 0, 2)):
            # terms whose `this` end is left out; the duals on the other end's rows count
            sel = out_terms & ~keep[this]
            if not sel.any():
                continue
            r = tw[sel].astype(np.float64)
            o = other[sel]
            inside = keep[o]
            # both ends left out: the weight is shared in proportion to the two pairs' slack
            mine = np.maximum(slack_out[this[sel]], 0.0)
            theirs = np.where(inside, 0.0, np.maximum(slack_out[o], 0.0))
            total = mine + theirs
            share = np.where(total > 0, mine / np.where(total > 0, total, 1.0), 0.5)
            half = np.where(inside, r, r * share)
            if inside.any() and sub.n_terms:
                lo = local[o[inside]]
                for c, trips in ((c_a, ta[sel][inside]), (c_b, tb[sel][inside])):
                    pos = _lookup(model["groups"][c], trips * sp + lo)
                    half[inside] -= np.where(pos >= 0, gammas[c][np.maximum(pos, 0)], 0.0)
            need_pair.append(this[sel])
            need_a.append(ta[sel])
            need_b.append(tb[sel])
            need_r.append(np.maximum(half, 0.0))
        covered = np.zeros(P)
        if need_pair:
            who = np.concatenate(need_pair)
            r_all = np.concatenate(need_r)
            sums = []
            for trip in (np.concatenate(need_a), np.concatenate(need_b)):
                key = who * (int(trip.max()) + 1) + trip
                uniq, inv = np.unique(key, return_inverse=True)
                best = np.zeros(len(uniq))
                np.maximum.at(best, inv.ravel(), r_all)
                sums.append(np.bincount(uniq // (int(trip.max()) + 1), weights=best, minlength=P))
            covered = np.minimum(sums[0], sums[1])
        bad = missing & (covered > slack_out + _TOL)
        # a left-out pair with unary weight and no slack (not in the restricted set) is bad too
        bad |= missing & (slack_out < -_TOL)
        if not bad.any():
            local_pairs = bounds.round_solution(sub.pair_src, sub.pair_tgt, primal[:sp], n_a, n_b)
            chosen = np.where(local_pairs >= 0, pairs[np.maximum(local_pairs, 0)], -1) if sp else local_pairs
            reduced = np.maximum(slack_out - covered, 0.0)
            reduced[pairs] = np.maximum(slack + lift[sub.pair_src], 0.0)
            # against the simple bound where it is lower: a mapping through p is still worth at most
            # bound - reduced[p], so at most the lower bound less what the reduced cost exceeds the difference
            lowest = min(problem.bound, bound)
            reduced = np.maximum(reduced - (bound - lowest), 0.0)
            return PricedLP(lowest, chosen, rounds, sp, len(terms), reduced, lp.iterations)
        keep |= bad
