# The package's names, one a line with the module each comes from. Type checkers read them here; at run time
# amreval._lazy.attach_stub reads the same lines, and a module loads when one of its names is first used.

from amreval.match.alignment import align as align
from amreval.match.alignment import align_triples as align_triples
from amreval.match.alignment import hill_climb as hill_climb
from amreval.match.certify.bounds import assignment_bound as assignment_bound
from amreval.match.diff import TripleDiff as TripleDiff
from amreval.match.diff import triple_diff as triple_diff
from amreval.match.options import DEFAULT_RESTARTS as DEFAULT_RESTARTS
from amreval.match.options import DEFAULT_SOLVER as DEFAULT_SOLVER
from amreval.match.options import DEFAULT_TIME_LIMIT as DEFAULT_TIME_LIMIT
from amreval.match.options import SOLVERS as SOLVERS
from amreval.match.options import SearchOptions as SearchOptions
from amreval.match.problem import Alignment as Alignment
from amreval.match.problem import Candidates as Candidates
from amreval.match.problem import Problem as Problem
from amreval.match.problem import build_problem as build_problem
from amreval.match.problem import inverse_mapping as inverse_mapping
from amreval.match.triples import EncodedPair as EncodedPair
from amreval.match.triples import Triples as Triples
from amreval.match.triples import encode_pair as encode_pair
from amreval.match.triples import graph_triples as graph_triples
from amreval.match.triples import normalize_constant as normalize_constant
