# The package's names, one a line with the module each comes from. Type checkers read them here; at run time
# amreval._lazy.attach_stub reads the same lines, and a module loads when one of its names is first used.

from amreval.mfbeta.combine import BETAS as BETAS
from amreval.mfbeta.combine import mf_beta as mf_beta
from amreval.mfbeta.document import DocumentMFResult as DocumentMFResult
from amreval.mfbeta.document import document_mfbeta as document_mfbeta
from amreval.mfbeta.document import split_sentences as split_sentences
from amreval.mfbeta.options import FormOptions as FormOptions
from amreval.mfbeta.options import MeaningOptions as MeaningOptions
from amreval.mfbeta.robustness import RobustnessResult as RobustnessResult
from amreval.mfbeta.robustness import parser_robustness as parser_robustness
from amreval.mfbeta.score import MFResult as MFResult
from amreval.mfbeta.score import explain_alignment as explain_alignment
from amreval.mfbeta.score import mfbeta as mfbeta
