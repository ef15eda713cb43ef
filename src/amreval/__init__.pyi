# The package's names, one a line with the module each comes from. Type checkers read them here; at run time
# amreval._lazy.attach_stub reads the same lines, and a module loads when one of its names is first used.

from amreval._version import __version__ as __version__
from amreval.amr import Graph as Graph
from amreval.amr import iter_graphs as iter_graphs
from amreval.amr import loads_graph as loads_graph
from amreval.amr import loads_graphs as loads_graphs
from amreval.amr import read_graphs as read_graphs
from amreval.docamr import convert_document as convert_document
from amreval.docamr import read_msamr_xml as read_msamr_xml
from amreval.docamr import read_sentence_amrs as read_sentence_amrs
from amreval.docamr import text_coref_to_docamr as text_coref_to_docamr
from amreval.errors import AmrevalError as AmrevalError
from amreval.errors import AmrevalWarning as AmrevalWarning
from amreval.errors import DecodeError as DecodeError
from amreval.errors import InputError as InputError
from amreval.errors import MissingDependencyError as MissingDependencyError
from amreval.errors import RenamedSettingWarning as RenamedSettingWarning
from amreval.match import SearchOptions as SearchOptions
from amreval.mfbeta import FormOptions as FormOptions
from amreval.mfbeta import MeaningOptions as MeaningOptions
from amreval.mfbeta import MFResult as MFResult
from amreval.scores import Comparison as Comparison
from amreval.scores import Config as Config
from amreval.scores import DocsmatchResult as DocsmatchResult
from amreval.scores import PairScore as PairScore
from amreval.scores import Result as Result
from amreval.scores import SmatchResult as SmatchResult
from amreval.scores import compare_systems as compare_systems
from amreval.scores import docsmatch_pair as docsmatch_pair
from amreval.scores import s2match_pair as s2match_pair
from amreval.scores import smatch_pair as smatch_pair
from amreval.scores.docsmatch import docsmatch as docsmatch
from amreval.scores.s2match import s2match as s2match
from amreval.scores.smatch import smatch as smatch
