"""``amreval smatch``'s SMATCH++ options: the averages over pairs, SMATCH++'s tab-separated triples,
and SMATCH++'s aspect scores (``--aspects onealign`` or ``multialign``, :mod:`amreval.scores.aspects`).

Example:
    amreval smatch -f pred.amr gold.amr --aspects onealign --pr
    amreval smatch -f pred.amr gold.amr --aspects multialign --frames propbank-amr-frames-arg-descr.txt --json
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from amreval.errors import AmrevalError

__all__ = ["ALIGNMENTS", "add_arguments", "add_averages", "run_aspects"]

#: ``--aspects``'s choices (:data:`amreval.scores.aspects.ALIGNMENTS`, without importing it).
ALIGNMENTS = ("onealign", "multialign")


def add_averages(p: argparse.ArgumentParser, items: str = "pairs'") -> None:
    """``--averages``: the micro and the macro average over the items (smatch, s2match, docsmatch)."""
    mean = f"print the micro and the macro average (mean of the {items} scores), 95%% intervals (--ci N, 10000)"
    p.add_argument("--averages", action="store_true", help=mean)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``amreval smatch``'s SMATCH++ options: ``--averages``, ``--tsv``, ``--aspects`` and ``--frames``."""
    add_averages(p)
    p.add_argument("--tsv", action="store_true", help="the files hold SMATCH++'s tab-separated triples")
    p.add_argument(
        "--aspects",
        choices=ALIGNMENTS,
        default=None,
        help="print SMATCH++'s aspect scores (agent, location, negation, ...): each aspect's triples under the "
        "whole graphs' alignment (onealign) or aligned anew (multialign), read by --standardize "
        "(smatchpp-amr unless another SMATCH++ reading is named)",
    )
    p.add_argument(
        "--frames",
        metavar="FILE",
        help="--aspects: a PropBank frame description file (SMATCH++'s propbank-amr-frames-arg-descr.txt) "
        "whose argument descriptions rename core roles (control-01 :ARG2 as :instrument), as SMATCH++ does",
    )


def _graphs(args: argparse.Namespace) -> tuple[list, list]:
    from amreval.amr.read import read_graphs

    if args.tsv:
        from amreval.amr.tsv import read_tsv

        pred, gold = read_tsv(args.f[0]), read_tsv(args.f[1])
    else:
        pred, gold = read_graphs(args.f[0], errors=None if args.strict else []), read_graphs(args.f[1])
    for path, graphs in ((args.f[0], pred), (args.f[1], gold)):
        if not graphs:
            raise AmrevalError(f"{path}: no graphs found; expected PENMAN graphs")
    if len(pred) != len(gold):
        raise AmrevalError(
            f"{args.f[0]} has {len(pred)} graphs but {args.f[1]} has {len(gold)}; they are paired by position"
        )
    return pred, gold


def run_aspects(args: argparse.Namespace) -> int:
    """``amreval smatch --aspects ALIGNMENT``: the whole graphs' score and every aspect's, one line each
    (``--json``: the counts and scores, and each pair's counts with ``--ms``)."""
    from amreval.scores.aspects import ASPECTS, aspect_scores

    if args.frames is None:
        frames = None
    else:
        from amreval.scores.aspects import read_frames

        frames = read_frames(args.frames)
    standardize = "smatchpp-amr" if args.standardize == "smatch" else args.standardize
    pred, gold = _graphs(args)
    result = aspect_scores(
        pred,
        gold,
        alignment=args.aspects,
        standardize=standardize,
        frames=frames,
        solver=args.solver,
        restarts=args.r,
        seed=args.seed,
        time_limit=args.time_limit,
    )
    if args.json:
        out: dict[str, Any] = result.as_dict()
        if args.ms:
            out["pair_counts"] = [{"main": p.main, **p.counts} for p in result.pairs]
        print(json.dumps(out, indent=2))
        return 0
    d = args.significant
    print(f"SMATCH++ aspects ({args.aspects}, {standardize}, frames: {'yes' if frames else 'no'}):")
    width = max(len(n) for n in ASPECTS)
    for name in ("main", *ASPECTS):
        m, t, g = result.main if name == "main" else result.counts[name]
        p, r, f = result.prf(name)
        scores = f"P: {p:.{d}f}, R: {r:.{d}f}, F: {f:.{d}f}" if args.pr else f"F: {f:.{d}f}"
        print(f"{name:<{width}} -> {scores}  ({m} of {t} test, {g} gold)")
    unproven = [k for k, p in enumerate(result.pairs) if not p.optimal]
    if unproven:
        listed = ", ".join(f"#{k + 1}" for k in unproven[:20]) + (", ..." if len(unproven) > 20 else "")
        print(f"Not proven optimal: {len(unproven)} of {len(result.pairs)} ({listed})")
    return 0
