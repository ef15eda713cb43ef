"""SMATCH++ 1.8's own counts, pair by pair, for the parity tests (run once; the ILP is slow).

    PYTHONPATH=src python benchmarks/smatchpp_counts.py [OUT.json]

For each reading (SMATCH++'s ``-graph_type`` none, ``generic`` and ``amr``) and each corpus
(the BART and T5 parses against gold, the Little Prince 1.6 against 3.0, graphs without their
comment lines), SMATCH++'s ILP (``-solver ilp``) through its Python API gives per pair
``[match, test, gold]``. Writes ``tests/fixtures/smatchpp_counts.json`` by default.
"""

from __future__ import annotations

import json
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
CORPORA = {
    "bart": ("parses/bart_sys.amr", "parses/gold.amr"),
    "t5": ("parses/t5_sys.amr", "parses/gold.amr"),
    "lpp": ("lpp/amr-bank-struct-v1.6.txt", "lpp/amr-bank-struct-v3.0.txt"),
}
#: amreval's reading name -> SMATCH++'s -graph_type
MODES = {"none": None, "smatchpp-generic": "generic", "smatchpp-amr": "amr"}


def graph_strings(path: pathlib.Path) -> list[str]:
    """The graphs of a PENMAN file, comment lines removed, one string each."""
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    out = ["\n".join(line for line in b.split("\n") if not line.lstrip().startswith("#")).strip() for b in blocks]
    return [b for b in out if b]


def smatchpp_scorer(graph_type: str | None):  # type: ignore[no-untyped-def]
    """SMATCH++'s pipeline with its ILP solver and the standardizer of ``graph_type``."""
    from smatchpp import solvers
    from smatchpp.bindings import Smatchpp
    from smatchpp.model_factory import StandardizerFactory

    return Smatchpp(
        graph_standardizer=StandardizerFactory.get_standardizer(graph_type), alignmentsolver=solvers.get_solver("ilp")
    )


def pair_counts(scorer, pred: str, gold: str) -> list[int]:  # type: ignore[no-untyped-def]
    """``[match, test, gold]`` of one pair by SMATCH++."""
    match, _, _ = scorer.process_pair(pred, gold)
    m = match["main"]
    return [int(round(m[0])), int(m[2]), int(m[3])]


def main(argv: list[str]) -> int:
    out_path = pathlib.Path(argv[0]) if argv else ROOT / "tests" / "fixtures" / "smatchpp_counts.json"
    import logging

    logging.disable(logging.WARNING)
    result: dict[str, dict[str, list[list[int]]]] = {}
    for mode, graph_type in MODES.items():
        scorer = smatchpp_scorer(graph_type)
        result[mode] = {}
        for name, (a, b) in CORPORA.items():
            t0 = time.perf_counter()
            pred, gold = graph_strings(DATA / a), graph_strings(DATA / b)
            result[mode][name] = [pair_counts(scorer, p, g) for p, g in zip(pred, gold)]
            total = [sum(c[k] for c in result[mode][name]) for k in range(3)]
            print(f"{mode} {name}: {total} ({time.perf_counter() - t0:.1f} s)", flush=True)
    out_path.write_text(json.dumps(result, separators=(",", ":")) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
