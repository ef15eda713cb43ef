"""DocSmatch: amreval against the reference implementation, side by side on the same files.

The peer is PyPI ``docAMR==0.1.1`` (a benchmark-only dependency), run as
``doc-smatch -r 4 --coref-subscore --pr --significant 6 -f PRED GOLD``
(4 random restarts plus the smart start: 5 hill climbs). amreval runs
``docsmatch(pred, gold, coref=True)`` with its defaults: the certified search
(seed 0, stopped by its work limits, the time limit a safety net), which reports
the documents it could not prove optimal and the gap (``--solver hillclimb`` and
``--work-limit`` change that).

Documents (DocAMR representation ``docamr``, built by amreval's own converter):

* Little Prince: ``size`` consecutive sentences from ``start``, and the whole
  book (1562 sentences) as one document; gold from AMR 3.0, prediction from
  AMR 1.6 (the same sentences). Coreference chains come
  from one mechanical rule, applied the same way to each side's own sentence
  graphs: within a document, a node with a ``:name`` is a mention keyed by its
  name string; any other node whose concept is in ``TRACKED_CONCEPTS`` (the
  pronouns ``i you he she it we they`` and the story's recurring characters and
  things) is a mention keyed by its concept; a key with mentions in at least
  two sentences becomes a chain.
* Repetitive synthetic documents (the reference's worst case): three sentences
  repeated to 20, 50, 100 and 200 sentences, with four chains that run over
  the whole document (a named person and a pronoun, an event, a pronoun pair,
  a named and an unnamed city). The prediction changes one concept per
  repetition and leaves out some coreference links.

Each tool runs in a fresh process of its own (amreval as ``amreval docsmatch
-f PRED GOLD --coref-subscore``): the wall time covers process start, imports
and file reading for both, and the peak memory is the child's maximum
resident set size (GNU time, else ``os.wait4``). Each run is repeated
(``--runs``, default 3) and the best wall time kept, with the largest peak
memory; a peer run that fails is not repeated. amreval's in-process time
(reading and scoring, after imports and kernel loading) is reported as well.
The peer runs under a memory cap (``RLIMIT_AS``, 8 GB by default) and a time
limit (600 s); "out of memory" and "timeout" are reported in its columns. The
peer is run on documents of up to ``--peer-max-sentences`` (100) sentences:
beyond that it runs out of memory on these documents.

A separate section times amreval alone on a corpus of 300 twenty-sentence
document pairs (sliding windows over the Little Prince) with two workers.

Data: ``../shared/data`` from the project root; the Little Prince parts are
skipped with a message when it is absent. The peer's columns are skipped when
``doc-smatch`` is not installed (``pip install docAMR==0.1.1``).

Run: ``python benchmarks/bench_docsmatch.py`` (several minutes, mostly the
peer), or e.g. ``python benchmarks/bench_docsmatch.py --no-peer --no-corpus``.
The table is printed as Markdown and saved with the raw figures to
``benchmarks/results/docsmatch.md`` and ``docsmatch.json``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
import warnings
from collections import defaultdict
from pathlib import Path

from _common import DATA, RESULTS, ROOT, amreval_command, best_run, find_peer, run_measured, write_documents

LPP_GOLD = "lpp/amr-bank-struct-v3.0.txt"
LPP_PRED = "lpp/amr-bank-struct-v1.6.txt"

#: Concepts that make a node a mention (besides named entities): pronouns and
#: the recurring characters and things of the Little Prince.
TRACKED_CONCEPTS = frozenset(
    {
        "i",
        "you",
        "he",
        "she",
        "it",
        "we",
        "they",
        "prince",
        "flower",
        "rose",
        "sheep",
        "fox",
        "king",
        "planet",
        "star",
        "snake",
        "boa",
        "baobab",
        "volcano",
        "drawing",
        "airplane",
    }
)

#: The three sentences of the repetitive documents, with the concept that the
#: prediction may change in each.
REPEATED_SENTENCES = (
    # Marie Curie moved to Warsaw.
    (
        (
            '(m / move-01 :ARG1 (p / person :wiki "Marie_Curie" :name (n / name :op1 "Marie" :op2 "Curie"))'
            ' :ARG2 (c / city :wiki "Warsaw" :name (n2 / name :op1 "Warsaw")))'
        ),
        ("move-01", "go-02"),
    ),
    # Curie joined the Polish chemist and they planned the journey.
    (
        (
            '(a / and :op1 (j / join-01 :ARG0 (p / person :wiki "Marie_Curie" :name (n / name :op1 "Curie"))'
            ' :ARG1 (p2 / person :ARG0-of (h / have-org-role-91 :ARG1 (c / country :wiki "Poland"'
            ' :name (n2 / name :op1 "Poland")) :ARG2 (c2 / chemist))))'
            " :op2 (p3 / plan-01 :ARG0 (t / they) :ARG1 (j2 / journey)))"
        ),
        ("chemist", "scientist"),
    ),
    # She said the city was cold and that they would work together; she hoped to stay.
    (
        (
            "(a / and :op1 (s / say-01 :ARG0 (s2 / she) :ARG1 (a2 / and :op1 (c / cold-01 :ARG1 (c2 / city))"
            " :op2 (w / work-01 :ARG0 (t / they) :manner (t2 / together))))"
            " :op2 (h / hope-01 :ARG0 s2 :ARG1 (s3 / stay-01 :ARG1 s2)))"
        ),
        ("cold-01", "cold-02"),
    ),
)
#: The chains of the repetitive documents, each over the whole document: the
#: mentions (variables) in the first, second and third sentence.
REPEATED_CHAINS = {
    "person": (("p",), ("p",), ("s2",)),
    "event": (("m",), ("j2",), ()),
    "they": ((), ("t",), ("t",)),
    "city": (("c",), (), ("c2",)),
}

_PEER_SCORE = re.compile(r"Precision: ([\d.]+)\s+Recall: ([\d.]+)\s+F-score: ([\d.]+)")
_PEER_TIME = re.compile(r"Time\(s\): ([\d.]+)")


# -- documents -----------------------------------------------------------------


def derive_chains(sentences):
    """Chains of one document by the rule in the module docs (sentence graphs with ``::id``)."""
    from amreval.docamr import Chain, Mention

    groups: dict[tuple[str, str], list] = defaultdict(list)
    for g in sentences:
        names = {}
        for e in g.edges:
            if e.role == "name":
                ops = sorted(
                    (int(a.role[2:]), a.value.strip('"'))
                    for a in g.attributes
                    if a.source == e.target and a.role[2:].isdigit() and a.role.startswith("op")
                )
                names[e.source] = " ".join(v for _, v in ops)
        for var, concept in g.instances.items():
            if var in names:
                groups[("name", names[var])].append(Mention(g.id, var))
            elif concept in TRACKED_CONCEPTS:
                groups[("concept", concept)].append(Mention(g.id, var))
    chains = []
    for mentions in groups.values():
        if len({m.sentence_id for m in mentions}) >= 2:
            chains.append(Chain(f"rel-{len(chains)}", mentions))
    return chains


def lpp_document(graphs, start: int, size: int):
    """A DocAMR document of ``size`` consecutive sentence graphs with derived chains."""
    from amreval.docamr import MsAmrDocument, convert_document

    sentences = graphs[start : start + size]
    doc = MsAmrDocument(f"lpp_{start + 1}-{start + size}", [g.id for g in sentences], derive_chains(sentences))
    return convert_document(doc, {g.id: g for g in sentences}, "docamr", strict=True)


def repetitive_document(n_sentences: int, prediction: bool):
    """The three repeated sentences up to ``n_sentences``, gold or perturbed prediction.

    The prediction changes one concept in every repetition (in its first,
    second or third sentence in turn), leaves "she" out of the person's chain
    in every fourth repetition and the unnamed city out of the city's chain in
    every fifth.
    """
    from amreval import loads_graph
    from amreval.docamr import Chain, Mention, MsAmrDocument, convert_document

    doc_id = f"rep{n_sentences}"
    amrs = {}
    chains = {key: Chain(f"rel-{k}") for k, key in enumerate(REPEATED_CHAINS)}
    for k in range(n_sentences):
        rep, which = divmod(k, 3)
        text, (old, new) = REPEATED_SENTENCES[which]
        if prediction and rep % 3 == which:
            text = text.replace(f"/ {old}", f"/ {new}")
        sid = f"{doc_id}.{k + 1}"
        amrs[sid] = loads_graph(f"# ::id {sid}\n{text}")
        for key, mentions in REPEATED_CHAINS.items():
            if prediction and which == 2 and ((key == "person" and rep % 4 == 3) or (key == "city" and rep % 5 == 4)):
                continue
            chains[key].mentions.extend(Mention(sid, v) for v in mentions[which])
    doc = MsAmrDocument(doc_id, list(amrs), [c for c in chains.values() if c.mentions])
    return convert_document(doc, amrs, "docamr", strict=True)


def run_peer(exe: str, pred: Path, gold: Path, args) -> dict:
    cmd = [
        exe,
        "-r",
        str(args.peer_restarts),
        "--coref-subscore",
        "--pr",
        "--significant",
        "6",
        "-f",
        str(pred),
        str(gold),
    ]
    run, walls = best_run(cmd, args.runs, args.peer_mem_gb, args.peer_timeout)
    row = {"status": run.status, "wall_s": run.wall_s, "walls_s": walls, "peak_mb": run.peak_mb}
    if run.status == "ok":
        scores = _PEER_SCORE.findall(run.stdout)
        if "Error in parsing amr" in run.stderr or len(scores) != 2:
            row["status"] = "crash: a document was not read"
        else:
            (p, r, f), (cp, cr, cf) = [tuple(map(float, s)) for s in scores]
            row.update(precision=p, recall=r, f1=f, coref_precision=cp, coref_recall=cr, coref_f1=cf)
            # its own timer: reading and scoring, imports excluded
            row["score_s"] = float(_PEER_TIME.search(run.stdout).group(1))
    return row


def run_amreval(pred: Path, gold: Path, args, workers: int = 1) -> dict:
    """``amreval docsmatch`` timed as a user runs it (best of ``args.runs``); then, once, the
    in-process split (imports and kernel loading, reading and scoring) and the scores."""
    options = ["-r", str(args.restarts), "--solver", args.solver, "--time-limit", f"{args.time_limit:g}"]
    cmd = [
        *amreval_command(),
        "docsmatch",
        "-f",
        str(pred),
        str(gold),
        "--coref-subscore",
        "-j",
        str(workers),
        *options,
    ]
    run, walls = best_run(cmd, args.runs)
    row = {"status": run.status, "wall_s": run.wall_s, "walls_s": walls, "peak_mb": run.peak_mb}
    if run.status != "ok":
        raise RuntimeError(f"amreval failed on {pred} / {gold}:\n{run.stderr}")
    child = [sys.executable, str(Path(__file__).resolve()), "--run-amreval", str(pred), str(gold)]
    child += ["--restarts", str(args.restarts), "--workers", str(workers), "--solver", args.solver]
    child += ["--time-limit", f"{args.time_limit:g}"]
    split = run_measured(child)
    if split.status != "ok":
        raise RuntimeError(f"amreval failed on {pred} / {gold}:\n{split.stderr}")
    row.update(json.loads(split.stdout.strip().splitlines()[-1]))
    return row


def amreval_child(pred: str, gold: str, restarts: int, workers: int, solver: str, time_limit: float) -> int:
    """The child process of :func:`run_amreval`: score two files, print one JSON line."""
    sys.path.insert(0, str(ROOT / "src"))
    t0 = time.perf_counter()
    from amreval import read_graphs
    from amreval.scores.docsmatch import docsmatch

    tiny = "(d / document :snt1 (a / go-02 :ARG0 (c / coref-entity)) :snt2 (b / sleep-01 :ARG0 c))"
    docsmatch([tiny], [tiny], coref=True, progress=False)  # loads the compiled kernels
    load_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        preds, golds = read_graphs(pred), read_graphs(gold)
    r = docsmatch(
        preds,
        golds,
        coref=True,
        restarts=restarts,
        seed=0,
        solver=solver,
        time_limit=time_limit,
        num_workers=workers,
        progress=False,
    )
    score_s = time.perf_counter() - t0
    print(
        json.dumps(
            {
                "precision": r.precision,
                "recall": r.recall,
                "f1": r.f1,
                "coref_precision": r.coref_precision,
                "coref_recall": r.coref_recall,
                "coref_f1": r.coref_f1,
                "match": r.match,
                "test": r.test,
                "gold": r.gold,
                "n_optimal": r.n_optimal,
                "n_unproven": len(r.unproven),
                "gap": r.gap,
                "docs": len(golds),
                "gold_nodes": sum(len(g.instances) for g in golds),
                "load_s": load_s,
                "score_s": score_s,
            }
        )
    )
    return 0


# -- report --------------------------------------------------------------------


def _ratio(x: float | None) -> str:
    return "–" if x is None else f"{x:.0f}x" if x >= 10 else f"{x:.1f}x"


def compare(doc: dict) -> dict:
    """Speed and memory ratios (peer / amreval) and the F1 check of one document row."""
    am, peer = doc["amreval"], doc.get("peer")
    if peer is None or peer["status"] != "ok":
        return {"speedup": None, "speedup_in_process": None, "memory_ratio": None, "f1_ge_peer": None}
    return {
        "speedup": peer["wall_s"] / am["wall_s"],
        "speedup_in_process": peer["score_s"] / am["score_s"],
        "memory_ratio": peer["peak_mb"] / am["peak_mb"],
        # the peer prints 6 decimals
        "f1_ge_peer": round(am["f1"], 6) >= peer["f1"],
    }


def proven(am: dict) -> str:
    """Whether every document is proven optimal: yes, or no with the gap (a work limit ran out)."""
    return "yes" if not am["n_unproven"] else f"no (gap {am['gap']:.4g})"


def markdown_table(docs: list[dict]) -> str:
    head = (
        "| set | document | sentences | gold nodes / triples | F1 amreval | F1 peer | coref F1 amreval "
        "| coref F1 peer | proven (gap) amreval | time amreval s | time peer s | peak MB amreval | peak MB peer "
        "| speed peer/amreval | memory peer/amreval | F1 ≥ peer |"
    )
    lines = [head, "|" + "---|" * (head.count(" | ") + 1)]
    for d in docs:
        am, peer = d["amreval"], d.get("peer")
        if peer is None:
            pf = pcf = pt = pm = "not run"
        elif peer["status"] != "ok":
            pf = pcf = peer["status"]
            pt, pm = f"{peer['status']} after {peer['wall_s']:.0f}", f"{peer['status']} at {peer['peak_mb']:.0f}"
        else:
            pf, pcf = f"{peer['f1']:.4f}", f"{peer['coref_f1']:.4f}"
            pt, pm = f"{peer['wall_s']:.2f} ({peer['score_s']:.2f})", f"{peer['peak_mb']:.0f}"
        speed = "–" if d["speedup"] is None else f"{_ratio(d['speedup'])} ({_ratio(d['speedup_in_process'])})"
        ok = {True: "yes", False: "**no**", None: "–"}[d["f1_ge_peer"]]
        lines.append(
            f"| {d['set']} | {d['document']} | {d['sentences']} | {am['gold_nodes']} / {am['gold']} "
            f"| {am['f1']:.4f} | {pf} | {am['coref_f1']:.4f} | {pcf} | {proven(am)} "
            f"| {am['wall_s']:.2f} ({am['score_s']:.2f}) | {pt} | {am['peak_mb']:.0f} | {pm} "
            f"| {speed} | {_ratio(d['memory_ratio'])} | {ok} |"
        )
    return "\n".join(lines)


def targets(docs: list[dict], corpus: dict | None) -> list[str]:
    """One line per target: whether this run meets it."""

    def met(ok: bool) -> str:
        return "met" if ok else "NOT met"

    out = []
    checked = [d for d in docs if d["f1_ge_peer"] is not None]
    below = [f"{d['set']} {d['document']}" for d in checked if not d["f1_ge_peer"]]
    if checked:
        out.append(
            f"- overall F1 ≥ the peer's on every document the peer finished ({len(checked)}): "
            + ("met" if not below else f"NOT met on {', '.join(below)}")
        )
    for d in docs:
        label = f"- {d['set']}, {d['document']} ({d['sentences']} sentences)"
        am = d["amreval"]
        if d["sentences"] == 100 and d["f1_ge_peer"] is not None:
            out.append(
                f"{label}: {d['speedup']:.1f}x faster in wall time ({d['peer']['wall_s']:.2f} s / "
                f"{am['wall_s']:.2f} s), {d['speedup_in_process']:.0f}x in process "
                f"(target ≥ 50x in wall time: {met(d['speedup'] >= 50)}); {d['memory_ratio']:.1f}x less "
                f"peak memory ({d['peer']['peak_mb']:.0f} MB / {am['peak_mb']:.0f} MB; target ≥ 40x: "
                f"{met(d['memory_ratio'] >= 40)}); proven: {proven(am)}"
            )
        elif d["sentences"] == 100 and d.get("peer"):
            out.append(
                f"{label}: the peer stopped ({d['peer']['status']} after {d['peer']['wall_s']:.0f} s, "
                f"{d['peer']['peak_mb']:.0f} MB); amreval {am['wall_s']:.2f} s, {am['peak_mb']:.0f} MB, "
                f"proven: {proven(am)}"
            )
        elif d["set"] == "Little Prince 1.6 vs 3.0" and d["sentences"] == 200:
            out.append(
                f"{label}: amreval {am['wall_s']:.2f} s wall, {am['score_s']:.2f} s in process "
                f"(target < 2 s wall: {met(am['wall_s'] < 2)}); proven: {proven(am)}"
            )
        elif d["set"] == "Little Prince 1.6 vs 3.0" and d["sentences"] > 1000:
            ok = am["wall_s"] < 10 and am["peak_mb"] < 600 and not am["n_unproven"]
            out.append(
                f"{label}: amreval {am['wall_s']:.2f} s wall, {am['score_s']:.2f} s in process, "
                f"{am['peak_mb']:.0f} MB, proven: {proven(am)} (target < 10 s, < 600 MB, proven: {met(ok)}; "
                f"< 10 s: {met(am['wall_s'] < 10)}, < 600 MB: {met(am['peak_mb'] < 600)})"
            )
        elif d["sentences"] >= 200:
            out.append(
                f"{label}: amreval {am['wall_s']:.2f} s wall, {am['score_s']:.2f} s in process, "
                f"{am['peak_mb']:.0f} MB, proven: {proven(am)}"
            )
    if corpus:
        c = corpus["amreval"]
        out.append(
            f"- corpus of {corpus['docs']} documents of {corpus['sentences']} sentences, "
            f"{corpus['workers']} workers: {c['wall_s']:.1f} s wall, {c['score_s']:.1f} s in process "
            f"(target < 60 s: {met(c['wall_s'] < 60)})"
        )
    return out or ["- none applies to the documents run"]


# -- main ----------------------------------------------------------------------


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--no-peer", action="store_true", help="run amreval only")
    ap.add_argument("--no-corpus", action="store_true", help="skip the 300-document corpus section")
    ap.add_argument(
        "--lpp-sizes",
        type=_ints,
        default=[50, 100, 200],
        help="Little Prince document sizes in sentences (default 50,100,200)",
    )
    ap.add_argument("--no-book", action="store_true", help="skip the whole book as one document")
    ap.add_argument(
        "--lpp-starts",
        type=_ints,
        default=[0, 700],
        help="first sentence (0-based) of the Little Prince documents (default 0,700)",
    )
    ap.add_argument(
        "--rep-sizes",
        type=_ints,
        default=[20, 50, 100, 200],
        help="repetitive document sizes in sentences (default 20,50,100,200)",
    )
    ap.add_argument("--restarts", type=int, default=19, help="amreval random restarts (default 19)")
    ap.add_argument("--solver", default="exact", help="amreval solver (default exact: certified)")
    ap.add_argument(
        "--time-limit", type=float, default=600.0, help="amreval's safety net per document in s (default 600)"
    )
    ap.add_argument("--runs", type=int, default=3, help="runs per tool and document, the best is kept (default 3)")
    ap.add_argument("--peer-restarts", type=int, default=4, help="doc-smatch -r (default 4: 5 climbs)")
    ap.add_argument("--peer-mem-gb", type=float, default=8.0, help="address-space cap of the peer (default 8)")
    ap.add_argument(
        "--peer-max-sentences", type=int, default=100, help="the peer runs on documents up to this size (default 100)"
    )
    ap.add_argument("--peer-timeout", type=float, default=600.0, help="time limit of the peer in s (default 600)")
    ap.add_argument("--corpus-docs", type=int, default=300)
    ap.add_argument("--corpus-sentences", type=int, default=20)
    ap.add_argument("--workers", type=int, default=2, help="amreval workers for the corpus (default 2)")
    ap.add_argument("--results", type=Path, default=RESULTS, help="folder for docsmatch.json/.md")
    ap.add_argument("--keep-docs", type=Path, help="write the PENMAN documents here instead of a temp folder")
    ap.add_argument("--run-amreval", nargs=2, metavar=("PRED", "GOLD"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.run_amreval:
        return amreval_child(*args.run_amreval, args.restarts, args.workers, args.solver, args.time_limit)

    peer = None
    if not args.no_peer:
        peer = find_peer()
        if peer is None:
            print("doc-smatch not found (pip install docAMR==0.1.1): the peer's columns are skipped\n")
    have_data = DATA.exists()
    if not have_data:
        print(f"public AMR data not found at {DATA}: the Little Prince documents and the corpus are skipped\n")

    sys.path.insert(0, str(ROOT / "src"))
    from amreval import read_graphs

    with tempfile.TemporaryDirectory(prefix="bench_docsmatch_") as tmp:
        work = args.keep_docs or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        cases = []  # (set, document, sentences, pred path, gold path)
        if have_data:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                lpp_gold, lpp_pred = read_graphs(DATA / LPP_GOLD), read_graphs(DATA / LPP_PRED)
            for size in args.lpp_sizes:
                for start in args.lpp_starts:
                    if start + size > len(lpp_gold):
                        continue
                    name = f"sentences {start + 1}-{start + size}"
                    pred, gold = work / f"lpp_{start}_{size}.pred.amr", work / f"lpp_{start}_{size}.gold.amr"
                    write_documents(pred, [lpp_document(lpp_pred, start, size)])
                    write_documents(gold, [lpp_document(lpp_gold, start, size)])
                    cases.append(("Little Prince 1.6 vs 3.0", name, size, pred, gold))
            if not args.no_book:
                size = len(lpp_gold)
                pred, gold = work / "lpp_book.pred.amr", work / "lpp_book.gold.amr"
                write_documents(pred, [lpp_document(lpp_pred, 0, size)])
                write_documents(gold, [lpp_document(lpp_gold, 0, size)])
                cases.append(("Little Prince 1.6 vs 3.0", f"the whole book, 1-{size}", size, pred, gold))
        for size in args.rep_sizes:
            pred, gold = work / f"rep_{size}.pred.amr", work / f"rep_{size}.gold.amr"
            write_documents(pred, [repetitive_document(size, prediction=True)])
            write_documents(gold, [repetitive_document(size, prediction=False)])
            cases.append(("repetitive", f"3 sentences x {size / 3:.1f}", size, pred, gold))

        docs = []
        for set_name, name, size, pred, gold in cases:
            row = {"set": set_name, "document": name, "sentences": size, "pred": pred.name, "gold": gold.name}
            row["amreval"] = run_amreval(pred, gold, args)
            am = row["amreval"]
            line = (
                f"{set_name:24} {name:22} amreval F1 {am['f1']:.4f} coref {am['coref_f1']:.4f} "
                f"{am['wall_s']:7.2f} s {am['peak_mb']:6.0f} MB"
            )
            line += f" proven: {proven(am)}"
            if peer and size <= args.peer_max_sentences:
                row["peer"] = run_peer(peer, pred, gold, args)
                p = row["peer"]
                if p["status"] == "ok":
                    line += f" | peer F1 {p['f1']:.4f} coref {p['coref_f1']:.4f}"
                else:
                    line += f" | peer {p['status']}"
                line += f" {p['wall_s']:7.2f} s {p['peak_mb']:6.0f} MB"
            row.update(compare(row))
            print(line, flush=True)
            docs.append(row)

        corpus = None
        if not args.no_corpus and have_data:
            n, size, stride = args.corpus_docs, args.corpus_sentences, 5
            starts = [(k * stride) % (len(lpp_gold) - size + 1) for k in range(n)]
            t0 = time.perf_counter()
            pred, gold = work / "corpus.pred.amr", work / "corpus.gold.amr"
            write_documents(pred, [lpp_document(lpp_pred, s, size) for s in starts])
            write_documents(gold, [lpp_document(lpp_gold, s, size) for s in starts])
            build_s = time.perf_counter() - t0
            corpus = {
                "docs": n,
                "sentences": size,
                "stride": stride,
                "workers": args.workers,
                "build_s": build_s,
                "amreval": run_amreval(pred, gold, args, workers=args.workers),
            }
            c = corpus["amreval"]
            print(
                f"corpus: {n} documents x {size} sentences (windows every {stride} sentences), "
                f"built in {build_s:.1f} s; amreval, {args.workers} workers: F1 {c['f1']:.4f} "
                f"coref F1 {c['coref_f1']:.4f}, {c['score_s']:.1f} s in process, {c['wall_s']:.1f} s wall"
            )

    table = markdown_table(docs)
    goals = targets(docs, corpus)
    settings = (
        f"amreval: `amreval docsmatch --coref-subscore -r {args.restarts} --solver {args.solver} "
        f"--time-limit {args.time_limit:g}` (seed 0); best of {args.runs} runs; peer: "
    ) + (
        f"doc-smatch -r {args.peer_restarts} --coref-subscore (cap {args.peer_mem_gb:g} GB, {args.peer_timeout:g} s)"
        if peer
        else "not run"
    )
    report = [
        "## DocSmatch: amreval vs doc-smatch (docAMR 0.1.1)",
        "",
        settings,
        (
            "Times are wall times of a fresh process (start, imports, reading, scoring); in parentheses the "
            "in-process reading and scoring (the peer's own `Time(s)`). Peak memory is the process's "
            "maximum RSS."
        ),
        "",
        table,
        "",
        "### Targets",
        "",
        *goals,
    ]
    if corpus:
        c = corpus["amreval"]
        report += [
            "",
            "### Corpus (amreval only)",
            "",
            (
                f"{corpus['docs']} Little Prince documents of {corpus['sentences']} sentences (windows every "
                f"{corpus['stride']} sentences), {c['gold_nodes']} gold nodes, {c['gold']} gold triples; "
                f"{corpus['workers']} workers: F1 {c['f1']:.4f}, coref F1 {c['coref_f1']:.4f}; "
                f"{c['score_s']:.1f} s reading and scoring, {c['wall_s']:.1f} s wall, "
                f"documents built in {corpus['build_s']:.1f} s."
            ),
        ]
    text = "\n".join(report)
    print("\n" + text)
    args.results.mkdir(parents=True, exist_ok=True)
    (args.results / "docsmatch.md").write_text(text + "\n", encoding="utf-8")
    (args.results / "docsmatch.json").write_text(
        json.dumps({"settings": settings, "documents": docs, "corpus": corpus, "targets": goals}, indent=2),
        encoding="utf-8",
    )
    print(f"\nsaved {args.results / 'docsmatch.md'} and docsmatch.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
