"""The alignment's memory budget: what scoring a pair takes against what the budget counts, and how fast a
pair over it is refused.

``amreval.match.problem.MEMORY_BUDGET`` (4 GiB) is the memory scoring one pair may take beyond what the
process held before; ``memory_estimate(terms, entries)`` is what it counts, from the problem's pairwise
terms and unary entries, before anything is allocated. Sections:

* **Calibration.** Pairs of graphs of shapes that reach the search's costly steps (whole process per pair,
  Smatch's certified default): chains and stars (the climb proves them), a matching of disjoint edges (no
  unary weight: the priced LP grows to the whole problem), the same with most or all but one pair of one
  concept (the priced LP's rounds growing its solver), random graphs, a clique. Each runs in a child
  process; its peak resident memory above what it held before scoring (``/proc/self/status`` VmHWM, reset
  through ``clear_refs``) is set against the estimate. The estimate must be above every peak.
* **Two 5,000-node chains** ``(n0 / c0 :r (n1 / c1 :r ...))`` with distinct concepts on the two sides
  (every node pair a candidate through the :r relations): the estimate, the whole-process time and peak,
  and the same under a 4 GB address-space limit (``RLIMIT_AS``).
* **Out of address space.** Two 500-node chains (within the budget) under an address-space limit 16 MiB
  above what the process holds after its imports: the error line that names the pair.
* **Refusal.** Two 20,000- and two 50,000-node chains, whole process (``amreval smatch -f A B``: reading
  the files included).
* **A normal corpus.** ``amreval smatch`` on the Little Prince (1.6 vs 3.0, 1562 pairs), whole process, best
  of ``--runs``: the count runs on every pair.

Before and after, measured on this machine (2 cores shared with other work; before: ``main`` with the
budget that counted 88 bytes a term and 80 a matching triple, by visiting every match):

==========================================  =================================  ==================================
                                            before                             after
==========================================  =================================  ==================================
two 5,000-node chains (24,990,001 terms)    accepted ("3.9 GiB"); peak RSS     refused in 0.54 s (peak 38 MB):
                                            4.9 GiB (5,115,108 KB), still      needs about 286.1 GiB
                                            hill climbing after 51 min
the same under RLIMIT_AS 4 GB               ``MemoryError`` traceback, 9.2 s   the refusal (error line, exit 1)
two 500-node chains, 16 MiB to spare        (``MemoryError`` traceback)        error line naming the pair, 0.5 s
refusing two 20,000-node chains             5.07 s                             0.91 s
refusing two 50,000-node chains             23.4 s                             1.56 s (the count: 0.05 s)
LPP 1.6 vs 3.0 smatch, whole process        1.42 s                             1.37 s
building the 1562 LPP problems, in process  192-206 ms (123-132 us a pair)     196-200 ms (125-128 us a pair)
==========================================  =================================  ==================================

Calibration (after; measured again once the priced LP grew one solver instead of building one a round):
the highest peak / estimate is 0.54 (``matching`` 1000 x 1000, 250,000 terms: 1.62 GiB against 2.99 GiB;
1.43 GiB before that change); the whole Little Prince as one document (215,672 terms) peaked at 280 MiB
against an estimate of 2.6 GiB. The estimate is about twice the highest peak measured because it covers
two copies of an LP over the whole problem, which a growing solver's arrays may be for a moment.

Since issue 48 the estimate counts what is certain to run, the build, the climbs, the exact search of small
problems or of a document's blocks and the assignment bound (``memory_estimate``: 1 MiB + 240 bytes a term +
80 an entry); the LP steps' worst case is counted apart when they are reached (``lp_memory_estimate``: the
former estimate, 128 MiB + 12 KiB a term + 1.5 KiB a pair of unary weight), and a problem whose LP is over the
budget ends unproven before it. Peak RSS increase (VmHWM, each pair in a child process, ``--child SHAPE N``;
the certified default; every row proven by the climb) against the estimate:

| pair | terms | unary entries | peak | estimate | estimate / peak | LP estimate |
|---|---:|---:|---:|---:|---:|---:|
| one-concept chain 100 x 99 | 9,702 | 9,901 | 2 MiB | 4 MiB | 1.77 | 0.3 GiB |
| one-concept chain 300 x 299 | 89,102 | 89,701 | 19 MiB | 28 MiB | 1.51 | 1.3 GiB |
| one-concept chain 549 x 548 | 299,756 | 300,853 | 63 MiB | 93 MiB | 1.48 | 4.0 GiB |
| one-concept chain 1000 x 999 | 997,002 | 999,001 | 208 MiB | 305 MiB | 1.47 | 13.0 GiB |
| one-concept chain 2000 x 1999 | 3,994,002 | 3,998,001 | 835 MiB | 1,220 MiB | 1.46 | 51.6 GiB |
| chains of distinct concepts 1000 x 1000 | 998,001 | 1 | 198 MiB | 229 MiB | 1.16 | 11.5 GiB |
| star 1000 x 1000 | 998,001 | 1 | 198 MiB | 229 MiB | 1.16 | 11.5 GiB |
| document, 50 sentences of 30 x 29 one-concept chains | 40,650 | 43,502 | 10 MiB | 14 MiB | 1.32 | 0.7 GiB |
| document, 1000 sentences of 30 x 29 one-concept chains | 813,000 | 870,002 | 222 MiB | 253 MiB | 1.14 | 10.7 GiB |

(The 1000-node chain took 2.0 s, the 2000-node one 11.3 s, the 1000-sentence document 2.3 s; the chains of
distinct concepts and the star 28 s each. Before, every one from the 549-node chain on was refused by the LP's
worst case; ``random8x20 600``, which reaches the LP, peaked at 244 MiB against an LP estimate of 2.2 GiB.)

Run: ``python benchmarks/bench_budget.py`` (the calibration's LPs run to their work limit; not in ``make
bench``), ``--quick`` (no calibration, under a minute), ``--compare SRC`` (the refusal
and corpus timings of another checkout too, e.g. ``--compare ../main``). The figures are saved to
``benchmarks/results/budget.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from _common import run_measured

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
GiB = 1024**3

#: (shape, size) of the calibration: chains, stars and a clique the climb proves; matchings the priced LP
#: grows to the whole problem (matchmost, matchone: rounds that add most of it); random graphs it keeps small
CALIBRATION = [
    ("onechain", 300),
    ("onechain", 1000),
    ("onedoc", 1000),
    ("chain", 300),
    ("star", 300),
    ("clique", 20),
    ("matching", 300),
    ("matching", 600),
    ("matching", 1000),
    ("matchmost", 400),
    ("matchone", 400),
    ("random4x10", 300),
    ("random8x20", 600),
    ("lppdoc", 400),
    ("lppdoc", 1562),
]


def graphs(shape: str, n: int):
    """The two graphs of a calibration shape (see the module docs) of ``n`` nodes each."""
    import numpy as np

    from amreval.amr.graph import Edge, Graph

    def graph(concepts, edges):
        names = [f"n{i}" for i in range(len(concepts))]
        return Graph(
            top=names[0],
            instances=dict(zip(names, concepts)),
            edges=[Edge(names[s], r, names[t], r) for s, r, t in edges],
        )

    distinct = [f"c{i}" for i in range(n)], [f"d{i}" for i in range(n)]
    pairs = [(2 * i, "r", 2 * i + 1) for i in range(n // 2)]
    if shape == "chain":
        e = [(i, "r", i + 1) for i in range(n - 1)]
        return graph(distinct[0], e), graph(distinct[1], e)
    if shape == "onechain":  # one concept, n nodes against n - 1 (against itself it is proven without a problem)
        return graph(["x"] * n, [(i, "r", i + 1) for i in range(n - 1)]), graph(
            ["x"] * (n - 1), [(i, "r", i + 1) for i in range(n - 2)]
        )
    if shape == "star":
        e = [(0, "r", i) for i in range(1, n)]
        return graph(distinct[0], e), graph(distinct[1], e)
    if shape == "clique":
        e = [(i, "r", k) for i in range(n) for k in range(n) if i != k]
        return graph(distinct[0], e), graph(distinct[1], e)
    if shape == "matching":
        return graph(distinct[0], pairs), graph(distinct[1], pairs)
    if shape == "matchmost":  # A all x, B x on its even nodes
        return graph(["x"] * n, pairs), graph(["x" if i % 2 == 0 else f"d{i}" for i in range(n)], pairs)
    if shape == "matchone":  # all x but one node of B
        return graph(["x"] * n, pairs), graph(["x" if i != 1 else "d1" for i in range(n)], pairs)
    if shape.startswith("random"):  # random{labels}x{concepts}: 2n random edges
        labels, concepts = (int(x) for x in shape[len("random") :].split("x"))
        rng = np.random.default_rng(n)

        def one():
            ends = zip(rng.integers(0, n, 2 * n), rng.integers(0, labels, 2 * n), rng.integers(0, n, 2 * n))
            e = sorted({(int(s), f"r{int(r)}", int(t)) for s, r, t in ends if s != t})
            return graph([f"c{int(c)}" for c in rng.integers(0, concepts, n)], e)

        return one(), one()
    raise SystemExit(f"unknown shape {shape!r}")


def _status() -> tuple[int, int]:
    """This process's resident memory now and at its peak (bytes)."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return int(fields["VmRSS"].split()[0]) * 1024, int(fields["VmHWM"].split()[0]) * 1024


def child(shape: str, n: int) -> None:
    """Score one pair of ``shape`` (the certified default: Smatch, or DocSmatch with its coreference sub-score
    on the Little Prince documents) and print its counts, estimate and peak."""
    import highspy  # noqa: F401 - the libraries loaded belong to what the process held before

    import amreval.match.alignment as alignment
    import amreval.match.approximate as approximate
    import amreval.scores.docsmatch as docsmatch
    from amreval.amr.read import loads_graph
    from amreval.errors import TooLargeError
    from amreval.match import problem
    from amreval.match.options import SearchOptions
    from amreval.scores.harness import pair_search
    from amreval.scores.smatch import score_smatch_pair

    counts: list[tuple[int, int]] = []
    build = problem.build_problem

    def counted(*args, **kwargs):
        """The build, its problem's counts first (a budget of nothing refuses every problem)."""
        if not counts:
            budget, problem.MEMORY_BUDGET = problem.MEMORY_BUDGET, 0
            try:
                build(*args, **kwargs)
            except TooLargeError as big:
                counts.append((big.n_terms, big.n_entries))
            finally:
                problem.MEMORY_BUDGET = budget
        return build(*args, **kwargs)

    alignment.build_problem = approximate.build_problem = counted
    if shape == "onedoc":
        from amreval.docamr import MsAmrDocument, convert_document

        def document(size: int):
            """``n`` sentences, each a chain of one concept of ``size`` nodes: size x size candidates each."""
            sentences = {}
            for k in range(n):
                text = "".join(f"(s{k}n{i} / x :r " for i in range(size - 1)) + f"(s{k}n{size - 1} / x" + ")" * size
                sentences[f"s{k}"] = loads_graph(text)
                sentences[f"s{k}"].metadata["id"] = f"s{k}"
            return convert_document(MsAmrDocument("doc", list(sentences), []), sentences, "docamr", strict=True)

        a, b = document(30), document(29)
        score = lambda: docsmatch.score_docsmatch_pair(a, b, pair_search(SearchOptions(), 0))  # noqa: E731
    elif shape == "lppdoc":
        from bench_docsmatch import lpp_document

        from amreval import read_graphs

        a = lpp_document(read_graphs(DATA / "lpp" / "amr-bank-struct-v1.6.txt"), 0, n)
        b = lpp_document(read_graphs(DATA / "lpp" / "amr-bank-struct-v3.0.txt"), 0, n)
        score = lambda: docsmatch.score_docsmatch_pair(a, b, pair_search(SearchOptions(), 0), coref=True)  # noqa: E731
    else:
        a, b = graphs(shape, n)
        score = lambda: score_smatch_pair(a, b, pair_search(SearchOptions(), 0))  # noqa: E731
    before, _ = _status()
    Path("/proc/self/clear_refs").write_text("5")  # the peak starts again from here
    start = time.perf_counter()
    found = score()
    seconds = time.perf_counter() - start
    peak = _status()[1] - before
    ((terms, entries),) = counts
    estimate = problem.memory_estimate(terms, entries)
    out = {"shape": shape, "n": n, "terms": terms, "entries": entries, "peak": peak, "estimate": estimate}
    out.update(seconds=seconds, optimal=found.optimal, accepted=estimate <= problem.MEMORY_BUDGET)
    out.update(over_budget=bool(found.over_budget), lp_estimate=problem.lp_memory_estimate(terms, entries))
    print(json.dumps(out))


def calibration() -> list[dict]:
    rows = []
    print("| pair | terms | unary entries | peak | estimate | peak / estimate | s | proven |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for shape, n in CALIBRATION:
        if shape == "lppdoc" and not (DATA / "lpp").exists():
            print(f"| {shape} {n} | the Little Prince is not at {DATA / 'lpp'} |")
            continue
        run = run_measured([sys.executable, __file__, "--child", shape, str(n)], env=_env(ROOT))
        if run.status != "ok":
            print(f"| {shape} {n} | {run.status} {run.stderr[-300:]} |")
            continue
        row = json.loads(run.stdout.strip().splitlines()[-1])
        rows.append(row)
        print(
            f"| {label(shape, n)} | {row['terms']:,} | {row['entries']:,} | {row['peak'] / 2**20:,.0f} MiB | "
            f"{row['estimate'] / 2**20:,.0f} MiB | {row['peak'] / row['estimate']:.2f} | {row['seconds']:.1f} | "
            f"{'yes' if row['optimal'] else 'no'} |"
        )
    worst = max(rows, key=lambda r: r["peak"] / r["estimate"])
    print(f"\nhighest peak / estimate: {worst['peak'] / worst['estimate']:.2f} ({worst['shape']} {worst['n']})")
    return rows


def label(shape: str, n: int) -> str:
    if shape == "lppdoc":
        return f"Little Prince, sentences 1-{n} as one document (DocSmatch, coreference)"
    return f"{shape} {n} x {n}"


def _env(src: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(src / "src"), "AMREVAL_PROGRESS": "0"}


def chain_files(work: Path, n: int) -> tuple[Path, Path]:
    """Two ``n``-node chains of distinct concepts written as PENMAN (one line each, read without recursion)."""
    paths = []
    for side, prefix in (("a", "c"), ("b", "d")):
        path = work / f"chain{n}.{side}.amr"
        if not path.exists():
            text = "".join(f"(n{i} / {prefix}{i} :r " for i in range(n - 1)) + f"(n{n - 1} / {prefix}{n - 1})"
            path.write_text(text + ")" * (n - 1) + "\n")
        paths.append(path)
    return paths[0], paths[1]


def cli(src: Path, *args: str, mem_limit_gb: float | None = None):
    return run_measured([sys.executable, "-m", "amreval", *args], mem_limit_gb=mem_limit_gb, env=_env(src))


def first_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[0][:400] if lines else ""


def outcome(run) -> str:
    """``ok``, ``error line`` (an error message, exit status 1) or what else ended the run."""
    if run.status.startswith("crash: amreval: error:"):
        return "error line"
    return run.status


def chains_5000(work: Path) -> dict:
    from amreval.match.problem import MEMORY_BUDGET, memory_estimate

    a, b = chain_files(work, 5000)
    estimate = memory_estimate(4999 * 4999, 1)
    print(f"\nTwo 5,000-node chains: estimate {estimate / GiB:,.1f} GiB, budget {MEMORY_BUDGET / GiB:.1f} GiB")
    out = {"estimate": estimate}
    for label, limit in (("no limit", None), ("RLIMIT_AS 4 GB", 4.0)):
        run = cli(ROOT, "smatch", "-f", str(a), str(b), mem_limit_gb=limit)
        line = first_line(run.stderr)
        print(f"  {label}: {run.wall_s:.2f} s, peak {run.peak_mb:,.0f} MB, {outcome(run)}: {line}")
        out[label] = {"seconds": run.wall_s, "peak_mb": run.peak_mb, "status": run.status, "stderr": run.stderr}
    return out


CHILD_LIMITED = """
import resource, sys
import numpy, amreval.match.alignment, amreval.match.kernels.backends, amreval.scores.smatch
from amreval.cli import main
size = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmSize")) * 1024
resource.setrlimit(resource.RLIMIT_AS, (size + 16 * 1024**2, size + 16 * 1024**2))
sys.exit(main(["smatch", "-f", sys.argv[1], sys.argv[2]]))
"""


def out_of_address_space(work: Path) -> dict:
    a, b = chain_files(work, 500)
    run = run_measured([sys.executable, "-c", CHILD_LIMITED, str(a), str(b)], env=_env(ROOT))
    print(f"\nTwo 500-node chains, 16 MiB of address space to spare: {outcome(run)}, {run.wall_s:.2f} s")
    print(f"  {first_line(run.stderr)}")
    return {"status": run.status, "seconds": run.wall_s, "stderr": run.stderr}


def refusals(work: Path, trees: list[Path], runs: int) -> dict:
    out: dict = {}
    print("\nRefusing two n-node chains, whole process (best of runs):")
    for n in (20_000, 50_000):
        a, b = chain_files(work, n)
        for src in trees:
            best = min((cli(src, "smatch", "-f", str(a), str(b)) for _ in range(runs)), key=lambda r: r.wall_s)
            print(f"  {n:,} nodes, {src}: {best.wall_s:.2f} s, peak {best.peak_mb:,.0f} MB; {first_line(best.stderr)}")
            out[f"{n} {src}"] = {"seconds": best.wall_s, "peak_mb": best.peak_mb, "stderr": best.stderr}
    return out


def corpus(trees: list[Path], runs: int) -> dict:
    pred, gold = DATA / "lpp" / "amr-bank-struct-v1.6.txt", DATA / "lpp" / "amr-bank-struct-v3.0.txt"
    out: dict = {}
    if not pred.exists():
        print(f"\nThe Little Prince is not at {pred}: no corpus timing")
        return out
    print("\nLPP 1.6 vs 3.0 (1562 pairs), amreval smatch, whole process (best of runs):")
    for src in trees:
        best = min((cli(src, "smatch", "-f", str(pred), str(gold)) for _ in range(runs)), key=lambda r: r.wall_s)
        print(f"  {src}: {best.wall_s:.2f} s, peak {best.peak_mb:,.0f} MB; {best.stdout.strip()}")
        out[str(src)] = {"seconds": best.wall_s, "peak_mb": best.peak_mb, "stdout": best.stdout}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--child", nargs=2, metavar=("SHAPE", "N"), help=argparse.SUPPRESS)
    ap.add_argument("--quick", action="store_true", help="skip the calibration")
    ap.add_argument("--compare", type=Path, action="append", default=[], help="another checkout to time too")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "budget.json")
    args = ap.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    results: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if not args.quick:
            results["calibration"] = calibration()
        results["chains_5000"] = chains_5000(work)
        results["out_of_address_space"] = out_of_address_space(work)
        trees = [ROOT, *(p.resolve() for p in args.compare)]
        results["refusals"] = refusals(work, trees, args.runs)
        results["corpus"] = corpus(trees, args.runs)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=1))
    print(f"\nsaved {args.json}")


if __name__ == "__main__":
    main()
