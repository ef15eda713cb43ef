"""``amreval mfbeta``: MFβ (Opitz & Frank 2021) of sentences generated from AMR against reference sentences.

At the sentence level (the default) one sentence a line (an empty line is an empty generation); Meaning
compares the parses of the generated sentences (``--parses``, or ``--parser``) with the gold AMRs
(``--gold``, or the parsed references), Form asks a language model whether each generated sentence is as
likely as its reference. At the document level (``--level document``) one paragraph a line: ``--gold`` is
a DocAMR file (one document graph per paragraph), ``--parses`` holds the sentence parses of every
paragraph in order (the paragraphs split by :func:`~amreval.mfbeta.document.split_sentences`; token
alignments, ``~e.N`` or JAMR/IBM lines, let coreference map to nodes), and ``--coref`` is a coreference
file (jsonlines or CoNLL, one document per paragraph).

Example:
    amreval mfbeta generated.txt references.txt --gold gold.amr --parses parses.amr --lm ./gpt2
"""

from __future__ import annotations

import argparse
import json
import logging
import re
from typing import Any

from amreval.cli.mfbeta_options import (
    add_model_options,
    check_paired_by_line,
    command_scorer,
    scoring_keywords,
    sentence_lines,
)
from amreval.cli.options import integer
from amreval.cli.output import decimals
from amreval.errors import AmrevalError, InputError, UsageError
from amreval.scores.text import plural

__all__ = ["add_arguments", "run", "in_files"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``amreval mfbeta`` at both levels."""
    p.description = (
        "MFβ (Opitz & Frank 2021) of sentences generated from AMR against reference sentences, one sentence per "
        "line (an empty line is an empty generation). Meaning compares the parses of the generated sentences "
        "(--parses, or --parser) with the gold AMRs (--gold, or the parsed references); Form asks a language "
        "model whether each generated sentence is as likely as its reference."
    )
    p.add_argument("generated", metavar="GENERATED", help="text file: the generated sentences, one per line")
    p.add_argument("references", metavar="REFERENCES", help="text file: the reference sentences, one per line")
    p.add_argument("--parser", metavar="DIR", help="an amrlib parser model folder (for what is not given)")
    add_model_options(p)
    p.add_argument("--dimensions", choices=("s2align", "smatch"), help="Meaning and MFβ by fine-grained measure too")
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
    p.add_argument(
        "--strict",
        action="store_true",
        help="stop at a pair whose alignment problem is over the memory budget (default: align it within the "
        "budget, count it in n_over_budget, warn); a parse that cannot be read is a failed parse either way",
    )
    p.set_defaults(func=run)


#: what an error's first words name at each level, and the option of the file that holds it and its unit
_PLACES = {
    "sentence": {
        "cleaned reference": ("references", "line"),
        "reference AMR": ("gold", "graph"),
        "prediction AMR": ("parses", "graph"),
        "generated": ("generated", "line"),
        "reference": ("references", "line"),
    },
    "document": {"generated paragraph": ("generated", "line"), "reference paragraph": ("references", "line")},
}


def in_files(message: str, args: argparse.Namespace) -> str:
    """An error about ``generated #k``, ``reference AMR #k``, ``generated paragraph #k`` and the like
    (counted from 1, as the API numbers them), told by file and line or graph: ``generated #3: ...`` is line 3
    of the generated file."""
    places = _PLACES[args.level]
    found = re.match(r"^(" + "|".join(places) + r") #(\d+)", message)
    if not found or getattr(args, places[found.group(1)][0], None) is None:
        return message
    option, unit = places[found.group(1)]
    return f"{getattr(args, option)}, {unit} {found.group(2)}{message[found.end() :]}"


def run(args: argparse.Namespace) -> int:
    """Score at the level asked for, print."""
    return _document_level(args) if args.level == "document" else _sentence_level(args)


def _sentence_level(args: argparse.Namespace) -> int:
    """One generated and one reference sentence a line."""
    from amreval.amr.read import read_graphs
    from amreval.mfbeta.score import mfbeta

    generated, references = sentence_lines(args.generated), sentence_lines(args.references)
    check_paired_by_line(args.generated, generated, args.references, references)
    gold = read_graphs(args.gold) if args.gold else None
    parses = read_graphs(args.parses, errors=[]) if args.parses else None
    for path, graphs in ((args.gold, gold), (args.parses, parses)):
        if graphs is not None and len(graphs) != len(generated):
            raise AmrevalError(
                f"{path} has {plural(len(graphs), 'graph')} but {args.generated} has {plural(len(generated), 'line')}; "
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
            strict=args.strict,
        )
    except InputError as exc:  # "generated #3: ..." is line 3 of the generated file
        raise InputError(in_files(str(exc), args)) from exc
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


def _document_level(args: argparse.Namespace) -> int:
    """One generated and one reference paragraph a line, each scored as a document."""
    from amreval.amr.read import read_graphs
    from amreval.mfbeta.document import document_mfbeta, split_sentences

    generated = sentence_lines(args.generated, "text file of paragraphs")
    references = sentence_lines(args.references, "text file of paragraphs")
    check_paired_by_line(args.generated, generated, args.references, references)
    gold = read_graphs(args.gold) if args.gold else None
    if gold is not None and len(gold) != len(generated):
        raise InputError(
            f"{args.gold} has {plural(len(gold), 'document')} but {args.generated} has {plural(len(generated), 'line')}"
        )
    parses: list[list[Any]] | None = None
    if args.parses:
        flat = _document_parses(args.parses)
        counts = [len(split_sentences(p)) for p in generated]
        if sum(counts) != len(flat):
            raise InputError(
                f"{args.parses} has {plural(len(flat), 'graph')} but the paragraphs of {args.generated} "
                f"have {sum(counts)} "
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
            strict=args.strict,
        )
    except InputError as exc:
        raise InputError(in_files(str(exc), args)) from exc
    if args.json:
        print(json.dumps(result.as_dict(per_example=True), indent=2))
        return 0
    digits = args.significant
    rows: dict[str, float | None] = {f"MF_{key[3:]}": value for key, value in result.scores.items()}
    rows.setdefault(f"MF_{args.beta:g}", result.mf_beta)
    rows.update(Meaning=result.meaning, Coreference=result.coreference, Form=result.form)
    for label, value in rows.items():
        print(f"{label}: {decimals(value, digits)}")
    print(f"Sentence count mismatches: {result.sentence_mismatches} of {plural(len(generated), 'document')}")
    print(f"Parse failures: {result.parse_failures} of {plural(sum(result.sentences), 'sentence')}")
    return 0


def _document_parses(path: str) -> list[Any]:
    """The aligned parses of ``--parses`` at the document level, one a graph; a graph that cannot be read is
    a failed parse (None), counted and named in a warning as the sentence level counts it, not the end."""
    from amreval._warn import warn_caller
    from amreval.amr.parse import split_blocks
    from amreval.amr.read import read_text
    from amreval.amr.token_alignments import loads_aligned_amrs

    text, label = read_text(path, what="file of aligned PENMAN graphs")  # a file that cannot be read stops here
    try:
        return list(loads_aligned_amrs(text, name=label))
    except InputError as exc:
        first = exc
    out: list[Any] = []
    failed = 0
    for block in split_blocks(text):
        try:
            out.extend(loads_aligned_amrs(block.text, name=f"{label}, line {block.line}"))
        except InputError:
            out.append(None)
            failed += 1
    warn_caller(
        f"{failed} of {len(out)} parses in {path} could not be read and count as failed parses (the first: {first})"
    )
    return out
