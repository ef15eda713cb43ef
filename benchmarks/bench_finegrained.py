"""Fine-grained scores (Damonte et al. 2017) of real parser output.

Scores the 200 BART and the 200 T5 parses of ``../shared/data/parses/`` against
the gold graphs and prints the eight measures (Unlabeled, No WSD, Concepts,
Named Ent., Negations, Wikification, Reentrancies, SRL) as P / R / F with their
counts, beside overall Smatch, and the in-process time (reading and scoring,
imports excluded). The alignment is the default search with seed 0, so the
numbers are the same on every run.

Run: ``python benchmarks/bench_finegrained.py [--json OUT]`` (also part of ``make bench``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "parses"
SYSTEMS = [("BART", "bart_sys.amr"), ("T5", "t5_sys.amr")]


def score(system_file: Path, gold_file: Path) -> dict:
    from amreval import docsmatch, read_graphs
    from amreval.scores.f1 import prf
    from amreval.scores.finegrained import MEASURES

    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pred = read_graphs(system_file)
        gold = read_graphs(gold_file)
    # graphs without :snt edges: DocSmatch is plain Smatch, one pair per sentence
    result = docsmatch(pred, gold, coref=False, fine_grained=True, progress=False)
    seconds = time.perf_counter() - t0
    assert result.fine_grained is not None
    rows = {"smatch": [result.match, result.test, result.gold]}
    rows.update({m: list(result.fine_grained[m]) for m in MEASURES})
    return {
        "pairs": len(pred),
        "seconds": seconds,
        "counts": rows,
        "prf": {name: list(prf(*counts)) for name, counts in rows.items()},
    }


def main() -> int:
    from amreval.scores.finegrained import MEASURE_LABELS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "finegrained.json")
    args = parser.parse_args()
    gold = DATA / "gold.amr"
    if not gold.exists():
        print(f"skipped: public AMR data not found at {DATA} (expected ../shared/data beside the project)")
        return 0
    results = {name: score(DATA / path, gold) for name, path in SYSTEMS}
    names = [name for name, _ in SYSTEMS]
    print("| measure | " + " | ".join(f"{n} P / R / F (match, test, gold)" for n in names) + " |")
    print("|---|" + "---|" * len(names))
    for key, label in [("smatch", "Smatch"), *MEASURE_LABELS.items()]:
        cells = []
        for n in names:
            p, r, f = results[n]["prf"][key]
            m, t, g = results[n]["counts"][key]
            cells.append(f"{p:.4f} / {r:.4f} / {f:.4f} ({m}, {t}, {g})")
        print(f"| {label} | " + " | ".join(cells) + " |")
    print(", ".join(f"{n}: {results[n]['pairs']} pairs in {results[n]['seconds']:.2f} s" for n in names))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
