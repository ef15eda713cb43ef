"""SMATCH++'s aspect scores on the command line: ``amreval smatch --aspects onealign`` or ``multialign``
(:mod:`amreval.scores.aspects`) and ``amreval docsmatch --aspects``, the aspect scores of documents
(:mod:`amreval.scores.doc_aspects`).

Example:
    amreval smatch -f pred.amr gold.amr --aspects onealign --pr
    amreval smatch -f pred.amr gold.amr --aspects multialign --frames propbank-amr-frames-arg-descr.txt --json
    amreval docsmatch -f pred.docamr.amr gold.docamr.amr --aspects multialign
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from amreval.cli.output import read_pair_files
from amreval.errors import UsageError

__all__ = ["ALIGNMENTS", "add_aspects", "check_frames", "doc_aspects_conflicts", "run_aspects", "run_doc_aspects"]

#: ``--aspects``'s choices (:data:`amreval.scores.aspects.ALIGNMENTS`, without importing it).
ALIGNMENTS = ("onealign", "multialign")

_ASPECTS_HELP = {
    "smatch": "print SMATCH++'s aspect scores (agent, location, negation, ...): each aspect's triples under the "
    "whole graphs' alignment (onealign) or aligned anew (multialign), read by --standardize "
    "(smatchpp-amr unless another SMATCH++ reading is named)",
    "docsmatch": "print SMATCH++'s aspect scores of the documents instead: each aspect's triples under "
    "DocSmatch's alignment (onealign) or aligned anew under the sentence constraint (multialign), read by "
    "--standardize (smatchpp-amr unless another SMATCH++ reading is named)",
}


def add_aspects(p: argparse.ArgumentParser, command: str) -> None:
    """``--aspects`` and ``--frames`` of ``amreval smatch`` or ``amreval docsmatch`` (``command``)."""
    p.add_argument("--aspects", choices=ALIGNMENTS, default=None, help=_ASPECTS_HELP[command])
    p.add_argument(
        "--frames",
        metavar="FILE",
        help="--aspects: a PropBank frame description file (SMATCH++'s propbank-amr-frames-arg-descr.txt) "
        "whose argument descriptions rename core roles (control-01 :ARG2 as :instrument), as SMATCH++ does",
    )


def check_frames(args: argparse.Namespace) -> bool:
    """Whether the aspect scores are asked for; ``--frames`` without ``--aspects`` is a usage error (the
    frames rename roles for the aspect scores alone)."""
    if args.aspects is None and args.frames is not None:
        raise UsageError("--frames: the frames rename roles for the aspect scores; give --aspects too")
    return args.aspects is not None


def doc_aspects_conflicts(args: argparse.Namespace) -> list[str]:
    """The options given with ``amreval docsmatch --aspects`` that it does not take (the scores it prints
    are the aspects' alone)."""
    options = {"--coref-subscore": args.coref_subscore, "--fine-grained": args.fine_grained}
    options.update({"--averages": args.averages, "--ci": args.ci, "--svg": args.svg})
    return [option for option, value in options.items() if value]


def _frames(args: argparse.Namespace) -> Any:
    if args.frames is None:
        return None
    from amreval.scores.aspects import read_frames

    return read_frames(args.frames)


def _aspect_setup(args: argparse.Namespace) -> tuple[Any, str, dict[str, Any]]:
    """What both aspect commands take from the command line: the frames' table (or None), the reading the
    aspects are cut from (:func:`~amreval.scores.doc_aspects.aspect_reading`) and the search keywords."""
    from amreval.scores.doc_aspects import aspect_reading

    search = {
        "solver": args.solver,
        "restarts": args.r,
        "seed": args.seed,
        "time_limit": args.time_limit,
        "work_limit": args.work_limit,
    }
    return _frames(args), aspect_reading(args.standardize), search


def run_aspects(args: argparse.Namespace) -> int:
    """``amreval smatch --aspects ALIGNMENT``: the whole graphs' score and every aspect's, one line each
    (``--json``: the counts and scores, and each pair's counts with ``--ms``)."""
    from amreval.scores.aspects import aspect_scores

    frames, standardize, search = _aspect_setup(args)
    pred, gold = read_pair_files(args, "graphs")
    result = aspect_scores(
        pred, gold, alignment=args.aspects, standardize=standardize, frames=frames, strict=args.strict, **search
    )
    title = f"SMATCH++ aspects ({args.aspects}, {standardize}, frames: {'yes' if frames else 'no'}):"
    _print_aspects(result, args, title)
    return 0


def run_doc_aspects(args: argparse.Namespace) -> int:
    """``amreval docsmatch --aspects ALIGNMENT``: DocSmatch's documents' aspect scores, in the layout of
    ``amreval smatch --aspects`` (precision and recall always, as DocSmatch prints them)."""
    from amreval.scores.docsmatch import docsmatch

    frames, standardize, search = _aspect_setup(args)
    pred, gold = read_pair_files(args, "documents")
    result = docsmatch(
        pred,
        gold,
        aspects=args.aspects,
        frames=frames,
        standardize=standardize,
        coref=False,  # the aspects are scored under the overall alignment alone, without the coref tie-break
        num_workers=args.num_workers,
        progress=args.progress,
        strict=args.strict,
        **search,
    )
    assert result.aspects is not None
    args.pr = True
    title = f"DocSmatch aspects ({args.aspects}, {standardize}, frames: {'yes' if frames else 'no'}):"
    _print_aspects(result.aspects, args, title)
    return 0


def _print_aspects(result: Any, args: argparse.Namespace, title: str) -> None:
    """An :class:`~amreval.scores.aspects.AspectResult` printed, or as JSON (each pair's counts with ``--ms``)."""
    from amreval.scores.aspects import ASPECTS
    from amreval.scores.f1 import score_text

    if args.json:
        out: dict[str, Any] = result.as_dict()
        if args.ms:
            out["pair_counts"] = [{"main": p.main, **p.counts} for p in result.pairs]
        print(json.dumps(out, indent=2))
        return
    d = args.significant
    print(title)
    width = max(len(n) for n in ASPECTS)
    for name in ("main", *ASPECTS):
        m, t, g = result.main if name == "main" else result.counts[name]
        p, r, f = result.prf(name)
        p, r, f = (score_text(x, d) for x in (p, r, f))
        scores = f"P: {p}, R: {r}, F: {f}" if args.pr else f"F: {f}"
        print(f"{name:<{width}} -> {scores}  ({m} of {t} test, {g} gold)")
    unproven = [k for k, p in enumerate(result.pairs) if not p.optimal]
    if unproven:
        listed = ", ".join(f"#{k + 1}" for k in unproven[:20]) + (", ..." if len(unproven) > 20 else "")
        print(f"Not proven optimal: {len(unproven)} of {len(result.pairs)} ({listed})")
