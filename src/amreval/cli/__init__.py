"""The ``amreval`` command line: smatch-like scoring and conversion.

Each command is a module of this package, ``amreval.cli.<command>`` (``-`` written ``_``), with
``add_arguments(parser)``, which gives the command's parser its description and options, and
``run(args)``. :data:`COMMANDS` lists them with their one-line help; the top-level parser registers
every command but reads the options of the one about to run only, so only that command's module is
imported (and only the modules its options' defaults come from).

Exit status: 0 when done, 1 for bad input (a file that cannot be read, a reference that cannot be
parsed, files that do not pair), 2 for a bad command line (an unknown option, a value out of range,
settings that do not go together: argparse's errors and every :class:`~amreval.errors.UsageError`,
wherever it is raised), 130 when interrupted (Ctrl-C). A closed output pipe (``| head``) ends the run
quietly.

Example:
    amreval smatch -f pred.amr gold.amr --pr
"""

from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from collections.abc import Sequence

from amreval._version import __version__
from amreval.cli.process import EXIT_INTERRUPTED as EXIT_INTERRUPTED  # the exit statuses in one place
from amreval.cli.process import exit_on_interrupt, log_to_stderr, quiet_broken_pipe, show_warning
from amreval.errors import AmrevalError, UsageError

#: Exit status for input that cannot be used (files, graphs, pairing).
EXIT_INPUT = 1
#: Exit status for a bad command line (argparse's own status).
EXIT_USAGE = 2

#: The commands, in the order ``amreval --help`` lists them, with their one-line help.
COMMANDS: dict[str, str] = {
    "smatch": "sentence-level Smatch of two PENMAN files",
    "s2match": "S²match (graded concept matches) of two PENMAN files",
    "docsmatch": "DocSmatch of two files of document graphs",
    "docamr": "convert MS-AMR coreference plus sentence AMRs to DocAMR document graphs",
    "export-ms-amr": "export MS-AMR as DocAMR Parquet files that datasets.load_dataset reads",
    "space": "write a Hugging Face Space folder: a shipped metric (smatch, docsmatch, mfbeta) or the comparison",
    "mfbeta": "MFβ of generated sentences: Meaning (S²match of their parses) and Form (a language model)",
    "mfbeta-robustness": "MFβ of several systems under several parser settings: scores, rank agreement, rank switches",
    "compare": "is one system better than another: paired tests over items, intervals, per-item report",
}


def command_module(command: str) -> str:
    """The module of ``command``: ``amreval.cli.<command>``, ``-`` written ``_``."""
    return f"{__name__}.{command.replace('-', '_')}"


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``amreval`` command.

    With ``only`` (the command about to run), the other commands are registered by name and help alone,
    so their modules, and the modules their options' defaults come from, are not imported.
    """
    parser = argparse.ArgumentParser(
        prog="amreval",
        description="Evaluation of (document-level) AMR.",
        epilog="Exit status: 0 done, 1 bad input, 2 bad command line, 130 interrupted.",
    )
    parser.add_argument("--version", action="version", version=f"amreval {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log what is done to stderr")
    sub = parser.add_subparsers(dest="command", required=True)
    for command, summary in COMMANDS.items():
        p = sub.add_parser(command, help=summary)
        if only in (None, command):
            importlib.import_module(command_module(command)).add_arguments(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (see the module docs).

    Called without ``argv`` (as the ``amreval`` program) it also takes over
    Ctrl-C: the run stops at once with status 130.
    """
    if argv is None:
        exit_on_interrupt()
    words = list(sys.argv[1:] if argv is None else argv)
    # the command is the first word that is not an option (the main options take no value)
    command = next((w for w in words if not w.startswith("-")), None)
    parser = build_parser(command if command in COMMANDS else None)
    args, extra = parser.parse_known_args(argv)
    if extra:  # said by the command's own parser, with its usage
        _command_parser(parser, args.command).error(f"unrecognized arguments: {' '.join(extra)}")
    log_to_stderr(args.verbose)
    warnings.simplefilter("default")
    warnings.showwarning = show_warning
    for old, new in getattr(args, "renamed_options", ()):  # an option's old spelling (cli.options.add_renamed)
        from amreval._warn import warn_renamed

        warn_renamed(old, new)
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        return quiet_broken_pipe()
    except UsageError as exc:  # settings that do not go together, found by the command or the core
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
