"""``amreval docamr``: DocAMR documents from sentence AMRs with MS-AMR XML, with text coreference, or from
pairwise coreference edges (and their pictures).

Example:
    amreval docamr --xml msamr.xml --amrs sentences.amr -o documents.amr
"""

from __future__ import annotations

import argparse
import sys

from amreval.cli.options import add_progress, add_verbose, usage_checked
from amreval.cli.output import SVG_HELP, svg_paths
from amreval.errors import UsageError
from amreval.scores.text import plural

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``amreval docamr``."""
    p.description = (
        "Write DocAMR document graphs (PENMAN) from an AMR 3.0 release root and a split, "
        "from MS-AMR XML files plus sentence AMR files, from a text coreference file plus aligned sentence "
        "AMRs (a parser's output), or from document graphs to normalise."
    )
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--amr3", metavar="ROOT", help="AMR 3.0 release root (LDC2020T02); use with --split")
    source.add_argument("--xml", nargs="+", metavar="FILE", help="MS-AMR XML files; use with --amrs")
    source.add_argument(
        "--no-merge",
        dest="no_merge",
        metavar="FILE",
        help="document graphs in no-merge form (coref-entity nodes) to normalise",
    )
    source.add_argument(
        "--pairwise", metavar="FILE", help="document graphs with pairwise coreference edges to turn into chains"
    )
    source.add_argument(
        "--coref",
        metavar="FILE",
        help="coreference clusters over the text (see --coref-format); use with --amrs, the "
        "sentence AMRs with node-to-token alignments, all documents in order",
    )
    p.add_argument(
        "--split",
        choices=("train", "validation", "test", "validation_alternative", "dev", "dev-alternative"),
        help="with --amr3: the MS-AMR split (dev and dev-alternative are aliases of validation and "
        "validation_alternative)",
    )
    p.add_argument(
        "--amrs",
        nargs="+",
        metavar="FILE",
        help="sentence AMR files (PENMAN with ::id; with --coref: with alignments, ::id optional)",
    )
    p.add_argument(
        "--coref-format",
        choices=("jsonlines", "conll"),
        default="jsonlines",
        help="format of the --coref file: jsonlines (default) or CoNLL-2012 (*_conll)",
    )
    p.add_argument("--pairwise-role", default="same-as", help="role of pairwise edges (default same-as)")
    p.add_argument("--rep", default="docamr", help="docamr (default), no-merge, merge-names or merge-all")
    p.add_argument(
        "--bridging",
        choices=("all", "reference"),
        default="all",
        help="MS-AMR bridging with several members: every member gets its :subset/:part edge (all, default), or "
        "only the last one, as the reference converter docAMR 0.1.1 writes it (reference: its output exactly)",
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help="fail on a reference to a missing sentence or variable, or (with --coref) on a mention "
        "that maps to no node (default: warn and skip)",
    )
    p.add_argument("-o", "--output", metavar="OUT", help="output PENMAN file (default: standard output)")
    p.add_argument(
        "--svg",
        metavar="OUT",
        help="also draw each document graph to SVG (sentences as clusters, coreference highlighted): " + SVG_HELP,
    )
    add_progress(p)
    add_verbose(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Convert, write the documents (and their pictures)."""
    from amreval._progress import progress_bar
    from amreval.amr.read import read_graphs
    from amreval.docamr import (
        Amr3Layout,
        chains_from_pairs,
        check_representation,
        check_split,
        convert_document,
        normalize_graph,
        read_msamr_xml,
        read_sentence_amrs,
        text_coref_to_docamr,
    )

    rep = usage_checked(check_representation, args.rep, "--rep")
    graphs = []
    if args.coref:
        if not args.amrs:
            raise UsageError("--coref needs --amrs (the aligned sentence AMR files)")
        reports: list = []
        graphs = text_coref_to_docamr(
            args.amrs,
            args.coref,
            coref_format=args.coref_format,
            rep=rep,
            strict=args.strict,
            reports=reports,
            progress=args.progress,
        )
        mentions = sum(len(r.mentions) for r in reports)
        mapped = sum(len(r.mapped) for r in reports)
        # what the conversion did: information, not a warning (standard error: the graphs may go to stdout)
        print(
            f"amreval: {args.coref}: {plural(len(reports), 'document')}, {plural(mentions, 'mention')} in "
            f"{plural(sum(r.n_clusters for r in reports), 'cluster')}: {mapped} mapped to nodes, "
            f"{mentions - mapped} unmapped; {plural(sum(len(r.chains) for r in reports), 'chain')}, "
            f"{plural(sum(len(r.within_sentence) for r in reports), 'cluster')} within one sentence left out",
            file=sys.stderr,
        )
    elif args.no_merge or args.pairwise:
        for g in progress_bar(
            read_graphs(args.no_merge or args.pairwise), enable=args.progress, desc="normalising", unit="doc"
        ):
            graphs.append(normalize_graph(g, rep) if args.no_merge else chains_from_pairs(g, args.pairwise_role, rep))
    else:
        if args.amr3:
            if not args.split:
                raise UsageError("--amr3 needs --split (train, validation, test or validation_alternative)")
            layout = Amr3Layout(args.amr3)
            split = check_split(args.split)
            xml_files = layout.split_files(split)  # a split without its files: an InputError naming them
            amr_files = args.amrs or layout.amr_files()
        else:
            if not args.amrs:
                raise UsageError("--xml needs --amrs (the sentence AMR files)")
            xml_files, amr_files = args.xml, args.amrs
        amrs = read_sentence_amrs(amr_files)
        for f in progress_bar(xml_files, enable=args.progress, desc="converting", unit="doc"):
            graphs.append(
                convert_document(
                    read_msamr_xml(f, strict=args.strict), amrs, rep, strict=args.strict, bridging=args.bridging
                )
            )
    text = "\n\n".join(g.to_string() for g in graphs) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    if args.svg:
        from amreval.report.draw import document_graph_svg

        paths = svg_paths(args.svg, [g.id for g in graphs])
        for path, g in progress_bar(list(zip(paths, graphs)), enable=args.progress, desc="drawing", unit="doc"):
            document_graph_svg(g, path)
    return 0
