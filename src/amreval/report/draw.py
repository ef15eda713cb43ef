"""Pictures of document graphs and of alignment diffs, rendered by Graphviz.

Two pictures, each available as a :class:`graphviz.Digraph` (to adjust or
render in another format) or as SVG text:

* :func:`document_graph_dot` / :func:`document_graph_svg`: one (document)
  graph. Each sentence is a cluster labelled ``sentence k``; a node that
  belongs to several sentences (a merged entity, a ``coref-entity`` node) is
  drawn outside the clusters, with an orange fill. Coreference nodes
  (``coref-entity``, ``implicit-role``) and coreference edges (as defined by
  :mod:`amreval.scores.coref`) are drawn in magenta, the edges dashed. Nodes read
  ``var / concept``, constants are small boxes, and each edge carries its role
  as written (``:ARG0-of`` for an inverted edge, drawn in the written
  direction). The top node has a thick border.
* :func:`alignment_dot` / :func:`alignment_svg`: a prediction and a gold graph
  aligned the way DocSmatch aligns them (the sentence constraint; plain
  Smatch for graphs without ``:snt`` edges, or with ``doc=False``), drawn as
  one graph: matched triples in green, missing ones (gold only) in red and
  dashed, extra ones (prediction only) in blue. A mapped node whose concepts
  differ is orange and reads ``prediction concept / gold concept``. A legend
  gives the triple counts and the scores.

Nodes and edges carry SVG classes for styling or counting: ``matched``,
``missing``, ``extra``, ``changed`` in the alignment picture; ``top``,
``coref``, ``merged``, ``shared`` and ``attribute`` in the graph picture.
The output depends only on the input (and the Graphviz version).

Drawing needs the ``graphviz`` Python package and Graphviz's ``dot``
program; without them the drawing functions raise
:class:`~amreval.errors.MissingDependencyError` with the install commands.
:func:`alignment_diff` needs neither.

The triples behind the alignment picture are computed, without Graphviz, by
:mod:`amreval.report.alignment` (:func:`~amreval.report.alignment.alignment_diff`).
"""

from __future__ import annotations

import html
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from amreval.amr.graph import Attribute, Edge, Graph
from amreval.docamr.document import document_graph, sentence_groups
from amreval.errors import MissingDependencyError
from amreval.match.options import SearchOptions
from amreval.match.triples import Triples, graph_triples, normalize_constant
from amreval.report.alignment import AlignmentDiff, DocumentLike, align_pair, alignment_diff
from amreval.scores.coref import coref_items
from amreval.scores.f1 import prf

if TYPE_CHECKING:  # pragma: no cover
    import graphviz
    from typing_extensions import Unpack

    from amreval.match.options import SearchKeywords

__all__ = [
    "INSTALL_HINT",
    "AlignmentDiff",
    "alignment_diff",
    "alignment_dot",
    "alignment_svg",
    "document_graph_dot",
    "document_graph_svg",
]

#: How to install what drawing needs.
INSTALL_HINT = (
    "pip install graphviz and the Graphviz system package "
    "(apt-get install graphviz / brew install graphviz / conda install -c conda-forge graphviz)"
)

PathLike = str | os.PathLike[str]

# colours
_MATCHED = "#2e7d32"
_MISSING = "#c62828"
_EXTRA = "#1565c0"
_CHANGED = "#ef6c00"
_COREF = "#ad1457"
_SHARED = "#ef6c00"
_FILL = {
    "matched": "#e8f5e9",
    "missing": "#ffebee",
    "extra": "#e3f2fd",
    "changed": "#fff3e0",
}
_COLOUR = {"matched": _MATCHED, "missing": _MISSING, "extra": _EXTRA, "changed": _CHANGED}
_FONT = "Helvetica"


# --------------------------------------------------------------------------- Graphviz access


def _missing_graphviz(reason: str) -> MissingDependencyError:
    error = MissingDependencyError("graphviz", purpose="drawing graphs")
    message = f"{reason}; drawing graphs needs it: {INSTALL_HINT}"
    error.args = (message,)
    error.msg = message
    return error


def _graphviz() -> Any:
    try:
        import graphviz
    except ImportError as exc:
        raise _missing_graphviz("the graphviz Python package is not installed") from exc
    return graphviz


def _render(dot: graphviz.Digraph, path: PathLike | None) -> str:
    gv = _graphviz()
    try:
        svg = dot.pipe(format="svg", encoding="utf-8")
    except gv.ExecutableNotFound as exc:
        raise _missing_graphviz("Graphviz's dot program was not found on PATH") from exc
    if path is not None:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(svg)
    return svg


def _label(*lines: str) -> str:
    """A plain (non-HTML) label of several lines, backslashes and quotes kept literally."""
    gv = _graphviz()
    return gv.nohtml("\\n".join(gv.escape(line) for line in lines))


def _new_digraph(name: str) -> graphviz.Digraph:
    gv = _graphviz()
    dot = gv.Digraph(name=name)
    dot.attr(rankdir="TB", fontname=_FONT, labelloc="t", nodesep="0.3", ranksep="0.45")
    dot.attr(
        "node",
        shape="box",
        style="rounded,filled",
        fillcolor="white",
        fontname=_FONT,
        fontsize="11",
        margin="0.08,0.04",
        height="0.3",
    )
    dot.attr("edge", fontname=_FONT, fontsize="9", color="#555555", fontcolor="#333333", arrowsize="0.7")
    return dot


def _caption(title: str | None, rows: list[str]) -> str:
    """An HTML-like graph label: the title in bold, then legend rows (already HTML)."""
    cells = []
    if title:
        cells.append(f"<tr><td><b>{html.escape(title)}</b></td></tr>")
    cells += [f"<tr><td>{row}</td></tr>" for row in rows]
    return f'<<table border="0" cellborder="0" cellspacing="1">{"".join(cells)}</table>>'


def _key(colour: str, text: str, mark: str = "&#9632;") -> str:
    return f'<font color="{colour}">{mark}</font> {html.escape(text)}'


def _edge_ends(edge: Edge) -> tuple[str, str]:
    """The written direction of an edge: (parent, child) as in the PENMAN text."""
    return (edge.target, edge.source) if edge.inverted else (edge.source, edge.target)


def _sentence_of(groups: np.ndarray | None) -> tuple[list[int], list[bool]]:
    """Per row: the single sentence (>= 1) it belongs to or 0, and whether it is in several."""
    if groups is None:
        return [], []
    sentences = groups[:, 1:]
    counts = sentences.sum(axis=1)
    single = [int(np.argmax(row)) + 1 if c == 1 else 0 for row, c in zip(sentences, counts)]
    return single, [bool(c >= 2) for c in counts]


class _Layout:
    """Nodes and edges collected first, then emitted in a fixed order (clusters by number)."""

    def __init__(self) -> None:
        self.nodes: list[tuple[int, str, str, dict[str, str]]] = []
        self.edges: list[tuple[str, str, str, dict[str, str]]] = []

    def node(self, cluster: int, name: str, label: str, **attrs: str) -> None:
        self.nodes.append((cluster, name, label, attrs))

    def edge(self, tail: str, head: str, label: str, **attrs: str) -> None:
        self.edges.append((tail, head, label, attrs))

    def emit(self, dot: graphviz.Digraph) -> None:
        for cluster, name, label, attrs in self.nodes:
            if cluster == 0:
                dot.node(name, label, **attrs)
        clusters = sorted({c for c, _, _, _ in self.nodes if c > 0})
        for k in clusters:
            with dot.subgraph(name=f"cluster_{k}") as sub:
                sub.attr(
                    label=f"sentence {k}",
                    style="rounded,filled",
                    fillcolor="#f7f7f7",
                    color="#bdbdbd",
                    fontname=_FONT,
                    fontsize="10",
                    fontcolor="#616161",
                    labeljust="l",
                )
                if k != clusters[0]:
                    sub.node(f"sentence_head_{k}", "", shape="point", style="invis", width="0", height="0")
                for cluster, name, label, attrs in self.nodes:
                    if cluster == k:
                        sub.node(name, label, **attrs)
        cluster_of = {name: c for c, name, _, _ in self.nodes}
        for tail, head, label, attrs in self.edges:
            if cluster_of.get(head, 0) > 0 and cluster_of.get(tail, 0) != cluster_of[head]:
                attrs = {**attrs, "constraint": "false"}  # an edge into a sentence from outside does not rank it
            dot.edge(tail, head, label, **attrs)
        # sentences top to bottom in document order: a hidden node heads each sentence's cluster, above all its
        # nodes and below all nodes of the sentence before (invisible edges: they rank, they do not show)
        for previous, k in zip(clusters, clusters[1:]):
            for c, name, _, _ in self.nodes:
                if c == previous:
                    dot.edge(name, f"sentence_head_{k}", style="invis")
                elif c == k:
                    dot.edge(f"sentence_head_{k}", name, style="invis")


def _classes(*names: str) -> dict[str, str]:
    present = [n for n in names if n]
    return {"class": " ".join(present)} if present else {}


# --------------------------------------------------------------------------- one graph


def document_graph_dot(graph: DocumentLike, *, title: str | None = None) -> graphviz.Digraph:
    """Draw one (document) graph: sentences as clusters, coreference highlighted.

    Args:
        graph: a :class:`~amreval.amr.graph.Graph`, a PENMAN (DocAMR) string, or a
            list of sentence graphs (joined as by
            :func:`amreval.docamr.document.join_sentences`).
        title: a caption (default: the graph's ``::id`` when it has one).

    Returns:
        The :class:`graphviz.Digraph`; node ``n<k>`` is the k-th variable
        (the top first), ``c<k>`` the k-th constant.

    Raises:
        MissingDependencyError: the ``graphviz`` Python package is missing.
        InputError, DecodeError: the graph cannot be read.
    """
    g = document_graph(graph, "graph", None)
    dot = _new_digraph(g.id or "amr")
    t = graph_triples(g)
    index = {v: k for k, v in enumerate(t.variables)}
    groups = sentence_groups(g, t.variables) if t.variables else None
    single, several = _sentence_of(groups)
    items = coref_items(g, t, groups)
    coref_relations = {t.relations[r] for r in np.nonzero(items.edges)[0]}
    layout = _Layout()
    cluster: dict[str, int] = {}
    for k, var in enumerate(t.variables):
        is_coref, is_merged = bool(items.nodes[k]), bool(items.merged[k])
        is_shared = bool(several[k]) if several else False
        attrs: dict[str, str] = {}
        if is_shared or is_merged:
            attrs.update(fillcolor="#ffe0b2", color=_SHARED, penwidth="1.6")
        if is_coref:
            attrs.update(color=_COREF, fontcolor=_COREF, penwidth="1.8")
            attrs.setdefault("fillcolor", "#fce4ec")
        if var == g.top:
            attrs["penwidth"] = "2.6"
        attrs.update(
            _classes(
                "top" if var == g.top else "",
                "coref" if is_coref else "",
                "merged" if is_merged else "",
                "shared" if is_shared else "",
            )
        )
        cluster[var] = single[k] if single else 0
        layout.node(cluster[var], f"n{k}", _label(f"{var} / {g.instances[var]}"), **attrs)
    for e in g.edges:
        tail, head = _edge_ends(e)
        attrs = {}
        if (e.role.lower(), index[e.source], index[e.target]) in coref_relations:
            attrs.update(color=_COREF, fontcolor=_COREF, style="dashed", penwidth="1.6", **_classes("coref"))
        layout.edge(f"n{index[tail]}", f"n{index[head]}", _label(":" + e.written), **attrs)
    for k, a in enumerate(g.attributes):
        layout.node(
            cluster.get(a.source, 0),
            f"c{k}",
            _label(a.value),
            shape="box",
            style="filled",
            fillcolor="#eeeeee",
            color="#9e9e9e",
            fontsize="9",
            height="0.2",
            **_classes("attribute"),
        )
        layout.edge(f"n{index[a.source]}", f"c{k}", _label(":" + a.role), **_classes("attribute"))
    layout.emit(dot)
    rows = []
    if items.nodes.any() or items.edges.any():
        rows.append(_key(_COREF, "coreference nodes and edges"))
    if any(several) or items.merged.any():
        rows.append(_key(_SHARED, "in several sentences / merged"))
    caption = title if title is not None else g.id
    if caption or rows:
        dot.attr(label=_caption(caption, rows))
    return dot


def document_graph_svg(graph: DocumentLike, path: PathLike | None = None, **kw: Any) -> str:
    """Render :func:`document_graph_dot` as SVG.

    Args:
        graph: as for :func:`document_graph_dot`.
        path: when given, the SVG is also written there (UTF-8).
        **kw: passed to :func:`document_graph_dot` (``title``).

    Returns:
        The SVG text.

    Raises:
        MissingDependencyError: the ``graphviz`` package or the ``dot``
            program is missing; the message says how to install them.
    """
    return _render(document_graph_dot(graph, **kw), path)


# --------------------------------------------------------------------------- alignment


def _written_relations(g: Graph, t: Triples) -> dict[tuple[str, int, int], Edge]:
    index = {v: k for k, v in enumerate(t.variables)}
    out: dict[tuple[str, int, int], Edge] = {}
    for e in g.edges:
        out.setdefault((e.role.lower(), index[e.source], index[e.target]), e)
    return out


def _written_attributes(g: Graph, t: Triples) -> dict[tuple[str, int, str], Attribute]:
    index = {v: k for k, v in enumerate(t.variables)}
    out: dict[tuple[str, int, str], Attribute] = {}
    for a in g.attributes:
        out.setdefault((a.role.lower(), index[a.source], normalize_constant(a.value)), a)
    return out


def alignment_dot(
    prediction: DocumentLike,
    gold: DocumentLike,
    *,
    doc: bool = True,
    title: str | None = None,
    mapping: Sequence[int] | np.ndarray | None = None,
    credit: np.ndarray | None = None,
    scores: tuple[str, float, float, float] | None = None,
    **search: Unpack[SearchKeywords],
) -> graphviz.Digraph:
    """Draw the alignment of a prediction with a gold graph as one graph.

    Gold nodes and the predicted nodes aligned with them share a node
    (``g<k>``, the k-th gold variable); unaligned predicted nodes are
    ``p<k>``. A node reads ``var / concept``; for an aligned pair whose
    variables differ, ``pred var → gold var``; when the concepts differ too,
    ``pred concept / gold concept``. Every triple of both graphs is drawn once:
    matched in green (class ``matched``), missing in red and dashed
    (``missing``), extra in blue (``extra``); the top triples are edges from a
    ``TOP`` marker. Sentence clusters follow the gold graph (the prediction's
    for extra nodes).

    Args:
        prediction, gold: graphs, PENMAN (DocAMR) strings or lists of sentence graphs.
        doc, mapping: as for :func:`alignment_diff`.
        title: a caption above the legend (default: the gold graph's ``::id``).
        credit: for a graded alignment (S²match, with its ``mapping``), the credit of each
            (predicted, gold) concept pair; an aligned node whose concepts differ then shows it,
            e.g. ``kitten / cat (0.78)``.
        scores: ``(name, precision, recall, f1)`` shown in the legend in place of the
            triple counts' scores (e.g. S²match's graded scores).
        **search: ``solver``, ``restarts``, ``seed``, ``time_limit``, ``work_limit``: as for :func:`alignment_diff`.

    Returns:
        The :class:`graphviz.Digraph`.

    Raises:
        MissingDependencyError: the ``graphviz`` Python package is missing.
    """
    _graphviz()
    al = align_pair(prediction, gold, doc=doc, search=SearchOptions.from_keywords(**search), mapping=mapping)
    a, b, mapping = al.a, al.b, al.mapping
    dot = _new_digraph(al.gold.id or "alignment")
    single_a, _ = _sentence_of(al.groups_a)
    single_b, _ = _sentence_of(al.groups_b)
    layout = _Layout()
    counts = {"matched": 0, "missing": 0, "extra": 0}
    for item in al.items:
        counts[item.status] += 1

    def pred_node(i: int) -> str:
        return f"g{mapping[i]}" if mapping[i] >= 0 else f"p{i}"

    cluster: dict[str, int] = {}
    inverse = {int(j): i for i, j in enumerate(mapping.tolist()) if j >= 0}
    for j, gvar in enumerate(b.variables):
        i = inverse.get(j)
        gconcept = al.gold.instances[gvar]
        if i is None:
            status, var_text, concept_text = "missing", gvar, gconcept
        else:
            pvar = a.variables[i]
            pconcept = al.pred.instances[pvar]
            status = "matched" if a.concepts[i] == b.concepts[j] else "changed"
            var_text = pvar if pvar == gvar else f"{pvar} → {gvar}"
            concept_text = gconcept if status == "matched" else f"{pconcept} / {gconcept}"
            if status == "changed" and credit is not None:
                concept_text += f" ({float(credit[i, j]):.2f})"
        cluster[f"g{j}"] = single_b[j] if single_b else 0
        layout.node(cluster[f"g{j}"], f"g{j}", _label(f"{var_text} / {concept_text}"), **_node_style(status))
    for i, pvar in enumerate(a.variables):
        if mapping[i] < 0:
            cluster[f"p{i}"] = single_a[i] if single_a else 0
            layout.node(
                cluster[f"p{i}"], f"p{i}", _label(f"{pvar} / {al.pred.instances[pvar]}"), **_node_style("extra")
            )
    rel_a, rel_b = _written_relations(al.pred, a), _written_relations(al.gold, b)
    attr_a, attr_b = _written_attributes(al.pred, a), _written_attributes(al.gold, b)
    has_top = False
    for item in al.items:
        if item.kind == "instance":
            continue
        gold_side = item.status != "extra"
        t = b if gold_side else a
        k = item.gold if gold_side else item.pred
        assert k is not None
        node_of = (lambda x: f"g{x}") if gold_side else pred_node
        style = _edge_style(item.status)
        if item.kind == "relation":
            key = t.relations[k]
            edge = (rel_b if gold_side else rel_a)[key]
            tail, head = (key[2], key[1]) if edge.inverted else (key[1], key[2])
            layout.edge(node_of(tail), node_of(head), _label(":" + edge.written), **style)
            continue
        role, owner, value = t.attributes[k]
        if role == "TOP":
            has_top = True
            layout.edge("TOP", node_of(owner), "", **style)
            continue
        written = (attr_b if gold_side else attr_a)[(role, owner, value)]
        name = f"{'g' if gold_side else 'p'}c{k}"
        layout.node(
            cluster.get(node_of(owner), 0),
            name,
            _label(written.value),
            shape="box",
            style="filled,dashed" if item.status == "missing" else "filled",
            fillcolor=_FILL[item.status],
            color=_COLOUR[item.status],
            fontsize="9",
            height="0.2",
            **_classes("attribute", item.status),
        )
        layout.edge(node_of(owner), name, _label(":" + written.role), **style)
    if has_top:
        layout.nodes.insert(
            0,
            (
                0,
                "TOP",
                "TOP",
                {"shape": "plaintext", "style": "", "fontsize": "9", "fontcolor": "#616161", "height": "0.2"},
            ),
        )
    layout.emit(dot)
    match, test, gold_count = (
        counts["matched"],
        counts["matched"] + counts["extra"],
        counts["matched"] + counts["missing"],
    )
    name, p, r, f = scores if scores is not None else ("triples", *prf(match, test, gold_count))
    score_row = html.escape(f"{name}: P {p:.3f}  R {r:.3f}  F1 {f:.3f}")
    if any(n[3].get("class") == "changed" for n in layout.nodes):
        changed = "aligned, other concept: prediction / gold" + (" (credit)" if credit is not None else "")
        score_row = _key(_CHANGED, changed) + "   " + score_row
    rows = [
        _key(_MATCHED, f"matched: {counts['matched']}")
        + "   "
        + _key(_MISSING, f"missing (gold only): {counts['missing']}")
        + "   "
        + _key(_EXTRA, f"extra (prediction only): {counts['extra']}"),
        score_row,
    ]
    caption = title if title is not None else al.gold.id
    dot.attr(label=_caption(caption, rows), labelloc="t")
    return dot


def _node_style(status: str) -> dict[str, str]:
    style = "rounded,filled,dashed" if status == "missing" else "rounded,filled"
    return {"color": _COLOUR[status], "fillcolor": _FILL[status], "penwidth": "1.5", "style": style, **_classes(status)}


def _edge_style(status: str) -> dict[str, str]:
    attrs = {"color": _COLOUR[status], "fontcolor": _COLOUR[status], "penwidth": "1.4", **_classes(status)}
    if status == "missing":
        attrs["style"] = "dashed"
    return attrs


def alignment_svg(prediction: DocumentLike, gold: DocumentLike, path: PathLike | None = None, **kw: Any) -> str:
    """Render :func:`alignment_dot` as SVG.

    Args:
        prediction, gold: as for :func:`alignment_dot`.
        path: when given, the SVG is also written there (UTF-8).
        **kw: passed to :func:`alignment_dot`.

    Returns:
        The SVG text.

    Raises:
        MissingDependencyError: the ``graphviz`` package or the ``dot``
            program is missing; the message says how to install them.
    """
    return _render(alignment_dot(prediction, gold, **kw), path)
