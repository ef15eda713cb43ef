"""The report of ``bench_docparse.py``: its Markdown tables and summary lines from the rows it measured.

A row is one document set (sentences x chain builder x representation x parser) with the CLI's runs
(``amreval_main``: the main score, ``amreval_doc``: with ``--coref-subscore``, ``amreval_sent``: sentence
Smatch of the same sentences), the peer's where run, and the in-process child's records of the certified
search (``doc_main_proofs`` and ``doc_proofs``: one record per ``align`` call, the steps it ran, their
times and the subtrees of exact search of its coupled searches).
"""

from __future__ import annotations

from collections import Counter

__all__ = ["PROOFS", "STEPS", "doc_proof", "tables", "summary", "floor_lines", "x_ratio", "ok"]

#: The steps of the certified search in the order they run (``restarts``: the random restarts after the LP).
STEPS = ("climb", "coupling", "exact search", "assignment", "LP", "fixing", "restarts", "integer program")
#: What can prove a problem, weakest first.
PROOFS = ("climb", "coupling", "exact search", "assignment", "LP", "fixing", "LP+restarts", "integer program")


def x_ratio(num: float | None, den: float | None) -> str:
    """``num / den`` as ``3.2x`` (whole above 10), or a dash."""
    if num is None or den is None or den <= 0:
        return "–"
    r = num / den
    return f"{r:.0f}x" if r >= 10 else f"{r:.1f}x"


def ok(peer: dict | None) -> bool:
    return peer is not None and peer["status"] == "ok"


def _peer_cell(peer: dict | None, key: str) -> str:
    if peer is None:
        return "not run"
    if peer["status"] != "ok":
        where = {"wall_s": f" after {peer['wall_s']:.0f} s", "peak_mb": f" at {peer['peak_mb']:.0f} MB"}
        return peer["status"] + where.get(key, "")
    value = peer[key]
    return f"{value:.4f}" if key.endswith("f1") else f"{value:.0f}" if key == "peak_mb" else f"{value:.1f}"


def doc_proof(row: dict, which: str = "doc_proofs") -> dict:
    """The document's record of the in-process run: ``doc_proofs`` with the coreference sub-score (the
    tie-break's record, and where it left the document the graded search's after it, merged), ``doc_main_proofs``
    the main score alone (one ``align`` call)."""
    recs = row["in_process"][which]
    merged = dict(recs[0], steps=[], step_s={}, subtrees=0)
    for rec in recs:
        merged["steps"] += rec["steps"]
        merged["subtrees"] += rec.get("subtrees", 0)
        for step, s in rec["step_s"].items():
            merged["step_s"][step] = merged["step_s"].get(step, 0.0) + s
    merged.update(optimal=recs[-1]["optimal"], gap=recs[-1]["gap"], proven_by=recs[-1]["proven_by"])
    return merged


def _markdown(head: list[str], body: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return "\n".join([*lines, *("| " + " | ".join(cells) + " |" for cells in body)])


def _name(d: dict) -> str:
    return f"{d['sentences']} {d['builder']} {d['representation']} {d['parser']}"


def _proof_cells(rec: dict) -> list[str]:
    proven = rec["proven_by"] + (f" (gap {rec['gap']:.3g})" if not rec["optimal"] else "")
    step_s = ", ".join(f"{s} {rec['step_s'][s]:.2f}" for s in STEPS if s in rec["step_s"])
    return [proven, f"{rec.get('subtrees', 0):,}", step_s]


def tables(rows: list[dict], peers: list[int]) -> list[str]:
    """The three Markdown tables: scores, time and memory, proofs."""
    key = ["sentences", "builder", "representation", "parser"]
    head1 = [*key, "gold triples", "chains gold / pred", "F amreval doc", *(f"F doc-smatch -r {r}" for r in peers)]
    head1 += ["coref F amreval", *(f"coref F -r {r}" for r in peers), "F sentence Smatch"]
    head2 = [*key, "main s (in process)", "with coref s (in process)", "coref / main"]
    head2 += ["sentence Smatch s (in process)", "coref doc / sentence"]
    head2 += [*(f"doc-smatch -r {r} s" for r in peers), *(f"-r {r} / amreval" for r in peers[:1])]
    head2 += ["peak MB main", "peak MB coref", "peak MB sentence", *(f"peak MB -r {r}" for r in peers)]
    head2 += [f"memory -r {r} / amreval" for r in peers[:1]]
    head3 = [*key, "pairs / terms", "main: proven by", "main: subtrees", "main: time per step s"]
    head3 += ["coref: proven by", "coref: subtrees", "coref: time per step s", "coref: other runs", "CLI: proven"]
    head3 += ["sentence pairs proven by"]
    body: list[list[list[str]]] = [[], [], []]
    for d in rows:
        am, main, sent, ip = d["amreval_doc"], d["amreval_main"], d["amreval_sent"], d["in_process"]
        first = [str(d["sentences"]), d["builder"], d["representation"], d["parser"]]
        pr = [d.get(f"peer_r{r}") for r in peers]
        chains = f"{d['chains']['gold']['chains']} / {d['chains']['pred']['chains']}"
        body[0].append(
            [*first, str(am["gold"]), chains, f"{am['f1']:.4f}", *(_peer_cell(p, "f1") for p in pr)]
            + [f"{am['coref_f1']:.4f}", *(_peer_cell(p, "coref_f1") for p in pr), f"{sent['f1']:.4f}"]
        )
        r0 = pr[0] if pr else None
        speed = [x_ratio(r0["wall_s"], am["wall_s"]) if ok(r0) else "–" for _ in peers[:1]]
        memory = [x_ratio(r0["peak_mb"], am["peak_mb"]) if ok(r0) else "–" for _ in peers[:1]]
        body[1].append(
            [*first, f"{main['wall_s']:.2f} ({ip['doc_main_s']:.2f})", f"{am['wall_s']:.2f} ({ip['doc_s']:.2f})"]
            + [f"{x_ratio(am['wall_s'], main['wall_s'])} ({x_ratio(ip['doc_s'], ip['doc_main_s'])})"]
            + [f"{sent['wall_s']:.2f} ({ip['sent_s']:.2f})"]
            + [f"{x_ratio(am['wall_s'], sent['wall_s'])} ({x_ratio(ip['doc_s'], ip['sent_s'])})"]
            + [*(_peer_cell(p, "wall_s") for p in pr), *speed]
            + [f"{main['peak_mb']:.0f}", f"{am['peak_mb']:.0f}", f"{sent['peak_mb']:.0f}"]
            + [*(_peer_cell(p, "peak_mb") for p in pr), *memory]
        )
        rec, rec_main = doc_proof(d), doc_proof(d, "doc_main_proofs")
        sp = ", ".join(f"{k} {v}" for k, v in sorted(ip["sent_proven_by"].items(), key=lambda kv: _rank(kv[0])))
        others = ", ".join(ip["doc_proven_by_runs"][1:]) or "–"
        cli = " / ".join("yes" if not run["n_unproven"] else f"no (gap {run['gap']:.3g})" for run in (main, am))
        body[2].append(
            [*first, f"{rec['pairs']} / {rec['terms']}", *_proof_cells(rec_main), *_proof_cells(rec), others, cli, sp]
        )
    return [_markdown(h, b) for h, b in zip((head1, head2, head3), body)]


def _rank(label: str) -> int:
    base = label.removeprefix("unproven (after ").rstrip(")")
    return (PROOFS.index(base) if base in PROOFS else len(PROOFS)) + (len(PROOFS) + 1) * label.startswith("unproven")


def floor_lines(rows: list[dict], peers: list[int], floor: dict) -> list[str]:
    """The floor, and what 30x the peer's speed and 1/20 of its memory come to at 100 and 200 sentences."""
    cli, highs = floor["cli"], floor["with_highs"]
    out = [
        f"- floor: the CLI on a two-sentence document {cli['wall_s']:.2f} s / {cli['peak_mb']:.0f} MB; amreval "
        f"with HiGHS loaded {highs['wall_s']:.2f} s / {highs['peak_mb']:.0f} MB"
    ]
    for size in (100, 200):
        done = [d for d in rows if d["sentences"] == size and ok(d.get("peer_r0"))] if 0 in peers else []
        if not done:
            continue
        walls = [d["peer_r0"]["wall_s"] / 30 for d in done]
        peaks = [d["peer_r0"]["peak_mb"] / 20 for d in done]
        ours = [d["amreval_doc"]["peak_mb"] for d in done]
        above = [
            x_ratio(d["peer_r0"]["wall_s"] - cli["wall_s"], d["amreval_doc"]["wall_s"] - cli["wall_s"]) for d in done
        ]
        out.append(
            f"- {size} sentences: 1/30 of doc-smatch -r 0's time is {min(walls):.2f}–{max(walls):.2f} s, 1/20 of "
            f"its peak {min(peaks):.0f}–{max(peaks):.0f} MB (amreval doc {min(ours):.0f}–{max(ours):.0f} MB; "
            f"above the floor {min(ours) - highs['peak_mb']:.0f}–{max(ours) - highs['peak_mb']:.0f} MB); "
            f"time above the CLI's floor, doc-smatch -r 0 against amreval: {', '.join(above)}"
        )
    return out


def summary(rows: list[dict], peers: list[int]) -> list[str]:
    """How the documents were proven, and the headline ratios."""
    out = []
    for which, label in (("doc_main_proofs", "main score"), ("doc_proofs", "with the coreference sub-score")):
        by = Counter(doc_proof(d, which)["proven_by"] for d in rows)
        ip = [d for d in rows if "integer program" in doc_proof(d, which)["steps"]]
        out.append(
            f"- {label}: documents proven by (first in-process run) "
            f"{', '.join(f'{k} {v}' for k, v in sorted(by.items(), key=lambda kv: _rank(kv[0])))} (of {len(rows)}); "
            f"**{len(ip)} of {len(rows)} needed the integer program**"
            + (
                ": "
                + ", ".join(_name(d) for d in ip)
                + f"; in it {sum(doc_proof(d, which)['step_s']['integer program'] for d in ip):.1f} s in all"
                if ip
                else ""
            )
        )
    for builder in dict.fromkeys(d["builder"] for d in rows):
        mine = [d for d in rows if d["builder"] == builder]
        whole = [d["amreval_doc"]["wall_s"] / d["amreval_main"]["wall_s"] for d in mine]
        inproc = [d["in_process"]["doc_s"] / max(d["in_process"]["doc_main_s"], 1e-9) for d in mine]
        worst = max(mine, key=lambda d: d["in_process"]["doc_s"] / max(d["in_process"]["doc_main_s"], 1e-9))
        out.append(
            f"- {builder} chains: `--coref-subscore` / main score, whole process {min(whole):.2f}–{max(whole):.2f}x, "
            f"in process {min(inproc):.2f}–{max(inproc):.2f}x (most: {_name(worst)})"
        )
    for r in peers:
        done = [d for d in rows if ok(d.get(f"peer_r{r}"))]
        # the peer prints 6 decimals
        below = [d for d in done if round(d["amreval_doc"]["f1"], 6) < d[f"peer_r{r}"]["f1"]]
        stopped = Counter(d[f"peer_r{r}"]["status"] for d in rows if d.get(f"peer_r{r}") and not ok(d[f"peer_r{r}"]))
        out.append(
            f"- doc-smatch -r {r} finished {len(done)} of {sum(f'peer_r{r}' in d for d in rows)} sets run"
            + "".join(f", {v} {k}" for k, v in stopped.items())
            + (
                f"; amreval's F ≥ its F on {len(done) - len(below)} of them"
                + (": below on " + ", ".join(_name(d) for d in below)) * bool(below)
                if done
                else ""
            )
        )
    for d in rows:
        runs = d["in_process"]["doc_proven_by_runs"] + d["in_process"]["doc_main_proven_by_runs"]
        if (
            any(p.startswith("unproven") for p in runs)
            or d["amreval_doc"]["n_unproven"]
            or d["amreval_main"]["n_unproven"]
        ):
            out.append(
                f"- unproven: {_name(d)} in {sum(p.startswith('unproven') for p in runs)} of {len(runs)} in-process "
                f"runs (main and coref); CLI main gap {d['amreval_main']['gap']:.3g}, with coref "
                f"{d['amreval_doc']['gap']:.3g}"
            )
    for d in rows:
        if d["sentences"] < 200:
            continue
        am, sent, ipr = d["amreval_doc"], d["amreval_sent"], d["in_process"]
        line = (
            f"- {_name(d)}: amreval doc with coref {am['wall_s']:.2f} s / {am['peak_mb']:.0f} MB against sentence "
            f"Smatch {sent['wall_s']:.2f} s / {sent['peak_mb']:.0f} MB ({x_ratio(am['wall_s'], sent['wall_s'])} the "
            f"time; in process {x_ratio(ipr['doc_s'], ipr['sent_s'])})"
        )
        for r in peers:
            p = d.get(f"peer_r{r}")
            if ok(p):
                line += f"; doc-smatch -r {r} {p['wall_s']:.1f} s / {p['peak_mb']:.0f} MB"
            elif p is not None:
                line += f"; doc-smatch -r {r} {p['status']}"
        out.append(line)
    return out
