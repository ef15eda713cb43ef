"""DocSmatch on real parser output: documents of BART and T5 parses against their gold.

The other DocSmatch benchmark (``bench_docsmatch.py``) compares two releases of
the same annotation, near-identical graphs that the block-by-block bound
proves at once. Here each document is made of real parser output: the 200
Little Prince sentences of ``../shared/data/parses`` (``gold.amr``,
``bart_sys.amr``, ``t5_sys.amr``, same sentences in the same order), the
first 50, 100, 200 and 400 of them as one document (400: the 200 told twice,
one long story; the copies' ``::id`` end in ``.2``). Coreference chains come
from three deterministic rule-based builders of different character
(``--builders``, tests/fixtures/), each run on each side's own sentence
graphs, so a parser's chains are what that kind of coreference system would
plausibly produce on that parse: ``doc`` (``doc_chains.py``: named entities,
recurring concepts, pronoun chains within a five-sentence window, he/she to
the nearest person-like mention, a few bridges); ``story``
(``story_chains.py``: the narrator's ``i``/``you`` and the recurring entities
chained through the whole document with no gap limit); ``greedy``
(``greedy_chains.py``: over-merging, every pronoun of one form one chain and
head-noun matching). A benchmark with one builder is a benchmark tuned to it.
The documents are converted by amreval's ``convert_document`` in the
``docamr`` and ``no-merge`` representations. The parser graphs carry no
``::id``: they get the gold's, by position.

For each set (size x builder x representation x parser), each in a fresh process,
wall time and peak memory measured as in ``bench_docsmatch.py`` (GNU time's
maximum RSS; best of ``--runs``, the largest peak):

* ``amreval docsmatch -f PRED GOLD --json --no-coref-subscore`` (the main score alone), and the same
  with ``--coref-subscore``
  (the certified default: seed 0, 19 restarts, its work limits; the time limit a
  safety net), side by side, with the ratio of the two;
* the reference ``doc-smatch -r 0`` and ``-r 4`` (PyPI ``docAMR==0.1.1``,
  ``--coref-subscore --pr --significant 6``) under an address-space cap
  (8 GB) and a time limit (300 s), run once (``--peer-runs``), up to 200 sentences;
* the baseline: ``amreval smatch -f PRED GOLD --json`` on the same sentences
  as sentence graphs (sentence Smatch, the same certified default).

And the **floor**, what any fresh process pays before it reads a document, measured the same way: the
CLI on a document of two one-node sentences (start, imports, the compiled kernels), and a process that
imports amreval, scores that document and imports HiGHS (what a document that needs the LP has loaded
before its first triple). The summary sets the peer's time and memory at 100 and 200 sentences against
it: a 30x faster or 20x smaller whole process cannot be below the floor.

Then, in one more fresh process, the same scoring in process after imports
and warm-up: ``amreval.docsmatch(...)`` against ``amreval.smatch(...)`` on
the same sentences (best of ``--runs``), with the certified search's steps
counted by wrapping the functions ``amreval.match.alignment.align`` calls
(``hill_climb``, ``branch_and_bound``, ``coupled_search``, ``assignment_bound``,
``solve_lp``, ``pricing.priced_lp``, ``fixing.fixed_search``, ``solve_milp``; no library code is
changed). A document is proven by the last step that ran (a climb after the first is part of the step
that started it: the LP's rounding is climbed in the LP step): the first climb
reaching the simple bound (``climb``), the ``exact search`` (branch and bound of a problem without
sentence groups), the ``coupling`` (block by block, the blocks made to agree; its first round is a
block-by-block bound), the ``assignment`` bound, the ``LP``,
``fixing`` (the coupled search on the pairs the LP's reduced costs leave), ``LP+restarts``
(random restarts reaching the bounds found), or the ``integer program``;
``unproven`` where a work limit (or the time limit's safety net) ran out. With ``--coref-subscore`` the tie-break
(``amreval.match.certify.tiebreak.tie_break``) is wrapped too: one record holds the main problem's steps
and the tie-break's after them, ``tie-break (step)`` where it proved the graded optimum, naming the last step
that searched (the integer program where one ran); ``unproven (after tie-break, step)`` where it did not
(a work limit). The coupled searches' subtrees of exact search are counted per
document. Whole-process times are printed with whether bytecode caches were present (``_common.bytecode_caches``).

Data: ``../shared/data/parses`` from the project root (or ``--data``);
without it the benchmark says so and stops. The peer's columns are skipped without
``doc-smatch`` or with ``--no-peer``; it is looked for at ``--peer PATH``, else at
``$AMREVAL_PEER_DOC_SMATCH``, else beside this Python, else on the PATH (its pins clash with
ours: give it a venv of its own, ``python3 -m venv PEERS/docamr &&
PEERS/docamr/bin/pip install docAMR==0.1.1 smatch==1.0.4``).

Run: ``python benchmarks/bench_docparse.py`` (an hour or more: the peer at 100 and
200 sentences, the greedy builder's documents), ``--quick`` (20 and 50 sentences), or e.g.
``--no-peer --sizes 200 --parsers bart --builders story``. The tables are printed as Markdown
and saved with the raw figures to ``benchmarks/results/docparse.md`` and
``docparse.json``.
"""

from __future__ import annotations

import argparse
import copy
import importlib
import json
import os
import re
import sys
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path

from _common import amreval_command, best_run, bytecode_caches, chain_stats, find_peer, write_documents
from _docparse_report import PROOFS, STEPS, doc_proof, floor_lines, ok, summary, tables

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "parses"
RESULTS = ROOT / "benchmarks" / "results"
PARSERS = {"bart": "bart_sys.amr", "t5": "t5_sys.amr"}
REPRESENTATIONS = ("docamr", "no-merge")
SIZES = (50, 100, 200, 400)
#: The chain builders (modules of tests/fixtures/, each with ``build_chains(graphs, doc_id)``).
BUILDERS = {"doc": "doc_chains", "story": "story_chains", "greedy": "greedy_chains"}
#: The peer runs on documents up to this many sentences (above, it takes tens of gigabytes).
PEER_MAX_SENTENCES = 200
__all__ = ["PROOFS", "STEPS", "main"]

_PEER_SCORE = re.compile(r"Precision: ([\d.]+)\s+Recall: ([\d.]+)\s+F-score: ([\d.]+)")
_PEER_TIME = re.compile(r"Time\(s\): ([\d.]+)")


# -- documents -----------------------------------------------------------------


def read_sets(data: Path, parsers: list[str]) -> tuple[list, dict[str, list]]:
    """The gold graphs and each parser's graphs, the parser's given the gold's ``::id`` by position."""
    from amreval import read_graphs

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gold = read_graphs(data / "gold.amr")
        systems = {p: read_graphs(data / PARSERS[p]) for p in parsers}
    for name, graphs in systems.items():
        if len(graphs) != len(gold):
            raise SystemExit(f"{PARSERS[name]} has {len(graphs)} graphs, gold.amr {len(gold)}")
        for g, ref in zip(graphs, gold):
            g.metadata["id"] = ref.id
    return gold, systems


def told(graphs: list, size: int) -> list:
    """The first ``size`` graphs; above their number, the graphs again after them (one long story told twice,
    the copies' ``::id`` ending in ``.2``, ``.3``, ...)."""
    out = list(graphs[:size])
    copy_number = 2
    while len(out) < size:
        for g in graphs[: size - len(out)]:
            again = copy.deepcopy(g)
            again.metadata["id"] = f"{g.id}.{copy_number}"
            out.append(again)
        copy_number += 1
    return out


def write_sets(
    work: Path, gold: list, systems: dict[str, list], sizes: list[int], reps: list[str], builders: list[str]
) -> dict:
    """The files of every set: sentence files, and per chain builder one-document files and the chain counts."""
    from amreval.docamr import convert_document

    files: dict = {}
    for size in sizes:
        sides = {"gold": told(gold, size), **{p: told(g, size) for p, g in systems.items()}}
        for side, graphs in sides.items():
            sent = work / f"{side}_{size}.sent.amr"
            write_documents(sent, graphs)
            amrs = {g.id: g for g in graphs}
            for builder in builders:
                build = importlib.import_module(f"fixtures.{BUILDERS[builder]}").build_chains
                doc = build(graphs, f"lpp_parses_1-{size}")
                entry = {"sentences": sent, "chains": chain_stats(doc), "docs": {}}
                for rep in reps:
                    path = work / f"{side}_{size}.{builder}.{rep}.amr"
                    write_documents(path, [convert_document(doc, amrs, rep, strict=True)])
                    entry["docs"][rep] = path
                files[(side, size, builder)] = entry
    return files


# -- runs ------------------------------------------------------------------------


def run_cli(args: list[str], runs: int) -> dict:
    """An amreval command with ``--json``, best of ``runs``: time, peak memory, the scores it printed."""
    run, walls = best_run([*amreval_command(), *args, "--json"], runs)
    if run.status != "ok":
        raise RuntimeError(f"amreval {' '.join(args)} failed ({run.status}):\n{run.stderr}")
    out = json.loads(run.stdout)
    row = {"wall_s": run.wall_s, "walls_s": walls, "peak_mb": run.peak_mb}
    for key in ("f1", "precision", "recall", "coref_f1", "match", "test", "gold", "n_pairs", "n_unproven", "gap"):
        if key in out:
            row[key] = out[key]
    return row


def run_peer(exe: str, restarts: int, pred: Path, gold: Path, args: argparse.Namespace) -> dict:
    """``doc-smatch -r restarts`` under the cap and time limit: time, peak memory, scores or why it stopped."""
    cmd = [exe, "-r", str(restarts), "--coref-subscore", "--pr", "--significant", "6", "-f", str(pred), str(gold)]
    run, walls = best_run(cmd, args.peer_runs, args.peer_mem_gb, args.peer_timeout)
    row = {"status": run.status, "wall_s": run.wall_s, "walls_s": walls, "peak_mb": run.peak_mb}
    if run.status == "ok":
        scores = _PEER_SCORE.findall(run.stdout)
        if "Error in parsing amr" in run.stderr or len(scores) != 2:
            row["status"] = "crash: the document was not read"
        else:
            (p, r, f), (cp, cr, cf) = [tuple(map(float, s)) for s in scores]
            row.update(precision=p, recall=r, f1=f, coref_precision=cp, coref_recall=cr, coref_f1=cf)
            found = _PEER_TIME.search(run.stdout)
            row["score_s"] = float(found.group(1)) if found else None
    return row


def measure_set(args: argparse.Namespace, peers: list[int], peer: str | None, p: dict, g: dict, rep: str) -> dict:
    """One set: the CLI's main score and with the coreference sub-score, the peer's runs, the in-process child."""
    pred, ref = p["docs"][rep], g["docs"][rep]
    row: dict = {"chains": {"gold": g["chains"], "pred": p["chains"]}}
    row["amreval_main"] = run_cli(["docsmatch", "-f", str(pred), str(ref), "--no-coref-subscore"], args.runs)
    row["amreval_doc"] = run_cli(["docsmatch", "-f", str(pred), str(ref), "--coref-subscore"], args.runs)
    for r in peers:
        assert peer is not None
        row[f"peer_r{r}"] = run_peer(peer, r, pred, ref, args)
    row["in_process"] = run_in_process([pred, ref, p["sentences"], g["sentences"]], args.runs)
    return row


def progress_line(row: dict, peers: list[int]) -> str:
    """One set's line as it is measured."""
    am, main, sent, rec = row["amreval_doc"], row["amreval_main"], row["amreval_sent"], doc_proof(row)
    line = (
        f"{row['sentences']:4} {row['builder']:6} {row['representation']:9} {row['parser']:5} amreval doc F "
        f"{am['f1']:.4f} coref {am['coref_f1']:.4f} main {main['wall_s']:6.2f} s, with coref {am['wall_s']:6.2f} s "
        f"{am['peak_mb']:5.0f} MB, proven by {doc_proof(row, 'doc_main_proofs')['proven_by']} / {rec['proven_by']}"
        f" | sentence F {sent['f1']:.4f} {sent['wall_s']:5.2f} s"
    )
    for r in peers:
        pr = row.get(f"peer_r{r}")
        if pr is not None:
            state = f"F {pr['f1']:.4f}" if ok(pr) else pr["status"]
            line += f" | -r {r} {state} {pr['wall_s']:.1f} s {pr['peak_mb']:.0f} MB"
    return line


def run_in_process(paths: list[Path], runs: int) -> dict:
    """The in-process child (a fresh process): scoring times and how each problem was proven."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", *map(str, paths), "--runs", str(runs)]
    run, _ = best_run(cmd, 1)
    if run.status != "ok":
        raise RuntimeError(f"the in-process run failed ({run.status}):\n{run.stderr}")
    row = json.loads(run.stdout.strip().splitlines()[-1])
    row["child_peak_mb"] = run.peak_mb
    return row


TINY = "(d / document :snt1 (a / go-02 :ARG0 (c / coref-entity)) :snt2 (b / sleep-01 :ARG0 c))"


def run_floor(work: Path, runs: int) -> dict:
    """What a fresh process costs before any document: the CLI on :data:`TINY`, and amreval with HiGHS."""
    tiny = work / "tiny.amr"
    tiny.write_text(TINY + "\n", encoding="utf-8")
    cli = run_cli(["docsmatch", "-f", str(tiny), str(tiny), "--coref-subscore"], runs)
    code = f"import amreval, highspy; amreval.docsmatch([{TINY!r}], [{TINY!r}], coref=True, progress=False)"
    run, walls = best_run([sys.executable, "-c", code], runs)
    if run.status != "ok":
        raise RuntimeError(f"the floor's process failed ({run.status}):\n{run.stderr}")
    return {"cli": cli, "with_highs": {"wall_s": run.wall_s, "walls_s": walls, "peak_mb": run.peak_mb}}


# -- the in-process child --------------------------------------------------------


def install_counters() -> list[dict]:
    """Wrap the steps of the certified search; each ``align`` call appends one record to the list returned."""
    alignment = importlib.import_module("amreval.match.alignment")
    pricing = importlib.import_module("amreval.match.certify.pricing")
    fixing = importlib.import_module("amreval.match.certify.fixing")
    coupling = importlib.import_module("amreval.match.certify.coupling")
    tiebreak = importlib.import_module("amreval.match.certify.tiebreak")
    docsmatch_module = importlib.import_module("amreval.scores.docsmatch")

    records: list[dict] = []
    current: list[dict] = []

    def timed(step_of, func):
        def wrapper(*a, **k):
            t0 = time.perf_counter()
            try:
                return func(*a, **k)
            finally:
                if current:
                    step = step_of(a, k)
                    rec = current[-1]
                    rec["steps"].append(step)
                    rec["step_s"][step] = rec["step_s"].get(step, 0.0) + time.perf_counter() - t0

        return wrapper

    def fixed(step):
        return lambda a, k: step

    alignment.hill_climb = timed(lambda a, k: "restarts" if k.get("restarts", 0) else "climb", alignment.hill_climb)
    alignment.branch_and_bound = timed(fixed("exact search"), alignment.branch_and_bound)
    alignment.coupled_search = timed(fixed("coupling"), alignment.coupled_search)
    alignment.assignment_bound = timed(fixed("assignment"), alignment.assignment_bound)
    alignment.solve_lp = timed(fixed("LP"), alignment.solve_lp)
    pricing.priced_lp = timed(fixed("LP"), pricing.priced_lp)
    fixing.fixed_search = timed(fixed("fixing"), fixing.fixed_search)
    alignment.solve_milp = timed(fixed("integer program"), alignment.solve_milp)

    def counted(func):
        def couple(*a, **k):
            found = func(*a, **k)
            if current:
                current[-1]["subtrees"] += int(found.subtrees)
            return found

        return couple

    # the tie-break's own steps (it imported them by name)
    tiebreak.hill_climb = alignment.hill_climb
    tiebreak.coupled_search = alignment.coupled_search
    tiebreak.fixed_search = fixing.fixed_search
    tiebreak.assignment_bound = alignment.assignment_bound
    # the coupled search's block searches, in the first coupling and in the fixed search
    coupling.couple = counted(coupling.couple)
    fixing.couple = counted(fixing.couple)

    original = alignment.align

    def align(problem, *a, **k):
        rec = {"pairs": int(problem.n_pairs), "terms": int(problem.n_terms), "steps": [], "step_s": {}, "subtrees": 0}
        current.append(rec)
        t0 = time.perf_counter()
        try:
            result = original(problem, *a, **k)
        finally:
            current.pop()
        rec["total_s"] = time.perf_counter() - t0
        rec["optimal"] = bool(result.optimal)
        rec["gap"] = float(result.bound - result.score)
        rec["proven_by"] = proven_by(rec["steps"], rec["optimal"])
        records.append(rec)
        return result

    original_tie_break = tiebreak.tie_break

    def tie_break(problem, *a, **k):
        rec = {"pairs": int(problem.n_pairs), "terms": int(problem.n_terms), "steps": [], "step_s": {}, "subtrees": 0}
        current.append(rec)
        t0 = time.perf_counter()
        try:
            result = original_tie_break(problem, *a, **k)
        finally:
            current.pop()
        rec["total_s"] = time.perf_counter() - t0
        rec["optimal"] = result is not None and bool(result.optimal)
        rec["gap"] = 0.0 if result is None else float(result.bound - result.score)
        # the last step that searched (the climbs that only offer a mapping found to the graded problem aside)
        last = proven_by([s for s in rec["steps"] if s != "climb"] or ["climb"], True)
        if "integer program" in rec["steps"]:
            last = "integer program"
        # proven by the tie-break, its last step named; None: it does not apply, and the graded problem is
        # searched whole (the next record)
        if result is None:
            rec["proven_by"] = "tie-break left"
        else:
            rec["proven_by"] = f"tie-break ({last})" if result.optimal else f"unproven (after tie-break, {last})"
        records.append(rec)
        return result

    alignment.align = align  # align_triples (Smatch) looks it up here
    docsmatch_module.tie_break = tie_break
    docsmatch_module.align = align  # DocSmatch imported it by name
    return records


def proven_by(steps: list[str], optimal: bool) -> str:
    """The step that proved a problem: the last one that ran, the climbs after the first aside (the climb from
    the LP's rounding is the LP step's; see the module docs)."""
    steps = [s for k, s in enumerate(steps) if k == 0 or s != "climb"]
    last = steps[-1] if steps else "climb"
    if last == "restarts":
        last = "LP+restarts"
    return last if optimal else f"unproven (after {last})"


def child(pred_doc: str, gold_doc: str, pred_sent: str, gold_sent: str, runs: int) -> int:
    """Score the document pair and the sentence pairs in process; print one JSON line."""
    sys.path.insert(0, str(ROOT / "src"))
    t0 = time.perf_counter()
    import amreval
    from amreval import read_graphs

    amreval.docsmatch([TINY], [TINY], coref=True, progress=False)  # loads the compiled kernels
    amreval.smatch(["(a / go-02 :ARG0 (b / boy))"], ["(a / go-02 :ARG0 (b / girl))"], progress=False)
    # the document search's modules, which the first document that needs them would load
    for name in ("coupling", "fixing", "tiebreak"):
        importlib.import_module(f"amreval.match.certify.{name}")
    try:
        import highspy  # noqa: F401  (the LP and the integer program load it on first use)
    except ImportError:
        pass
    records = install_counters()
    load_s = time.perf_counter() - t0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0 = time.perf_counter()
        docs = (read_graphs(pred_doc), read_graphs(gold_doc))
        sents = (read_graphs(pred_sent), read_graphs(gold_sent))
        read_s = time.perf_counter() - t0
    out: dict = {"amreval_file": amreval.__file__, "load_s": load_s, "read_s": read_s}
    for what, score, (preds, golds) in (
        ("doc_main", amreval.docsmatch, docs),
        ("doc", amreval.docsmatch, docs),
        ("sent", amreval.smatch, sents),
    ):
        # the main score alone, then with the coreference sub-score (on by default: said either way)
        kwargs = {"coref": what == "doc"} if what.startswith("doc") else {}
        times, cpu, per_run = [], [], []
        for k in range(runs):
            del records[:]
            t0, c0 = time.perf_counter(), time.process_time()
            r = score(preds, golds, progress=False, **kwargs)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            per_run.append([rec["proven_by"] for rec in records])
            if k == 0:
                first = list(records)
        out[f"{what}_s"], out[f"{what}_times_s"], out[f"{what}_cpu_s"] = min(times), times, min(cpu)
        out[f"{what}_f1"] = r.f1
        if what.startswith("doc"):
            if what == "doc":
                out["doc_coref_f1"] = r.coref_f1
            # the first run's records; what proved the document in each run (the same in every run: the
            # search stops at counts, unless the time limit's safety net stopped it)
            out[f"{what}_proofs"], out[f"{what}_proven_by_runs"] = first, [p[-1] for p in per_run]
        else:
            out["sent_proven_by"] = dict(Counter(rec["proven_by"] for rec in first))
            out["sent_step_s"] = {s: sum(rec["step_s"].get(s, 0.0) for rec in first) for s in STEPS}
    print(json.dumps(out))
    return 0


# -- main ------------------------------------------------------------------------


def _list(kind: type, choices: tuple | dict | None = None):
    def parse(text: str) -> list:
        items = [kind(x) for x in text.split(",") if x.strip()]
        bad = [x for x in items if choices is not None and x not in choices]
        if bad or not items:
            raise argparse.ArgumentTypeError(f"expected a comma-separated list of {', '.join(map(str, choices or ()))}")
        return items

    return parse


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=_list(int), default=list(SIZES), help="document sizes (default 50,100,200,400)")
    ap.add_argument("--quick", action="store_true", help="sizes 20 and 50 only")
    ap.add_argument(
        "--builders", type=_list(str, BUILDERS), default=list(BUILDERS), help="doc,story,greedy (default all three)"
    )
    ap.add_argument("--parsers", type=_list(str, PARSERS), default=list(PARSERS), help="bart,t5 (default both)")
    ap.add_argument(
        "--representations",
        type=_list(str, REPRESENTATIONS),
        default=list(REPRESENTATIONS),
        help="docamr,no-merge (default both)",
    )
    ap.add_argument("--no-peer", action="store_true", help="skip doc-smatch")
    ap.add_argument(
        "--peer",
        help="the peer's doc-smatch (default: $AMREVAL_PEER_DOC_SMATCH, else beside this Python, else on the PATH)",
    )
    ap.add_argument("--runs", type=int, default=3, help="amreval runs per set, the best is kept (default 3)")
    ap.add_argument("--peer-restarts", type=_list(int), default=[0, 4], help="doc-smatch -r values (default 0,4)")
    ap.add_argument("--peer-runs", type=int, default=1, help="doc-smatch runs per set (default 1)")
    ap.add_argument("--peer-mem-gb", type=float, default=8.0, help="address-space cap of doc-smatch (default 8)")
    ap.add_argument("--peer-timeout", type=float, default=300.0, help="time limit of doc-smatch in s (default 300)")
    ap.add_argument(
        "--data", type=Path, default=DATA, help="folder of gold.amr and the parses (default ../shared/data/parses)"
    )
    ap.add_argument("--results", type=Path, default=RESULTS, help="folder for docparse.md/.json")
    ap.add_argument("--keep-docs", type=Path, help="write the documents here instead of a temp folder")
    ap.add_argument("--child", nargs=4, metavar="FILE", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(*args.child, args.runs)
    if not (args.data / "gold.amr").exists():
        print(f"parser output not found at {args.data} (see ../shared/data/SOURCES.md): benchmark skipped")
        return 0
    sizes = args.sizes if not args.quick else [20, 50]
    caches = bytecode_caches()
    print(f"bytecode caches: {caches}", flush=True)
    # every child process scores with this worktree's amreval
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))
    sys.path.insert(0, str(ROOT / "src"))
    peer = None if args.no_peer else find_peer(args.peer)
    if peer is None and not args.no_peer:
        print("doc-smatch not found (pip install docAMR==0.1.1): the peer's columns are skipped\n")
    peers = args.peer_restarts if peer else []

    gold, systems = read_sets(args.data, args.parsers)
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench_docparse_") as tmp:
        work = args.keep_docs or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        files = write_sets(work, gold, systems, sizes, args.representations, args.builders)
        print(f"documents built in {time.perf_counter() - t0:.1f} s", flush=True)
        for size in sizes:
            for parser in args.parsers:
                sentences = [files[(side, size, args.builders[0])]["sentences"] for side in (parser, "gold")]
                sent = run_cli(["smatch", "-f", *map(str, sentences)], args.runs)
                for builder in args.builders:
                    g, p = files[("gold", size, builder)], files[(parser, size, builder)]
                    for rep in args.representations:
                        row = measure_set(args, peers if size <= PEER_MAX_SENTENCES else [], peer, p, g, rep)
                        row.update(sentences=size, builder=builder, representation=rep, parser=parser)
                        row["amreval_sent"] = sent
                        row["files"] = {"pred": p["docs"][rep].name}
                        print(progress_line(row, peers), flush=True)
                        rows.append(row)
        floor = run_floor(work, args.runs)

    settings = (
        "amreval: `amreval docsmatch -f PRED GOLD --json --no-coref-subscore`, the same with `--coref-subscore`, "
        "and `amreval smatch -f "
        f"PRED GOLD --json` (certified defaults), best of {args.runs}, bytecode caches {caches}; chain builders "
        + ", ".join(f"{b} (`tests/fixtures/{BUILDERS[b]}.py`)" for b in args.builders)
        + "; doc-smatch (docAMR 0.1.1): "
        + (
            ", ".join(f"`-r {r}`" for r in peers)
            + f" `--coref-subscore`, {args.peer_runs} run(s), cap {args.peer_mem_gb:g} GB, {args.peer_timeout:g} s, "
            f"up to {PEER_MAX_SENTENCES} sentences"
            if peers
            else "not run"
        )
    )
    t_scores, t_time, t_proofs = tables(rows, peers)
    report = [
        "## DocSmatch on parser output: Little Prince parses (BART, T5) against gold",
        "",
        settings + ".",
        (
            "Times are wall times of a fresh process (start, imports, reading, scoring), in parentheses amreval's "
            "in-process scoring after imports (`amreval.docsmatch` / `amreval.smatch`); peak memory is the "
            "process's maximum RSS. The baseline is sentence Smatch of the same sentences."
        ),
        "",
        "### Scores",
        "",
        t_scores,
        "",
        "### Time and memory",
        "",
        t_time,
        "",
        "### How each document was proven",
        "",
        "Steps of the certified search in process, first run (`pairs / terms`: the document's problem; "
        "`other runs`: what proved it in the other in-process runs; `CLI: proven`: the fastest CLI run's "
        "verdict); the baseline's sentence pairs by the step that proved them.",
        "",
        t_proofs,
        "",
        "### Summary",
        "",
        *summary(rows, peers),
        *floor_lines(rows, peers, floor),
    ]
    text = "\n".join(report)
    print("\n" + text)
    args.results.mkdir(parents=True, exist_ok=True)
    (args.results / "docparse.md").write_text(text + "\n", encoding="utf-8")
    raw = {"settings": settings, "floor": floor, "sets": rows}
    (args.results / "docparse.json").write_text(json.dumps(raw, indent=2), "utf-8")
    print(f"\nsaved {args.results / 'docparse.md'} and docparse.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
