"""SMATCH++ 1.8's aspect counts, pair by pair, for the parity tests (run once; the ILP is slow).

    PYTHONPATH=src python benchmarks/smatchpp_aspect_counts.py [OUT.json]

For the BART and T5 parses against gold (graphs without their comment lines), SMATCH++'s Python API
with its ``amr`` standardizer, its ILP (``ilp``), its AMR subgraph extractor (which reads its
PropBank frame file) and ``score_dimension`` ``all-onealign`` and ``all-multialign`` gives, per pair,
each aspect's ``[match, test, gold]`` (in SMATCH++'s order, ``REENTRANCIES`` last). For
``all-onealign`` it also records, from the same run, SMATCH++'s alignment of the whole graphs as
pairs of variables (the predicted graph's, the gold graph's, lower-cased as written), so that a
test can count amreval's aspect subgraphs under the very alignment SMATCH++ chose (its ILP may
choose another of several optimal alignments in another run, and then count otherwise). Writes
``tests/fixtures/smatchpp_aspects.json`` by default.
"""

from __future__ import annotations

import json
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
CORPORA = {"bart": ("parses/bart_sys.amr", "parses/gold.amr"), "t5": ("parses/t5_sys.amr", "parses/gold.amr")}
MODES = ("onealign", "multialign")


def graph_strings(path: pathlib.Path) -> list[str]:
    """The graphs of a PENMAN file, comment lines removed, one string each."""
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    out = ["\n".join(line for line in b.split("\n") if not line.lstrip().startswith("#")).strip() for b in blocks]
    return [b for b in out if b]


def aspect_scorer(mode: str):  # type: ignore[no-untyped-def]
    """SMATCH++'s pipeline: the ``amr`` standardizer, its ILP, its AMR subgraph extractor, ``all-<mode>``."""
    from smatchpp import solvers
    from smatchpp.bindings import Smatchpp
    from smatchpp.formalism.amr import tools

    return Smatchpp(
        graph_standardizer=tools.AMRStandardizer(),
        alignmentsolver=solvers.get_solver("ilp"),
        subgraph_extractor=tools.AMRSubgraphExtractor(),
        score_dimension="all-" + mode,
    )


def frame_file() -> pathlib.Path:
    """The PropBank frame file SMATCH++'s AMR subgraph extractor reads."""
    from smatchpp.formalism.amr import tools

    return pathlib.Path(tools.__file__).parent / "resource" / "propbank-amr-frames-arg-descr.txt"


def pair_counts(scorer, pred: str, gold: str) -> list[list[int]]:  # type: ignore[no-untyped-def]
    """Each aspect's ``[match, test, gold]`` of one pair by SMATCH++, in its order."""
    match, _, _ = scorer.process_pair(pred, gold)
    return [[int(round(m[0])), int(m[2]), int(m[3])] for m in match.values()]


def aspect_names(scorer) -> list[str]:  # type: ignore[no-untyped-def]
    """SMATCH++'s aspect names, in its order."""
    match, _, _ = scorer.process_pair("(a / b)", "(a / b)")
    return list(match)


def onealign_pair(scorer, pred: str, gold: str) -> tuple[list[list[int]], list[list[str]]]:  # type: ignore[no-untyped-def]
    """Each aspect's ``[match, test, gold]`` by SMATCH++ with ``all-onealign`` and, from the same run, its
    ILP alignment of the whole graphs as ``[pred variable, gold variable]`` pairs (its ILP may choose
    another of several optimal alignments when run again)."""
    from smatchpp import graph_transforms, util

    match, _, alignments = scorer.process_pair(pred, gold)
    counts = [[int(round(m[0])), int(m[2]), int(m[3])] for m in match.values()]
    renamed, triples = [], []
    for text in (pred, gold):
        t = scorer.graph_reader.string2graph(text)
        plain = graph_transforms.remove_quotes_from_triples(graph_transforms.lower_all_labels(list(t)))
        before = list(util.get_var_concept_dict(plain))
        after = list(util.get_var_concept_dict(graph_transforms.relabel_vars(plain)))
        renamed.append(dict(zip(after, before)))
        triples.append(scorer.graph_standardizer.standardize(t))
    _, _, v1, v2 = scorer.graph_pair_preparer.prepare_get_vars(*triples)
    alignment = next(iter(alignments.values()))
    gold_at = dict(enumerate(sorted(v2)))  # SMATCH++'s aligner numbers each side's variables in sorted order
    pairs = []
    for i, v in enumerate(sorted(v1)):
        j = int(alignment[i]) if len(alignment) > i else -1
        if j in gold_at:
            pairs.append([renamed[0][v[3:]], renamed[1][gold_at[j][3:]]])
    return counts, pairs


def main(argv: list[str]) -> int:
    out_path = pathlib.Path(argv[0]) if argv else ROOT / "tests" / "fixtures" / "smatchpp_aspects.json"
    import logging

    logging.disable(logging.WARNING)
    result: dict[str, object] = {}
    for mode in MODES:
        scorer = aspect_scorer(mode)
        result["aspects"] = aspect_names(scorer)
        counts: dict[str, list[list[list[int]]]] = {}
        for name, (a, b) in CORPORA.items():
            t0 = time.perf_counter()
            pred, gold = graph_strings(DATA / a), graph_strings(DATA / b)
            if mode == "onealign":
                both = [onealign_pair(scorer, p, g) for p, g in zip(pred, gold)]
                counts[name] = [c for c, _ in both]
                result[f"alignment_{name}"] = [a for _, a in both]
            else:
                counts[name] = [pair_counts(scorer, p, g) for p, g in zip(pred, gold)]
            print(f"{mode} {name}: {len(pred)} pairs ({time.perf_counter() - t0:.1f} s)", flush=True)
        result[mode] = counts
    out_path.write_text(json.dumps(result, separators=(",", ":")) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
