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
"""

from __future__ import annotations

import ctypes
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

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


@dataclass
class PricedLP:
    """What :func:`priced_lp` found: ``bound`` (an upper bound on the optimum), ``pairs``
    (the restricted LP's solution rounded, a pair index per A node, or None), the rounds,
    the size of the last restricted LP, and ``slack``: per pair, the reduced cost of its
    column in the dual solution that gives ``bound`` (every mapping that uses pair ``p``
    is worth at most ``bound - slack[p]``), or None when the LP was not solved."""

    bound: float
    pairs: np.ndarray | None
    rounds: int
    n_pairs: int
    n_terms: int
    slack: np.ndarray | None = None


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
    """Give the memory a round's solver freed back to the system, where the C library can.

    HiGHS's working memory for one round (about a kilobyte per row and column of the LP) is freed
    with the solver, but the allocator keeps it, in pieces the next round's larger solver does not
    all fit in, so without this each round adds to the process's peak; with it the peak is about
    the largest round's.
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


def _basis_of(h, sub: Problem, pairs: np.ndarray, terms: np.ndarray, model: dict, P: int) -> tuple:
    """The solver's basis, its columns and rows named by the whole problem's pair, term and row keys."""
    b = h.getBasis()
    # the enum's value attribute: several times faster than int() over tens of thousands of entries
    cols = np.array([x.value for x in b.col_status], dtype=np.int8)
    rows = np.array([x.value for x in b.row_status], dtype=np.int8)
    col_ids = np.concatenate([pairs, P + terms])
    sp = sub.n_pairs
    keys = [(k // sp) * P + pairs[k % sp] if sp else k for k in model["groups"]]
    return col_ids, cols, keys, rows


def _warm_start(h, basis: tuple, sub: Problem, pairs: np.ndarray, terms: np.ndarray, model: dict, P: int) -> None:
    """Start from the last round's basis: its columns and rows keep their status, new columns sit at
    zero and new rows are basic (their slack), so the last round's solution is where the simplex starts."""
    import highspy

    old_cols, old_col_status, old_keys, old_row_status = basis
    status = highspy.HighsBasisStatus
    lower, basic = int(status.kLower), int(status.kBasic)
    col_ids = np.concatenate([pairs, P + terms])
    cols = np.full(len(col_ids), lower, dtype=np.int8)
    pos = _lookup_unsorted(old_cols, col_ids)
    cols[pos >= 0] = old_col_status[pos[pos >= 0]]
    n_nodes = sub.n_a + sub.n_b
    rows = np.full(model["num_row"], basic, dtype=np.int8)
    rows[:n_nodes] = old_row_status[:n_nodes]
    at_new, at_old = n_nodes, n_nodes
    sp = sub.n_pairs
    for c, keys in enumerate(model["groups"]):
        full = (keys // sp) * P + pairs[keys % sp] if sp else keys
        old = old_keys[c] if c < len(old_keys) else np.zeros(0, dtype=np.int64)
        where = _lookup(old, full)
        found = where >= 0
        rows[at_new + np.nonzero(found)[0]] = old_row_status[at_old + where[found]]
        at_new += len(keys)
        at_old += len(old)
    names = {int(v): v for v in status.__members__.values()}
    start = highspy.HighsBasis()
    start.col_status = list(map(names.__getitem__, cols.tolist()))
    start.row_status = list(map(names.__getitem__, rows.tolist()))
    start.valid = True
    h.setBasis(start)


def _lookup_unsorted(keys: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Positions of ``wanted`` in ``keys`` (any order), -1 where absent."""
    order = np.argsort(keys, kind="stable")
    where = _lookup(keys[order], wanted)
    return np.where(where >= 0, order[np.maximum(where, 0)], -1)


def priced_lp(problem: Problem, incumbent: np.ndarray | None, *, time_limit: float) -> PricedLP:
    """The LP bound by pricing (see module docs) within ``time_limit`` seconds.

    Args:
        problem: the problem.
        incumbent: the best mapping so far as a pair index per A node (-1: none), kept in the LP.
        time_limit: seconds; when they run out the simple bound is returned.
    """
    from amreval.match.bounds import highs_solver, milp_model, round_solution, solved

    deadline = time.perf_counter() + time_limit
    P = problem.n_pairs
    keep = problem.pair_u > 0
    if incumbent is not None:
        keep[incumbent[incumbent >= 0]] = True
    n_a, n_b = problem.n_a, problem.n_b
    tp, tq, ta, tb, tw = problem.term_p, problem.term_q, problem.term_ta, problem.term_tb, problem.term_w
    rounds = 0
    basis: tuple | None = None
    while True:
        rounds += 1
        left = deadline - time.perf_counter()
        if left <= 0:
            return PricedLP(problem.bound, None, rounds, int(keep.sum()), 0)
        sub, pairs, terms = problem.restrict(keep)
        model = milp_model(sub)
        if len(pairs):
            h = highs_solver(sub, False, left, presolve=basis is None, model=model)
            if basis is not None:
                _warm_start(h, basis, sub, pairs, terms, model, P)
                n_cols = len(pairs) + len(terms)
                if n_cols >= PRIMAL_MIN_COLUMNS and n_cols - len(basis[0]) <= PRIMAL_SHARE * n_cols:
                    h.setOptionValue("simplex_strategy", _PRIMAL_SIMPLEX)
            h.run()
            if not solved(h):
                return PricedLP(problem.bound, None, rounds, len(pairs), len(terms))
            basis = _basis_of(h, sub, pairs, terms, model, P)
            solution = h.getSolution()
            dual = np.maximum(np.asarray(solution.row_dual, dtype=np.float64), 0.0)
            primal = np.asarray(solution.col_value, dtype=np.float64)
            del h, solution  # freed before the next round's solver is built (the budget counts one at a time)
            _return_freed()
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
            local_pairs = round_solution(sub.pair_src, sub.pair_tgt, primal[:sp], n_a, n_b)
            chosen = np.where(local_pairs >= 0, pairs[np.maximum(local_pairs, 0)], -1) if sp else local_pairs
            reduced = np.maximum(slack_out - covered, 0.0)
            reduced[pairs] = np.maximum(slack + lift[sub.pair_src], 0.0)
            # against the simple bound where it is lower: a mapping through p is still worth at most
            # bound - reduced[p], so at most the lower bound less what the reduced cost exceeds the difference
            lowest = min(problem.bound, bound)
            reduced = np.maximum(reduced - (bound - lowest), 0.0)
            return PricedLP(lowest, chosen, rounds, sp, len(terms), reduced)
        keep |= bad
