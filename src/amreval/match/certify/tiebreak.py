"""The coreference tie-break among the optimal mappings, certified on top of the main score's proof.

DocSmatch's coreference sub-score (:mod:`amreval.scores.docsmatch`) is counted under a mapping with
the best main count that has, among those, the most coreference matches: the **graded** problem gives
each gold coreference item ``1 + eps`` instead of 1 (``eps = 1 / (2 (n + 1))`` for ``n`` items, so every
bonus together never outweighs one main match), and its optimum is that mapping. Every weight of the
graded problem is ``m + eps * k`` with whole ``m`` (the main weight) and ``k`` (the bonus), so a
mapping's value is ``main(x) + eps * bonus(x)``, and the graded optimum is ``M + eps * B``: the main
optimum ``M`` and the most bonus ``B`` of a mapping worth ``M``. Searched whole, the graded problem must
be proven to within one ``eps``; on documents with long chains (a narrator's ``i`` in every sentence)
many mappings share the main optimum and differ by a few bonuses, and that proof cost several times the
main score's. :func:`tie_break` proves the two parts one after the other, each step starting from what
the steps before it found (no step is run again from scratch):

1. the **main problem** (the weights ``m``) is solved and proven by the main score's own steps
   (:func:`amreval.match.alignment.certified`: the same mapping, proof and cost as ``--no-coref-subscore``),
   which hands on its priced LP. Where they proved it before the LP (the climb, the coupled search or the
   assignment bound), the graded problem's climb from the greedy start and its coupled search
   (:func:`~amreval.match.alignment.align`'s first two steps, cheap) come next: where they prove it, the
   mapping and the cost are the graded search's (on the 48 documents of ``bench_docparse`` they proved the
   graded problem only where the main problem was proven by its coupled search; elsewhere they cost a
   failed coupled search, about 0.1 s on a document of 200 sentences);
2. that LP's reduced costs at ``M`` (:func:`amreval.match.certify.fixing.pairs_left`) leave the pairs
   that can belong to a mapping worth ``M``: no optimal mapping uses another, so the graded problem over
   them has the whole's optimum (where the main problem was proven before its LP, that LP is solved
   now). The graded climb from the main optimum there gives a first bonus: a climb on the graded problem
   never loses a main match;
3. over those pairs, for a few whole ``lam`` (:data:`LADDER`), the problem with weights ``lam * m + k``
   (whole numbers: proofs to within one, as the main score's) is searched by the certified search's
   steps short of the restarts and the integer program. Every main-optimal mapping ``x`` has
   ``bonus(x) = lam * (main(x) - M) + bonus(x)``, so its optimum less ``lam * M`` bounds ``B`` (a
   Lagrangian bound; a mapping that is not main-optimal only lowers the term it adds), and every
   mapping it finds with ``main(x) = M`` has a bonus to reach it. Where that search finds a mapping
   worth more than every main-optimal one known, its bound cannot come down to the bonus found, and the
   step is given up at once. Where it ran all its steps and left a gap on the bonus that the graded LP cannot
   close (every graded weight is at least the main one, so the graded LP is at least the main LP: a ceiling
   of ``(main LP - M) / eps`` on the bonus at best), the graded integer program over those pairs goes next
   (:func:`_integer_program_left`; where those pairs and the terms between them are within
   :data:`~amreval.match.alignment.MILP_MAX_COLUMNS`): the graded steps of 4 would branch again, over more
   pairs, with a weaker bound;
4. else the graded problem's own steps (climb, coupled search, assignment bound, priced LP, fixed search)
   from the best main-optimal mapping found, under the bound of step 3;
5. else its restarts and integer program (:func:`amreval.match.alignment.finish`), from that mapping and
   with that LP, within its node limit.

A document whose main problem only the integer program would prove (step 1 short of it left it unproven)
goes from there straight to the graded problem's integer program (:func:`_graded_integer_program`), over the
pairs the main LP leaves against the best main score known: its optimum is the whole's, and its main part
the main optimum, so one integer program proves both (the searches of steps 3 and 4 would most likely fail
there as they did on the main problem). Where that integer program is left unproven or not tried, the main
problem's runs, then the graded one's over the pairs its LP leaves against the main optimum.
Where the main problem stays unproven (a work limit ran out), its mapping, climbed on the graded
problem, is kept under the main bound plus every bonus: the main score and its bound are then the main
score's own. Every step stops at a count, as in :func:`~amreval.match.alignment.align` (the LPs within the
search's ``work_limit`` simplex iterations, the integer program within its node limit): no proof here
depends on the clock. One time limit for the whole tie-break is the safety net; a result it stopped is
marked ``timed_out``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

import numpy as np

from amreval.match.alignment import (
    FIRST_COUPLING_SUBTREES,
    MILP_MAX_COLUMNS,
    Clock,
    certified,
    coupled_search,
    finish,
    fixed_search,
    hill_climb,
)
from amreval.match.certify import pricing
from amreval.match.certify.bounds import assignment_bound
from amreval.match.certify.fixing import pairs_left
from amreval.match.certify.proof import PROOF_TOLERANCE, proves
from amreval.match.options import SearchOptions
from amreval.match.problem import Alignment, Problem, nodes_to_pairs, pairs_to_nodes

__all__ = ["tie_break", "split_weights", "LADDER"]

#: The multipliers of the main weights tried, in order. A larger one is closer to the graded problem itself
#: (a bound as tight, a search as hard): on the benchmarks' documents ``lam = 4`` proved none that ``lam = 1``
#: left, at several times its cost.
LADDER = (1,)
# the decomposition must reproduce the graded weights this closely
_SPLIT_TOL = 1e-9


def split_weights(problem: Problem, eps: float) -> tuple[Problem, np.ndarray, np.ndarray] | None:
    """The main problem (whole weights ``m``) of a graded ``problem`` whose weights are ``m + eps * k``, and the
    bonuses ``k`` of its pairs and terms; None where the weights are not of that form."""
    if not 0 < eps < 0.5:
        return None
    main_u, main_t = np.floor(problem.pair_u + PROOF_TOLERANCE), np.floor(problem.term_w + PROOF_TOLERANCE)
    bonus_u, bonus_t = np.round((problem.pair_u - main_u) / eps), np.round((problem.term_w - main_t) / eps)
    if not (
        np.allclose(main_u + eps * bonus_u, problem.pair_u, rtol=0, atol=_SPLIT_TOL)
        and np.allclose(main_t + eps * bonus_t, problem.term_w, rtol=0, atol=_SPLIT_TOL)
    ):
        return None
    main = replace(problem, pair_u=main_u, term_w=main_t, integral=True, _adj=None, _rows=None)
    return main, bonus_u, bonus_t


def _search(
    problem: Problem,
    init: np.ndarray | None,
    search: SearchOptions,
    clock: Clock,
    enough: Callable[[Alignment], bool] | None = None,
) -> tuple[Alignment, pricing.PricedLP | None]:
    """The certified search's steps short of the restarts and the integer program: a climb from ``init`` (None:
    the greedy start), the coupled search, the assignment bound, the priced LP (its rounding a mapping too),
    the fixed search. The best mapping found and the lowest bound, ``optimal`` where it proves the mapping;
    and the priced LP where it got that far (for the steps after it). ``enough``, where given, sees the
    result after each step that finds mappings, and ends the search there (unproven) when it says so. The LP
    within the search's work limit; ``clock`` notes whether the time limit's safety net stopped it."""
    result = hill_climb(problem, restarts=0, seed=search.seed, init=init)
    if result.optimal or problem.groups is None or (enough is not None and enough(result)):
        return result, None
    result = coupled_search(problem, result, subtrees=FIRST_COUPLING_SUBTREES)
    if result.optimal or (enough is not None and enough(result)):
        return result, None
    bound = min(result.bound, assignment_bound(problem))
    lp = _priced(problem, result.mapping, search, clock)
    bound = min(bound, lp.bound)
    if lp.pairs is not None:
        rounded = pairs_to_nodes(problem, lp.pairs)
        value = problem.value(rounded)
        if value > result.score + PROOF_TOLERANCE:
            result = Alignment(rounded, value, bound, False, "lp", result.climbs)
    result.bound = bound
    if proves(result.score, bound, integral=problem.integral):
        return Alignment(result.mapping, result.score, result.score, True, result.method, result.climbs), lp
    if enough is not None and enough(result):
        return result, lp
    return fixed_search(problem, result, lp), lp


def _priced(problem: Problem, mapping: np.ndarray, search: SearchOptions, clock: Clock) -> pricing.PricedLP:
    """The priced LP of ``problem`` from ``mapping``, within the search's work limit (and what is left of the
    ``clock``'s time, the safety net: noted there where it stopped the LP)."""
    incumbent = nodes_to_pairs(problem, mapping)
    lp = pricing.priced_lp(problem, incumbent, time_limit=clock.left(), work_limit=search.work_limit)
    clock.ran_out |= lp.timed_out
    return lp


def tie_break(problem: Problem, eps: float, bonus_bound: float, search: SearchOptions) -> Alignment | None:
    """The graded ``problem``'s optimum on top of the main problem's proof (module docs).

    Args:
        problem: the graded problem, weights ``m + eps * k`` (a document's: with sentence groups).
        eps: the bonus's weight.
        bonus_bound: an upper bound on any mapping's bonus (the gold coreference items); ``eps * bonus_bound``
            must be below 1 (all bonuses together below one main match).
        search: the search settings (the main score's: the same steps, seed, work limit and time limit).

    Returns:
        None where the tie-break does not apply (no sentence groups, ``eps`` not below 1/2,
        ``eps * bonus_bound`` of 1 or more, or weights not of the form ``m + eps * k``: the caller searches
        the graded problem whole); else the
        graded optimum, ``optimal`` and ``score`` its graded value, or where the main problem or the
        tie-break is left unproven (a work limit ran out), the best mapping found with a bound on the graded
        optimum; ``timed_out`` where the time limit (the safety net, one for the whole tie-break) stopped a step.
    """
    if problem.groups is None or not 0 < eps < 0.5 or eps * bonus_bound >= 1.0:
        return None
    clock = Clock(search.time_limit)
    result = _tie_break(problem, eps, bonus_bound, search, clock)
    if result is not None:
        result.timed_out |= clock.ran_out
    return result


def _tie_break(
    problem: Problem, eps: float, bonus_bound: float, search: SearchOptions, clock: Clock
) -> Alignment | None:
    """:func:`tie_break`'s steps, the ``clock`` noting whether the safety net stopped one."""
    split = split_weights(problem, eps)
    if split is None:
        return None
    main, bonus_u, bonus_t = split
    # 1. the main problem, by the main score's own steps (the same mapping, proof and cost) short of the
    # integer program: where it needs that, the graded problem's is solved instead
    first, lp = certified(main, search, integer_program=False, clock=clock)
    # where those proved it before the LP, the graded problem's climb from the greedy start and its coupled search
    # (align's first two steps, cheap): where they prove it, the same mapping and cost as the graded search
    direct = None
    if first.optimal and lp is None:
        direct = hill_climb(problem, restarts=0, seed=search.seed)
        if not direct.optimal:
            direct = coupled_search(problem, direct, subtrees=FIRST_COUPLING_SUBTREES)
        if direct.optimal:
            return direct
    by_integer_program = not first.optimal and not first.over_budget
    if by_integer_program:
        if lp is None or lp.slack is None:
            lp = _priced(main, first.mapping, search, clock)
        at_once = _graded_integer_program(problem, main, first, lp, eps, search, clock)
        if at_once is not None:
            return at_once
        first = finish(main, first, lp, search, restarts=False, clock=clock)
    if not first.optimal:
        return _main_unproven(problem, main, first, eps, bonus_bound, search)
    ties = _Ties(problem, main, first, eps)
    if direct is not None:
        ties.climbs += direct.climbs
        ties.offer(direct.mapping)
    # 2. the pairs of mappings worth its optimum, by the reduced costs of its LP (solved now where the main
    # problem was proven before the LP)
    if lp is None or lp.slack is None:
        lp = _priced(main, first.mapping, search, clock)
    left = pairs_left(main, lp, ties.optimum - 1.0)
    ties.graded, _, _ = problem.restrict(left)
    ties.offer(first.mapping, climb=True)
    if by_integer_program:
        # a document whose main problem only the integer program proved: the graded one's over those pairs,
        # from the main optimum (the searches before it would most likely fail here as they did there)
        return _integer_program_left(ties, search, clock)
    # 3. the Lagrangian bound on the bonus over those pairs
    ceiling = np.inf
    for lam in LADDER:
        weighted = replace(
            problem,
            pair_u=lam * main.pair_u + bonus_u,
            term_w=lam * main.term_w + bonus_t,
            integral=True,
            bound=lam * main.bound + float(bonus_bound),
            _adj=None,
            _rows=None,
        )
        sub, _, _ = weighted.restrict(left)
        ties.gave_up = False
        result, _ = _search(sub, ties.mapping, search, clock, enough=partial(ties.beaten, lam))
        ties.climbs += result.climbs
        ties.offer(result.mapping, climb=True)
        ceiling = min(ceiling, np.floor(result.bound + PROOF_TOLERANCE) - lam * ties.optimum)
        if ties.found >= ceiling:
            return ties.proven()
    if (
        not ties.gave_up
        and ceiling <= (lp.bound - ties.optimum) / eps
        and ties.graded.n_pairs + ties.graded.n_terms <= MILP_MAX_COLUMNS
    ):
        # the Lagrangian search ran all its steps and left a gap on the bonus that the graded LP cannot close:
        # the graded integer program over the pairs left goes next (where it is within the columns)
        return _integer_program_left(ties, search, clock)
    # 4. the graded problem's own steps, from the best mapping found; a main-optimal mapping is worth the
    # main optimum and its bonus, so every graded bound is a ceiling on the bonus too
    result, priced = _search(problem, ties.mapping, search, clock)
    ties.climbs += result.climbs
    ties.offer(result.mapping)
    ceiling = min(ceiling, np.floor((result.bound - ties.optimum) / eps + PROOF_TOLERANCE))
    if result.optimal or ties.found >= ceiling:
        return ties.proven()
    # 5. its restarts and integer program (within its node limit), from there
    bound = max(ties.value, min(result.bound, ties.optimum + eps * ceiling))
    start = Alignment(ties.mapping, ties.value, bound, False, "tie-break", ties.climbs)
    return finish(problem, start, priced, search, init=None, clock=clock)


class _Ties:
    """The tie-break's state: the main optimum, the main-optimal mapping with the most bonus found and its
    bonus, and the graded problem over the pairs left (once known)."""

    def __init__(self, problem: Problem, main: Problem, first: Alignment, eps: float) -> None:
        self.problem, self.main, self.eps = problem, main, eps
        self.optimum = float(first.score)
        self.graded: Problem = problem
        self.mapping = first.mapping
        self.found = self.bonus(first.mapping)
        self.climbs = first.climbs
        # whether the last Lagrangian search was given up (``beaten``)
        self.gave_up = False

    @property
    def value(self) -> float:
        """The graded value of the mapping kept."""
        return float(self.problem.value(self.mapping))

    def bonus(self, mapping: np.ndarray) -> int:
        """The bonus of ``mapping``: its graded value less its main value, in ``eps``."""
        return int(round((self.problem.value(mapping) - self.main.value(mapping)) / self.eps))

    def offer(self, mapping: np.ndarray, *, climb: bool = False) -> None:
        """Keep ``mapping`` where it is main-optimal with more bonus; ``climb``: and the graded climb from it (over
        the pairs left: a climb there never loses a main match, every bonus together being worth less than
        one, and a mapping a match short with much bonus is often one move from a main-optimal one)."""
        candidates = [mapping]
        if climb:
            climbed = hill_climb(self.graded, restarts=0, seed=0, init=mapping)
            self.climbs += climbed.climbs
            candidates.append(climbed.mapping)
        for candidate in candidates:
            if self.main.value(candidate) >= self.optimum - PROOF_TOLERANCE:
                bonus = self.bonus(candidate)
                if bonus > self.found:
                    self.mapping, self.found = candidate, bonus

    def beaten(self, lam: int, result: Alignment) -> bool:
        """Whether the weighted search (``lam * m + k``) found a mapping worth more than every main-optimal one
        known (after taking what it found): its bound cannot then come down to the bonus found, so the
        Lagrangian step is given up at once."""
        self.offer(result.mapping, climb=True)
        self.gave_up = bool(result.score > lam * self.optimum + self.found + 0.5)
        return self.gave_up

    def proven(self) -> Alignment:
        """The mapping kept, proven the graded optimum."""
        value = self.value
        return Alignment(self.mapping, value, value, True, "tie-break", self.climbs)


def _graded_integer_program(
    problem: Problem,
    main: Problem,
    first: Alignment,
    lp: pricing.PricedLP,
    eps: float,
    search: SearchOptions,
    clock: Clock,
) -> Alignment | None:
    """A main problem that only the integer program would prove: the graded problem's integer program instead,
    over the pairs a mapping worth at least the best main score known (``first``'s) could use, by the main
    LP's reduced costs. Every mapping worth that much or more uses those pairs only, and the graded optimum
    is one (its main part is the main optimum), so the graded optimum there is the whole's: one integer program
    proves the main score and the tie-break at once, where the main one's and then the graded one's proved
    them one after the other. None where it is left unproven (its node limit), or not tried (over
    :data:`~amreval.match.alignment.MILP_MAX_COLUMNS` columns): the main problem's integer program goes on
    from there."""
    ties = _Ties(problem, main, first, eps)
    ties.graded, _, _ = problem.restrict(pairs_left(main, lp, ties.optimum - 1.0))
    if ties.graded.n_pairs + ties.graded.n_terms > MILP_MAX_COLUMNS:
        return None  # not tried there (nor its LP solved)
    ties.offer(first.mapping, climb=True)
    found = _graded_milp(ties, search, clock)
    if not found.optimal:
        return None
    # the mapping uses the pairs left only, and the terms between them are all there: the same value
    value = float(problem.value(found.mapping))
    return Alignment(found.mapping, value, value, True, "tie-break", ties.climbs)


def _graded_milp(ties: _Ties, search: SearchOptions, clock: Clock) -> Alignment:
    """The graded integer program over the pairs left (``ties.graded``), from the mapping kept, with the reduced
    costs of the graded LP there (which leave its own pairs), within its node limit."""
    priced = _priced(ties.graded, ties.mapping, search, clock)
    start = Alignment(ties.mapping, ties.value, max(ties.value, priced.bound), False, "tie-break", ties.climbs)
    return finish(ties.graded, start, priced, search, restarts=False, clock=clock)


def _integer_program_left(ties: _Ties, search: SearchOptions, clock: Clock) -> Alignment:
    """The graded problem's integer program over the pairs left (``ties.graded``, whose optimum is the whole's),
    from the best main-optimal mapping found, with the reduced costs of the graded LP there; within its node
    limit."""
    found = _graded_milp(ties, search, clock)
    ties.offer(found.mapping)
    if found.optimal:
        return ties.proven()
    # the mapping uses the pairs left only, and the terms between them are all there: the same value
    return Alignment(ties.mapping, ties.value, max(ties.value, found.bound), False, "tie-break", ties.climbs)


def _main_unproven(
    problem: Problem, main: Problem, first: Alignment, eps: float, bonus_bound: float, search: SearchOptions
) -> Alignment:
    """The main problem left unproven (a work limit ran out): its mapping, climbed on the graded
    problem (never losing a main match), under the main bound plus every bonus; the main score and its bound
    are the main score's own."""
    climbed = hill_climb(problem, restarts=0, seed=search.seed, init=first.mapping)
    mapping = climbed.mapping if climbed.score > problem.value(first.mapping) + PROOF_TOLERANCE else first.mapping
    value = float(problem.value(mapping))
    bound = max(value, float(np.floor(first.bound + PROOF_TOLERANCE)) + eps * bonus_bound)
    return Alignment(
        mapping,
        value,
        bound,
        proves(value, bound, integral=False),
        "tie-break",
        first.climbs + climbed.climbs,
        over_budget=first.over_budget,
    )
