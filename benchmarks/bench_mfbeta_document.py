"""Document-level MFβ against sentence MFβ on the same sentences, in one process, runs alternating.

Data: the 200 Little Prince sentences of ``../shared/data/parses`` (``gold.amr``
and ``bart_sys.amr``, same sentences in the same order) as 20 documents of 10
consecutive sentences. The generations are system A of ``bench_mfbeta.py``
(each reference sentence with two neighbouring words swapped); a paragraph is
its 10 generated sentences joined by spaces, a reference text the 10 reference
sentences.

* **Sentence MFβ**: ``mfbeta(generated, references, reference_amrs=gold,
  prediction_amrs=bart)`` on the 200 sentences (S²match Meaning, Form over 400
  sentences).
* **Document MFβ**: ``document_mfbeta`` on the 20 paragraphs: the BART parses
  as given parses (given sentences: the 10 of each paragraph), coreference
  clusters given, DocSmatch against the gold DocAMR, Form over 40 paragraphs.

The parses carry no token alignments, so a deterministic aligner here gives
them ``~e.N`` markers (a node goes to the first free token that is its
concept's lemma, starts with its first four letters, or is a form of its
pronoun). The gold DocAMR is the gold sentences joined with the chains of
``doc_chains.build_chains`` (the deterministic rule-based builder) run on the
gold graphs; the generated side's clusters are those chains run on the BART
graphs, each mention the token its node is aligned to (mentions of unaligned
nodes are left out, as a text coreference system would miss them).

Model: the random 124M GPT-2 of ``bench_mfbeta.py`` on CPU. Every run scores
everything again (no cache). After a warm-up of each, the two sides run
alternately (sentence, document, document, sentence, ...) ``--runs`` times each (default 2)
and the medians are compared: target document / sentence ≤ 1.5. torch runs on ``--threads`` threads
(default 1: on a shared, loaded machine one thread is faster than two).

Run: ``python benchmarks/bench_mfbeta_document.py [--runs 2] [--threads 1]``; needs the ``lm``
extra and ``../shared/data``. Results: ``benchmarks/results/mfbeta_document.json`` and ``.md``.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
import warnings

from _common import build_chains
from bench_mfbeta import DATA, RESULTS, build_model, sentences

DOCS, SIZE = 20, 10
PRONOUNS = {
    "i": ("i", "me", "my", "myself", "mine"),
    "you": ("you", "your", "yourself", "yours"),
    "he": ("he", "him", "his", "himself"),
    "she": ("she", "her", "herself", "hers"),
    "it": ("it", "its", "itself"),
    "we": ("we", "us", "our", "ourselves"),
    "they": ("they", "them", "their", "themselves"),
}


def align(graph, tokens: list[str]) -> tuple[str, dict[str, int]]:
    """The graph's PENMAN text with ``~e.N`` on aligned concepts, and variable -> token."""
    lower = [t.lower() for t in tokens]
    used: set[int] = set()
    where: dict[str, int] = {}
    for var, concept in graph.instances.items():
        if not isinstance(concept, str):
            continue
        lemma = re.sub(r"-\d+$", "", concept.lower())
        forms = PRONOUNS.get(lemma, (lemma,))
        for k, t in enumerate(lower):
            if k not in used and (t in forms or (len(lemma) >= 4 and t.startswith(lemma[:4]))):
                used.add(k)
                where[var] = k
                break
    text = graph.to_string(indent=None).splitlines()[-1]

    def mark(m: re.Match) -> str:
        var = m.group(1)
        return m.group(0) + (f"~e.{where[var]}" if var in where else "")

    text = re.sub(r"\((\S+) / ([^\s()~]+)", mark, text)
    return f"# ::tok {' '.join(tokens)}\n{text}", where


def documents():
    """The generated paragraphs, sentences, aligned parses and clusters; references and gold DocAMRs."""
    from amreval.amr.read import read_graphs
    from amreval.docamr.convert import convert_document
    from amreval.docamr.corefiles import CorefDocument

    refs, system_a, _ = sentences()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gold = read_graphs(DATA / "parses" / "gold.amr")
        bart = read_graphs(DATA / "parses" / "bart_sys.amr")
    for g, b in zip(gold, bart):
        b.metadata["id"] = g.id  # the parser graphs get the gold's ids, by position
    out: dict[str, list] = {k: [] for k in ("gen", "sents", "parses", "coref", "refs", "gold")}
    for d in range(DOCS):
        part = slice(d * SIZE, (d + 1) * SIZE)
        gen, ref, golds, parses = system_a[part], refs[part], gold[part], bart[part]
        ms = build_chains(golds, f"doc{d}")
        out["gold"].append(convert_document(ms, {g.id: g for g in golds}, "docamr"))
        tokens = [s.split() for s in gen]
        aligned = [align(p, t) for p, t in zip(parses, tokens)]
        offsets = [sum(len(t) for t in tokens[:k]) for k in range(SIZE)]
        position = {p.id: k for k, p in enumerate(parses)}
        clusters = []
        for chain in build_chains(parses, f"doc{d}").chains:
            spans = [
                (offsets[k] + aligned[k][1][m.variable],) * 2
                for m in chain.mentions
                for k in [position[m.sentence_id]]
                if m.variable in aligned[k][1]
            ]
            if len(spans) >= 2:
                clusters.append(sorted(set(spans)))
        out["coref"].append(CorefDocument(f"doc{d}", tokens, clusters))
        out["gen"].append(" ".join(gen))
        out["sents"].append(gen)
        out["parses"].append([a[0] for a in aligned])
        out["refs"].append(" ".join(ref))
    return out, (system_a, refs, gold, bart)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=2, help="runs of each side, alternating (median kept)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1: the machine is shared)")
    args = parser.parse_args()
    if not DATA.is_dir():
        print(f"skipped: {DATA} is absent (the Little Prince data)")
        return 0
    try:
        import torch
        import transformers  # noqa: F401
    except ImportError:
        print("skipped: the lm extra (torch, transformers) is not installed")
        return 0
    from amreval.mfbeta import document_mfbeta, mfbeta, split_sentences
    from amreval.mfbeta.form import LanguageModelScorer

    torch.set_num_threads(args.threads)
    model = build_model()
    docs, (system_a, refs, gold, bart) = documents()
    scorer = LanguageModelScorer(str(model), device="cpu", cache=False)
    split_ok = sum(split_sentences(p) == s for p, s in zip(docs["gen"], docs["sents"]))

    def sentence_side(n: int = DOCS * SIZE):
        return mfbeta(
            system_a[:n], refs[:n], reference_amrs=gold[:n], prediction_amrs=bart[:n], scorer=scorer, progress=False
        )

    def document_side(n: int = DOCS):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # mentions the parse's nodes do not cover
            return document_mfbeta(
                docs["gen"][:n],
                docs["refs"][:n],
                reference_amrs=docs["gold"][:n],
                sentences=docs["sents"][:n],
                prediction_amrs=docs["parses"][:n],
                coref=docs["coref"][:n],
                scorer=scorer,
                progress=False,
            )

    sentence_side(SIZE), document_side(1)  # warm-up on one document: the model, the head check, the vectors
    times: dict[str, list[float]] = {"sentence": [], "document": []}
    results = {}
    order = ["sentence", "document"]
    for r in range(args.runs):
        for side in order if r % 2 == 0 else order[::-1]:
            t0 = time.perf_counter()
            results[side] = (sentence_side if side == "sentence" else document_side)()
            times[side].append(time.perf_counter() - t0)
    sent, doc = statistics.median(times["sentence"]), statistics.median(times["document"])
    ratio = doc / sent
    d = results["document"]
    s = results["sentence"]
    lengths = [len(scorer.tokenizer(p, add_special_tokens=False)["input_ids"]) for p in docs["gen"] + docs["refs"]]
    summary = {
        "runs": args.runs,
        "sentence_s": [round(t, 2) for t in times["sentence"]],
        "document_s": [round(t, 2) for t in times["document"]],
        "sentence_median_s": round(sent, 2),
        "document_median_s": round(doc, 2),
        "ratio": round(ratio, 3),
        "met": ratio <= 1.5,
        "window": d.config.as_dict()["window"],
        "stride": d.config.as_dict()["stride"],
        "paragraph_tokens_max": max(lengths),
        "paragraph_tokens_mean": round(statistics.mean(lengths), 1),
        "split_as_given": split_ok,
        "document": {k: d.as_dict()[k] for k in ("mf_beta", "meaning", "coreference", "form", "sentence_mismatches")},
        "chains": sum(d.chains),
        "unmapped_mentions": d.unmapped_mentions,
        "sentence": {"mf_beta": s.mf_beta, "meaning": s.meaning, "form": s.form},
    }
    table = "\n".join(
        [
            "| MFβ, 124M random GPT-2, CPU, one process, runs alternating | median | runs |",
            "|---|---|---|",
            f"| sentence MFβ, 200 sentences (S²match, Form over 400 sentences) | {sent:.2f} s | "
            f"{', '.join(f'{t:.2f}' for t in times['sentence'])} |",
            f"| document MFβ, 20 × 10 sentences (DocSmatch + coref, Form over 40 paragraphs) | {doc:.2f} s | "
            f"{', '.join(f'{t:.2f}' for t in times['document'])} |",
            f"| document / sentence | {ratio:.2f}× ({'met' if ratio <= 1.5 else 'not met'}: ≤ 1.5×) | |",
            "",
            f"Window {summary['window']}, stride {summary['stride']}; paragraphs of {summary['paragraph_tokens_mean']} "
            f"tokens on average (at most {summary['paragraph_tokens_max']}). Document Meaning "
            f"{d.meaning:.4f}, coreference {d.coreference or 0:.4f}, Form {d.form:.4f} ({sum(d.chains)} chains, "
            f"{d.unmapped_mentions} mentions unmapped); sentence Meaning {s.meaning:.4f}, Form {s.form:.4f}. "
            f"The splitter gives the 10 given sentences for {split_ok} of the 20 paragraphs.",
        ]
    )
    print(table)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "mfbeta_document.json").write_text(json.dumps(summary, indent=1))
    (RESULTS / "mfbeta_document.md").write_text(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
