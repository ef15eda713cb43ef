"""Pictures of document graphs and alignment diffs (Graphviz SVG)."""

from __future__ import annotations

import importlib.util
import shutil
import sys
import xml.etree.ElementTree as ET

import pytest

from amreval.errors import InputError, MissingDependencyError
from amreval.report.draw import (
    INSTALL_HINT,
    alignment_diff,
    alignment_dot,
    alignment_svg,
    document_graph_dot,
    document_graph_svg,
)
from amreval.scores.docsmatch import docsmatch_pair
from amreval.scores.smatch import smatch_pair

HAS_GRAPHVIZ = importlib.util.find_spec("graphviz") is not None
HAS_DOT = shutil.which("dot") is not None

needs_package = pytest.mark.skipif(
    not HAS_GRAPHVIZ, reason="the graphviz Python package is not installed (pip install graphviz)"
)
needs_dot = pytest.mark.skipif(
    not (HAS_GRAPHVIZ and HAS_DOT),
    reason="drawing needs the graphviz Python package and Graphviz's dot program "
    "(pip install graphviz; apt-get install graphviz)",
)

SVG = "{http://www.w3.org/2000/svg}"

DOC = """# ::id doc1
(d / document
   :snt1 (w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :ARG4 (c / city)))
   :snt2 (s / see-01 :ARG0 b :ARG1 (r / bridge :ARG1-of (o / old-01)) :polarity -)
   :snt3 (e / beautiful-02 :ARG1 (x / coref-entity :coref c :name (n / name :op1 "Paris"))))"""

# hand-made pair: the gold boy is predicted as a girl, :polarity is missed, a city is added
GOLD = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b) :polarity -)"
PRED = "(w / want-01 :ARG0 (b / girl) :ARG1 (g / go-02 :ARG0 b :ARG4 (c / city)))"

# sentence 1 and 2 swapped in the prediction: plain Smatch swaps the nodes back,
# DocSmatch may not align across sentences
DOC_GOLD = "(d / document :snt1 (a / boy :quant 2) :snt2 (b / girl :quant 3))"
DOC_PRED = "(d / document :snt1 (a / girl :quant 3) :snt2 (b / boy :quant 2))"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def groups(root: ET.Element, *classes: str) -> list[ET.Element]:
    """The <g> elements whose class list holds all of ``classes``."""
    return [g for g in root.iter(f"{SVG}g") if set(classes) <= set(g.get("class", "").split())]


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


def title(element: ET.Element) -> str:
    found = element.find(f"{SVG}title")
    return found.text if found is not None and found.text else ""


def strokes(element: ET.Element) -> set[str]:
    return {child.get("stroke", "") for child in element.iter() if child.tag != f"{SVG}g"}


# ------------------------------------------------------------------------- graph pictures


@needs_dot
def test_document_graph_svg_has_sentences_labels_and_coref(tmp_path):
    out = tmp_path / "doc.svg"
    svg = document_graph_svg(DOC, out)
    assert out.read_text(encoding="utf-8") == svg
    root = parse(svg)
    all_text = texts(root)
    for label in ("d / document", "w / want-01", "x / coref-entity", "n / name", '"Paris"', "-"):
        assert label in all_text
    # one cluster per sentence, titled
    clusters = groups(root, "cluster")
    assert sorted(title(c) for c in clusters) == ["cluster_1", "cluster_2", "cluster_3"]
    assert sorted(t for c in clusters for t in texts(c)) == ["sentence 1", "sentence 2", "sentence 3"]
    # the coref-entity node and the coref edges are magenta
    coref_nodes = groups(root, "node", "coref")
    assert [texts(n) for n in coref_nodes] == [["x / coref-entity"]]
    assert "#ad1457" in strokes(coref_nodes[0])
    coref_edges = groups(root, "edge", "coref")
    assert {t for e in coref_edges for t in texts(e)} >= {":coref", ":ARG0"}
    assert all("#ad1457" in strokes(e) for e in coref_edges)
    # b (sentences 1 and 2) and the coref-entity (1 and 3) are outside the clusters
    shared = {texts(n)[0] for n in groups(root, "node", "shared")}
    assert {"b / boy", "x / coref-entity"} <= shared
    inside = {t for c in clusters for t in texts(c)}
    assert not shared & inside
    assert "b / boy" in {texts(n)[0] for n in groups(root, "node", "merged")}
    # the top node is marked; the legend is there
    assert [texts(n) for n in groups(root, "node", "top")] == [["d / document"]]
    assert "coreference nodes and edges" in " ".join(all_text)


@needs_dot
def test_inverted_edges_keep_the_written_role_and_direction():
    root = parse(document_graph_svg("(w / want-01 :ARG1-of (s / see-01) :mod (o / old))"))
    edges = {texts(e)[0]: title(e) for e in groups(root, "edge")}
    # n0 is w: both edges point away from it, as written
    assert edges == {":ARG1-of": "n0->n1", ":mod": "n0->n2"}


@needs_dot
def test_sentence_graph_list_title_and_determinism():
    sentences = ["(b / boy)", '(g / go-02 :ARG0 (c / city :name (n / name :op1 "Rome")))']
    first = document_graph_svg(sentences, title="two sentences")
    assert first == document_graph_svg(sentences, title="two sentences")
    root = parse(first)
    assert "two sentences" in texts(root)
    assert "s2.c / city" in texts(root) and "sentence 2" in texts(root)
    assert not groups(root, "coref")


@needs_dot
def test_labels_are_literal_text():
    svg = document_graph_svg('(a / b :op1 "x<y>" :op2 "q\\"q")')
    labels = texts(parse(svg))
    assert '"x<y>"' in labels and '"q\\"q"' in labels


# ------------------------------------------------------------------------- alignment pictures


def test_alignment_diff_by_hand():
    d = alignment_diff(PRED, GOLD)
    assert d.mapping == {"w": "w", "b": "b", "g": "g", "c": None}
    assert sorted(d.missing) == [("instance", "b", "boy"), ("polarity", "w", "-")]
    assert sorted(d.extra) == [("arg4", "g", "c"), ("instance", "b", "girl"), ("instance", "c", "city")]
    assert len(d.matched) == 6
    s = smatch_pair(PRED, GOLD)
    assert d.counts == (s.match, s.test, s.gold) == (6, 9, 8)


@needs_dot
def test_alignment_svg_counts_edges_by_status(tmp_path):
    svg = alignment_svg(PRED, GOLD, tmp_path / "pair.svg", title="pair")
    root = parse(svg)
    # edges: TOP + three relations matched; :polarity missing; :ARG4 extra
    assert len(groups(root, "edge", "matched")) == 4
    assert len(groups(root, "edge", "missing")) == 1
    assert len(groups(root, "edge", "extra")) == 1
    assert [texts(e)[0] for e in groups(root, "edge", "missing")] == [":polarity"]
    assert [texts(e)[0] for e in groups(root, "edge", "extra")] == [":ARG4"]
    assert all("#2e7d32" in strokes(e) for e in groups(root, "edge", "matched"))
    assert all("#c62828" in strokes(e) for e in groups(root, "edge", "missing"))
    assert all("#1565c0" in strokes(e) for e in groups(root, "edge", "extra"))
    # nodes: the boy predicted as a girl shows both concepts
    assert [texts(n) for n in groups(root, "node", "changed")] == [["b / girl / boy"]]
    assert sorted(texts(n)[0] for n in groups(root, "node", "matched")) == ["g / go-02", "w / want-01"]
    assert [texts(n) for n in groups(root, "node", "extra")] == [["c / city"]]
    assert [texts(n) for n in groups(root, "node", "missing")] == [["-"]]
    legend = " ".join(texts(root))
    assert "matched: 6" in legend and "missing (gold only): 2" in legend and "extra (prediction only): 3" in legend
    assert "F1 0.706" in legend and "pair" in texts(root)
    assert (tmp_path / "pair.svg").read_text(encoding="utf-8") == svg
    assert svg == alignment_svg(PRED, GOLD, title="pair")


@needs_dot
def test_alignment_follows_the_sentence_constraint():
    doc = alignment_diff(DOC_PRED, DOC_GOLD)
    plain = alignment_diff(DOC_PRED, DOC_GOLD, doc=False)
    assert doc.counts[0] == docsmatch_pair(DOC_PRED, DOC_GOLD).match == 4
    assert plain.counts[0] == smatch_pair(DOC_PRED, DOC_GOLD).match == 6
    assert doc.mapping == {"d": "d", "a": "a", "b": "b"}
    root = parse(alignment_svg(DOC_PRED, DOC_GOLD))
    assert sorted(t for c in groups(root, "cluster") for t in texts(c) if t.startswith("sentence")) == [
        "sentence 1",
        "sentence 2",
    ]
    assert sorted(texts(n)[0] for n in groups(root, "node", "changed")) == ["a / girl / boy", "b / boy / girl"]
    # TOP, :snt1, :snt2 matched; both :quant missing and extra
    assert len(groups(root, "edge", "matched")) == 3
    assert len(groups(root, "edge", "missing")) == 2
    assert len(groups(root, "edge", "extra")) == 2


@needs_dot
def test_aligned_variables_with_other_names():
    root = parse(alignment_svg("(x / want-01 :ARG0 (y / boy))", "(w / want-01 :ARG0 (b / boy))"))
    assert sorted(texts(n)[0] for n in groups(root, "node", "matched")) == ["x → w / want-01", "y → b / boy"]
    assert not groups(root, "missing") and not groups(root, "extra")


# ------------------------------------------------------------------------- missing dependencies


@needs_package
def test_without_dot_the_error_says_how_to_install(monkeypatch, tmp_path):
    dot = document_graph_dot(DOC)  # building the graph needs no dot program
    assert "cluster_1" in dot.source
    monkeypatch.setenv("PATH", str(tmp_path))
    for draw in (lambda: document_graph_svg(DOC), lambda: alignment_svg(PRED, GOLD)):
        with pytest.raises(MissingDependencyError) as info:
            draw()
        message = str(info.value)
        assert "dot program" in message and "pip install graphviz" in message
        assert "apt-get install graphviz" in message and "brew install graphviz" in message
        assert isinstance(info.value, ImportError)


def test_without_the_python_package_the_error_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "graphviz", None)
    for draw in (lambda: document_graph_dot(DOC), lambda: alignment_dot(PRED, GOLD), lambda: alignment_svg(PRED, GOLD)):
        with pytest.raises(MissingDependencyError, match="apt-get install graphviz") as info:
            draw()
        assert INSTALL_HINT in str(info.value)
    # the rest keeps working
    assert alignment_diff(PRED, GOLD).counts == (6, 9, 8)


def test_a_given_mapping_is_drawn_as_it_is():
    from amreval.report.draw import alignment_diff
    from amreval.scores.docsmatch import docsmatch_pair

    pred = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 (c / coref-entity)))"
    gold = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 b))"
    scored = docsmatch_pair(pred, gold, coref=True)
    diff = alignment_diff(pred, gold, mapping=scored.mapping)
    assert (len(diff.matched), diff.counts[1], diff.counts[2]) == (scored.match, scored.test, scored.gold)
    # mapping nothing: every gold triple missing, every predicted one extra
    none = alignment_diff(pred, gold, mapping=[-1] * 5)
    assert (len(none.matched), len(none.missing), len(none.extra)) == (0, scored.gold, scored.test)
    with pytest.raises(InputError, match="for each of the 5 predicted nodes"):
        alignment_diff(pred, gold, mapping=[0, 1])


# ------------------------------------------------------------------------- layout: order, legend, credit


def _sentence_y(root: ET.Element) -> list[float]:
    """The y of each sentence cluster's title, in sentence order (smaller is higher up)."""
    found = {}
    for c in groups(root, "cluster"):
        for t in c.iter(f"{SVG}text"):
            if (t.text or "").startswith("sentence "):
                found[int(t.text.split()[1])] = float(t.get("y"))
    return [found[k] for k in sorted(found)]


@needs_dot
def test_sentences_run_top_to_bottom_in_document_order():
    # sentence k shares its entity with sentence 11 - k: the crossing-minimising layout would pair them up
    sentences = []
    for k in range(1, 11):
        partner = min(k, 11 - k)
        tail = f":ARG1 e{partner}" if k > 5 else f":ARG1 (e{partner} / entity-{partner})"
        sentences.append(f":snt{k} (s{k} / say-01 :ARG0 (p{k} / person-{k}) {tail})")
    doc = "(d / document " + " ".join(sentences) + ")"
    for svg in (document_graph_svg(doc), alignment_svg(doc, doc)):
        ys = _sentence_y(parse(svg))
        assert len(ys) == 10 and ys == sorted(ys) and len(set(ys)) == 10, ys


@needs_dot
def test_alignment_legend_is_on_top_and_graded_credit_is_shown():
    from amreval.scores.s2match import align_s2match
    from amreval.scores.vectors import WordVectors

    gold, pred = "(w / want-01 :ARG0 (c / cat))", "(w / want-01 :ARG0 (k / kitten))"
    from amreval.amr.read import loads_graph

    al = align_s2match(
        loads_graph(pred), loads_graph(gold), WordVectors.from_dict({"cat": [1.0, 0.0], "kitten": [0.8, 0.6]})
    )
    svg = alignment_svg(
        pred,
        gold,
        doc=False,
        mapping=al.mapping,
        credit=al.similarity,
        scores=("S²match", al.score.precision, al.score.recall, al.score.f1),
        title="pair",
    )
    root = parse(svg)
    words = texts(root)
    # 4 triples a side (two instances, :ARG0, TOP); kitten for cat earns its cosine 0.8: 3.8 of 4
    assert "k → c / kitten / cat (0.80)" in words
    assert "S²match: P 0.950  R 0.950  F1 0.950" in " ".join(words).replace("\xa0", " ")
    legend_y = min(float(t.get("y")) for t in root.iter(f"{SVG}text") if (t.text or "").strip().startswith("matched:"))
    node_y = min(float(t.get("y")) for g in groups(root, "node") for t in g.iter(f"{SVG}text"))
    assert legend_y < node_y  # above every node
