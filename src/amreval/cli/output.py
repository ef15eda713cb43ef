"""How the scoring commands read their two files and print what they score: the layouts users expect
(smatch.py's, the DocSmatch reference's), one record per pair as it comes, the intervals and averages,
JSON; and the names of the pictures they draw."""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

from amreval.errors import AmrevalError
from amreval.scores.text import plural

__all__ = [
    "decimals",
    "print_unproven",
    "intervals",
    "print_intervals",
    "print_prf",
    "read_pair_files",
    "pair_id",
    "pair_rows",
    "pair_label",
    "scoring_options",
    "standardize_keyword",
    "averages",
    "print_averages",
    "PairOutput",
    "print_footer",
    "svg_paths",
    "SVG_HELP",
]


def decimals(value: float | None, digits: int) -> str:
    """``value`` with ``digits`` digits after the point (the layout of every printed score); ``n/a`` for
    a score with nothing to score (:func:`~amreval.scores.f1.undefined`)."""
    from amreval.scores.f1 import score_text

    return score_text(value, digits)


def print_unproven(result: Any) -> None:
    """Say which pairs are not proven optimal, and why, and by how much they could rise: a line per reason,
    the clock's (the time limit, the safety net: those pairs' numbers depend on the machine) apart from the
    work limits' (counts: the same on every machine) and the memory budget's; the gap of them all."""
    unproven = result.unproven
    if not unproven:
        return
    if result.config.search.solver == "hillclimb":
        groups = [("hill climbing proves only what reaches the simple bound", unproven)]
    else:
        timed, over = set(result.timed_out), set(result.over_budget)
        groups = [
            ("time limit", [k for k in unproven if k in timed]),
            ("memory budget", [k for k in unproven if k in over and k not in timed]),
            ("work limit", [k for k in unproven if k not in timed and k not in over]),
        ]
    for reason, pairs in groups:
        if pairs:
            listed = ", ".join(f"#{k + 1}" for k in pairs[:20]) + (", ..." if len(pairs) > 20 else "")
            print(f"Not proven optimal ({reason}): {len(pairs)} of {len(result.pairs)} ({listed})")
    print(f"Gap: at most {result.gap:g} more matched triples")


def intervals(result: Any, args: argparse.Namespace) -> dict[str, float | None]:
    """With ``--ci``: the intervals of every precision, recall and F1 of the result (``--resamples``
    resamples; F1's is the result's own)."""
    if not args.ci:
        return {}
    from amreval.scores.bootstrap import score_intervals

    out = score_intervals(result, n_resamples=args.resamples, seed=args.seed)
    if result.ci is not None:
        out["f1_ci_low"], out["f1_ci_high"] = result.ci
    return out


def print_intervals(result: Any, args: argparse.Namespace) -> None:
    """The 95% intervals of F (and, with ``--pr``, of precision and recall)."""
    if args.pr:
        ci = intervals(result, args)
        for name, key in (("Precision", "precision"), ("Recall", "recall")):
            print(f"{name} 95% CI: {_interval(ci[f'{key}_ci_low'], ci[f'{key}_ci_high'], args)}")
    lo, hi = result.ci if result.ci is not None else (None, None)
    print(f"F-score 95% CI: {_interval(lo, hi, args)}")


def _interval(lo: float | None, hi: float | None, args: argparse.Namespace) -> str:
    """``low - high``, or ``n/a`` where the interval is undefined (fewer than 2 pairs to resample)."""
    if lo is None or hi is None:
        return "n/a (an interval needs at least 2 pairs)"
    return f"{decimals(lo, args.significant)} - {decimals(hi, args.significant)}"


def print_prf(p: float | None, r: float | None, f: float | None, args: argparse.Namespace) -> None:
    if args.pr:
        print("Precision: " + decimals(p, args.significant))
        print("Recall: " + decimals(r, args.significant))
    print("F-score: " + decimals(f, args.significant))


def read_pair_files(args: argparse.Namespace, noun: str) -> tuple[list, list]:
    """The predicted and gold graphs; a predicted graph that cannot be read is kept in its place
    (unless ``--strict``) for the scorer to count."""
    from amreval.amr.read import read_graphs

    if getattr(args, "tsv", False):
        from amreval.amr.tsv import read_tsv

        pred, gold = read_tsv(args.f[0], errors=None if args.strict else []), read_tsv(args.f[1])
    else:
        pred = read_graphs(args.f[0], errors=None if args.strict else [])
        gold = read_graphs(args.f[1])
    for path, graphs in ((args.f[0], pred), (args.f[1], gold)):
        if not graphs:
            raise AmrevalError(f"{path}: no graphs found; expected PENMAN {noun}")
    if len(pred) != len(gold):
        raise AmrevalError(
            f"{args.f[0]} has {plural(len(pred), noun.removesuffix('s'))} but {args.f[1]} has {len(gold)}; "
            "they are paired by position"
        )
    return pred, gold


def pair_id(pred: Any, gold: Any) -> str | None:
    """The id of a pair: the gold graph's ``::id``, else the prediction's."""
    return getattr(gold, "id", None) or getattr(pred, "id", None)


def pair_rows(result: Any, pred: list, gold: list) -> list[dict[str, Any]]:
    """One JSON record per pair: position, id, counts and scores."""
    unreadable = set(result.unreadable_predictions)
    return [
        {
            "index": k,
            "id": pair_id(p, g),
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


def pair_label(noun: str, k: int, pred: Any, gold: Any) -> str:
    gid = pair_id(pred, gold)
    return f"{noun} {k + 1}" + (f" (id {gid}):" if gid else ":")


def scoring_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keywords that every scoring command passes on: search settings, interval, progress."""
    return {
        "solver": args.solver,
        "restarts": args.r,
        "seed": args.seed,
        "time_limit": args.time_limit,
        "work_limit": args.work_limit,
        "ci": args.ci,
        "n_resamples": args.resamples,
        "progress": args.progress,
        "strict": args.strict,
    }


def standardize_keyword(args: argparse.Namespace) -> dict[str, Any]:
    """``standardize`` for the scorer, given only when not the default (S²match has no such keyword)."""
    value = getattr(args, "standardize", "smatch")
    return {} if value == "smatch" else {"standardize": value}


def averages(result: Any, args: argparse.Namespace) -> Any:
    """With ``--averages``: the micro and macro averages, their intervals from ``--resamples`` resamples."""
    if not getattr(args, "averages", False):
        return None
    from amreval.scores.averages import averages

    return averages(result, n_resamples=args.resamples, seed=args.seed)


def print_averages(averaged: Any, args: argparse.Namespace) -> None:
    names = (("Precision", "precision"), ("Recall", "recall"), ("F-score", "f1")) if args.pr else (("F-score", "f1"),)
    for kind, average in (("Micro", averaged.micro), ("Macro", averaged.macro)):
        for name, key in names:
            lo, hi = getattr(average, f"{key}_ci") or (None, None)
            d = args.significant
            print(f"{kind} {name}: {decimals(getattr(average, key), d)} (95% CI {_interval(lo, hi, args)})")


class PairOutput:
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

    def __enter__(self) -> PairOutput:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.records is not None:
            self.records.close()


def print_footer(result: Any, args: argparse.Namespace, averaged: Any = None) -> None:
    """What follows the scores: the unproven pairs, the interval, the averages, the log line."""
    print_unproven(result)
    if result.ci is not None or getattr(args, "ci", None):
        print_intervals(result, args)
    if averaged is not None:
        print_averages(averaged, args)
    logging.getLogger("amreval").info(
        "%d pairs, match %d, test %d, gold %d, %d proven optimal (%s)",
        len(result.pairs),
        result.match,
        result.test,
        result.gold,
        result.n_optimal,
        result.config.as_string(),
    )


#: What ``--svg`` says of its value (the commands that draw a picture per document).
SVG_HELP = (
    "OUT for one document; for several, OUT with _<document id> before .svg (OUT_1.svg, OUT_2.svg, ... when a "
    "document has no id or two ids give one name); a folder (DIR/, or one that exists): DIR/<document id>.svg "
    "for each document (needs Graphviz)"
)


def svg_paths(out: str, ids: Sequence[str | None]) -> list[str]:
    """Where ``--svg OUT`` writes each document's picture (:data:`SVG_HELP`): in a folder (``OUT`` ends with a
    slash or is one), ``<document id>.svg`` each; else ``OUT`` for one picture, and for several ``OUT`` with
    ``_<document id>`` before the suffix. Ids are made file-name safe; when a document has none or two give
    one name, the documents are numbered from 1 instead. The folder is made.

    Example:
        >>> svg_paths("pics/", ["d1", "d2"]), svg_paths("a.svg", ["d1", None])
        (['pics/d1.svg', 'pics/d2.svg'], ['a_1.svg', 'a_2.svg'])
    """
    names = [re.sub(r"[^A-Za-z0-9._-]+", "_", i) if i else "" for i in ids]
    if not all(names) or len(set(names)) != len(names):
        names = [str(k) for k in range(1, len(ids) + 1)]
    if out.endswith(("/", os.sep)) or os.path.isdir(out):
        os.makedirs(out, exist_ok=True)
        return [os.path.join(out, f"{name}.svg") for name in names]
    folder = os.path.dirname(out)
    if folder:
        os.makedirs(folder, exist_ok=True)
    if len(ids) == 1:
        return [out]
    base, ext = os.path.splitext(out)
    return [f"{base}_{name}{ext or '.svg'}" for name in names]
