"""The alignment engine: the best one-to-one node mapping between two graphs.

Every score in amreval (Smatch, DocSmatch, S²match) is the value of the best
partial one-to-one mapping from the nodes of graph A (predicted) to the nodes
of graph B (gold), where a mapping earns

* a **unary** weight for each pair ``i -> j`` it uses (instance and attribute
  triples matched by that pair; a float, so S²match can give graded credit),
* a **pairwise** weight for each two pairs ``i -> j``, ``k -> l`` it uses
  together (relation triples matched when both ends are mapped).

Candidates may be restricted per node (DocSmatch's sentence constraint).
Three ways to search, all deterministic for a given seed:

* ``"exact"`` (the default): certified. Hill climbing finds a mapping, then,
  unless it already reaches the simple bound, the exact search by branch and
  bound (the whole problem when it is small, :mod:`amreval.match.certify.exact`; a
  document block by block, the blocks made to agree on the pairs they share,
  :mod:`amreval.match.certify.coupling`, whose first round is a block-by-block bound) and ever stronger
  upper bounds are tried until one proves its score
  (:mod:`amreval.match.certify.proof`): :func:`assignment_bound`, the LP relaxation
  (:func:`lp_bound`; on a document, the coupled search again on the pairs its
  reduced costs leave, branching where the blocks disagree,
  :mod:`amreval.match.certify.fixing`), and last the integer program solved by HiGHS (through
  ``highspy``). Every step stops at a count (subtrees of exact search, simplex iterations,
  branch-and-bound nodes, the search's ``work_limit``), so where it stops, and the score,
  mapping and proof it gives, are the same on every machine and under any load. The result is the
  proven optimum unless a count ran out first; then it is marked unproven and ``bound - score``
  is the gap. A per-problem time limit is kept as a safety net: a search it stops is marked
  ``timed_out`` (where it stopped depends on the machine);
* ``"hillclimb"``: the fast option, smatch's hill climbing alone (moves and
  swaps, steepest ascent) from a greedy start plus ``restarts`` random
  starts, in the kernels (:mod:`amreval.match.kernels`: compiled C where
  built); it stops early when a climb reaches the simple upper bound (every
  triple matches at most once), which proves it;
* ``"auto"``: like ``"exact"`` for problems small enough to solve in
  milliseconds (sentence-level graphs), hill climbing alone for larger ones.

Example:
    >>> from amreval.amr.read import loads_graph
    >>> from amreval.match.triples import graph_triples, encode_pair
    >>> a = graph_triples(loads_graph("(w / want-01 :ARG0 (b / boy))"))
    >>> b = graph_triples(loads_graph("(x / want-01 :ARG0 (y / girl))"))
    >>> result = align(build_problem(encode_pair(a, b)))
    >>> result.score, result.optimal, result.mapping.tolist()
    (3.0, True, [0, 1])
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import numpy as np

from amreval.errors import InputError, TooLarge
from amreval.match.approximate import OVER_BUDGET_RESTARTS, identity_alignment, restricted_problem
from amreval.match.certify import pricing
from amreval.match.certify.bounds import assignment_bound, solve_lp, solve_milp
from amreval.match.certify.exact import BRANCH_MAX_PAIRS, branch_and_bound
from amreval.match.certify.proof import proves
from amreval.match.kernels import backend
from amreval.match.options import (
    DEFAULT_RESTARTS,
    DEFAULT_SOLVER,
    DEFAULT_TIME_LIMIT,
    DEFAULT_WORK_LIMIT,
    SOLVERS,
    SearchOptions,
    Solver,
)
from amreval.match.problem import (
    Alignment,
    Candidates,
    Problem,
    build_problem,
    check_one_to_one,
    lp_memory_estimate,
    nodes_to_pairs,
    pairs_to_nodes,
)
from amreval.match.triples import Triples, encode_pair

__all__ = [
    "align",
    "certified",
    "finish",
    "Clock",
    "align_triples",
    "hill_climb",
    "lp_within_budget",
    "SearchOptions",
    "SOLVERS",
    "DEFAULT_SOLVER",
    "DEFAULT_RESTARTS",
    "DEFAULT_TIME_LIMIT",
    "DEFAULT_WORK_LIMIT",
    "Solver",
]

logger = logging.getLogger(__name__)

#: Problems up to this many candidate pairs and terms get the integer program
#: under ``solver="auto"``.
AUTO_MAX_PAIRS = 400
AUTO_MAX_TERMS = 4000
#: Random restarts are tried in certified search only on problems up to this many candidate
#: pairs: on a long document one random climb costs seconds, and the bounds decide anyway.
CERTIFY_RESTART_MAX_PAIRS = 20_000
#: Problems with more candidate pairs than this get their LP bound by pricing (:mod:`amreval.match.certify.pricing`):
#: a small LP over the pairs with unary weight, grown until the rest are proven not to help.
PRICED_LP_MIN_PAIRS = 5_000
#: The integer program is tried on problems up to this many columns (pairs plus terms): a count, like its
#: node limit (:data:`~amreval.match.certify.bounds.MILP_MAX_NODES`), so whether it is tried is the same on
#: every machine. On larger ones (a whole book as one document) HiGHS's presolve and root node, which no
#: node limit bounds, take minutes; they end with the LP bound, unproven where it does not meet the score,
#: with the gap reported.
MILP_MAX_COLUMNS = 100_000

#: Subtrees of the first coupled search of a document, at most; where it does not prove the document, the
#: search goes on with the LP and on the pairs its reduced costs leave (:mod:`amreval.match.certify.fixing`).
FIRST_COUPLING_SUBTREES = 50_000

_EMPTY_INT = np.zeros(0, dtype=np.int64)
# a mapping must score this much more to replace another; a climb within it of the simple bound reaches it
_TOL = 1e-9


# The document search (amreval.match.certify.coupling, and amreval.match.certify.fixing, which runs it again
# after the LP) is loaded by the first problem that needs it, not with this module: a sentence-level run
# never does. Each of the three steps looks its function up when called.


def coupled_search(problem: Problem, result: Alignment, *, subtrees: int) -> Alignment:
    """:func:`amreval.match.certify.coupling.coupled_search`, its module loaded by the first problem with groups."""
    from amreval.match.certify.coupling import coupled_search as search

    return search(problem, result, subtrees=subtrees)


def fixed_search(problem: Problem, result: Alignment, lp: pricing.PricedLP) -> Alignment:
    """:func:`amreval.match.certify.fixing.fixed_search`, loaded with the coupled search it runs."""
    from amreval.match.certify.fixing import fixed_search as search

    return search(problem, result, lp)


def fixed_milp(
    problem: Problem, result: Alignment, lp: pricing.PricedLP, *, time_limit: float, solve: Callable[..., Alignment]
) -> Alignment:
    """:func:`amreval.match.certify.fixing.fixed_milp` (its module holds the fixed search too)."""
    from amreval.match.certify.fixing import fixed_milp as solve_left

    return solve_left(problem, result, lp, time_limit=time_limit, solve=solve)


def milp_columns(problem: Problem, result: Alignment, priced: pricing.PricedLP | None) -> int:
    """The columns (pairs plus terms) of the integer program that would be solved after ``result``: over the
    pairs a better mapping could use by ``priced``'s reduced costs
    (:func:`amreval.match.certify.fixing.pairs_left`, the terms between them), or the whole problem's."""
    if priced is None or priced.slack is None:
        return problem.n_pairs + problem.n_terms
    from amreval.match.certify.fixing import pairs_left

    left = pairs_left(problem, priced, result.score)
    if left.all():
        return problem.n_pairs + problem.n_terms
    return int(np.count_nonzero(left) + np.count_nonzero(left[problem.term_p] & left[problem.term_q]))


def hill_climb(
    problem: Problem,
    *,
    restarts: int = DEFAULT_RESTARTS,
    seed: int = 0,
    init: np.ndarray | None = None,
) -> Alignment:
    """Hill climbing from a greedy (or given) start plus ``restarts`` random starts.

    Args:
        problem: the problem.
        restarts: number of random starts after the first climb.
        seed: seed of the random starts; same problem and seed give the same result.
        init: optional start mapping (target node per A node, -1 for none)
            used instead of the greedy start.

    Returns:
        The best :class:`Alignment` found; ``optimal`` is True when it
        reaches the simple bound.
    """
    if restarts < 0:
        raise InputError(f"restarts must be >= 0, got {restarts}")
    if init is not None and len(init) != problem.n_a:
        raise InputError(f"init must give a target (or -1) for each of the {problem.n_a} nodes, got {len(init)}")
    if init is not None:
        check_one_to_one(init, "init")
    if problem.n_a == 0 or problem.n_pairs == 0:
        mapping = np.full(problem.n_a, -1, dtype=np.int64)
        return Alignment(mapping, 0.0, problem.bound, problem.bound <= _TOL, "hillclimb", 0)
    found = backend().hill_climb_kernel(
        problem.search_space(),
        restarts=int(restarts),
        seed=int(seed) & 0x7FFFFFFFFFFFFFFF,  # the kernel takes a signed 64-bit seed
        bound=problem.bound,
        init=_EMPTY_INT if init is None else nodes_to_pairs(problem, np.asarray(init)),
    )
    mapping = pairs_to_nodes(problem, found.pairs)
    optimal = found.score >= problem.bound - _TOL
    return Alignment(mapping, found.score, problem.bound, bool(optimal), "hillclimb", found.climbs)


def _reaches(problem: Problem, score: float, bound: float) -> bool:
    """Whether ``bound`` proves ``score`` optimal (:func:`amreval.match.certify.proof.proves`)."""
    return proves(score, bound, integral=problem.integral)


def _proven(result: Alignment) -> Alignment:
    """``result``, proven optimal."""
    return Alignment(
        result.mapping, result.score, result.score, True, result.method, result.climbs, timed_out=result.timed_out
    )


def _better(problem: Problem, result: Alignment, mapping: np.ndarray, method: str) -> Alignment:
    """``mapping`` (found by ``method``) where it scores more than ``result``, else ``result``."""
    if mapping is result.mapping:
        return result
    value = problem.value(mapping)
    if value > result.score + _TOL:
        return Alignment(mapping, value, result.bound, False, method, result.climbs, timed_out=result.timed_out)
    return result


def _exact_search(problem: Problem, result: Alignment) -> Alignment:
    """The exact search from ``result``: block by block where the problem has groups, else whole where it
    is small. Its better mapping replaces ``result``'s; the result is proven where the search proves it,
    else has the search's bound."""
    if problem.groups is not None:
        # block by block, the blocks made to agree on the pairs they share (amreval.match.certify.coupling: its first
        # round is a block-by-block bound), briefly: where they do not agree soon, the LP's reduced costs
        # leave fewer pairs to search (amreval.match.certify.fixing)
        return coupled_search(problem, result, subtrees=FIRST_COUPLING_SUBTREES)
    elif problem.n_pairs <= BRANCH_MAX_PAIRS:
        found = branch_and_bound(problem, result.mapping)
        result = _better(problem, result, found.mapping, "branch-and-bound")
        if found.proven:
            return _proven(result)
    return result


class Clock:
    """The search's safety net: its deadline (``time_limit`` seconds from the start), and whether it stopped a
    step or a step was skipped because it had passed (:attr:`ran_out`, reported as ``timed_out``)."""

    def __init__(self, seconds: float) -> None:
        self.deadline = time.perf_counter() + seconds
        self.ran_out = False

    def up(self) -> bool:
        """Whether the deadline has passed (then a step is skipped: noted in :attr:`ran_out`)."""
        if time.perf_counter() >= self.deadline:
            self.ran_out = True
        return self.ran_out

    def left(self) -> float:
        """Seconds left before the deadline, at least a few milliseconds (a solver needs some)."""
        return max(0.01, self.deadline - time.perf_counter())


def _bounded(problem: Problem, result: Alignment, bound: float) -> Alignment:
    """``result`` proven where ``bound`` proves its score, else with its bound lowered to ``bound``."""
    if _reaches(problem, result.score, bound):
        return _proven(result)
    result.bound = min(result.bound, bound)
    return result


def _lp(
    problem: Problem, result: Alignment, clock: Clock, work_limit: int
) -> tuple[Alignment, pricing.PricedLP | None]:
    """The LP relaxation within ``work_limit`` simplex iterations: its bound, and its solution rounded and the
    climb from that rounding (a fractional solution's rounding is often a few moves from a better mapping),
    mappings that may beat ``result``'s. On problems over :data:`PRICED_LP_MIN_PAIRS` pairs and on every document it
    comes by pricing, whose reduced costs the steps after it use (returned with it; None otherwise)."""
    priced = None
    if problem.n_pairs > PRICED_LP_MIN_PAIRS or problem.groups is not None:
        incumbent = nodes_to_pairs(problem, result.mapping)
        priced = pricing.priced_lp(problem, incumbent, time_limit=clock.left(), work_limit=work_limit)
        bound, lp_pairs, stopped = priced.bound, priced.pairs, priced.timed_out
    else:
        bound, lp_pairs, _, stopped = solve_lp(problem, time_limit=clock.left(), work_limit=work_limit)
    clock.ran_out |= stopped
    if lp_pairs is not None:
        rounded = pairs_to_nodes(problem, lp_pairs)
        result = _better(problem, result, rounded, "lp")
        result = _better(problem, result, hill_climb(problem, restarts=0, init=rounded).mapping, "lp")
    return _bounded(problem, result, bound), priced


def _restarts(
    problem: Problem, result: Alignment, search: SearchOptions, init: np.ndarray | None, clock: Clock
) -> Alignment:
    """The random restarts, where the problem is small enough for them to pay (and the clock has not run out):
    their best mapping replaces ``result``'s where it scores more, under the bound found so far."""
    if not (search.restarts and problem.n_pairs <= CERTIFY_RESTART_MAX_PAIRS) or clock.up():
        return result
    more = hill_climb(problem, restarts=search.restarts, seed=search.seed, init=init)
    if more.score > result.score + _TOL:
        more.bound = result.bound
        more.timed_out = result.timed_out
        result = more
    else:
        result.climbs += more.climbs
    return _bounded(problem, result, result.bound)


def _integer_program(problem: Problem, result: Alignment, priced: pricing.PricedLP | None, clock: Clock) -> Alignment:
    """The integer program within :data:`~amreval.match.certify.bounds.MILP_MAX_NODES` nodes (after a priced LP,
    over the pairs its reduced costs leave); not tried where it would have over :data:`MILP_MAX_COLUMNS` columns
    (:func:`milp_columns`), or once the clock has run out. The better of its mapping and ``result``'s, under the
    lower of the two bounds."""
    if clock.up() or milp_columns(problem, result, priced) > MILP_MAX_COLUMNS:
        return result
    if priced is not None:
        exact = fixed_milp(problem, result, priced, time_limit=clock.left(), solve=solve_milp)
    else:
        exact = solve_milp(problem, time_limit=clock.left(), start=nodes_to_pairs(problem, result.mapping))
    clock.ran_out |= exact.timed_out
    best = exact if exact.score > result.score + _TOL else result
    bound = min(exact.bound, result.bound)
    return Alignment(
        best.mapping,
        best.score,
        bound,
        _reaches(problem, best.score, bound),
        best.method,
        result.climbs,
        timed_out=result.timed_out,
    )


def align(problem: Problem, search: SearchOptions = SearchOptions(), *, init: np.ndarray | None = None) -> Alignment:
    """Find the best mapping with the chosen solver (see module docs).

    ``"exact"`` certifies in steps, each tried only when the ones before could not prove the score, in
    this order (the body below reads as the list):

    1. one climb from the greedy start (or ``init``), proven where it reaches the simple bound;
    2. the exact search (:func:`_exact_search`): on a document the coupled search of its sentence blocks
       (:func:`amreval.match.certify.coupling.coupled_search`, within :data:`FIRST_COUPLING_SUBTREES`
       subtrees), else :func:`~amreval.match.certify.exact.branch_and_bound` on problems of up to
       :data:`~amreval.match.certify.exact.BRANCH_MAX_PAIRS` pairs; its better mapping replaces the climb's;
    3. :func:`~amreval.match.certify.bounds.assignment_bound`;
    4. (where the LP steps' memory, :func:`~amreval.match.problem.lp_memory_estimate`, is within
       :data:`~amreval.match.problem.MEMORY_BUDGET`; otherwise the search ends here, unproven and marked
       ``over_budget``, or with ``search.strict`` raises :class:`~amreval.errors.TooLargeError`)
       the LP relaxation (:func:`~amreval.match.certify.bounds.lp_relaxation`, or on problems over
       :data:`PRICED_LP_MIN_PAIRS` pairs and on every document
       :func:`amreval.match.certify.pricing.priced_lp`), whose rounded solution, and the climb from it,
       replace the mapping where they score higher;
    5. on a document, the fixed search: the coupled search again over the pairs the LP's reduced costs
       leave (:func:`amreval.match.certify.fixing.fixed_search`);
    6. the random restarts;
    7. last the integer program (:func:`~amreval.match.certify.bounds.solve_milp`; after a priced LP, over
       the pairs its reduced costs leave, :func:`amreval.match.certify.fixing.fixed_milp`) within
       :data:`~amreval.match.certify.bounds.MILP_MAX_NODES` nodes, on problems of up to
       :data:`MILP_MAX_COLUMNS` columns.

    Each step stops at a count (the LPs at ``search.work_limit`` simplex iterations), so the result is the same
    on every machine. ``search.time_limit`` seconds, counted from the start of the search, are a safety net: a
    step they stop, or skip once they have run out (the LP, the restarts, the integer program), marks the
    result ``timed_out``.

    A result is ``optimal`` when its score reaches a bound; otherwise ``bound`` is the best bound found, so
    ``bound - score`` is the gap. A problem over the memory budget, restricted to each node's best
    candidates (:func:`amreval.match.approximate.restricted_problem`), is hill climbed whatever the solver
    (:func:`_restricted_climb`).

    Args:
        problem: from :func:`build_problem`.
        search: solver, restarts, seed, time limit (the safety net) and work limit.
        init: optional start mapping for the first climb.

    Returns:
        The best :class:`Alignment` found.
    """
    return certified(problem, search, init=init)[0]


def certified(
    problem: Problem,
    search: SearchOptions = SearchOptions(),
    *,
    init: np.ndarray | None = None,
    integer_program: bool = True,
    clock: Clock | None = None,
) -> tuple[Alignment, pricing.PricedLP | None]:
    """:func:`align`, and the priced LP it solved on the way (None where it was proven before that step, or
    the LP was not priced): its reduced costs stay valid for the proven optimum, so a step after the search
    (DocSmatch's coreference tie-break, :mod:`amreval.match.certify.tiebreak`) can keep only the pairs an
    optimal mapping may use without solving the LP again. ``integer_program=False`` stops before the integer
    program (the caller solves another problem's instead: :func:`finish`). ``clock``: the safety net's clock
    of a search this is one part of (default: the time limit from now; where given, the caller reads whether it
    ran out, :attr:`Clock.ran_out`)."""
    if problem.restricted:
        return _restricted_climb(problem, search, init), None
    if search.solver == "hillclimb" or (
        search.solver == "auto" and (problem.n_pairs > AUTO_MAX_PAIRS or problem.n_terms > AUTO_MAX_TERMS)
    ):
        return hill_climb(problem, restarts=search.restarts, seed=search.seed, init=init), None
    own = clock is None
    clock = clock if clock is not None else Clock(search.time_limit)
    result, priced = _certify(problem, search, init, clock, integer_program)
    if own:
        result.timed_out |= clock.ran_out
    return result, priced


def _certify(
    problem: Problem, search: SearchOptions, init: np.ndarray | None, clock: Clock, integer_program: bool
) -> tuple[Alignment, pricing.PricedLP | None]:
    """The certified search's steps (:func:`certified`), the ``clock`` noting whether it stopped or skipped one."""
    result = hill_climb(problem, restarts=0, seed=search.seed, init=init)
    if result.optimal:
        return result, None
    result = _exact_search(problem, result)
    if result.optimal:
        return result, None
    result = _bounded(problem, result, assignment_bound(problem))
    if result.optimal:
        return result, None
    if _lp_over_budget(problem, search):
        result.over_budget = True
        return result, None
    result, priced = _lp(problem, result, clock, search.work_limit)
    if result.optimal:
        return result, priced
    if priced is not None and problem.groups is not None:
        result = fixed_search(problem, result, priced)
        if result.optimal:
            return result, priced
    result = _restarts(problem, result, search, init, clock)
    if result.optimal or not integer_program:
        return result, priced
    return _integer_program(problem, result, priced, clock), priced


def finish(
    problem: Problem,
    result: Alignment,
    priced: pricing.PricedLP | None,
    search: SearchOptions = SearchOptions(),
    *,
    init: np.ndarray | None = None,
    restarts: bool = True,
    clock: Clock | None = None,
) -> Alignment:
    """The certified search's last steps (:func:`align`'s 6 and 7: the random restarts, then the integer program
    within its node limit) after a search that ran the steps before them elsewhere: from its best mapping and
    bound (``result``) and its priced LP (``priced``, whose reduced costs leave the integer program's pairs;
    None: the whole problem's). ``restarts=False``: the integer program alone (the restarts ran already, as
    in :func:`certified` with ``integer_program=False``); ``clock``: the safety net's clock of the search this
    finishes (default: the time limit from now; where given, the caller reads whether it ran out)."""
    if result.optimal:
        return result
    own = clock is None
    clock = clock if clock is not None else Clock(search.time_limit)
    if restarts:
        result = _restarts(problem, result, search, init, clock)
    if not result.optimal:
        result = _integer_program(problem, result, priced, clock)
    if own:
        result.timed_out |= clock.ran_out
    return result


def lp_within_budget(problem: Problem) -> bool:
    """Whether the LP steps' memory on ``problem`` (:func:`~amreval.match.problem.lp_memory_estimate`) is within
    :data:`~amreval.match.problem.MEMORY_BUDGET` (a step that runs them, the tie-break's too, asks first)."""
    from amreval.match import problem as problem_module

    unary = int(np.count_nonzero(problem.pair_u > 0.0))
    return lp_memory_estimate(problem.n_terms, unary) <= problem_module.MEMORY_BUDGET


def _lp_over_budget(problem: Problem, search: SearchOptions) -> bool:
    """Whether the LP steps could take more than the memory budget on ``problem``
    (:func:`~amreval.match.problem.lp_memory_estimate`): then the search ends before them, its score
    unproven under the bound found so far, marked over the budget.

    Raises:
        TooLarge: so, with ``search.strict``.
    """
    from amreval.match import problem as problem_module

    unary = int(np.count_nonzero(problem.pair_u > 0.0))
    need = lp_memory_estimate(problem.n_terms, unary)
    if need <= problem_module.MEMORY_BUDGET:
        return False
    if search.strict:
        raise TooLarge(
            problem.n_terms,
            unary,
            f"the alignment problem of {problem.n_a} x {problem.n_b} nodes has {problem.n_terms:,} pairwise terms "
            f"and {problem.n_pairs:,} candidate pairs; its LP bounds need about {need / 1024**3:,.1f} GiB, over "
            f"the budget of {problem_module.MEMORY_BUDGET / 1024**3:.1f} GiB; split the graph (DocSmatch: :sntK "
            "edges restrict alignments to their sentence)",
        )
    return True


def _restricted_climb(problem: Problem, search: SearchOptions, init: np.ndarray | None) -> Alignment:
    """A problem restricted to each node's best candidates: hill climbing from the greedy start and at most
    :data:`~amreval.match.approximate.OVER_BUDGET_RESTARTS` random ones, under the whole problem's bound
    (proven only where the climb reaches it), marked over the budget."""
    found = hill_climb(problem, restarts=min(search.restarts, OVER_BUDGET_RESTARTS), seed=search.seed, init=init)
    proven = _reaches(problem, found.score, problem.bound)
    return Alignment(found.mapping, found.score, problem.bound, proven, "restricted", found.climbs, over_budget=True)


def align_triples(
    a: Triples,
    b: Triples,
    search: SearchOptions = SearchOptions(),
    *,
    allowed: Candidates | np.ndarray | None = None,
) -> Alignment:
    """Align two graphs' triples (the building block of every score).

    Two graphs the same up to variable names are aligned node for node, proven without the search
    (:func:`amreval.match.approximate.identity_alignment`), under the certified search at any size and
    under the others where the problem is over the memory budget. A problem over the budget is otherwise
    restricted to each node's best candidates and hill climbed (:func:`align`), or with ``search.strict``
    raises :class:`~amreval.errors.TooLargeError`.

    Example:
        >>> from amreval.amr.read import loads_graph
        >>> from amreval.match.triples import graph_triples
        >>> found = align_triples(graph_triples(loads_graph("(a / b :ARG0 (c / d))")),
        ...                       graph_triples(loads_graph("(x / b :ARG0 (y / e))")))
        >>> found.score, found.mapping.tolist()
        (3.0, [0, 1])
    """
    pair = encode_pair(a, b)
    if search.solver == "exact":
        same = identity_alignment(pair, allowed)
        if same is not None:
            return same
    try:
        problem = build_problem(pair, allowed=allowed)
    except TooLarge:
        if search.strict:
            raise
        same = identity_alignment(pair, allowed)
        if same is not None:
            return same
        if isinstance(allowed, np.ndarray):
            allowed = Candidates.from_matrix(allowed)
        problem = restricted_problem(pair, allowed=allowed)
    return align(problem, search)
