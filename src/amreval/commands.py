"""What each ``amreval`` command does once its options are read (:mod:`amreval.cli` reads them).

Scores and conversions come from the core; this module reads the files, calls
the core and prints the results in the layouts users expect (smatch.py's,
the DocSmatch reference's), as JSON, CSV or SVG when asked.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from amreval.errors import AmrevalError, InputError

__all__ = [
    "UsageError",
    "usage_checked",
    "run_smatch",
    "run_docsmatch",
    "counted",
    "svg_paths",
    "run_compare",
    "decimals",
]


class UsageError(AmrevalError):
    """Options that do not go together, or an option value out of range (exit status 2)."""


def usage_checked(check: Callable[[str], str], value: str, option: str) -> str:
    """``check(value)``, its error a usage error naming ``option``."""
    try:
        return check(value)
    except AmrevalError as exc:
        raise UsageError(f"{option}: {exc}") from None


def decimals(value: float, digits: int) -> str:
    """``value`` with ``digits`` digits after the point (the layout of every printed score)."""
    return f"{value:.{digits}f}"


def _print_unproven(result: Any) -> None:
    """Say which pairs are not proven optimal (a time limit ran out) and by how much they could rise."""
    unproven = result.unproven
    hill = result.config.search.solver == "hillclimb"
    reason = "hill climbing proves only what reaches the simple bound" if hill else "time limit"
    if unproven:
        listed = ", ".join(f"#{k + 1}" for k in unproven[:20]) + (", ..." if len(unproven) > 20 else "")
        print(
            f"Not proven optimal ({reason}): {len(unproven)} of {len(result.pairs)} ({listed}); "
            f"gap: at most {result.gap:g} more matched triples"
        )


def _intervals(result: Any, args: argparse.Namespace) -> dict[str, float]:
    """With ``--ci``: the intervals of every precision, recall and F1 of the result (F1's is the result's own)."""
    if not args.ci:
        return {}
    from amreval.scores.bootstrap import score_intervals

    out = score_intervals(result, n_resamples=args.ci, seed=args.seed)
    if result.ci is not None:
        out["f1_ci_low"], out["f1_ci_high"] = result.ci
    return out


def _print_intervals(result: Any, args: argparse.Namespace) -> None:
    """The 95% intervals of F (and, with ``--pr``, of precision and recall)."""
    if args.pr:
        ci = _intervals(result, args)
        for name, key in (("Precision", "precision"), ("Recall", "recall")):
            lo, hi = ci[f"{key}_ci_low"], ci[f"{key}_ci_high"]
            print(f"{name} 95% CI: {decimals(lo, args.significant)} - {decimals(hi, args.significant)}")
    lo, hi = result.ci
    print(f"F-score 95% CI: {decimals(lo, args.significant)} - {decimals(hi, args.significant)}")


def _print_prf(p: float, r: float, f: float, args: argparse.Namespace) -> None:
    if args.pr:
        print("Precision: " + decimals(p, args.significant))
        print("Recall: " + decimals(r, args.significant))
    print("F-score: " + decimals(f, args.significant))


def _read_pair_files(args: argparse.Namespace, noun: str) -> tuple[list, list]:
    """The predicted and gold graphs; a predicted graph that cannot be read is kept in its place
    (unless ``--strict``) for the scorer to count."""
    from amreval.amr.read import read_graphs

    if getattr(args, "tsv", False):
        from amreval.amr.tsv import read_tsv

        pred, gold = read_tsv(args.f[0]), read_tsv(args.f[1])
    else:
        pred = read_graphs(args.f[0], errors=None if args.strict else [])
        gold = read_graphs(args.f[1])
    for path, graphs in ((args.f[0], pred), (args.f[1], gold)):
        if not graphs:
            raise AmrevalError(f"{path}: no graphs found; expected PENMAN {noun}")
    if len(pred) != len(gold):
        raise AmrevalError(
            f"{args.f[0]} has {len(pred)} {noun} but {args.f[1]} has {len(gold)}; they are paired by position"
        )
    return pred, gold


def _pair_id(pred: Any, gold: Any) -> str | None:
    """The id of a pair: the gold graph's ``::id``, else the prediction's."""
    return getattr(gold, "id", None) or getattr(pred, "id", None)


def _pair_rows(result: Any, pred: list, gold: list) -> list[dict[str, Any]]:
    """One JSON record per pair: position, id, counts and scores."""
    unreadable = set(result.unreadable_predictions)
    return [
        {
            "index": k,
            "id": _pair_id(p, g),
            "match": s.match,
            "test": s.test,
            "gold": s.gold,
            "precision": s.precision,
            "recall": s.recall,
            "f1": s.f1,
            "optimal": s.optimal,
            "unreadable": k in unreadable,
        }
        for k, (s, p, g) in enumerate(zip(result.pairs, pred, gold))
    ]


def _pair_label(noun: str, k: int, pred: Any, gold: Any) -> str:
    gid = _pair_id(pred, gold)
    return f"{noun} {k + 1}" + (f" (id {gid}):" if gid else ":")


def _scoring_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keywords that every scoring command passes on: search settings, interval, progress."""
    return {
        "solver": args.solver,
        "restarts": args.r,
        "seed": args.seed,
        "time_limit": args.time_limit,
        "bootstrap": args.ci,
        "progress": args.progress,
        "strict": args.strict,
    }


def _standardize(args: argparse.Namespace) -> dict[str, Any]:
    """``standardize`` for the scorer, given only when not the default (S²match has no such keyword)."""
    value = getattr(args, "standardize", "smatch")
    return {} if value == "smatch" else {"standardize": value}


def _averages(result: Any, args: argparse.Namespace) -> Any:
    """With ``--averages``: the micro and macro averages, their intervals from ``--ci`` resamples (10000)."""
    if not getattr(args, "averages", False):
        return None
    from amreval.scores.averages import averages

    return averages(result, n_resamples=args.ci or 10000, seed=args.seed)


def _print_averages(averaged: Any, args: argparse.Namespace) -> None:
    names = (("Precision", "precision"), ("Recall", "recall"), ("F-score", "f1")) if args.pr else (("F-score", "f1"),)
    for kind, average in (("Micro", averaged.micro), ("Macro", averaged.macro)):
        for name, key in names:
            lo, hi = getattr(average, f"{key}_ci")
            d = args.significant
            print(f"{kind} {name}: {decimals(getattr(average, key), d)} (95% CI {decimals(lo, d)} - {decimals(hi, d)})")


def run_smatch(args: argparse.Namespace) -> int:
    if getattr(args, "aspects", None):
        if args.s2 or args.averages or args.ci:
            raise UsageError("--aspects: not with s2match, --averages or --ci")
        from amreval.smatchpp_command import run_aspects

        return run_aspects(args)
    # Smatch streams (bounded memory, -j N workers); S²match, a non-default reading, TSV input and the
    # averages over pairs read the files whole
    whole = args.s2 or _standardize(args) or getattr(args, "averages", False) or getattr(args, "tsv", False)
    if not whole:
        return _stream_smatch(args)
    pred, gold = _read_pair_files(args, "graphs")
    if args.s2:
        from amreval.scores.s2match import s2match

        result = s2match(
            pred,
            gold,
            vectors=args.vectors,
            cutoff=args.cutoff,
            diffsense=args.diffsense,
            top=args.top,
            **_scoring_options(args),
        )
    else:
        from amreval.scores.smatch import smatch

        result = smatch(pred, gold, **_scoring_options(args), **_standardize(args))
    averaged = _averages(result, args)
    if args.json:
        out: dict[str, Any] = dict(result.as_dict())
        out.update(_intervals(result, args))
        if averaged is not None:
            out["averages"] = averaged.as_dict()
        out["pairs"] = _pair_rows(result, pred, gold)
        print(json.dumps(out, indent=2))
        return 0
    if args.ms:
        for k, (s, p, g) in enumerate(zip(result.pairs, pred, gold)):
            print(_pair_label("Pair", k, p, g))
            _print_prf(s.precision, s.recall, s.f1, args)
    else:
        _print_prf(result.precision, result.recall, result.f1, args)
    _print_footer(result, args, averaged)
    return 0


def _stream_smatch(args: argparse.Namespace) -> int:
    """``amreval smatch``: the files read, scored and printed as a stream (:mod:`amreval.scores.stream`)."""
    from amreval.match.options import SearchOptions
    from amreval.scores.harness import Config, strict_option
    from amreval.scores.smatch import identical_smatch_score, score_smatch_pair
    from amreval.scores.stream import stream_score

    options = _scoring_options(args)
    config = Config(
        "smatch",
        SearchOptions.from_keywords(
            solver=options["solver"],
            restarts=options["restarts"],
            seed=options["seed"],
            time_limit=options["time_limit"],
        ),
        strict_option(args.strict),
    )

    def print_pair(label: str, s: Any) -> None:
        print(label)
        _print_prf(s.precision, s.recall, s.f1, args)

    with _PairOutput(args, "Pair", "pairs", print_pair) as output:
        result = stream_score(
            args.f[0],
            args.f[1],
            score_smatch_pair,
            config,
            on_pair=output,
            num_workers=getattr(args, "workers", 1),
            strict=args.strict,
            bootstrap=args.ci,
            identical=identical_smatch_score if config.search.solver == "exact" else None,
        )
        if args.json:
            out: dict[str, Any] = dict(result.as_dict())
            out.update(_intervals(result, args))
            output.write_json(out)
            return 0
    if not args.ms:
        _print_prf(result.precision, result.recall, result.f1, args)
    _print_footer(result, args)
    return 0


class _PairOutput:
    """Each pair's output as its score comes (a :data:`~amreval.scores.stream.PairRecord`): printed
    with ``--ms``; with ``--json`` kept in a temporary file for the totals, which come first."""

    def __init__(self, args: argparse.Namespace, noun: str, key: str, print_pair: Callable[[str, Any], None]) -> None:
        import tempfile

        self.args, self.noun, self.key, self.print_pair = args, noun, key, print_pair
        self.records = tempfile.TemporaryFile("w+", encoding="utf-8") if args.json else None

    def __call__(self, record: tuple[int, Any, str | None, str | None, bool]) -> None:
        k, s, pid, gid, unreadable = record
        if self.records is not None:
            row = {"index": k, "id": gid or pid, "match": s.match, "test": s.test, "gold": s.gold}
            row.update(precision=s.precision, recall=s.recall, f1=s.f1, optimal=s.optimal, unreadable=unreadable)
            text = json.dumps(row, indent=2).replace("\n", "\n    ")
            self.records.write(("    " if k == 0 else ",\n    ") + text)
        elif self.args.ms:
            self.print_pair(f"{self.noun} {k + 1}" + (f" (id {gid or pid}):" if gid or pid else ":"), s)

    def write_json(self, out: dict[str, Any], tail: dict[str, Any] | None = None) -> None:
        """``out``, the records under ``key``, then ``tail``'s entries: ``json.dumps`` of them all, indent 2."""
        assert self.records is not None
        sys.stdout.write(json.dumps(out, indent=2)[:-2] + f',\n  "{self.key}": [\n')
        self.records.seek(0)
        while block := self.records.read(1 << 20):
            sys.stdout.write(block)
        sys.stdout.write("\n  ],\n" + json.dumps(tail, indent=2)[2:] + "\n" if tail else "\n  ]\n}\n")

    def __enter__(self) -> _PairOutput:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.records is not None:
            self.records.close()


def _print_footer(result: Any, args: argparse.Namespace, averaged: Any = None) -> None:
    """What follows the scores: the unproven pairs, the interval, the averages, the log line."""
    _print_unproven(result)
    if result.ci is not None:
        _print_intervals(result, args)
    if averaged is not None:
        _print_averages(averaged, args)
    logging.getLogger("amreval").info(
        "%d pairs, match %d, test %d, gold %d, %d proven optimal (%s)",
        len(result.pairs),
        result.match,
        result.test,
        result.gold,
        result.n_optimal,
        result.config.as_string(),
    )


def svg_paths(out: str, ids: Sequence[str | None]) -> list[str]:
    """``OUT`` for one picture; for several, ``OUT`` with ``_<document id>`` before the suffix when
    every document has an id and the ids give distinct names, else ``_1``, ``_2``, .... The folder is made."""
    folder = os.path.dirname(out)
    if folder:
        os.makedirs(folder, exist_ok=True)
    if len(ids) == 1:
        return [out]
    base, ext = os.path.splitext(out)
    names = [re.sub(r"[^A-Za-z0-9._-]+", "_", i) if i else "" for i in ids]
    if not all(names) or len(set(names)) != len(names):
        names = [str(k) for k in range(1, len(ids) + 1)]
    return [f"{base}_{name}{ext or '.svg'}" for name in names]


def run_docsmatch(args: argparse.Namespace) -> int:
    """``amreval docsmatch``: the documents read, scored and printed as a stream
    (:func:`~amreval.scores.docsmatch.stream_docsmatch`); with ``--svg``, which names the pictures
    by every document's id and draws the mappings, the files are read whole."""
    if args.aspects is not None or args.frames is not None:
        from amreval.smatchpp_command import doc_aspects_conflicts, run_doc_aspects

        if args.aspects is None:
            raise UsageError("--frames: the frames rename roles for the aspect scores; give --aspects too")
        if doc_aspects_conflicts(args):
            raise UsageError(f"--aspects: not with {', '.join(doc_aspects_conflicts(args))}")
        return run_doc_aspects(args)
    from amreval._progress import progress_counter
    from amreval.scores.docsmatch import docsmatch, stream_docsmatch

    options = _scoring_options(args)
    progress = options.pop("progress")
    keywords = dict(coref=args.coref_subscore, fine_grained=args.fine_grained, num_workers=args.num_workers)
    keywords.update(_standardize(args))
    if "standardize" in keywords and (args.coref_subscore or args.fine_grained):
        given = " and ".join(
            f for f, on in (("--coref-subscore", args.coref_subscore), ("--fine-grained", args.fine_grained)) if on
        )
        raise UsageError(
            f"--standardize {args.standardize}: applies to the main DocSmatch score only, not with {given} "
            "(those read triples as smatch does)"
        )
    if not args.json:
        args.pr = True  # the reference's layout

    def print_pair(label: str, s: Any) -> None:
        print(label)
        _print_scores(s, args)

    with _PairOutput(args, "Document", "documents", print_pair) as output:
        if args.svg:
            pred, gold = _read_pair_files(args, "documents")
            result = docsmatch(pred, gold, progress=progress, **keywords, **options)
            unreadable = set(result.unreadable_predictions)
            for k, (s, p, g) in enumerate(zip(result.pairs, pred, gold)):
                output((k, s, getattr(p, "id", None), getattr(g, "id", None), k in unreadable))
        else:
            with progress_counter(float("inf"), enable=progress, desc="docsmatch", unit="doc") as bar:

                def on_pair(record: tuple[int, Any, str | None, str | None, bool]) -> None:
                    output(record)
                    bar.update(1)

                result = stream_docsmatch(
                    args.f[0],
                    args.f[1],
                    on_pair=on_pair,
                    keep_scores=bool(args.ci) or args.averages,
                    **keywords,
                    **options,
                )
        averaged = _averages(result, args)
        if args.json:
            out: dict[str, Any] = dict(result.as_dict())
            out.update(_intervals(result, args))
            if averaged is not None:
                out["averages"] = averaged.as_dict()
            tail: dict[str, Any] = {}
            if result.coref is not None:
                from amreval.scores.coref import CATEGORIES

                tail["coref_counts"] = {c: getattr(result.coref, c) for c in CATEGORIES}
                tail["coref_counts"]["mixed"] = result.coref.mixed
                tail["coref_counts"]["across"] = result.coref.across
            if result.fine_grained is not None:
                tail["fine_grained_counts"] = result.fine_grained
            output.write_json(out, tail)
        else:
            _print_docsmatch(result, args)
            if averaged is not None:
                _print_averages(averaged, args)
    if args.svg:
        from amreval.report.draw import alignment_svg

        # draw the alignments that were scored, after the scores are out
        paths = svg_paths(args.svg, [_pair_id(p, g) for p, g in zip(pred, gold)])
        for k, (path, p, g, scored) in enumerate(zip(paths, pred, gold, result.pairs)):
            if k in result.unreadable_predictions:
                warnings.warn(f"no picture for document {k + 1}: its prediction could not be read", stacklevel=1)
                continue
            alignment_svg(p, g, path, mapping=scored.mapping)
    return 0


def _print_scores(s: Any, args: argparse.Namespace) -> None:
    """A document's or the corpus's scores in the reference's layout."""
    from amreval.scores.harness import prf

    print("Overall Score:")
    _print_prf(s.precision, s.recall, s.f1, args)
    if args.coref_subscore:
        print("Coref Score")
        _print_prf(*prf(*s.coref.total), args)


def counted(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _print_docsmatch(result: Any, args: argparse.Namespace) -> None:
    """What follows the documents' scores (printed as they came with ``--ms``)."""
    from amreval.scores.finegrained import MEASURE_LABELS
    from amreval.scores.harness import prf

    if not args.ms:
        _print_scores(result, args)
    _print_unproven(result)
    if result.ci is not None:
        _print_intervals(result, args)
    if result.fine_grained is not None:
        for name, label in MEASURE_LABELS.items():
            p, r, f = (decimals(x, args.significant) for x in prf(*result.fine_grained[name]))
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


def _system_names(paths: Sequence[str], given: Sequence[str] | None) -> list[str]:
    """``--names``, or the file names up to the first dot (the paths when those are not distinct)."""
    from pathlib import Path  # loaded where used: not by amreval smatch

    if given:
        if len(given) != len(paths):
            raise InputError(f"{len(given)} names for {len(paths)} systems")
        names = list(given)
    else:
        names = [Path(p).name.split(".")[0] or Path(p).name for p in paths]
        if len(set(names)) < len(names):
            names = [str(p) for p in paths]
    if len(set(names)) < len(names):
        raise InputError(f"the systems' names must differ: {', '.join(names)}")
    return names


def _read_form(path: str) -> list[float]:
    """A ``--form`` file: one preference score (or 1/0) per line, blank lines skipped."""
    from pathlib import Path

    values = []
    for line_no, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            values.append(float(line))
        except ValueError:
            raise InputError(f"{path}, line {line_no}: expected a number, got {line.strip()!r}") from None
    return values


def run_compare(args: argparse.Namespace) -> int:
    """``amreval compare``: score each system once, compare, print; write CSV and SVG when asked."""
    from pathlib import Path

    from amreval.amr.read import read_graphs
    from amreval.mfbeta.counts import MF_PARTS
    from amreval.report.comparison import comparison_svg, items_csv, summary_text

    names = _system_names(args.f, args.names)
    systems = {name: read_graphs(path) for name, path in zip(names, args.f)}
    gold = read_graphs(args.gold)
    options: dict[str, Any] = dict(
        score=args.score,
        statistic=args.statistic,
        test=args.test,
        n_resamples=args.resamples,
        seed=args.seed,
        alternative=args.alternative,
        confidence=args.confidence,
        solver=args.solver,
        restarts=args.r,
        time_limit=args.time_limit,
        progress=args.progress,
        **_standardize(args),
    )
    if args.score in ("s2match", *MF_PARTS):
        options.update(vectors=args.vectors, cutoff=args.cutoff, diffsense=args.diffsense)
    if args.frames is not None:
        if not args.score.startswith("aspects-"):
            raise UsageError(
                f"--frames: the frames rename roles for --score aspects-onealign, aspects-multialign; got {args.score}"
            )
        options["frames"] = args.frames
    if args.score in MF_PARTS:
        from amreval.mfbeta.counts import compare_mfbeta_systems

        if options.pop("standardize", None):
            raise InputError(f"--standardize: only the smatch score reads triples another way; got {args.score}")
        if not args.form or len(args.form) != len(names):
            raise InputError(f"--score {args.score} needs --form with one file per system ({len(names)})")
        form = {name: _read_form(path) for name, path in zip(names, args.form)}
        options["dimensions"] = args.dimensions
        cmp = compare_mfbeta_systems(systems, gold, form=form, beta=args.beta, tolerance=args.tolerance, **options)
    else:
        from amreval.scores.compare import compare_systems

        if args.dimensions:
            raise InputError(f"--dimensions breaks down the MFβ scores ({', '.join(MF_PARTS)}); got {args.score}")
        if args.score not in ("smatch", "s2match"):
            options.update(fine_grained=args.fine_grained, num_workers=args.num_workers)
        cmp = compare_systems(systems, gold, **options)
    if args.csv:
        Path(args.csv).write_text(items_csv(cmp), encoding="utf-8")
    if args.svg:
        Path(args.svg).write_text(comparison_svg(cmp), encoding="utf-8")
    if args.json:
        print(json.dumps(cmp.as_dict(), indent=2))
    else:
        print(summary_text(cmp, top=args.top, digits=args.significant), end="")
    return 0
