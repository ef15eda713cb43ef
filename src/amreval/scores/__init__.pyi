# The package's names, one a line with the module each comes from. Type checkers read them here; at run time
# amreval._lazy.attach_stub reads the same lines, and a module loads when one of its names is first used.

from amreval.scores.compare import compare_systems as compare_systems
from amreval.scores.compare import paired_test as paired_test
from amreval.scores.comparison_results import Comparison as Comparison
from amreval.scores.comparison_results import PairedTest as PairedTest
from amreval.scores.docsmatch import DocPairScore as DocPairScore
from amreval.scores.docsmatch import DocsmatchResult as DocsmatchResult
from amreval.scores.docsmatch import docsmatch_pair as docsmatch_pair
from amreval.scores.f1 import bootstrap_f1 as bootstrap_f1
from amreval.scores.f1 import prf as prf
from amreval.scores.results import Config as Config
from amreval.scores.results import PairScore as PairScore
from amreval.scores.results import Result as Result
from amreval.scores.results import SmatchResult as SmatchResult
from amreval.scores.s2match import s2match_pair as s2match_pair
from amreval.scores.smatch import smatch_pair as smatch_pair
from amreval.scores.vectors import WordVectors as WordVectors
