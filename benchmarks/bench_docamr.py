"""DocAMR conversion speed on a synthetic corpus the size of MS-AMR train.

300 documents of 20 sentences each (6000 sentence graphs), every document
with named-entity chains that span sentences, pronoun chains, an implicit
role and a bridging relation. Prints the time to read the XML and convert
all documents, for each representation.

Run: ``python benchmarks/bench_docamr.py [--docs 300] [--sentences 20]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time


def make_corpus(n_docs: int, n_sents: int, seed: int = 0):
    from amreval.amr import loads_graphs

    rng = random.Random(seed)
    names = ["Ann", "Bob", "Cleo", "Dan", "Eva", "Finn"]
    cities = ["Paris", "Lima", "Oslo", "Cairo"]
    xml_docs = []
    texts = []
    for d in range(n_docs):
        doc_id = f"SYN_{d:03d}"
        people: dict[str, list[tuple[str, str]]] = {}
        places: dict[str, list[tuple[str, str]]] = {}
        pronouns: list[tuple[str, str]] = []
        implicit = []
        for k in range(1, n_sents + 1):
            sid = f"{doc_id}.{k}"
            who, where = rng.choice(names), rng.choice(cities)
            texts.append(
                f"# ::id {sid}\n# ::snt {who} said they would go to {where}.\n"
                f'(s / say-01 :ARG0 (p / person :wiki - :name (n / name :op1 "{who}"))\n'
                f'   :ARG1 (g / go-02 :ARG0 (t / they) :ARG4 (c / city :name (n2 / name :op1 "{where}"))\n'
                f"      :time (a / after :op1 (e / eat-01 :ARG0 t :ARG1 (f / food :mod (h / hot)))))\n"
                f"   :polarity - :time (d / date-entity :weekday (w / monday)))"
            )
            people.setdefault(who, []).append((sid, "p"))
            places.setdefault(where, []).append((sid, "c"))
            pronouns.append((sid, "t"))
            implicit.append((sid, "e"))
        chains = []
        rid = 0
        for group in list(people.values()) + list(places.values()):
            if len(group) > 1:
                mentions = "".join(f'<mention id="{s}" variable="{v}"/>' for s, v in group)
                chains.append(f'<identchain relationid="rel-{rid}">{mentions}</identchain>')
                rid += 1
        they = "".join(f'<mention id="{s}" variable="{v}"/>' for s, v in pronouns[:5])
        ir = implicit[1]
        chains.append(
            f'<identchain relationid="rel-{rid}">{they}'
            f'<implicitrole id="{ir[0]}" parentvariable="{ir[1]}" argument="ARG2"/></identchain>'
        )
        they_rel = rid
        rid += 1
        single = f'<identchain relationid="rel-{rid}"><mention id="{doc_id}.3" variable="f"/></identchain>'
        bridge = (
            f'<setmember relationid="rel-{rid + 1}"><superset id="rel-{they_rel}"/>'
            f'<member id="rel-0"/><member id="rel-{rid}"/></setmember>'
        )
        amrs = "".join(f'<amr id="{doc_id}.{k}" order="{k - 1}"/>' for k in range(1, n_sents + 1))
        xml_docs.append(
            f'<?xml version="1.0"?>\n<document><sentences docid="{doc_id}">{amrs}</sentences><relations>'
            f"<identity>{''.join(chains)}</identity><singletons>{single}</singletons>"
            f"<bridging>{bridge}</bridging></relations></document>"
        )
    graphs = {g.id: g for g in loads_graphs("\n\n".join(texts))}
    return xml_docs, graphs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", type=int, default=300)
    ap.add_argument("--sentences", type=int, default=20)
    args = ap.parse_args()
    from amreval.docamr import REPRESENTATIONS, convert_document, loads_msamr_xml

    t0 = time.perf_counter()
    xml_docs, amrs = make_corpus(args.docs, args.sentences)
    print(f"built {len(xml_docs)} documents, {len(amrs)} sentence graphs in {time.perf_counter() - t0:.2f} s")
    for rep in REPRESENTATIONS:
        t0 = time.perf_counter()
        docs = [loads_msamr_xml(x) for x in xml_docs]
        out = [convert_document(d, amrs, rep) for d in docs]
        t = time.perf_counter() - t0
        nodes = sum(len(g.instances) for g in out)
        print(f"{rep:12} {len(out)} documents, {nodes} nodes: {t:.2f} s (XML reading and conversion)")
    t0 = time.perf_counter()
    text = "\n\n".join(g.to_string() for g in out)
    print(f"writing PENMAN for all documents: {time.perf_counter() - t0:.2f} s ({len(text) // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
