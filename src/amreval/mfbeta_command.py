"""The ``amreval mfbeta`` command at the sentence level (the default): one generated and one reference
sentence per line, Meaning from their parses and Form from a language model. The document level is
:mod:`amreval.mfbeta.document_command`."""

from __future__ import annotations

import argparse
import json
import logging
import re

from amreval.commands import UsageError, decimals
from amreval.errors import AmrevalError, InputError

__all__ = ["run_mfbeta"]


def _in_files(message: str, args: argparse.Namespace) -> str:
    """An error about ``generated #k``, ``reference #k`` or ``... AMR #k``, told by file and line or graph."""
    places = {
        "generated": (args.generated, "line"),
        "reference": (args.references, "line"),
        "cleaned reference": (args.references, "line"),
        "reference AMR": (args.gold, "graph"),
        "prediction AMR": (args.parses, "graph"),
    }
    found = re.match(r"^(cleaned reference|reference AMR|prediction AMR|generated|reference) #(\d+)", message)
    if not found or places[found.group(1)][0] is None:
        return message
    path, unit = places[found.group(1)]
    return f"{path}, {unit} {int(found.group(2)) + 1}{message[found.end() :]}"


def run_mfbeta(args: argparse.Namespace) -> int:
    from amreval.amr.read import read_graphs
    from amreval.mfbeta.command_options import check_paired_by_line, command_scorer, scoring_keywords, sentence_lines
    from amreval.mfbeta.score import mfbeta

    generated, references = sentence_lines(args.generated), sentence_lines(args.references)
    check_paired_by_line(args.generated, generated, args.references, references)
    gold = read_graphs(args.gold) if args.gold else None
    parses = read_graphs(args.parses, errors=[]) if args.parses else None
    for path, graphs in ((args.gold, gold), (args.parses, parses)):
        if graphs is not None and len(graphs) != len(generated):
            raise AmrevalError(
                f"{path} has {len(graphs)} graphs but {args.generated} has {len(generated)} lines; "
                "they are paired by position"
            )
    if parses is None and not args.parser:
        raise UsageError("Meaning needs the parses of the generated sentences: pass --parses FILE or --parser DIR")
    if gold is None and not args.parser:
        raise UsageError(
            "without --gold, Meaning compares with the parsed references: pass --gold FILE or --parser DIR"
        )
    scorer = command_scorer(args)
    try:
        result = mfbeta(
            generated,
            references,
            reference_amrs=gold,
            prediction_amrs=parses,
            parser=args.parser,
            scorer=scorer,
            vectors=args.vectors,
            **scoring_keywords(args),
            dimensions=args.dimensions,
        )
    except InputError as exc:  # "generated #3: ..." is line 4 of the generated file
        raise InputError(_in_files(str(exc), args)) from exc
    logging.getLogger("amreval").info(
        "language model: %d sentences scored, %d reused (%s)",
        scorer.sentences_scored,
        scorer.sentences_reused,
        scorer,
    )
    if args.json:
        print(json.dumps(result.as_dict(per_example=True), indent=2))
        return 0
    digits = args.significant
    rows = {f"MF_{key[3:]}": value for key, value in result.scores.items()}
    rows.setdefault(f"MF_{args.beta:g}", result.mf_beta)
    rows.update(Meaning=result.meaning, Form=result.form)
    for label, value in rows.items():
        print(f"{label}: {decimals(value, digits)}")
    print(f"Parse failures: {result.parse_failures} of {len(generated)}")
    if result.dimensions:
        from amreval.mfbeta.dimensions import dimensions_table

        print(dimensions_table(result.dimensions, result.beta, digits), end="")
    return 0
