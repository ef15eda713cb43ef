"""Streaming corpora: the Little Prince repeated against itself, whole process, memory and speed.

The 1562 Little Prince 1.6 graphs (../shared/data/lpp) are written ``--times``
times (default 290: 452,980 pairs, about 200 MB) to one file in a temporary
folder, and ``amreval smatch -f FILE FILE`` scores it against itself in a fresh
process, in one process and with ``-j 2``: wall time, pairs a second, peak
memory (the largest resident size of the main process, and of the main
process and its workers together, sampled every 50 ms), and the counts (from
``-v``'s log line), which must be the one-copy counts times ``--times``; the CPU time (the
process's and its workers') says what a machine shared with other work hides in the wall time.
With ``--datasets``, the batch scoring of :mod:`amreval.hub.batch` over the same pairs
with ``Dataset.map(batched=True, num_proc=2)`` (a Dataset of two PENMAN columns), in process,
its counts summed and checked against the CLI's.

Run: ``python benchmarks/bench_stream.py [--times 290] [--runs 1] [--datasets]``.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
LPP = DATA / "lpp" / "amr-bank-struct-v1.6.txt"
_COUNTS = re.compile(r"(\d+) pairs, match (\d+), test (\d+), gold (\d+), (\d+) proven optimal")


def write_corpus(folder: Path, times: int) -> tuple[Path, int]:
    """The Little Prince ``times`` times in one file; the number of graphs."""
    text = LPP.read_text(encoding="utf-8")
    blocks = [b for b in text.split("\n\n") if any(line.startswith("(") for line in b.splitlines())]
    one = "\n\n".join(blocks) + "\n\n"
    path = folder / f"lpp_x{times}.amr"
    with open(path, "w", encoding="utf-8") as fh:
        for _ in range(times):
            fh.write(one)
    return path, len(blocks) * times


def measured(cmd: list[str]) -> dict:
    """Run ``cmd``: wall time, CPU time (with its workers'), peak RSS of the main process and of its tree,
    stdout and stderr."""
    import resource

    import psutil

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        ps = psutil.Process(proc.pid)
        peak_main = peak_tree = 0
        while proc.poll() is None:
            try:
                main = ps.memory_info().rss
                tree = main + sum(c.memory_info().rss for c in ps.children(recursive=True))
            except psutil.Error:
                continue
            peak_main, peak_tree = max(peak_main, main), max(peak_tree, tree)
            time.sleep(0.05)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        out.seek(0)
        err.seek(0)
        return {
            "wall_s": wall,
            "cpu_s": cpu,
            "peak_main_mb": peak_main / 2**20,
            "peak_tree_mb": peak_tree / 2**20,
            "status": proc.returncode,
            "stdout": out.read().decode(),
            "stderr": err.read().decode(),
        }


def cli(path: Path, workers: int) -> list[str]:
    code = "import sys; from amreval.cli import main; sys.exit(main())"
    cmd = [sys.executable, "-c", code, "-v", "smatch", "-f", str(path), str(path), "--no-progress"]
    return cmd + (["-j", str(workers)] if workers > 1 else [])


def run_datasets(path: Path, num_proc: int) -> tuple[float, tuple[int, int, int, int]]:
    """Batch scoring with ``datasets``: seconds (building the Dataset excluded) and the summed counts."""
    from datasets import Dataset

    from amreval import iter_graphs
    from amreval.hub.batch import smatch_batch

    texts = [g.to_string(indent=None) for g in iter_graphs(path)]
    ds = Dataset.from_dict({"prediction": texts, "reference": texts})
    del texts
    t0 = time.perf_counter()
    scored = ds.map(smatch_batch, batched=True, batch_size=1000, num_proc=num_proc, remove_columns=ds.column_names)
    seconds = time.perf_counter() - t0
    counts = (len(scored), sum(scored["match"]), sum(scored["test"]), sum(scored["gold"]))
    return seconds, counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--times", type=int, default=290)
    ap.add_argument("--runs", type=int, default=1, help="runs of each command (the best wall time is kept)")
    ap.add_argument("--datasets", action="store_true", help="also the datasets batch scoring, num_proc=2")
    args = ap.parse_args()
    if not LPP.exists():
        print(f"skipped: {LPP} not found (../shared/data beside the project)")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        path, n = write_corpus(Path(tmp), args.times)
        print(f"{n} pairs, file of {path.stat().st_size / 2**20:.0f} MB, scored against itself")
        rows = {}
        for workers in (1, 2):
            runs = [measured(cli(path, workers)) for _ in range(args.runs)]
            for r in runs:
                if r["status"] != 0:
                    raise SystemExit(f"-j {workers} failed: {r['stderr'][-2000:]}")
            best = min(runs, key=lambda r: r["wall_s"])
            m = _COUNTS.search(best["stderr"])
            assert m is not None, best["stderr"][-1000:]
            counts = tuple(int(x) for x in m.groups())
            rows[workers] = (best, counts)
            walls = ", ".join(f"{r['wall_s']:.1f}" for r in runs)
            print(
                f"-j {workers}: {best['wall_s']:7.1f} s ({walls})  "
                f"{n / best['wall_s']:6.0f} pairs/s  CPU {best['cpu_s']:.1f} s ({n / best['cpu_s']:.0f} pairs/CPU-s)  "
                f"peak {best['peak_main_mb']:4.0f} MB main, "
                f"{best['peak_tree_mb']:4.0f} MB with workers  pairs {counts[0]} match {counts[1]} "
                f"test {counts[2]} gold {counts[3]} proven {counts[4]}",
                flush=True,
            )
        (one, c1), (two, c2) = rows[1], rows[2]
        assert c1 == c2, (c1, c2)
        assert c1[0] == n and c1[1] == c1[2] == c1[3] and c1[4] == n, c1
        print(f"-j 2 speed-up: {one['wall_s'] / two['wall_s']:.2f}x; counts identical")
        if args.datasets:
            seconds, counts = run_datasets(path, 2)
            print(
                f"datasets map(batched=True, num_proc=2): {seconds:7.1f} s  {n / seconds:6.0f} pairs/s  "
                f"({seconds / two['wall_s']:.2f}x the CLI's -j 2)  pairs {counts[0]} match {counts[1]} "
                f"test {counts[2]} gold {counts[3]}"
            )
            assert counts == c1[:4], (counts, c1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
