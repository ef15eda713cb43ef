"""Sentence-level Smatch: amreval against PyPI smatch 1.0.4 and SMATCH++, side by side.

Data: ../shared/data (Little Prince 1.6 vs 3.0, 1562 pairs; BART and T5
parses vs gold, 200 pairs each; the 3 smatch example pairs).

Whole process (the figures that count for a user): each tool's command runs
in a fresh process, timed from outside, start-up included, the best wall
time of ``--runs`` runs (default 3) and the largest peak memory (maximum
RSS):

* smatch 1.0.4 at its defaults: ``smatch.py -f PRED GOLD`` (5 hill climbs;
  ``--significant 4`` only prints more digits);
* SMATCH++'s exact integer program: ``python -m smatchpp -a PRED -b GOLD
  -solver ilp -score_dimension main -score_type micro`` (``pip install
  smatchpp``; skipped when absent);
* amreval's certified default, ``amreval smatch -f PRED GOLD``, and its fast
  uncertified option, ``--solver hillclimb`` (then once more with ``--json``,
  untimed, for the counts and the pairs proven).

In process, for each corpus: smatch 1.0.4 (three runs: it reseeds from the
OS) and amreval (certified default and hill climbing): match counts, T, G,
F1, reading and scoring time (imports excluded), pairs proven optimal; and a
check that no pair scores below smatch's best of its three runs. Last, what
compiling the hot loop buys (hill climbing with the Python kernels, AMREVAL_KERNELS=python).

Run: ``make bench`` (installs the peers, benchmark-only), or
``python benchmarks/bench_smatch.py [--json OUT] [--no-whole] [--no-in-process]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import time
import warnings
from pathlib import Path

from _common import run_measured

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
BIN = Path(sys.executable).parent

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
    """Hill climbing with the Python kernels (the specification the C follows), scoring only."""
    code = (
        f"import sys, time, warnings; sys.path.insert(0, {str(ROOT / 'src')!r})\n"
        "warnings.simplefilter('ignore')\n"
        "from amreval import read_graphs, smatch\n"
        f"a = read_graphs({str(pred)!r}); b = read_graphs({str(gold)!r})\n"
        "t = time.perf_counter(); smatch(a, b, solver='hillclimb', progress=False); print(time.perf_counter() - t)\n"
    )
    env = dict(os.environ, AMREVAL_KERNELS="python")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


#: whole-process comparisons: (corpus, pred, gold); the Little Prince is the one the targets name
WHOLE = [c for c in CORPORA if not c[0].startswith("smatch examples")]
_SPP_BOUND = re.compile(r"lower & upper bound: \[([\d.]+), ([\d.]+)\].*?optimal solution: (\d+)", re.S)
_SPP_F1 = re.compile(r"F1: ([\d.]+)")
_SM_F = re.compile(r"F-score: ([\d.]+)")


def tool_commands(pred: Path, gold: Path) -> dict[str, list[str] | None]:
    """The command of each tool (None: not installed)."""
    amreval = [str(BIN / "amreval")] if (BIN / "amreval").exists() else None
    smatch_py = BIN / "smatch.py"
    return {
        "smatch 1.0.4 (smatch.py -f)": (
            [str(smatch_py), "-f", str(pred), str(gold), "--significant", "4"] if smatch_py.exists() else None
        ),
        "SMATCH++ ILP": (
            [sys.executable, "-m", "smatchpp", "-a", str(pred), "-b", str(gold), "-solver", "ilp"]
            + ["-score_dimension", "main", "-score_type", "micro"]
            if importlib.util.find_spec("smatchpp")
            else None
        ),
        "amreval certified (default)": amreval and [*amreval, "smatch", "-f", str(pred), str(gold)],
        "amreval --solver hillclimb": amreval
        and [*amreval, "smatch", "-f", str(pred), str(gold), "--solver", "hillclimb"],
    }


def whole_process(runs: int) -> list[dict]:
    """Every tool on every corpus in fresh processes: best wall time, peak memory, what it printed."""
    rows = []
    for name, p, g in WHOLE:
        pred, gold = DATA / p, DATA / g
        for tool, cmd in tool_commands(pred, gold).items():
            if cmd is None:
                print(f"{name:24} {tool:30} not installed")
                continue
            walls, peaks = [], []
            for _ in range(runs):
                run = run_measured(cmd)
                if run.status != "ok":
                    raise RuntimeError(f"{tool} failed on {name}: {run.status}\n{run.stderr[-2000:]}")
                walls.append(run.wall_s)
                peaks.append(run.peak_mb)
            row = {"corpus": name, "tool": tool, "wall_s": min(walls), "walls_s": walls, "peak_mb": max(peaks)}
            if tool.startswith("amreval"):  # the counts: once more, with --json (not timed)
                out = json.loads(subprocess.run([*cmd, "--json"], capture_output=True, text=True, check=True).stdout)
                row.update({k: out[k] for k in ("match", "test", "gold", "f1", "n_pairs", "n_optimal", "gap")})
            elif tool.startswith("SMATCH++"):
                low, high, open_pairs = _SPP_BOUND.search(run.stderr).groups()
                row.update(match=float(low), bound=float(high), unproven=int(open_pairs))
                row["f1"] = float(_SPP_F1.search(run.stdout).group(1)) / 100
            else:
                row["f1"] = float(_SM_F.search(run.stdout).group(1))
            rows.append(row)
            extra = ""
            if "n_optimal" in row:
                extra = f" match {row['match']:g} of {row['test']} / {row['gold']}, proven {row['n_optimal']}"
                extra += f"/{row['n_pairs']}"
            elif "bound" in row:
                extra = f" match {row['match']:g} (bound {row['bound']:g}), unproven {row['unproven']}"
            print(
                f"{name:24} {tool:30} {row['wall_s']:7.2f} s (runs {', '.join(f'{w:.2f}' for w in walls)}) "
                f"{row['peak_mb']:5.0f} MB  F1 {row['f1']:.4f}{extra}",
                flush=True,
            )
        print()
    return rows


def whole_targets(rows: list[dict]) -> list[str]:
    """The Little Prince targets: certified amreval ≥ 5x smatch 1.0.4 and ≥ 8x SMATCH++ ILP, all proven."""
    lpp = {r["tool"]: r for r in rows if r["corpus"].startswith("LPP")}
    am = lpp.get("amreval certified (default)")
    if am is None:
        return []
    out = []
    for tool, goal in (("smatch 1.0.4 (smatch.py -f)", 5), ("SMATCH++ ILP", 8)):
        if tool in lpp:
            ratio = lpp[tool]["wall_s"] / am["wall_s"]
            out.append(
                f"- LPP, certified amreval ≥ {goal}x faster than {tool}, whole process: "
                f"{'met' if ratio >= goal else 'NOT met'} ({lpp[tool]['wall_s']:.2f} s / {am['wall_s']:.2f} s "
                f"= {ratio:.1f}x)"
            )
    counts = (am["match"], am["test"], am["gold"], am["n_optimal"]) == (22513, 23247, 23518, 1562)
    out.append(
        f"- LPP, certified amreval 22513 of 23247 / 23518, all 1562 proven: {'met' if counts else 'NOT met'} "
        f"({am['match']:g} of {am['test']} / {am['gold']}, {am['n_optimal']} proven)"
    )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", type=Path, help="also write the figures as JSON")
    ap.add_argument("--runs", type=int, default=3, help="runs per tool, the best time is kept (default 3)")
    ap.add_argument("--no-whole", action="store_true", help="skip the whole-process comparison")
    ap.add_argument("--no-in-process", action="store_true", help="skip the in-process comparison")
    args = ap.parse_args()
    if not DATA.exists():
        print(f"skipped: public AMR data not found at {DATA}")
        return 0
    try:
        import smatch  # noqa: F401
    except ImportError:
        print("smatch 1.0.4 is the peer of this benchmark: pip install smatch==1.0.4")
        return 1

    whole: list[dict] = []
    if not args.no_whole:
        print(f"whole process, best of {args.runs} runs (start-up included)\n")
        whole = whole_process(args.runs)
        for line in whole_targets(whole):
            print(line)
        print()
    if args.no_in_process:
        if args.json:
            args.json.parent.mkdir(parents=True, exist_ok=True)
            args.json.write_text(json.dumps({"whole_process": whole}, indent=2))
        return 0

    from amreval import read_graphs
    from amreval import smatch as am_smatch

    t0 = time.perf_counter()
    am_smatch(["(a / b :ARG0 (c / d))"], ["(a / b :ARG0 (c / e))"], progress=False)
    warm = time.perf_counter() - t0
    print(f"in process: amreval imported and first alignment in {warm:.2f} s, excluded from the timings below\n")

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
        for label, kw in (("amreval certified (default)", {}), ("amreval hillclimb", {"solver": "hillclimb"})):
            times, res = [], None
            for _ in range(args.runs):
                res, t = run_amreval(pred, gold, **kw)
                times.append(t)
            rows[label] = (res, min(times))
            print(
                f"{name:24} {label:28} {res.match:7g} {res.test:7d} {res.gold:7d} {res.f1:8.5f} "
                f"{min(times):8.3f} {res.n_optimal:7d}"
            )
        default, t_default = rows["amreval certified (default)"]
        climb, t_climb = rows["amreval hillclimb"]
        below = [k for k, (s, best) in enumerate(zip(default.pairs, sm_best)) if s.match < best]
        t_smatch = min(sm_times)
        print(
            f"{'':24} smatch / amreval time: {t_smatch / t_default:.1f}x certified, "
            f"{t_smatch / t_climb:.1f}x hillclimb; pairs below smatch's best of {args.runs}: {len(below)}; "
            f"hill climbing reaches the certified optimum: {climb.match == default.match}"
        )
        report.append(
            {
                "corpus": name,
                "smatch_matches": [sum(x[0] for x in run) for run, _ in sm_runs],
                "smatch_time_best_s": t_smatch,
                "amreval_match": default.match,
                "amreval_test": default.test,
                "amreval_gold": default.gold,
                "amreval_f1": default.f1,
                "amreval_proven": default.n_optimal,
                "amreval_gap": default.gap,
                "amreval_time_best_s": t_default,
                "hillclimb_match": climb.match,
                "hillclimb_time_best_s": t_climb,
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
    am_smatch(a, b, solver="hillclimb", progress=False)
    t_jit = time.perf_counter() - t0
    print(
        f"hot loop, BART 200 pairs, hill climbing (scoring only): C kernels {t_jit:.3f} s, "
        f"the Python kernels {t_py:.3f} s ({t_py / t_jit:.0f}x)"
    )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps({"whole_process": whole, "corpora": report, "jit_s": t_jit, "python_s": t_py}, indent=2)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
