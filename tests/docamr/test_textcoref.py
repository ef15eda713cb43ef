"""Text coreference plus aligned sentence AMRs to DocAMR: hand-built documents, every reader, bad input."""

from __future__ import annotations

import io
import json

import penman
import pytest

from amreval import AmrevalWarning, DecodeError, InputError, loads_graph, loads_graphs, read_graphs
from amreval.cli import main
from amreval.docamr import (
    AlignedSentence,
    CorefDocument,
    chains_from_coref,
    convert_document,
    loads_aligned_amrs,
    loads_coref,
    node_spans,
    read_aligned_amrs,
    read_alignments,
    read_coref,
    read_coref_conll,
    read_coref_jsonlines,
    text_coref_to_docamr,
)
from amreval.match import graph_triples

# ------------------------------------------------------------------ the document, in every notation

# Sentence tokens (document offsets): 0 Barack 1 Obama 2 visited 3 Paris 4 . | 5 He 6 liked 7 the 8 city 9 . |
# 10 Obama 11 returned 12 .
SENTENCES = [
    ["Barack", "Obama", "visited", "Paris", "."],
    ["He", "liked", "the", "city", "."],
    ["Obama", "returned", "."],
]
# cluster 0: Barack Obama / He / Obama; cluster 1: Paris / the city
CLUSTERS = [[[0, 1], [5, 5], [10, 10]], [[3, 3], [7, 8]]]

GRAPHS = [
    """(v / visit-01{v}
   :ARG0 (p / person :wiki "Barack_Obama"
            :name (n / name :op1 "Barack"{barack} :op2 "Obama"{obama}))
   :ARG1 (c / city :wiki "Paris"
            :name (n2 / name :op1 "Paris"{paris})))""",
    """(l / like-01{l}
   :ARG0 (h / he{h})
   :ARG1 (c / city{c}))""",
    """(r / return-01{r}
   :ARG1 (p / person :wiki "Barack_Obama"
            :name (n / name :op1 "Obama"{obama})))""",
]
ISI = [
    dict(v="~e.2", barack="~e.0", obama="~e.1", paris="~e.3"),
    dict(l="~e.1", h="~e.0", c="~e.3"),
    dict(r="~e.1", obama="~e.0"),
]
NO_MARKERS = [{k: "" for k in d} for d in ISI]
# JAMR paths count constants as children: in sentence 1, :wiki "Barack_Obama" is 0.0.0 and the name 0.0.1
JAMR_NODES = [
    [
        "0\tvisit-01\t2-3",
        "0.0\tperson\t",
        '0.0.0\t"Barack_Obama"\t',
        "0.0.1\tname\t",
        '0.0.1.0\t"Barack"\t0-1',
        '0.0.1.1\t"Obama"\t1-2',
        "0.1\tcity",
        "0.1.1\tname\t3-4",
    ],
    ["0\tlike-01\t1-2", "0.0\the\t0-1", "0.1\tcity\t3-4"],
    ["0\treturn-01\t1-2", "0.0\tperson", "0.0.1\tname\t0-1"],
]
JAMR_ALIGNMENTS = [
    "0-2|0.0.1+0.0.1.0+0.0.1.1 2-3|0 3-4|0.1.1.0 ::annotator JAMR ::date 2014-10-29",
    "1-2|0 0-1|0.0 3-4|0.1",
    "0-1|0.0.1.0 1-2|0",
]
# IBM's transition parser (StructBART) with --jamr: nodes by variable, constants by a number of their own that
# only the ::edge lines tie to their holder. In sentence 1, constant 0 ("Barack") is not the JAMR root path 0, and
# the two "Paris" constants (ids 3 and 4) are told apart by their edges: 4 is the name's, aligned to token 3.
IBM = [
    (
        [
            "v\tvisit-01\t2-3",
            "p\tperson",
            '0\t"Barack"\t0-1',
            "1\tObama\t1-2",
            "2\tBarack_Obama",
            "n\tname",
            "c\tcity",
            '3\t"Paris"',
            "4\tParis\t3-4",
            "n2\tname",
        ],
        "v\tvisit-01",
        [
            "visit-01\tARG0\tperson\tv\tp",
            "visit-01\tARG1\tcity\tv\tc",
            'person\twiki\t"Barack_Obama"\tp\t2',
            "person\tname\tname\tp\tn",
            'name\top1\t"Barack"\tn\t0',
            'name\top2\t"Obama"\tn\t1',
            'city\twiki\t"Paris"\tc\t3',
            "city\tname\tname\tc\tn2",
            'name\top1\t"Paris"\tn2\t4',
        ],
    ),
    (
        ["l\tlike-01\t1-2", "h\the\t0-1", "c\tcity\t3-4"],
        "l\tlike-01",
        ["like-01\tARG0\the\tl\th", "like-01\tARG1\tcity\tl\tc"],
    ),
    (
        ["r\treturn-01\t1-2", "p\tperson", "0\tBarack_Obama", "n\tname", '1\t"Obama"\t0-1'],
        "r\treturn-01",
        [
            "return-01\tARG1\tperson\tr\tp",
            "person\twiki\tBarack_Obama\tp\t0",
            "person\tname\tname\tp\tn",
            'name\top1\t"Obama"\tn\t1',
        ],
    ),
]


def amr_file(notation: str = "isi", ids: bool = True, tok: bool = True) -> str:
    blocks = []
    for k, (graph, words) in enumerate(zip(GRAPHS, SENTENCES)):
        lines = [f"# ::id news.{k + 1}"] if ids else []
        if tok:
            lines.append("# ::tok " + " ".join(words))
        if notation == "jamr-node":
            lines += [f"# ::node\t{node}" for node in JAMR_NODES[k]]
        if notation == "jamr-alignments":
            lines.append(f"# ::alignments {JAMR_ALIGNMENTS[k]}")
        if notation == "ibm":
            nodes, root, edges = IBM[k]
            lines += [f"# ::node\t{node}" for node in nodes] + [f"# ::root\t{root}"]
            lines += [f"# ::edge\t{edge}\t" for edge in edges]  # the parser ends these lines with a tab
        lines.append(graph.format(**(ISI[k] if notation == "isi" else NO_MARKERS[k])))
        blocks.append("\n".join(lines))
    return "# AMR release; a header block without a graph\n\n" + "\n\n".join(blocks) + "\n"


def jsonlines(clusters=CLUSTERS, sentences=SENTENCES, key="news") -> str:
    return json.dumps({"doc_key": key, "sentences": sentences, "clusters": clusters}) + "\n"


def conll(clusters=CLUSTERS, sentences=SENTENCES, key="news") -> str:
    tags: dict[int, list[str]] = {}
    for c, cluster in enumerate(clusters):
        for start, end in cluster:
            if start == end:
                tags.setdefault(start, []).append(f"({c})")
            else:
                tags.setdefault(start, []).append(f"({c}")
                tags.setdefault(end, []).append(f"{c})")
    lines, n = [f"#begin document ({key}); part 000"], 0
    for words in sentences:
        for i, w in enumerate(words):
            lines.append(f"{key}\t0\t{i}\t{w}\tNNP\t*\t-\t-\t-\tspeaker\t*\t" + ("|".join(tags.get(n, [])) or "-"))
            n += 1
        lines.append("")
    lines.append("#end document")
    return "\n".join(lines) + "\n"


EXPECTED = {
    # rel-0: the two persons merge (names kept, :wiki once), "he" is dropped, the chain is left with one
    # member and disappears into it; rel-1 (Paris / the city) keeps its coref-entity node.
    "docamr": """(d / document
        :snt1 (s1.v / visit-01
            :ARG0 (s1.p / person :wiki "Barack_Obama"
                :name (s1.n / name :op1 "Barack" :op2 "Obama")
                :name (s3.n / name :op1 "Obama"))
            :ARG1 (s1.c / city :wiki "Paris"
                :name (s1.n2 / name :op1 "Paris")
                :coref-of (rel-1 / coref-entity :coref (s2.c / city))))
        :snt2 (s2.l / like-01 :ARG0 s1.p :ARG1 s2.c)
        :snt3 (s3.r / return-01 :ARG1 s1.p))""",
    "no-merge": """(d / document
        :snt1 (s1.v / visit-01
            :ARG0 (s1.p / person :wiki "Barack_Obama"
                :name (s1.n / name :op1 "Barack" :op2 "Obama")
                :coref-of (rel-0 / coref-entity :coref (s2.h / he) :coref s3.p))
            :ARG1 (s1.c / city :wiki "Paris"
                :name (s1.n2 / name :op1 "Paris")
                :coref-of (rel-1 / coref-entity :coref (s2.c / city))))
        :snt2 (s2.l / like-01 :ARG0 s2.h :ARG1 s2.c)
        :snt3 (s3.r / return-01 :ARG1 (s3.p / person :wiki "Barack_Obama" :name (s3.n / name :op1 "Obama"))))""",
    "merge-all": """(d / document
        :snt1 (s1.v / visit-01
            :ARG0 (s1.p / person :wiki "Barack_Obama"
                :name (s1.n / name :op1 "Barack" :op2 "Obama")
                :name (s3.n / name :op1 "Obama")
                :additional-type (s2.h / he))
            :ARG1 (s1.c / city :wiki "Paris"
                :name (s1.n2 / name :op1 "Paris")))
        :snt2 (s2.l / like-01 :ARG0 s1.p :ARG1 s1.c)
        :snt3 (s3.r / return-01 :ARG1 s1.p))""",
}


def triples(graph) -> list:
    return sorted(graph_triples(graph).as_strings())


@pytest.fixture
def files(tmp_path):
    def write(name: str, text: str):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.mark.parametrize("rep", ["docamr", "no-merge", "merge-all"])
def test_isi_document_gives_the_expected_docamr(files, rep):
    reports: list = []
    [doc] = text_coref_to_docamr(
        files("doc.amr", amr_file()), files("doc.jsonlines", jsonlines()), rep=rep, reports=reports
    )
    assert triples(doc) == triples(loads_graph(EXPECTED[rep]))
    assert doc.metadata["id"] == "news"
    assert doc.metadata["sentence_ids"] == "news.1 news.2 news.3"
    assert doc.metadata["tok"] == (
        "Barack Obama visited Paris . <next_sent> He liked the city . <next_sent> Obama returned ."
    )
    [report] = reports
    assert [(m.span, m.sentence, m.variable, m.status) for m in report.mentions] == [
        ((0, 1), 0, "p", "chain"),
        ((5, 5), 1, "h", "chain"),
        ((10, 10), 2, "p", "chain"),
        ((3, 3), 0, "c", "chain"),
        ((7, 8), 1, "c", "chain"),
    ]
    assert report.chains == {0: "rel-0", 1: "rel-1"} and not report.unmapped


@pytest.mark.parametrize("notation", ["jamr-node", "jamr-alignments", "ibm"])
def test_jamr_and_ibm_alignments_give_the_same_graph(files, notation):
    isi = text_coref_to_docamr(loads_aligned_amrs(amr_file()), loads_coref(jsonlines()))
    jamr = text_coref_to_docamr(files("doc.amr", amr_file(notation)), files("doc.jsonlines", jsonlines()))
    assert triples(jamr[0]) == triples(isi[0]) == triples(loads_graph(EXPECTED["docamr"]))


def test_conll_file_gives_the_same_graph(files):
    text = conll()
    [doc] = read_coref_conll(files("doc_conll", text))
    assert doc.doc_key == "news_0" and doc.sentences == SENTENCES
    assert doc.clusters == [[(0, 1), (5, 5), (10, 10)], [(3, 3), (7, 8)]]
    [graph] = text_coref_to_docamr(files("doc.amr", amr_file()), files("doc_conll", text), coref_format="conll")
    assert triples(graph) == triples(loads_graph(EXPECTED["docamr"]))
    assert graph.metadata["id"] == "news_0"


def test_jsonlines_with_tokens_and_sentence_map_equals_sentences():
    flat = [t for s in SENTENCES for t in s]
    smap = [k for k, s in enumerate(SENTENCES) for _ in s]
    line = json.dumps({"document_id": "news", "tokens": flat, "sentence_map": smap, "clusters": CLUSTERS})
    [a], [b] = loads_coref(line), read_coref_jsonlines(io.StringIO(jsonlines()))
    assert (
        (a.doc_key, a.sentences, a.clusters)
        == (b.doc_key, b.sentences, b.clusters)
        == ("news", SENTENCES, [[(0, 1), (5, 5), (10, 10)], [(3, 3), (7, 8)]])
    )
    # sentence_map wins over the grouping of "sentences" (segment-based files)
    seg = json.dumps({"doc_key": "s", "sentences": [flat[:7], flat[7:]], "sentence_map": smap, "clusters": []})
    assert read_coref_jsonlines([seg])[0].sentences == SENTENCES
    # without a key: doc<k>
    assert loads_coref(json.dumps({"sentences": [["a"]], "clusters": []}))[0].doc_key == "doc1"


# ------------------------------------------------------------------ alignments and spans


def test_isi_markers_on_concepts_constants_roles_and_reentrancies():
    text = (
        "# ::tok a b c d e f g h\n(w / want-01~e.1 :ARG0~e.0 (b / boy~e.2) :ARG1 (g / go-01~e.3 :ARG0 b~e.7 "
        ':polarity -~e.4 :mod (n / name :op1 "x~1"~e.5)))'
    )
    # the role marker ~e.0 and the re-entrant reference's ~e.7 are ignored; constants align their holder
    assert read_alignments(text) == {"w": {1}, "b": {2}, "g": {3, 4}, "n": {5}}
    # no loop through the re-entrancy: b is below w only
    assert node_spans(text) == {"w": (1, 5), "b": (2, 2), "g": (3, 5), "n": (5, 5)}


def test_jamr_paths_count_constants_and_skip_reentrancies():
    # the JAMR documentation's example: "facility" is 0.1.0 because the re-entrant o is skipped
    text = """# ::tok North Korea has denied the IAEA full access to its facilities .
# ::alignments 0-2|0.0+0.0.0+0.0.0.0+0.0.0.1 5-6|0.2+0.2.0+0.2.0.0 3-4|0 7-8|0.1 6-7|0.1.1 10-11|0.1.0
(d / deny-01 :ARG0 (c / country :name (n / name :op1 "North" :op2 "Korea"))
  :ARG1 (a / access-01 :ARG0 o :ARG1 (f / facility :poss c) :mod (f2 / full))
  :ARG2 (o / organization :name (n2 / name :op1 "IAEA")))"""
    assert read_alignments(text) == {
        "c": {0, 1},
        "n": {0, 1},
        "o": {5},
        "n2": {5},
        "d": {3},
        "a": {7},
        "f2": {6},
        "f": {10},
    }
    # a constant is a child: :month 11 is 0.1.0, and its alignment goes to the date-entity
    assert read_alignments(
        "# ::node\t0.1.0\t11\t4-5\n(s / speak-01 :ARG0 (p / president) :time (d / date-entity :month 11))"
    ) == {"d": {4}}


def test_jamr_errors_name_the_graph():
    with pytest.raises(InputError, match=r"\(id g1\): ::node 0\.2 x 0-1: node path 0\.2 is not in the graph"):
        read_alignments("# ::id g1\n# ::node\t0.2\tx\t0-1\n(a / b :ARG0 (c / d))")
    with pytest.raises(InputError, match=r"node 0\.0 is 'boy' in the ::node line but 'd' in the graph"):
        read_alignments("# ::node\t0.0\tboy\t0-1\n(a / b :ARG0 (c / d))")
    with pytest.raises(InputError, match=r"::alignments item '0-1\|': expected start-end\|path"):
        read_alignments("# ::alignments 0-1|\n(a / b)")


def test_ibm_node_lines_name_variables_and_constants():
    text = amr_file("ibm").split("\n\n")[1]
    assert "# ::node\tv\tvisit-01\t2-3\n" in text and '# ::edge\tname\top1\t"Paris"\tn2\t4\t\n' in text
    # constants 0 and 1 align the name n that holds them; constant 4 the name n2, not the city c (constant 3)
    expected = {"v": {2}, "n": {0, 1}, "n2": {3}}
    assert read_alignments(text) == expected
    assert read_alignments(penman.parse(text)) == read_alignments(penman.decode(text)) == expected
    sentence = AlignedSentence.from_penman(text)
    assert (sentence.spans["p"], sentence.spans["v"], sentence.node_for(0, 1)) == ((0, 1), (0, 3), "p")
    # the ::root line alone tells the notation: with ::root 0 and paths only, 0 is the JAMR root
    graph = '(p / person :name (n / name :op1 "Obama"))'
    assert read_alignments(f"# ::node\t0\tperson\t0-1\n# ::root\t0\tperson\n{graph}") == {"p": {0}}
    ibm = f"# ::node\t0\tObama\t0-1\n# ::root\tp\tperson\n# ::edge\tname\top1\tObama\tn\t0\t\n{graph}"
    assert read_alignments(ibm) == {"n": {0}}


@pytest.mark.parametrize(
    "lines, message",
    [
        (["::node\tx\tperson\t0-1"], r"::node x person 0-1: 'x' is neither a variable of the graph nor a constant id"),
        (["::node\tp\tboy\t0-1"], r"::node p boy 0-1: node p is 'boy' in the ::node line but 'person' in the graph"),
        (["::root\tp\tperson", "::node\t0\tObama\t0-1"], r"::node 0 Obama 0-1: '0' is neither a variable"),
        (
            ["::root\tp\tperson", "::node\t0\tBarack\t0-1", "::edge\tname\top1\tObama\tn\t0"],
            r"::node 0 Barack 0-1: constant 0 is 'Barack' in the ::node line, but node n holds no such constant",
        ),
        (
            ["::root\tp\tperson", "::node\t0\tObama\t0-1", "::edge\tname\top1\tObama\tm\t0"],
            r"::node 0 Obama 0-1: an ::edge line leads to 0 from 'm', no variable",
        ),
        (["::root\tp\tperson", "::edge\tperson\tname\tp\tn"], r"::edge person name p n: expected ::edge<TAB>"),
    ],
    ids=[
        "unknown-id",
        "wrong-concept",
        "constant-without-edge",
        "wrong-constant",
        "edge-from-no-variable",
        "short-edge",
    ],
)
def test_ibm_errors_name_the_graph_and_the_line(lines, message):
    text = "# ::id g1\n" + "".join(f"# {line}\n" for line in lines) + '(p / person :name (n / name :op1 "Obama"))'
    with pytest.raises(InputError, match=r"^<string> \(id g1\): " + message):
        read_alignments(text)


def test_alignment_beyond_the_sentence_names_graph_and_index(files):
    bad = amr_file().replace('"Paris"~e.3', '"Paris"~e.9')
    with pytest.raises(
        InputError,
        match=r"graph #1 \(id news\.1\), line 3: node n2 is aligned to token 9, "
        r"but the sentence has 5 tokens",
    ):
        read_aligned_amrs(files("bad.amr", bad))
    # without ::tok the coreference document's sentence is the reference
    no_tok = amr_file(tok=False).replace('"Paris"~e.3', '"Paris"~e.9')
    with pytest.raises(InputError, match=r"\(id news\.1\).*node n2 is aligned to token 9, but the sentence has 5"):
        text_coref_to_docamr(loads_aligned_amrs(no_tok), loads_coref(jsonlines()))


def test_named_entity_mention_maps_to_the_entity_not_its_name():
    [s1] = loads_aligned_amrs(amr_file().split("\n\n")[1])
    assert s1.spans["n"] == s1.spans["p"] == (0, 1)
    assert s1.heights["p"] > s1.heights["n"]
    assert s1.node_for(0, 1) == "p"  # "Barack Obama"
    assert s1.node_for(1, 1) == "p"  # "Obama"
    assert s1.node_for(3, 3) == "c"  # "Paris": the city, not its name
    assert s1.node_for(0, 3) == "v"


def test_unaligned_tokens_at_the_edges_of_a_mention_are_trimmed():
    [s2] = loads_aligned_amrs(amr_file().split("\n\n")[2])
    assert s2.node_for(2, 3) == "c"  # "the city"
    # the untrimmed rule: the shortest span containing "the city" is the verb's
    assert s2.node_for(2, 3, trim_unaligned=False) == "l"
    assert s2.node_for(2, 2) is None  # "the" alone
    assert s2.node_for(4, 4, trim_unaligned=False) is None  # "." is beyond every span


# ------------------------------------------------------------------ mapping rules


def test_unmapped_mentions_are_reported_and_warned(files):
    clusters = CLUSTERS + [[[4, 4], [9, 9]]]  # the two full stops: aligned to nothing
    reports: list = []
    with pytest.warns(AmrevalWarning) as record:
        [graph] = text_coref_to_docamr(
            loads_aligned_amrs(amr_file()), loads_coref(jsonlines(clusters)), reports=reports
        )
    messages = [str(w.message) for w in record]
    assert messages == [
        "<string>, line 1: document news, cluster 2: mention [4, 4] '.' maps to no node of sentence 1 (news.1); "
        "left out",
        "<string>, line 1: document news, cluster 2: mention [9, 9] '.' maps to no node of sentence 2 (news.2); "
        "left out",
    ]
    [report] = reports
    assert [(m.cluster, m.span, m.status) for m in report.unmapped] == [(2, (4, 4), "no-node"), (2, (9, 9), "no-node")]
    assert len(report.mapped) == 5 and 2 not in report.chains
    assert report.summary() == (
        "document news: 7 mentions in 3 clusters, 5 mapped to nodes, 2 unmapped; "
        "2 chains, 0 clusters within one sentence"
    )
    assert triples(graph) == triples(loads_graph(EXPECTED["docamr"]))
    with pytest.raises(InputError, match=r"cluster 2: mention \[4, 4\] '\.' maps to no node of sentence 1"):
        text_coref_to_docamr(loads_aligned_amrs(amr_file()), loads_coref(jsonlines(clusters)), strict=True)


def test_mention_across_a_sentence_boundary_is_reported():
    reports: list = []
    with pytest.warns(
        AmrevalWarning,
        match=r"cluster 2: mention \[3, 5\] 'Paris \. He' crosses the boundary "
        r"after sentence 1 \(news\.1\); left out",
    ):
        text_coref_to_docamr(
            loads_aligned_amrs(amr_file()), loads_coref(jsonlines(CLUSTERS + [[[3, 5], [10, 10]]])), reports=reports
        )
    assert [(m.span, m.sentence, m.variable, m.status) for m in reports[0].mentions if m.cluster == 2] == [
        ((3, 5), None, None, "crosses-sentences"),
        ((10, 10), 2, "p", "within-sentence"),
    ]


def test_within_sentence_clusters_give_no_chain():
    # "He" and "the city" (one sentence) only; and "Barack Obama" / "Paris" (one sentence) only
    reports: list = []
    [graph] = text_coref_to_docamr(
        loads_aligned_amrs(amr_file()),
        loads_coref(jsonlines([[[5, 5], [7, 8]], [[0, 1], [3, 3]]])),
        rep="no-merge",
        reports=reports,
    )
    assert not any(c == "coref-entity" for c in graph.instances.values())
    plain = loads_graph("""(d / document
        :snt1 (s1.v / visit-01 :ARG0 (s1.p / person :wiki "Barack_Obama" :name (s1.n / name :op1 "Barack"
              :op2 "Obama")) :ARG1 (s1.c / city :wiki "Paris" :name (s1.n2 / name :op1 "Paris")))
        :snt2 (s2.l / like-01 :ARG0 (s2.h / he) :ARG1 (s2.c / city))
        :snt3 (s3.r / return-01 :ARG1 (s3.p / person :wiki "Barack_Obama" :name (s3.n / name :op1 "Obama"))))""")
    assert triples(graph) == triples(plain)
    assert reports[0].within_sentence == [0, 1] and reports[0].chains == {}
    assert {m.status for m in reports[0].mentions} == {"within-sentence"}


def test_several_mentions_in_one_sentence_keep_the_first():
    # "He", "the city" (sentence 2) and "Obama" (sentence 3): "He" comes first in sentence 2
    doc = CorefDocument("news", SENTENCES, [[(10, 10), (7, 8), (5, 5)]])
    ms, report = chains_from_coref(doc, loads_aligned_amrs(amr_file()))
    assert [(m.sentence_id, m.variable, m.text) for m in ms.chains[0].mentions] == [
        ("news.2", "h", "He"),
        ("news.3", "p", "Obama"),
    ]
    assert [(m.span, m.variable, m.status) for m in report.mentions] == [
        ((5, 5), "h", "chain"),
        ((7, 8), "c", "same-sentence"),
        ((10, 10), "p", "chain"),
    ]


def test_overlapping_spans_and_reentrant_graphs_do_not_loop():
    graphs = [
        "# ::tok the boy wants to go\n(w / want-01~e.2 :ARG0 (b / boy~e.1) :ARG1 (g / go-02~e.4 :ARG0 b))",
        "# ::tok he left\n(l / leave-11~e.1 :ARG0 (h / he~e.0 :ARG0-of l))",
    ]  # a cycle l -> h -> l
    sentences = [["the", "boy", "wants", "to", "go"], ["he", "left"]]
    # overlapping and duplicate spans of one cluster: [0, 1] "the boy", [1, 1] "boy", [1, 1] again
    doc = CorefDocument("loop", sentences, [[(0, 1), (1, 1), (1, 1), (5, 5)], [(1, 4), (2, 4), (6, 6)]])
    ms, report = chains_from_coref(doc, graphs)
    assert [[(m.sentence_id, m.variable) for m in c.mentions] for c in ms.chains] == [
        [("loop.1", "b"), ("loop.2", "h")],
        [("loop.1", "w"), ("loop.2", "l")],
    ]
    assert [m.status for m in report.mentions] == ["chain", "same-sentence", "chain", "chain", "same-sentence", "chain"]
    assert node_spans(graphs[1]) == {"l": (0, 1), "h": (0, 0)}
    # the cycle w -> b -> g -> w is cut at the re-entrant references; g is below b, where it is written
    cycle = "(w / want-01~e.2 :ARG0 (b / boy~e.1 :ARG0-of (g / go-02~e.4 :ARG1 w)) :ARG1 g)"
    assert node_spans(cycle) == {"w": (1, 4), "b": (1, 4), "g": (4, 4)}
    # so the boy's span covers the going written below it: by the rule, even "boy" goes to the wanting
    # (same span, greater height); "the boy" untrimmed is covered by no node
    [s] = loads_aligned_amrs("# ::tok the boy wants to go\n" + cycle)
    assert (s.node_for(1, 1), s.node_for(1, 4), s.node_for(0, 1, trim_unaligned=False)) == ("w", "w", None)


def test_missing_ids_are_generated_and_written_into_the_graphs():
    sentences = loads_aligned_amrs(amr_file(ids=False))
    ms, _ = chains_from_coref(loads_coref(jsonlines())[0], sentences)
    assert ms.sentence_ids == ["news.1", "news.2", "news.3"]
    assert [s.graph.id for s in sentences] == ["news.1", "news.2", "news.3"]
    graph = convert_document(ms, {s.graph.id: s.graph for s in sentences})
    assert triples(graph) == triples(loads_graph(EXPECTED["docamr"]))


def test_documents_take_the_graphs_in_order(files):
    two = files("two.jsonlines", jsonlines(key="a") + jsonlines([[[0, 1], [10, 10]]], key="b"))
    amrs = files("two.amr", amr_file(ids=False) + "\n" + amr_file(ids=False))
    graphs = text_coref_to_docamr(amrs, two, rep="no-merge")
    assert [g.id for g in graphs] == ["a", "b"]
    assert [g.metadata["sentence_ids"] for g in graphs] == ["a.1 a.2 a.3", "b.1 b.2 b.3"]
    assert sorted(v for v, c in graphs[1].instances.items() if c == "coref-entity") == ["rel-0"]
    with pytest.raises(
        InputError,
        match=r"document b needs 3 sentence graphs, but only 0 of the 3 AMR graphs "
        r"are left",
    ):
        text_coref_to_docamr(loads_aligned_amrs(amr_file()), two)
    with pytest.raises(InputError, match=r"1 documents have 3 sentences, but there are 6 AMR graphs"):
        text_coref_to_docamr(amrs, io.StringIO(jsonlines()))


# ------------------------------------------------------------------ validation


@pytest.mark.parametrize(
    "span,what",
    [
        ([12, 13], r"span \[12, 13\] is beyond the document, which has 13 tokens \(0 to 12\)"),
        ([4, 3], r"span \[4, 3\] starts after it ends"),
        ([-1, 0], r"span \[-1, 0\] has a negative offset"),
    ],
)
def test_bad_spans_name_document_cluster_and_span(files, span, what):
    path = files("c.jsonlines", jsonlines([CLUSTERS[0], [[3, 3], span]]))
    with pytest.raises(InputError, match=rf"c\.jsonlines, line 1: document news, cluster 1: {what}"):
        read_coref_jsonlines(path)
    # a hand-built document is checked too
    with pytest.raises(InputError, match=rf"document news, cluster 1: {what}"):
        chains_from_coref(CorefDocument("news", SENTENCES, [[(0, 1)], [tuple(span)]]), [])


def test_token_count_mismatch_names_document_sentence_and_graph():
    short = [SENTENCES[0], ["He", "liked", "city", "."], SENTENCES[2]]
    with pytest.raises(
        InputError,
        match=r"document news, sentence 2 \(id news\.2\): the coreference file has 4 "
        r"tokens but the AMR graph <string>, graph #2 \(id news\.2\), line 11 has 5",
    ):
        text_coref_to_docamr(loads_aligned_amrs(amr_file()), loads_coref(jsonlines([[[0, 1], [5, 5]]], short)))


def test_malformed_jsonlines_name_file_and_line(files):
    good = jsonlines()
    cases = [
        ("{not json", r"line 2: malformed JSON"),
        ('["a list"]', r"line 2: expected a JSON object"),
        ('{"doc_key": "x", "clusters": []}', r"line 2: document x: expected 'sentences' or 'tokens'"),
        ('{"doc_key": "x", "tokens": ["a"], "clusters": []}', r"line 2: document x: 'tokens' needs 'sentence_map'"),
        (
            '{"doc_key": "x", "tokens": ["a", "b"], "sentence_map": [1, 0], "clusters": []}',
            r"line 2: document x: 'sentence_map' must give a non-decreasing sentence index",
        ),
        ('{"doc_key": "x", "sentences": [["a"]]}', r"line 2: document x: expected 'clusters'"),
        (
            '{"doc_key": "x", "sentences": [["a"]], "clusters": [[[0]]]}',
            r"line 2: document x, cluster 0: span \[0\] is not \[start, end\]",
        ),
        (
            '{"doc_key": "x", "sentences": [["a"]], "clusters": [], "subtoken_map": [0]}',
            r"line 2: document x is over subword tokens",
        ),
    ]
    for text, message in cases:
        path = files("bad.jsonlines", good + text + "\n")
        with pytest.raises(InputError, match=rf"bad\.jsonlines, {message}"):
            read_coref_jsonlines(path)


def test_malformed_conll_names_file_and_line(files):
    good = conll()
    cases = [
        (good.replace("#end document\n", ""), r"line 1: document news_0 has no '#end document'"),
        (good.replace("\t(1\n", "\t-\n"), r"line 11: closes a mention of cluster 1 that is not open"),
        (
            good.replace("\t1)\n", "\t-\n"),
            r"line 10: document news_0: mention of cluster 1 opened here is never "
            r"closed",
        ),
        (good.replace("\t(1)\n", "\t(x)\n"), r"line 5: malformed coreference column '\(x\)'"),
        ("news 0 0 a (0)\n" + good, r"line 1: a token line outside '#begin document'"),
        (
            good.replace("news\t0\t1\tliked\tNNP\t*\t-\t-\t-\tspeaker\t*\t-", "news 0 1 liked"),
            r"line 9: expected at least 5 columns",
        ),
        (
            good + good.replace("#end document\n", "") + "#begin document (x); part 001\n",
            r"line 36: '#begin document' inside document news_0",
        ),
    ]
    for text, message in cases:
        with pytest.raises(InputError, match=rf"bad_conll, {message}"):
            read_coref_conll(files("bad_conll", text))


# ------------------------------------------------------------------ command line


def test_cli_writes_the_expected_graph(files, tmp_path, capsys):
    out = tmp_path / "out.amr"
    amrs = files("parsed.amr", amr_file())
    code = main(["docamr", "--coref", str(files("coref.jsonlines", jsonlines())), "--amrs", str(amrs), "-o", str(out)])
    _, err = capsys.readouterr()
    assert code == 0
    [graph] = read_graphs(out)
    assert triples(graph) == triples(loads_graph(EXPECTED["docamr"]))
    # what the conversion did is information, not a warning; each count named by what it counts
    assert "warning" not in err and (
        f"amreval: {files('coref.jsonlines', jsonlines())}: 1 document, 5 mentions in 2 clusters: 5 mapped to "
        "nodes, 0 unmapped; 2 chains, 0 clusters within one sentence left out\n" in err
    )
    code = main(
        [
            "docamr",
            "--coref",
            str(files("coref_conll", conll())),
            "--coref-format",
            "conll",
            "--amrs",
            str(amrs),
            "--rep",
            "no-merge",
        ]
    )
    written, err = capsys.readouterr()
    assert code == 0
    [graph] = loads_graphs(written)
    assert triples(graph) == triples(loads_graph(EXPECTED["no-merge"]))


def test_cli_reads_the_ibm_parser_lines(files, tmp_path):
    out = tmp_path / "out.amr"
    amrs = files("parsed.amr", amr_file("ibm"))
    code = main(["docamr", "--coref", str(files("coref.jsonlines", jsonlines())), "--amrs", str(amrs), "-o", str(out)])
    assert code == 0
    [graph] = read_graphs(out)
    assert triples(graph) == triples(loads_graph(EXPECTED["docamr"]))


def test_cli_reports_unmapped_mentions_and_needs_amrs(files, capsys):
    coref = files("coref.jsonlines", jsonlines(CLUSTERS + [[[4, 4], [9, 9]]]))
    code = main(["docamr", "--coref", str(coref), "--amrs", str(files("parsed.amr", amr_file()))])
    _, err = capsys.readouterr()
    assert code == 0
    assert "amreval: warning: " in err and "cluster 2: mention [4, 4] '.' maps to no node of sentence 1" in err
    assert "7 mentions in 3 clusters: 5 mapped to nodes, 2 unmapped" in err
    code = main(["docamr", "--coref", str(coref)])
    _, err = capsys.readouterr()
    assert code == 2 and "--coref needs --amrs" in err


def test_malformed_amr_and_unknown_format_are_named(files):
    bad = files("bad.amr", amr_file().replace(":ARG1 (c / city~e.3))", ":ARG1 (c / city~e.3)"))
    with pytest.raises(InputError, match=r"bad\.amr, graph #2 \(id news\.2\), line \d+: malformed PENMAN"):
        read_aligned_amrs(bad)
    with pytest.raises(InputError, match=r"unknown coreference format 'json'; expected one of jsonlines, conll"):
        text_coref_to_docamr(files("doc.amr", amr_file()), files("doc.jsonlines", jsonlines()), coref_format="json")


def test_penman_trees_and_graphs_keep_their_alignments():
    text = amr_file("jamr-node").split("\n\n")[1]
    expected = {"v": {2}, "n": {0, 1}, "n2": {3}}
    assert read_alignments(text) == expected
    # penman files the ::node lines under keys of their own; they are read back from there
    assert read_alignments(penman.parse(text)) == read_alignments(penman.decode(text)) == expected
    isi = amr_file().split("\n\n")[1]
    assert read_alignments(penman.decode(isi)) == expected
    sentence = AlignedSentence.from_penman(text)
    assert (sentence.graph.id, sentence.tokens, sentence.spans["p"]) == ("news.1", SENTENCES[0], (0, 1))


# ------------------------------------------------------------------ sources: a string is always a path


def test_a_missing_file_is_named_never_read_as_text(tmp_path):
    missing = str(tmp_path / "missing.amr")
    with pytest.raises(InputError, match="no such file") as info:
        read_aligned_amrs(missing)
    assert missing in str(info.value)
    # PENMAN text given to the file reader is a (missing) file name, not a graph
    with pytest.raises(InputError, match=r"no such file: \(x / y\)"):
        read_aligned_amrs("(x / y)")
    missing = str(tmp_path / "missing.jsonlines")
    for coref_format in ("jsonlines", "conll"):
        with pytest.raises(InputError, match="no such file") as info:
            read_coref(missing, coref_format)
        assert missing in str(info.value)
    with pytest.raises(InputError, match="no such file"):
        read_coref(jsonlines())
    with pytest.raises(InputError, match="no such file"):
        text_coref_to_docamr(missing, jsonlines())


def test_a_file_name_with_a_parenthesis_is_read_as_a_file(files):
    path = files("parsed (v2).amr", amr_file())
    for source in (str(path), path, [str(path)], io.StringIO(amr_file())):
        sentences = read_aligned_amrs(source)
        assert [s.graph.id for s in sentences] == ["news.1", "news.2", "news.3"]
    assert read_aligned_amrs([path, path])[3].spans == sentences[0].spans
    [doc] = read_coref(str(files("coref (v2).jsonlines", jsonlines())))
    assert doc.doc_key == "news" and doc.sentences == SENTENCES
    assert read_coref(io.StringIO(conll()), "conll")[0].doc_key == "news_0"


def test_alignments_of_a_graph_too_deep_to_read_name_its_depth():
    from amreval.amr.token_alignments import AlignedSentence

    deep = "(n0 / a" + "".join(f" :ARG0 (n{k} / a" for k in range(1, 3000)) + ")" * 3000
    with pytest.raises(DecodeError, match="a graph nested 3000 levels deep is too deep to read its alignments"):
        AlignedSentence.from_penman(deep)
