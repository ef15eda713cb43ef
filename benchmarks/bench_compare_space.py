"""What the comparison Space (``spaces/compare``) is asked to do, timed: the limits its card states.

The Space runs on a free Hugging Face machine (2 vCPU, 16 GB). Its app reads the uploaded files and calls
:func:`amreval.scores.compare.compare_systems` once, as ``amreval compare`` does; this benchmark times that
call (the files read, each system scored, the tests and intervals with the default 1,000 resamples), in one
process after a warm-up, with the peak memory of the process (``ru_maxrss``). The workloads:

* **lpp**: the Little Prince's 1,562 sentences (``lpp/amr-bank-struct-v3.0.txt`` as gold) × 3 systems:
  release 1.6, release 3.0 itself, and a mix (1.6's graph at even positions, 3.0's at odd ones). Two
  releases of one annotation are near-identical graphs: the certified search proves most pairs at once.
* **parses**: the 200 Little Prince sentences of ``parses/`` × 3 systems: BART, T5 and a mix (BART at even
  positions, T5 at odd ones), real parser output against its gold: the harder search per sentence.
* **lpp-10**: the limits' corner for sentences: the 1,562 sentences × 10 systems (1.6, 3.0, and eight mixes:
  1.6's graph where the position modulo 2 to 9 is zero, 3.0's elsewhere).
* **lpp-documents**: the limits' corner for documents: the first 1,000 Little Prince sentences as 50 documents of
  20 sentences × 3 systems (1.6, 3.0, the mix), DocSmatch with the coreference sub-score.
* **documents**: the 200 sentences of ``parses/`` as 10 documents of 20 sentences (coreference chains built by
  ``tests/fixtures/doc_chains.py`` on each side's own graphs, converted to DocAMR as
  ``bench_docparse.py`` does) × 3 systems (BART, T5, the mix), DocSmatch with the coreference sub-score.

Data: ``../shared/data`` beside the checkout; without it the benchmark says so and stops.
Run: ``python benchmarks/bench_compare_space.py`` (a few minutes on 2 cores); ``--only lpp`` and so on,
``--data FOLDER`` for the shared data elsewhere.
The figures are printed and saved to ``benchmarks/results/compare_space.md`` and ``compare_space.json``.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
import warnings
from pathlib import Path

from _common import DATA, RESULTS, build_chains, write_documents

WORKLOADS = ("lpp", "parses", "documents", "lpp-10", "lpp-documents")


def _mix(a: list, b: list) -> list:
    return [x if k % 2 == 0 else y for k, (x, y) in enumerate(zip(a, b))]


def files(work: Path, which: str, data: Path = DATA) -> tuple[Path, dict[str, Path], str]:
    """The gold file, the systems' files and the score of a workload."""
    from amreval import read_graphs
    from amreval.docamr import convert_document

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if which.startswith("lpp"):
            gold = read_graphs(data / "lpp" / "amr-bank-struct-v3.0.txt")
            old = read_graphs(data / "lpp" / "amr-bank-struct-v1.6.txt")
            systems = {"v1.6": old, "v3.0": gold, "mix": _mix(old, gold)}
            if which == "lpp-10":
                for m in range(3, 10):
                    systems[f"mix{m}"] = [x if k % m == 0 else y for k, (x, y) in enumerate(zip(old, gold))]
            if which == "lpp-documents":
                gold, systems = gold[:1000], {k: v[:1000] for k, v in systems.items()}
        else:
            gold = read_graphs(data / "parses" / "gold.amr")
            bart = read_graphs(data / "parses" / "bart_sys.amr")
            t5 = read_graphs(data / "parses" / "t5_sys.amr")
            for graphs in (bart, t5):
                for g, ref in zip(graphs, gold):
                    g.metadata["id"] = ref.id
            systems = {"bart": bart, "t5": t5, "mix": _mix(bart, t5)}
    score = "smatch"
    if which in ("documents", "lpp-documents"):
        score = "docsmatch"
        sides = {"gold": gold, **systems}
        docs: dict[str, list] = {side: [] for side in sides}
        for start in range(0, len(gold), 20):
            for side, graphs in sides.items():
                part = graphs[start : start + 20]
                doc = build_chains(part, f"lpp_{start + 1}-{start + 20}")
                amrs = {g.id: g for g in part}
                docs[side].append(convert_document(doc, amrs, "docamr", strict=True))
        gold, systems = docs["gold"], {k: v for k, v in docs.items() if k != "gold"}
    gold_path = work / f"{which}.gold.amr"
    write_documents(gold_path, gold)
    paths = {}
    for name, graphs in systems.items():
        paths[name] = work / f"{which}.{name}.amr"
        write_documents(paths[name], graphs)
    return gold_path, paths, score


def measure(which: str, work: Path, data: Path = DATA, resamples: int | None = None) -> dict:
    """The app's call on a workload: files read, each system scored, compared (best of one, after a warm-up)."""
    from amreval import read_graphs
    from amreval.scores.compare import compare_systems

    gold_path, paths, score = files(work, which, data)
    compare_systems(
        {"a": ["(b / boy)", "(g / girl)"], "b": ["(b / boy)", "(b / boy)"]},
        ["(b / boy)", "(g / girl)"],
        score=score,
        progress=False,
    )  # warm-up: the modules and the kernels loaded
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gold = read_graphs(gold_path)
        systems = {name: read_graphs(path) for name, path in paths.items()}
    more = {} if resamples is None else {"n_resamples": resamples}
    cmp = compare_systems(systems, gold, score=score, progress=False, **more)
    wall = time.perf_counter() - start
    return {
        "workload": which,
        "score": score,
        "items": cmp.n_items,
        "systems": len(systems),
        "resamples": cmp.tests[0].n_resamples,
        "wall_s": round(wall, 2),
        "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "scores": {name: round(value, 4) for name, value in cmp.scores.items()},
        "config": cmp.config,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=WORKLOADS, nargs="+", default=list(WORKLOADS))
    parser.add_argument("--data", type=Path, default=DATA, help=f"the shared data folder (default {DATA})")
    parser.add_argument("--resamples", type=int, help="of the tests and intervals (default: compare_systems')")
    args = parser.parse_args()
    if not args.data.is_dir():
        print(f"public AMR data not found at {args.data}: nothing to measure", file=sys.stderr)
        return 1
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for which in args.only:
            row = measure(which, Path(work), args.data, args.resamples)
            print(json.dumps(row), flush=True)
            rows.append(row)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "compare_space.json").write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    lines = [
        "| workload | score | items | systems | resamples | wall (s) | peak (MB) |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    lines += [
        f"| {r['workload']} | {r['score']} | {r['items']} | {r['systems']} | {r['resamples']} | {r['wall_s']} "
        f"| {r['peak_mb']} |"
        for r in rows
    ]
    (RESULTS / "compare_space.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
