"""``amreval mfbeta --level document``: document-level MFβ from the command line.

One paragraph per line of the generated file and one reference text per line
of the references file. At the document level ``--gold`` is a DocAMR file
(one document graph per paragraph), ``--parses`` holds the sentence parses of
every paragraph in order (the paragraphs split by
:func:`~amreval.mfbeta.document.split_sentences`, taken document by document;
token alignments, ``~e.N`` or JAMR/IBM lines, let coreference map to nodes),
and ``--coref`` is a coreference file (jsonlines or CoNLL, one document per
paragraph). The sentence level (the default) is :func:`amreval.mfbeta_command.run_mfbeta`, which the
command line hands to :func:`add_arguments`.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from functools import partial
from typing import Any

from amreval.argtypes import integer
from amreval.errors import InputError

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser, sentence_level: Callable[[argparse.Namespace], int]) -> None:
    """The options of ``amreval mfbeta`` whose meaning depends on the level, and the level's own; the
    command runs :func:`run`, which hands the sentence level to ``sentence_level``."""
    p.add_argument(
        "--level",
        choices=("sentence", "document"),
        default="sentence",
        help="sentence (default: one sentence per line) or document (one paragraph per line, scored as a "
        "document: DocSmatch Meaning with coreference, Form over the whole paragraph)",
    )
    p.add_argument("--gold", metavar="FILE", help="PENMAN file: the gold AMR of each sentence (document: DocAMR)")
    p.add_argument(
        "--parses",
        metavar="FILE",
        help="PENMAN file: the parse of each generated sentence (document: of every paragraph's sentences, in order)",
    )
    p.add_argument("--coref", metavar="FILE", help="document: a coreference file, one document per paragraph")
    p.add_argument("--coref-format", choices=("jsonlines", "conll"), default="jsonlines", help="default jsonlines")
    p.add_argument("--window", type=integer(1), metavar="N", help="document: LM inputs per window (default: its limit)")
    p.add_argument("--stride", type=integer(1), metavar="N", help="document: positions between windows (default: half)")
    p.add_argument("--rep", default="docamr", help="document: the DocAMR representation built (default docamr)")
    p.set_defaults(func=partial(run, sentence_level=sentence_level))


def _in_files(message: str, args: argparse.Namespace) -> str:
    """``generated paragraph #3: ...`` is line 4 of the generated file."""
    found = re.match(r"^(generated|reference) paragraph #(\d+)", message)
    if not found:
        return message
    path = args.generated if found.group(1) == "generated" else args.references
    return f"{path}, line {int(found.group(2)) + 1}{message[found.end() :]}"


def run(args: argparse.Namespace, sentence_level: Callable[[argparse.Namespace], int] | None = None) -> int:
    """Run ``amreval mfbeta``: the document level here, the sentence level by ``sentence_level``
    (:func:`amreval.mfbeta_command.run_mfbeta`)."""
    if args.level != "document":
        if sentence_level is None:
            raise InputError("the sentence level needs its runner (amreval.mfbeta_command.run_mfbeta)")
        return sentence_level(args)
    from amreval.amr.read import read_graphs
    from amreval.amr.token_alignments import read_aligned_amrs
    from amreval.mfbeta.command_options import check_paired_by_line, command_scorer, scoring_keywords, sentence_lines
    from amreval.mfbeta.document import document_mfbeta, split_sentences

    generated = sentence_lines(args.generated, "text file of paragraphs")
    references = sentence_lines(args.references, "text file of paragraphs")
    check_paired_by_line(args.generated, generated, args.references, references)
    gold = read_graphs(args.gold) if args.gold else None
    if gold is not None and len(gold) != len(generated):
        raise InputError(f"{args.gold} has {len(gold)} documents but {args.generated} has {len(generated)} lines")
    parses: list[list[Any]] | None = None
    if args.parses:
        flat = read_aligned_amrs(args.parses)
        counts = [len(split_sentences(p)) for p in generated]
        if sum(counts) != len(flat):
            raise InputError(
                f"{args.parses} has {len(flat)} graphs but the paragraphs of {args.generated} have {sum(counts)} "
                "sentences (split_sentences); they are taken in order, paragraph by paragraph"
            )
        parses, used = [], 0
        for n in counts:
            parses.append(list(flat[used : used + n]))
            used += n
    scorer = command_scorer(args)
    try:
        result = document_mfbeta(
            generated,
            references,
            reference_amrs=gold,
            prediction_amrs=parses,
            coref=args.coref,
            coref_format=args.coref_format,
            parser=args.parser,
            rep=args.rep,
            scorer=scorer,
            window=args.window,
            stride=args.stride,
            **scoring_keywords(args),
        )
    except InputError as exc:
        raise InputError(_in_files(str(exc), args)) from exc
    if args.json:
        print(json.dumps(result.as_dict(per_example=True), indent=2))
        return 0
    digits = args.significant
    rows: dict[str, float | None] = {f"MF_{key[3:]}": value for key, value in result.scores.items()}
    rows.setdefault(f"MF_{args.beta:g}", result.mf_beta)
    rows.update(Meaning=result.meaning, Coreference=result.coreference, Form=result.form)
    for label, value in rows.items():
        print(f"{label}: {'-' if value is None else f'{value:.{digits}f}'}")
    print(f"Sentence count mismatches: {result.sentence_mismatches} of {len(generated)} documents")
    print(f"Parse failures: {result.parse_failures} of {sum(result.sentences)} sentences")
    return 0
