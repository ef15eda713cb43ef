"""Certified DocSmatch on parser output: the coupled search against the path without it, in process.

Documents: consecutive sentences of the 200 Little Prince sentences of
``../shared/data/parses`` (gold against the BART and the T5 parser's output),
converted with :func:`amreval.docamr.convert_document` in the ``docamr``
representation. Chains come from one mechanical rule, applied the same way to
each side's own sentence graphs: a node with a ``:name`` is a mention keyed by
its name string, a node whose concept is one of the story's recurring
characters and things (``TRACKED_CONCEPTS`` of ``bench_docsmatch.py`` but the
pronouns) a mention keyed by its concept, over the whole document; a pronoun
(``i you he she it we they``) is a mention keyed by its concept, and a chain of
one pronoun ends where ``--window`` sentences pass without it (``--rule
document`` chains pronouns over the whole document, as ``bench_docsmatch.py``
does: merged pronouns then pull everything below them into all their
sentences, the hard case). A key with mentions in two sentences or more is a
chain. Each document goes through PENMAN text, as a file gives it.

Each document is scored by ``docsmatch(pred, gold, coref=True)`` (certified,
seed 0) twice in this process, with and without the coupled search and the
fixed search built on it (``without`` puts the search back as it was before
them: block bound, assignment bound, LP, integer program), best of ``--runs`` each; the table gives the time summed over
the documents of each size, the same sentences' plain Smatch
(``smatch(pred_sentences, gold_sentences)``, best of the runs), and which step
proved each document. The scores with and without must be equal (they are
checked).

Run: ``python benchmarks/bench_coupling.py`` (a few minutes, mostly the integer
program without the coupled search); ``--sizes 20,50 --stride 0.5`` for windows
every half document.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import sys
import time
import warnings
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "parses"
PRONOUNS = ("i", "you", "he", "she", "it", "we", "they")


def sentences(name: str):
    """The sentence graphs of one file, with ids ``s0, s1, ...`` (the parser files have none)."""
    from amreval import read_graphs

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        graphs = read_graphs(DATA / name)
    for k, g in enumerate(graphs):
        g.metadata["id"] = f"s{k}"
    return graphs


def _names(g) -> dict[str, str]:
    names = {}
    for e in g.edges:
        if e.role == "name":
            ops = sorted(
                (int(a.role[2:]), a.value.strip('"'))
                for a in g.attributes
                if a.source == e.target and a.role.startswith("op") and a.role[2:].isdigit()
            )
            names[e.source] = " ".join(v for _, v in ops)
    return names


def chains(graphs, tracked: frozenset[str], window: int | None):
    """The chains of one document by the rule in the module docs."""
    from amreval.docamr import Chain, Mention

    groups: dict[tuple[str, str], list] = defaultdict(list)
    pronouns: dict[str, list[tuple[int, object]]] = defaultdict(list)
    for k, g in enumerate(graphs):
        names = _names(g)
        for var, concept in g.instances.items():
            if var in names:
                groups[("name", names[var])].append(Mention(g.id, var))
            elif concept in PRONOUNS and window is not None:
                pronouns[concept].append((k, Mention(g.id, var)))
            elif concept in tracked or concept in PRONOUNS:
                groups[("concept", concept)].append(Mention(g.id, var))
    runs = list(groups.values())
    for mentions in pronouns.values():
        run: list = []
        last = None
        for k, m in mentions:
            if last is not None and k - last > window:
                runs.append(run)
                run = []
            run.append(m)
            last = k
        runs.append(run)
    out = []
    for mentions in runs:
        if len({m.sentence_id for m in mentions}) >= 2:
            out.append(Chain(f"rel-{len(out)}", mentions))
    return out


def document(graphs, start: int, size: int, tracked: frozenset[str], window: int | None) -> str:
    """One DocAMR document as PENMAN text."""
    from amreval.docamr import MsAmrDocument, convert_document

    part = graphs[start : start + size]
    doc = MsAmrDocument(f"d{start}_{size}", [g.id for g in part], chains(part, tracked, window))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return convert_document(doc, {g.id: g for g in part}, "docamr").to_string()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="20,50,100,200", help="document sizes in sentences (default 20,50,100,200)")
    ap.add_argument("--stride", type=float, default=1.0, help="a document every stride x size sentences (default 1)")
    ap.add_argument("--systems", default="bart,t5", help="parsers (default bart,t5)")
    ap.add_argument("--rule", choices=("window", "document"), default="window", help="pronoun chains (module docs)")
    ap.add_argument("--window", type=int, default=3, help="sentences a pronoun chain may skip (default 3)")
    ap.add_argument("--runs", type=int, default=2, help="runs per document and path, the best is kept (default 2)")
    args = ap.parse_args()
    if not DATA.exists():
        print(f"parser output not found at {DATA}: nothing to measure")
        return 0
    sys.path.insert(0, str(ROOT / "src"))
    from bench_docsmatch import TRACKED_CONCEPTS

    from amreval.match import alignment
    from amreval.match.certify import fixing, pricing
    from amreval.scores.smatch import smatch

    docsmatch = importlib.import_module("amreval.scores.docsmatch").docsmatch
    tracked = frozenset(TRACKED_CONCEPTS) - set(PRONOUNS)
    window = args.window if args.rule == "window" else None
    calls: list[str] = []

    def spy(module, name: str, label: str) -> None:
        f = getattr(module, name)

        @functools.wraps(f)
        def wrapped(*a, **k):
            calls.append(label)
            return f(*a, **k)

        setattr(module, name, wrapped)

    coupled, fixed = alignment.coupled_search, fixing.fixed_search
    for name, label in (("assignment_bound", "assignment"), ("lp_relaxation", "lp"), ("solve_milp", "milp")):
        spy(alignment, name, label)
    spy(pricing, "priced_lp", "lp")

    def without(problem, result, *args, **kwargs):
        return result

    def blocks_only(problem, result, **kwargs):
        # the block bound in the coupled search's place (the search before it), as align ran it
        from amreval.match.certify.blocks import block_bound

        calls.append("blocks")
        found = block_bound(problem, result.mapping)
        result = alignment._better(problem, result, found.mapping, "blocks")
        if found.bound is not None:
            if alignment._reaches(problem, result.score, found.bound):
                return alignment._proven(result)
            result.bound = min(result.bound, found.bound)
        return result

    def timed(pred: list[str], gold: list[str], path) -> tuple[float, object, str]:
        alignment.coupled_search = path
        fixing.fixed_search = with_fixing if path is with_coupling else without
        best = None
        for _ in range(args.runs):
            calls.clear()
            t0 = time.perf_counter()
            r = docsmatch(pred, gold, coref=True, progress=False)
            dt = time.perf_counter() - t0
            step = "unproven" if r.unproven else (calls[-1] if calls else "climb")
            if best is None or dt < best[0]:
                best = (dt, r, step)
        assert best is not None
        return best

    def with_coupling(problem, result, **kwargs):
        calls.append("coupling")
        return coupled(problem, result, **kwargs)

    def with_fixing(problem, result, lp, **kwargs):
        calls.append("fixing")
        return fixed(problem, result, lp, **kwargs)

    gold_graphs = sentences("gold.amr")
    sizes = [int(x) for x in args.sizes.split(",")]
    rows = []
    for system in args.systems.split(","):
        pred_graphs = sentences(f"{system}_sys.amr")
        for size in sizes:
            for start in range(0, len(gold_graphs) - size + 1, max(1, int(size * args.stride))):
                pred = [document(pred_graphs, start, size, tracked, window)]
                gold = [document(gold_graphs, start, size, tracked, window)]
                t_after, r_after, p_after = timed(pred, gold, with_coupling)
                t_before, r_before, p_before = timed(pred, gold, blocks_only)
                assert (r_after.match, r_after.coref.total) == (r_before.match, r_before.coref.total), (system, start)
                ps = [g.to_string() for g in pred_graphs[start : start + size]]
                gs = [g.to_string() for g in gold_graphs[start : start + size]]
                t_smatch = float("inf")
                for _ in range(args.runs):
                    t0 = time.perf_counter()
                    smatch(ps, gs, progress=False)
                    t_smatch = min(t_smatch, time.perf_counter() - t0)
                rows.append((size, t_smatch, t_before, p_before, t_after, p_after))
                print(
                    f"{system} {size:4d} sentences from {start:3d}: smatch {t_smatch:.3f} s | without {t_before:.3f} s "
                    f"({p_before}) | with {t_after:.3f} s ({p_after})",
                    flush=True,
                )
    print()
    print("| sentences | documents | sentence Smatch | without | x Smatch | proved by | with | x Smatch | proved by |")
    print("|---|---|---|---|---|---|---|---|---|")
    for size in sizes:
        part = [r for r in rows if r[0] == size]
        if not part:
            continue
        ts, tb, ta = (sum(r[k] for r in part) for k in (1, 2, 4))
        pb = ", ".join(f"{k} {v}" for k, v in Counter(r[3] for r in part).most_common())
        pa = ", ".join(f"{k} {v}" for k, v in Counter(r[5] for r in part).most_common())
        cells = [f"{ts:.2f} s", f"{tb:.2f} s", f"{tb / ts:.1f}", pb, f"{ta:.2f} s", f"{ta / ts:.1f}", pa]
        print(f"| {size} | {len(part)} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
