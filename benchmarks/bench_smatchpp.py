"""SMATCH++ 1.8's readings: amreval against SMATCH++'s ILP, side by side, counts and whole-process time.

Data: ../shared/data (BART and T5 parses vs gold, 200 pairs each; Little Prince 1.6 vs 3.0, 1562 pairs).

For each reading (SMATCH++'s ``-graph_type``: none, ``generic``, ``amr``; amreval's
``--standardize none``, ``smatchpp-generic``, ``smatchpp-amr``) and each corpus, each tool's command
runs in a fresh process, timed from outside (start-up included), the best of ``--runs`` runs:

* SMATCH++: ``python -m smatchpp -a PRED -b GOLD [-graph_type T] -solver ilp -score_type micro
  -output_format json``, on copies of the files without their comment lines (its ``amr`` reading
  stops on the Little Prince's metadata lines);
* amreval: ``amreval smatch -f PRED GOLD --standardize M --json`` on the files as they are (its
  certified default: every pair proven optimal).

The table gives both F1 (SMATCH++ prints two decimals of a percentage), amreval's counts and the
pairs it proved, whether amreval's counts equal SMATCH++'s ILP counts pair by pair (the fixture
``tests/fixtures/smatchpp_counts.json`` that ``tests/fixtures/smatchpp_counts.py`` writes with
SMATCH++'s Python API), both times and their ratio. Then the aspect scores (``amreval smatch
--aspects onealign|multialign --frames F``, SMATCH++'s frame file): amreval's whole-process time
beside its main score's (``--standardize smatchpp-amr``), SMATCH++'s time through its Python API
(``all-onealign``/``all-multialign``, ILP, in this process: its command line stops on these
corpora, see the README), and how many pairs have every aspect's counts equal to SMATCH++'s (the
fixture ``tests/fixtures/smatchpp_aspects.json`` of ``tests/fixtures/smatchpp_aspect_counts.py``).
Last, the averages' bootstrap: 10,000 resamples of the 1562 Little Prince pairs (micro and macro
intervals), in process.

Run: ``python benchmarks/bench_smatchpp.py [--runs N] [--json OUT]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT

DATA = ROOT.parent / "shared" / "data"
FIXTURE = ROOT / "tests" / "fixtures" / "smatchpp_counts.json"
CORPORA = {
    "bart": ("BART vs gold (200)", "parses/bart_sys.amr", "parses/gold.amr"),
    "t5": ("T5 vs gold (200)", "parses/t5_sys.amr", "parses/gold.amr"),
    "lpp": ("LPP 1.6 vs 3.0 (1562)", "lpp/amr-bank-struct-v1.6.txt", "lpp/amr-bank-struct-v3.0.txt"),
}
MODES = {"none": None, "smatchpp-generic": "generic", "smatchpp-amr": "amr"}


def without_comments(path: Path, out: Path) -> Path:
    """A copy of a PENMAN file without its comment lines, one blank line between graphs."""
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    graphs = ["\n".join(x for x in b.split("\n") if not x.lstrip().startswith("#")).strip() for b in blocks]
    out.write_text("\n\n".join(g for g in graphs if g) + "\n", encoding="utf-8")
    return out


def timed(cmd: list[str], runs: int) -> tuple[float, str]:
    """Best wall time of ``runs`` runs of ``cmd`` and its standard output (it must succeed)."""
    best, out = float("inf"), ""
    env = {**os.environ, "AMREVAL_PROGRESS": "0"}
    for _ in range(runs):
        t0 = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
        elapsed = time.perf_counter() - t0
        if done.returncode:
            raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
        best, out = min(best, elapsed), done.stdout
    return best, out


def smatchpp_f1(stdout: str) -> float:
    """SMATCH++'s micro F1 (a percentage) from its JSON output."""
    start = stdout.index("{")
    return float(json.loads(stdout[start:])["main"]["F1"]["result"])


def bench_averages() -> dict[str, float]:
    """Seconds for 10,000 resamples of the 1562 Little Prince pairs' counts (micro and macro intervals)."""
    sys.path.insert(0, str(ROOT / "src"))
    import numpy as np

    from amreval.scores.averages import averages

    counts = np.array(json.loads(FIXTURE.read_text(encoding="utf-8"))["smatchpp-generic"]["lpp"], dtype=float)
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        a = averages(counts, n_resamples=10000, seed=0)
        best = min(best, time.perf_counter() - t0)
    groups = [k // 100 for k in range(len(counts))]
    t0 = time.perf_counter()
    averages(counts, groups=groups, n_resamples=10000, seed=0)
    with_groups = time.perf_counter() - t0
    return {"seconds": best, "with_micro_macro": with_groups, "macro_f1": a.macro.f1, "micro_f1": a.micro.f1}


def _aspect_script():  # type: ignore[no-untyped-def]
    from fixtures import smatchpp_aspect_counts  # tests/fixtures/, put on the path by _common

    return smatchpp_aspect_counts


def bench_aspects(runs: int) -> list[dict[str, object]]:
    """The aspect rows: amreval's process times (main score, each alignment), SMATCH++'s API time, parity."""
    script = _aspect_script()
    fixture_path = ROOT / "tests" / "fixtures" / "smatchpp_aspects.json"
    fixture = json.loads(fixture_path.read_text(encoding="utf-8")) if fixture_path.exists() else {}
    frames = str(script.frame_file())
    py, rows = sys.executable, []
    header = (
        f"{'aspects':10} {'corpus':17} {'main F1':>7} {'pairs =':>9} {'SMATCH++ s':>10} {'amreval s':>9} "
        f"{'main s':>6} {'/ main':>6}"
    )
    print("\n" + header + "\n" + "-" * len(header))
    import logging

    logging.disable(logging.WARNING)
    for key in ("bart", "t5"):
        label, a, b = CORPORA[key]
        pred, gold = DATA / a, DATA / b
        main_cmd = [py, "-m", "amreval", "smatch", "-f", str(pred), str(gold), "--standardize", "smatchpp-amr"]
        t_main, _ = timed([*main_cmd, "--json"], runs)
        texts = list(zip(script.graph_strings(pred), script.graph_strings(gold)))
        for mode in script.MODES:
            cmd = [py, "-m", "amreval", "smatch", "-f", str(pred), str(gold), "--aspects", mode, "--frames", frames]
            t_ours, out = timed([*cmd, "--json", "--ms"], runs)
            result = json.loads(out)
            scorer = script.aspect_scorer(mode)
            t0 = time.perf_counter()
            for p, g in texts:
                scorer.process_pair(p, g)
            t_theirs = time.perf_counter() - t0
            names = fixture.get("aspects", [])
            ours = [[list(p[n]) for n in names] for p in result["pair_counts"]]
            expected = fixture.get(mode, {}).get(key)
            same = sum(x == y for x, y in zip(ours, expected)) if expected else None
            row = {
                "alignment": mode,
                "corpus": label,
                "main_f1": round(100 * result["aspects"]["main"]["f1"], 2),
                "pairs_identical": same,
                "smatchpp_api_seconds": t_theirs,
                "amreval_seconds": t_ours,
                "amreval_main_seconds": t_main,
                "over_main": t_ours / t_main,
                "f1": {n: round(100 * v["f1"], 2) for n, v in result["aspects"].items()},
            }
            rows.append(row)
            flag = "-" if same is None else f"{same}/{len(texts)}"
            print(
                f"{mode:10} {label:17} {row['main_f1']:7.2f} {flag:>9} {t_theirs:10.2f} {t_ours:9.2f} "
                f"{t_main:6.2f} {row['over_main']:5.2f}x",
                flush=True,
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=1, help="runs of each command, best time kept (default 1)")
    parser.add_argument("--json", metavar="OUT", help="write the rows as JSON")
    parser.add_argument("--aspects-only", action="store_true", help="only the aspect rows")
    args = parser.parse_args(argv)
    if not DATA.exists():
        print(f"skipped: no data at {DATA}")
        return 0
    if importlib.util.find_spec("smatchpp") is None:
        print("skipped: smatchpp (SMATCH++) is not installed (pip install smatchpp==1.8.0)")
        return 0
    if args.aspects_only:
        aspect_rows = bench_aspects(args.runs)
        if args.json:
            Path(args.json).write_text(json.dumps({"aspects": aspect_rows}, indent=2) + "\n", encoding="utf-8")
        return 0
    fixture = json.loads(FIXTURE.read_text(encoding="utf-8")) if FIXTURE.exists() else {}
    py = sys.executable
    rows = []
    header = (
        f"{'reading':17} {'corpus':22} {'SMATCH++ F1':>11} {'amreval F1':>10} {'match/T/G':>19} "
        f"{'proven':>9} {'pairs =':>7} {'SMATCH++ s':>10} {'amreval s':>9} {'ratio':>6}"
    )
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        for mode, graph_type in MODES.items():
            for key, (label, a, b) in CORPORA.items():
                pred, gold = DATA / a, DATA / b
                plain = [without_comments(p, Path(tmp) / f"{key}_{k}.amr") for k, p in enumerate((pred, gold))]
                theirs = [py, "-m", "smatchpp", "-a", str(plain[0]), "-b", str(plain[1]), "-solver", "ilp"]
                theirs += ["-score_type", "micro", "-output_format", "json", "-log_level", "40"]
                if graph_type:
                    theirs += ["-graph_type", graph_type]
                t_theirs, out_theirs = timed(theirs, args.runs)
                ours = [py, "-m", "amreval", "smatch", "-f", str(pred), str(gold), "--standardize", mode, "--json"]
                t_ours, out_ours = timed(ours, args.runs)
                result = json.loads(out_ours)
                same = None
                if mode in fixture and key in fixture[mode]:
                    same = [[p["match"], p["test"], p["gold"]] for p in result["pairs"]] == fixture[mode][key]
                row = {
                    "reading": mode,
                    "corpus": label,
                    "smatchpp_f1": smatchpp_f1(out_theirs),
                    "amreval_f1": round(100 * result["f1"], 2),
                    "match": result["match"],
                    "test": result["test"],
                    "gold": result["gold"],
                    "proven": f"{result['n_optimal']}/{result['n_pairs']}",
                    "pairs_identical": same,
                    "smatchpp_seconds": t_theirs,
                    "amreval_seconds": t_ours,
                    "ratio": t_theirs / t_ours,
                }
                rows.append(row)
                counts = f"{row['match']}/{row['test']}/{row['gold']}"
                flag = {True: "yes", False: "NO", None: "-"}[same]
                print(
                    f"{mode:17} {label:22} {row['smatchpp_f1']:11.2f} {row['amreval_f1']:10.2f} {counts:>19} "
                    f"{row['proven']:>9} {flag:>7} {t_theirs:10.2f} {t_ours:9.2f} {row['ratio']:5.1f}x",
                    flush=True,
                )
    aspect_rows = bench_aspects(args.runs)
    boot = bench_averages()
    print(
        f"\naverages: 10,000 resamples of 1562 pairs, micro and macro intervals: {boot['seconds']:.2f} s "
        f"(with micro-macro over 16 groups: {boot['with_micro_macro']:.2f} s)"
    )
    if args.json:
        Path(args.json).write_text(
            json.dumps({"rows": rows, "aspects": aspect_rows, "averages": boot}, indent=2) + "\n", encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
