"""The ``amreval docamr`` command: DocAMR documents from sentence AMRs with MS-AMR XML, with text
coreference, or from pairwise coreference edges (and their pictures)."""

from __future__ import annotations

import argparse
import sys

from amreval.commands import UsageError, counted, svg_paths, usage_checked
from amreval.errors import AmrevalError


def run_docamr(args: argparse.Namespace) -> int:
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
            f"amreval: {args.coref}: {counted(len(reports), 'document')}, {counted(mentions, 'mention')} in "
            f"{counted(sum(r.n_clusters for r in reports), 'cluster')}: {mapped} mapped to nodes, "
            f"{mentions - mapped} unmapped; {counted(sum(len(r.chains) for r in reports), 'chain')}, "
            f"{counted(sum(len(r.within_sentence) for r in reports), 'cluster')} within one sentence left out",
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
            xml_files = layout.split_files(split)
            if not xml_files:
                raise AmrevalError(
                    f"{args.amr3}: no MS-AMR XML file of the {split} split in {layout.split_folder(split)}"
                )
            amr_files = args.amrs or layout.amr_files()
        else:
            if not args.amrs:
                raise UsageError("--xml needs --amrs (the sentence AMR files)")
            xml_files, amr_files = args.xml, args.amrs
        amrs = read_sentence_amrs(amr_files)
        for f in progress_bar(xml_files, enable=args.progress, desc="converting", unit="doc"):
            graphs.append(convert_document(read_msamr_xml(f), amrs, rep, strict=args.strict))
    text = "\n\n".join(g.to_string() for g in graphs) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    if args.svg:
        from amreval.report.draw import document_graph_svg

        for path, g in zip(svg_paths(args.svg, [g.id for g in graphs]), graphs):
            document_graph_svg(g, path)
    return 0
