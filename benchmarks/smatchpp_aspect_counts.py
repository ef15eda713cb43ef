"""SMATCH++ 1.8's aspect counts, pair by pair, for the parity tests (run once; the ILP is slow).

    PYTHONPATH=src python benchmarks/smatchpp_aspect_counts.py [OUT.json]

For the BART and T5 parses against gold (graphs without their comment lines), SMATCH++'s Python API
with its ``amr`` standardizer, its ILP (``ilp``), its AMR subgraph extractor (which reads its
PropBank frame file) and ``score_dimension`` ``all-onealign`` and ``all-multialign`` gives, per pair,
each aspect's ``[match, test, gold]`` (in SMATCH++'s order, ``REENTRANCIES`` last). For
``all-onealign`` it also records SMATCH++'s alignment of the whole graphs as pairs of variables
(the predicted graph's, the gold graph's, lower-cased as written), so that a test can count
amreval's aspect subgraphs under the very alignment SMATCH++ chose. Writes
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


def whole_alignment(scorer, pred: str, gold: str) -> list[list[str]]:  # type: ignore[no-untyped-def]
    """SMATCH++'s ILP alignment of the whole standardized graphs, as ``[pred variable, gold variable]`` pairs."""
    from smatchpp import graph_transforms, util

    renamed = []
    triples = []
    for text in (pred, gold):
        t = scorer.graph_reader.string2graph(text)
        plain = graph_transforms.remove_quotes_from_triples(graph_transforms.lower_all_labels(list(t)))
        before = list(util.get_var_concept_dict(plain))
        after = list(util.get_var_concept_dict(graph_transforms.relabel_vars(plain)))
        renamed.append(dict(zip(after, before)))
        triples.append(scorer.graph_standardizer.standardize(t))
    g1, g2, v1, v2 = scorer.graph_pair_preparer.prepare_get_vars(*triples)
    alignment, index, _ = scorer.graph_aligner.align(g1, g2, v1, v2)
    gold_at = {i: v for v, i in index.items() if v.startswith("bb_")}
    out = []
    for v in sorted(v1):
        j = alignment[index[v]] if len(alignment) else -1
        if j in gold_at:
            out.append([renamed[0][v[3:]], renamed[1][gold_at[j][3:]]])
    return out


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
            counts[name] = [pair_counts(scorer, p, g) for p, g in zip(pred, gold)]
            if mode == "onealign":
                result[f"alignment_{name}"] = [whole_alignment(scorer, p, g) for p, g in zip(pred, gold)]
            print(f"{mode} {name}: {len(pred)} pairs ({time.perf_counter() - t0:.1f} s)", flush=True)
        result[mode] = counts
    out_path.write_text(json.dumps(result, separators=(",", ":")) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
