"""How the best alignment is searched for: the solvers and :class:`SearchOptions`, checked once."""

from __future__ import annotations

import sys
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, ClassVar, Literal, TypedDict, get_args

from amreval.errors import InputError

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "Solver",
    "SOLVERS",
    "DEFAULT_SOLVER",
    "DEFAULT_RESTARTS",
    "DEFAULT_TIME_LIMIT",
    "DEFAULT_WORK_LIMIT",
    "SearchKeywords",
    "SearchOptions",
]

Solver = Literal["hillclimb", "exact", "auto"]
SOLVERS: tuple[str, ...] = get_args(Solver)
#: Certified by default: hill climbing alone missed the optimum on real
#: documents (see benchmarks/); the bounds prove most problems for little more.
DEFAULT_SOLVER: Solver = "exact"
#: Random starts after the greedy one. Climbs stop as soon as one reaches the
#: simple upper bound, so identical or near-identical graphs cost one climb.
DEFAULT_RESTARTS = 19
#: Simplex iterations of HiGHS allowed to each LP bound of a problem (the LP relaxation, or the priced LP over
#: all its rounds): a count, so where the certified search stops, and so its score, mapping and proof, are the
#: same on every machine and under any load. Above the most any LP of the measured data needed (39,914: a
#: 200-sentence parser document with over-merged coreference chains; 15,793 the most of a document proven; the
#: 1000-sentence ones at most 10,311), and low enough for the slowest LPs seen (dense random graphs of the
#: memory benchmark, 2 ms an iteration on a quiet machine) to stop within about 100 s. HiGHS's integer program
#: is held by counts of its own (at most :data:`~amreval.match.certify.bounds.MILP_MAX_NODES` branch-and-bound
#: nodes, tried on problems of at most :data:`~amreval.match.alignment.MILP_MAX_COLUMNS` columns).
DEFAULT_WORK_LIMIT = 50_000
#: Seconds per problem, counted from the start of its search: a safety net, not the limit that decides. The
#: work limits (:data:`DEFAULT_WORK_LIMIT` and the search's counts) end every search measured well within it
#: (the longest, a 1000-sentence document with the coreference sub-score, took 143 s in all on a machine with
#: twice as many busy processes as cores, the hardest sentence-level pair 93 s); a pair the clock stops is
#: marked (``timed_out``), since where it stopped depends on the machine's speed and load. (Until the work
#: limits, 30 s per problem decided, and a document proven on a quiet machine could end unproven under load.)
DEFAULT_TIME_LIMIT = 600.0


def _is_integer(value: object) -> bool:
    """Whether ``value`` is an integer (not a bool): an ``int`` or a NumPy integer. NumPy is not loaded
    to tell: where it is not loaded yet, no value is one of its integers."""
    if isinstance(value, int):
        return not isinstance(value, bool)
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.integer)


class SearchKeywords(TypedDict, total=False):
    """The search settings as keywords, each optional: what the scoring functions take as ``**search``
    and turn into :class:`SearchOptions` (see there for their meaning and defaults)."""

    solver: Solver
    restarts: int
    seed: int
    time_limit: float
    work_limit: int


@dataclass(frozen=True)
class SearchOptions:
    """How to search for the best alignment; checked once, where the user comes in.

    Attributes:
        solver: ``"exact"`` (default: certified), ``"hillclimb"`` or ``"auto"`` (see the module docs).
        restarts: random starts of hill climbing after the greedy one (smatch's ``-r``).
        seed: seed of the random starts; the same inputs and seed give the same result.
        time_limit: seconds per problem, counted from the start of its search: the safety net. The work
            limits decide where a search stops; a search the clock stops is marked ``timed_out`` (its result
            can depend on the machine's speed and load).
        work_limit: simplex iterations of HiGHS allowed to each LP bound of a problem (:data:`DEFAULT_WORK_LIMIT`):
            a count, the same on every machine. A search it stops is unproven, the same way everywhere.
        strict: a problem over the memory budget raises :class:`~amreval.errors.TooLargeError` instead
            of being aligned within it (:mod:`amreval.match.approximate`). Not a field and not a search
            keyword: the scores set it from their own ``strict`` (:meth:`as_strict`); not shown, not
            compared, kept by :meth:`with_seed` and by pickling (the workers').

    Raises:
        InputError: an unknown solver, negative restarts, a time limit that is
            not positive, a work limit that is not a positive integer.

    Example:
        >>> SearchOptions(restarts=4)
        SearchOptions(solver='exact', restarts=4, seed=0, time_limit=600.0, work_limit=50000)
        >>> SearchOptions(solver="fast")
        Traceback (most recent call last):
        ...
        amreval.errors.InputError: unknown solver 'fast'; expected one of hillclimb, exact, auto
    """

    solver: Solver = DEFAULT_SOLVER
    restarts: int = DEFAULT_RESTARTS
    seed: int = 0
    time_limit: float = DEFAULT_TIME_LIMIT
    work_limit: int = DEFAULT_WORK_LIMIT
    strict: ClassVar[bool] = False  # an instance's own value, where set, is in its __dict__ (as_strict)

    def __post_init__(self) -> None:
        if self.solver not in SOLVERS:
            raise InputError(f"unknown solver {self.solver!r}; expected one of {', '.join(SOLVERS)}")
        if not _is_integer(self.restarts) or self.restarts < 0:
            raise InputError(f"restarts must be an integer >= 0, got {self.restarts!r}")
        if not _is_integer(self.seed):
            raise InputError(f"seed must be an integer, got {self.seed!r}")
        if not isinstance(self.time_limit, (int, float)) or not self.time_limit > 0:
            raise InputError(f"time_limit must be a positive number of seconds, got {self.time_limit!r}")
        if not _is_integer(self.work_limit) or self.work_limit < 1:
            raise InputError(f"work_limit must be an integer >= 1 (simplex iterations), got {self.work_limit!r}")
        object.__setattr__(self, "restarts", int(self.restarts))
        object.__setattr__(self, "seed", int(self.seed))
        object.__setattr__(self, "time_limit", float(self.time_limit))
        object.__setattr__(self, "work_limit", int(self.work_limit))

    @classmethod
    def from_keywords(cls, **search: Unpack[SearchKeywords]) -> SearchOptions:
        """The options of a scoring function's ``**search`` keywords (the others take their defaults).

        Raises:
            TypeError: a keyword that is not a search setting (a misspelt one, say), named.
            InputError: as :class:`SearchOptions`.

        Example:
            >>> SearchOptions.from_keywords(restarts=4, seed=1)
            SearchOptions(solver='exact', restarts=4, seed=1, time_limit=600.0, work_limit=50000)
            >>> SearchOptions.from_keywords(restart=4)
            Traceback (most recent call last):
            ...
            TypeError: unexpected keyword argument 'restart' (search settings: solver, restarts, seed, time_limit, ...)
        """
        unknown = [name for name in search if name not in _FIELDS]
        if unknown:
            raise TypeError(f"unexpected keyword argument {unknown[0]!r} (search settings: {', '.join(_FIELDS)})")
        return cls(**search)

    def as_strict(self, strict: bool = True) -> SearchOptions:
        """The same options, a problem over the memory budget an error (``strict``) or aligned within it.

        Example:
            >>> SearchOptions().as_strict().strict, SearchOptions().as_strict() == SearchOptions()
            (True, True)
        """
        new = object.__new__(SearchOptions)
        new.__dict__.update(self.__dict__, strict=bool(strict))
        return new

    def with_seed(self, seed: int) -> SearchOptions:
        """The same options with another seed (the others checked already: quicker than ``replace``).

        Example:
            >>> SearchOptions(restarts=4).with_seed(7)
            SearchOptions(solver='exact', restarts=4, seed=7, time_limit=600.0, work_limit=50000)
        """
        if not _is_integer(seed):
            raise InputError(f"seed must be an integer, got {seed!r}")
        new = object.__new__(SearchOptions)
        new.__dict__.update(self.__dict__, seed=int(seed))
        return new


_FIELDS = tuple(f.name for f in fields(SearchOptions))
