"""Sentence-level Smatch: amreval against PyPI smatch 1.0.4, side by side in one run.

Data: ../shared/data (Little Prince 1.6 vs 3.0, 1562 pairs; BART and T5
parses vs gold, 200 pairs each; the 3 smatch example pairs).

For each corpus it prints, for smatch 1.0.4 (three runs: it reseeds from the
OS) and for amreval (default settings, the exact solver, and hill climbing
with the compiled kernels switched off): match counts, T, G, F1, in-process
time (reading and scoring, imports excluded) and the time ratio; and it
checks that no pair scores below smatch's best of its three runs.

Run: ``make bench`` (installs smatch==1.0.4, a benchmark-only peer), or
``python benchmarks/bench_smatch.py [--json OUT]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"

CORPORA = [
    ("smatch examples (3)", "smatch-examples/test_input1.txt", "smatch-examples/test_input2.txt"),
    ("BART vs gold (200)", "parses/bart_sys.amr", "parses/gold.amr"),
    ("T5 vs gold (200)", "parses/t5_sys.amr", "parses/gold.amr"),
    ("LPP 1.6 vs 3.0 (1562)", "lpp/amr-bank-struct-v1.6.txt", "lpp/amr-bank-struct-v3.0.txt"),
]


def run_smatch(pred: Path, gold: Path) -> tuple[list[tuple[int, int, int]], float]:
    import smatch

    t0 = time.perf_counter()
    out = []
    with open(pred) as f1, open(gold) as f2:
        for a, b in smatch.generate_amr_lines(f1, f2):
            out.append(smatch.get_amr_match(a, b))
            smatch.match_triple_dict.clear()
    return out, time.perf_counter() - t0


def run_amreval(pred: Path, gold: Path, **kw):
    from amreval import read_graphs, smatch

    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = read_graphs(pred)
        b = read_graphs(gold)
    result = smatch(a, b, progress=False, **kw)
    return result, time.perf_counter() - t0


def pure_python_time(pred: Path, gold: Path) -> float:
    """Hill climbing with Numba disabled (the same code run as plain Python)."""
    code = (
        f"import sys, time, warnings; sys.path.insert(0, {str(ROOT / 'src')!r})\n"
        "warnings.simplefilter('ignore')\n"
        "from amreval import read_graphs, smatch\n"
        f"a = read_graphs({str(pred)!r}); b = read_graphs({str(gold)!r})\n"
        "t = time.perf_counter(); smatch(a, b, progress=False); print(time.perf_counter() - t)\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", type=Path, help="also write the figures as JSON")
    ap.add_argument("--runs", type=int, default=3, help="runs per tool (default 3)")
    args = ap.parse_args()
    if not DATA.exists():
        print(f"skipped: public AMR data not found at {DATA}")
        return 0
    try:
        import smatch  # noqa: F401
    except ImportError:
        print("smatch 1.0.4 is the peer of this benchmark: pip install smatch==1.0.4")
        return 1

    from amreval import read_graphs
    from amreval import smatch as am_smatch

    t0 = time.perf_counter()
    am_smatch(["(a / b :ARG0 (c / d))"], ["(a / b :ARG0 (c / e))"], progress=False)
    warm = time.perf_counter() - t0
    print(f"amreval kernels loaded (Numba cache) in {warm:.2f} s, excluded from the timings below\n")

    report = []
    header = f"{'corpus':24} {'tool':28} {'match':>7} {'T':>7} {'G':>7} {'F1':>8} {'time s':>8} {'proven':>7}"
    print(header)
    print("-" * len(header))
    for name, p, g in CORPORA:
        pred, gold = DATA / p, DATA / g
        sm_runs = [run_smatch(pred, gold) for _ in range(args.runs)]
        sm_times = [t for _, t in sm_runs]
        sm_best = [max(run[0][k][0] for run in sm_runs) for k in range(len(sm_runs[0][0]))]
        for r, (pairs, t) in enumerate(sm_runs):
            m = sum(x[0] for x in pairs)
            tt = sum(x[1] for x in pairs)
            gg = sum(x[2] for x in pairs)
            f = 2 * m / (tt + gg)
            print(f"{name:24} {'smatch 1.0.4 run ' + str(r + 1):28} {m:7d} {tt:7d} {gg:7d} {f:8.5f} {t:8.3f} {'':>7}")
        rows = {}
        for label, kw in (("amreval default", {}), ("amreval exact", {"solver": "exact"})):
            times, res = [], None
            for _ in range(args.runs):
                res, t = run_amreval(pred, gold, **kw)
                times.append(t)
            rows[label] = (res, statistics.median(times))
            print(
                f"{name:24} {label:28} {res.match:7d} {res.test:7d} {res.gold:7d} {res.f1:8.5f} "
                f"{statistics.median(times):8.3f} {res.n_optimal:7d}"
            )
        default, t_default = rows["amreval default"]
        exact, t_exact = rows["amreval exact"]
        below = [k for k, (s, best) in enumerate(zip(default.pairs, sm_best)) if s.match < best]
        t_smatch = statistics.median(sm_times)
        print(
            f"{'':24} smatch / amreval time: {t_smatch / t_default:.1f}x; "
            f"pairs below smatch's best of {args.runs}: {len(below)}; "
            f"default = exact optimum: {default.match == exact.match}"
        )
        report.append(
            {
                "corpus": name,
                "smatch_matches": [sum(x[0] for x in run) for run, _ in sm_runs],
                "smatch_time_median_s": t_smatch,
                "amreval_match": default.match,
                "amreval_test": default.test,
                "amreval_gold": default.gold,
                "amreval_f1": default.f1,
                "amreval_time_median_s": t_default,
                "exact_match": exact.match,
                "exact_proven": exact.n_optimal,
                "exact_time_median_s": t_exact,
                "pairs": len(default.pairs),
                "pairs_below_smatch_best": below,
                "speedup": t_smatch / t_default,
            }
        )
        print()
    # what compiling the hot loop buys
    bart, gold = DATA / "parses/bart_sys.amr", DATA / "parses/gold.amr"
    t_py = pure_python_time(bart, gold)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a, b = read_graphs(bart), read_graphs(gold)
    t0 = time.perf_counter()
    am_smatch(a, b, progress=False)
    t_jit = time.perf_counter() - t0
    print(
        f"hot loop, BART 200 pairs, default settings (scoring only): Numba {t_jit:.3f} s, "
        f"same code as plain Python {t_py:.3f} s ({t_py / t_jit:.0f}x)"
    )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"corpora": report, "jit_s": t_jit, "python_s": t_py}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
