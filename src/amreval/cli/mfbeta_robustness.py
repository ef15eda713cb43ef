"""``amreval mfbeta-robustness``: MFβ of several systems under several parser settings, from files.

Each system is a text file of generated sentences, one per line (an empty
line is an empty generation), paired by line with the reference file. A
setting is either given parses (``--parses gsii=parses/gsii/{system}.amr``,
one PENMAN file per system, ``{system}`` standing for the system's name) or an
amrlib parser model folder (``--parser t5=/models/parse_t5``); ``--reference-parses
gsii=parses/gsii/ref.amr`` adds the setting's gold-ablation setting
``gsii/ref``. The table (or ``--json``) holds what
:func:`~amreval.mfbeta.robustness.parser_robustness` returns.

Example:
    amreval mfbeta-robustness ref.txt gen/A.txt gen/B.txt gen/C.txt --gold gold.amr \\
        --parses gsii=gsii/{system}.amr --parses gpla=gpla/{system}.amr --reference-parses gsii=gsii/ref.amr
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from amreval.cli.mfbeta_options import (
    add_model_options,
    check_paired_by_line,
    command_scorer,
    scoring_keywords,
    sentence_lines,
)
from amreval.cli.options import system_names
from amreval.errors import AmrevalError, InputError
from amreval.scores.text import plural

__all__ = ["add_arguments", "run"]


def _kept(kind: str) -> Any:
    return lambda text: (kind, text)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``amreval mfbeta-robustness``."""
    p.description = (
        "Score every system under every parser setting (given parses or a parser; with reference parses, the "
        "gold-ablation setting too) and compare the settings' rankings of the systems."
    )
    p.add_argument("references", metavar="REFERENCES", help="text file: the reference sentences, one per line")
    p.add_argument("generated", nargs="+", metavar="GENERATED", help="text files: each system's generated sentences")
    p.add_argument("--names", nargs="+", metavar="NAME", help="the systems' names (default: file names to a dot)")
    p.add_argument(
        "--parses",
        dest="settings",
        action="append",
        type=_kept("parses"),
        metavar="SETTING=PATTERN",
        help="a setting of given parses: PENMAN files, one per system, {system} in PATTERN standing for its name",
    )
    p.add_argument(
        "--parser",
        dest="settings",
        action="append",
        type=_kept("parser"),
        metavar="SETTING=DIR",
        help="a setting whose amrlib parser model folder parses every system's sentences",
    )
    p.add_argument(
        "--reference-parses",
        action="append",
        metavar="SETTING=FILE",
        help="PENMAN file: a setting's parses of the reference sentences (adds its gold-ablation setting)",
    )
    p.add_argument(
        "--ablation",
        action="store_true",
        default=None,
        help="a gold-ablation setting for every setting (a --parser setting parses the references)",
    )
    p.add_argument("--gold", metavar="FILE", help="PENMAN file: the gold AMR of each sentence")
    add_model_options(p)
    p.set_defaults(func=run)


def _named_value(text: str, option: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name or not value:
        raise InputError(f"{option}: expected SETTING=VALUE, got {text!r}")
    return name, value


def _parse_file(path: str, n: int, references: str) -> list:
    """A PENMAN file of parses, one per sentence (an unreadable graph is kept in its place: a failed parse)."""
    from amreval.amr.read import read_graphs

    graphs = read_graphs(path, errors=[])
    if len(graphs) != n:
        raise AmrevalError(
            f"{path} has {plural(len(graphs), 'graph')} but {references} has {plural(n, 'line')}; they "
            "are paired by position"
        )
    return graphs


def run(args: argparse.Namespace) -> int:
    """Read the files, score every system under every setting, print the table or the JSON."""
    from amreval.amr.read import read_graphs
    from amreval.mfbeta.robustness import parser_robustness

    names = system_names(args.generated, args.names)
    if len(names) < 2:
        raise InputError(f"rank agreement needs two or more systems, got {', '.join(names)}")
    references = sentence_lines(args.references)
    generated = {name: sentence_lines(path) for name, path in zip(names, args.generated)}
    for name, path in zip(names, args.generated):
        check_paired_by_line(path, generated[name], args.references, references)
    settings: dict[str, Any] = {}
    for kind, text in args.settings or ():
        name, value = _named_value(text, f"--{kind}")
        if name in settings:
            raise InputError(f"--{kind}: setting {name!r} is named twice")
        if kind == "parser":
            settings[name] = value
        elif "{system}" not in value:
            raise InputError(f"--parses {text}: the pattern needs {{system}} where each system's name goes")
        else:
            settings[name] = {
                s: _parse_file(value.replace("{system}", s), len(references), args.references) for s in names
            }
    if not settings:
        raise InputError("no parser settings: pass --parses SETTING=PATTERN or --parser SETTING=DIR (repeated)")
    reference_parses = {}
    for text in args.reference_parses or ():
        name, path = _named_value(text, "--reference-parses")
        reference_parses[name] = _parse_file(path, len(references), args.references)
    gold = read_graphs(args.gold) if args.gold else None
    scorer = command_scorer(args)
    result = parser_robustness(
        generated,
        references,
        settings,
        reference_amrs=gold,
        reference_parses=reference_parses or None,
        ablation=args.ablation,
        scorer=scorer,
        vectors=args.vectors,
        **scoring_keywords(args),
    )
    if args.json:
        print(json.dumps(result.as_dict(), indent=2))
    else:
        print(result.table(args.significant), end="")
    return 0
