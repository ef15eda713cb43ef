"""DocAMR: sentence AMRs plus coreference become one document graph.

The conversion follows Naseem et al. (2022) as specified in ``docamr.md``:

1. join the sentences under ``(d / document :snt1 ... :sntN)``, numbered by
   the document model's one rule (:func:`~amreval.docamr.document.numbered_sentences`:
   sentence k is ``:sntk`` with variables ``s<k>.<var>``; an empty or missing
   sentence keeps its number); the document node is added for one sentence too;
2. add the coreference layer: a ``(rel-N / coref-entity)`` node per identity
   chain with ``:coref`` edges to its mentions, implicit roles as explicit
   ``:ARGk`` edges, singleton implicit roles as ``implicit-role`` nodes, and
   bridging (``whole :part part``, ``superset :subset member``; every member
   kept, or, with ``bridging="reference"``, only the last of each bridge, as
   the reference converter docAMR 0.1.1 writes it);
3. normalise by representation: ``no-merge``, ``merge-names``, ``docamr``
   (the default: merge names, drop pronouns) or ``merge-all``; one-member
   chains are dropped in all four;
4. return a :class:`~amreval.amr.graph.Graph` that serialises to PENMAN.

Example:
    >>> from amreval.docamr.msamr import loads_msamr_xml
    >>> from amreval.amr.read import loads_graphs
    >>> doc = loads_msamr_xml('''<document><sentences docid="D"><amr id="D.1"/><amr id="D.2"/></sentences>
    ... <relations><identity><identchain relationid="rel-0">
    ... <mention id="D.1" variable="b"/><mention id="D.2" variable="h"/></identchain></identity>
    ... </relations></document>''')
    >>> amrs = {g.id: g for g in loads_graphs("# ::id D.1\\n(b / boy)\\n\\n# ::id D.2\\n(s / sleep-01 :ARG0 (h / he))")}
    >>> print(convert_document(doc, amrs).to_string(indent=None))
    # ::id D
    # ::sentence_ids D.1 D.2
    (d / document :snt1 (s1.b / boy) :snt2 (s2.s / sleep-01 :ARG0 s1.b))
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping

from amreval._warn import warn_caller
from amreval.amr.graph import Graph, canonical_role
from amreval.docamr.docgraph import ChainState, DocGraph, check_representation
from amreval.docamr.document import DOCUMENT_TOP, numbered_sentences
from amreval.docamr.msamr import Chain, MsAmrDocument
from amreval.errors import InputError

__all__ = [
    "convert_document",
    "build_document",
    "normalize_graph",
    "chains_from_pairs",
    "convert_documents",
    "BRIDGING",
    "check_bridging",
]

logger = logging.getLogger(__name__)

# a relation id that can be a chain node's variable as it is; others get a name of our own
_PLAIN_NODE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
# a role as PENMAN writes it
_ROLE = re.compile(r'^[^\s"()/:~]+$')


def _warn(message: str) -> None:
    warn_caller(message)


class _Resolver:
    """Maps (sentence id, variable) to document variables, strictly or leniently."""

    def __init__(
        self, doc: MsAmrDocument, renames: dict[str, dict[str, str]], graphs: dict[str, Graph], strict: bool
    ) -> None:
        self.doc, self.renames, self.graphs, self.strict = doc, renames, graphs, strict
        self.chain_ids: set[str] = set()
        # the relation ids that may become variables: names of our own avoid them
        self.reserved = {c.relation_id for c in doc.chains if _PLAIN_NODE.match(c.relation_id)}

    def problem(self, relation_id: str, what: str) -> None:
        msg = f"{self.doc.source}: document {self.doc.doc_id}, {relation_id}: {what}"
        if self.strict:
            raise InputError(msg)
        _warn(msg + "; skipped")

    def role(self, relation_id: str, argument: str) -> str | None:
        """The role of an implicit-role argument (``ARG4``; ``ARG 4`` and ``:ARG4`` are read as ``ARG4``)."""
        role = re.sub(r"\s+", "", argument).lstrip(":")
        if not _ROLE.match(role):
            self.problem(relation_id, f"implicit role argument {argument!r} is not a role name")
            return None
        if role != argument:
            _warn(f"{self.doc.source}: document {self.doc.doc_id}, {relation_id}: argument {argument!r} read as {role}")
        return role

    def chain_node(self, dg: DocGraph, relation_id: str) -> str:
        """The variable of a chain's node: the relation id when it is a plain name that no node and no
        other relation id has, else ``rel-<n>`` (a second chain with the same id gets its own node)."""
        if relation_id in self.chain_ids:
            msg = f"{self.doc.source}: document {self.doc.doc_id}, {relation_id}: a second chain with this relationid"
            if self.strict:
                raise InputError(msg)
            _warn(msg + "; kept apart, with a node of its own (bridging refers to the first)")
        self.chain_ids.add(relation_id)
        if _PLAIN_NODE.match(relation_id) and relation_id not in dg.concepts:
            return relation_id
        n = 0
        while f"rel-{n}" in dg.concepts or f"rel-{n}" in self.reserved:
            n += 1
        return f"rel-{n}"

    def node(self, relation_id: str, sentence_id: str, variable: str, concept: str = "") -> str | None:
        if sentence_id not in self.renames:
            self.problem(relation_id, f"sentence {sentence_id} is not in the document's sentence AMRs")
            return None
        rename = self.renames[sentence_id]
        if variable not in rename:
            self.problem(relation_id, f"variable {variable!r} is not in sentence {sentence_id}")
            return None
        actual = self.graphs[sentence_id].instances.get(variable, "")
        if concept and actual and concept != actual:
            _warn(
                f"{self.doc.source}: document {self.doc.doc_id}, {relation_id}: {sentence_id} {variable} "
                f"is {actual!r} in the graph, {concept!r} in the XML; the graph is used"
            )
        return rename[variable]


def convert_document(
    doc: MsAmrDocument,
    amrs: Mapping[str, Graph],
    rep: str = "docamr",
    *,
    strict: bool = False,
    bridging: str = "all",
) -> Graph:
    """Convert one MS-AMR document to a DocAMR graph.

    Args:
        doc: the coreference document.
        amrs: sentence graphs keyed by ``::id``.
        rep: ``docamr`` (default), ``no-merge``, ``merge-names`` or ``merge-all``.
        strict: raise on a reference to a missing sentence or variable
            (default: warn and skip that sentence or mention).
        bridging: ``"all"`` (default): every member (part) of a bridging relation gets its ``:subset``
            (``:part``) edge, as the DocAMR paper describes; ``"reference"``: only the last one listed, as
            the reference converter (docAMR 0.1.1) writes it, which is the only place its output differs
            (:data:`BRIDGING`): gold converted so scores a prediction exactly as against the reference's
            own gold files.

    Returns:
        The document :class:`~amreval.amr.graph.Graph` (top ``d``), with the
        document id, sentence ids and sentence texts in its metadata.

    Raises:
        InputError: unknown representation; in strict mode, a missing sentence
            or variable (the message names the document, relation and item).
    """
    rep = check_representation(rep)
    dg = build_document(doc, amrs, strict=strict, bridging=bridging)
    dg.normalize(rep)
    return dg.to_graph()


#: The readings of a bridging relation with several members: every member, or the reference's last one.
BRIDGING = ("all", "reference")


def check_bridging(bridging: str) -> str:
    """``bridging`` when it is one of :data:`BRIDGING`.

    Raises:
        InputError: another value.
    """
    if bridging not in BRIDGING:
        raise InputError(f"unknown bridging {bridging!r}; expected one of {', '.join(BRIDGING)}")
    return bridging


def build_document(
    doc: MsAmrDocument, amrs: Mapping[str, Graph], *, strict: bool = False, bridging: str = "all"
) -> DocGraph:
    """Steps 1 and 2: the joined sentences with the coreference layer, not yet normalised (``bridging``: as
    for :func:`convert_document`)."""
    check_bridging(bridging)
    dg = DocGraph(label=f"{doc.source}: document {doc.doc_id}")
    dg.concepts[DOCUMENT_TOP[0]] = DOCUMENT_TOP[1]
    renames: dict[str, dict[str, str]] = {}
    graphs: dict[str, Graph] = {}
    found: list[Graph | None] = []
    for sid in doc.sentence_ids:
        g = amrs.get(sid)
        if g is None:
            msg = f"{doc.source}: document {doc.doc_id}: sentence {sid} not found among the sentence AMRs"
            if strict:
                raise InputError(msg)
            _warn(msg + "; left empty (the sentences after it keep their numbers)")
        found.append(g)
    texts: list[str] = []
    for k, g, rename in numbered_sentences(found):
        sid = doc.sentence_ids[k - 1]
        renames[sid], graphs[sid] = rename, g
        dg.edges.append((DOCUMENT_TOP[0], f"snt{k}", rename[g.top]))  # type: ignore[index]
        dg.add_graph(g, rename)
        texts.append(g.metadata.get("snt") or g.metadata.get("tok") or "")
    dg.metadata = {"id": doc.doc_id}
    if doc.source and doc.source != "<string>":
        dg.metadata["doc_file"] = doc.source
    if any(texts):
        dg.metadata["tok"] = " <next_sent> ".join(texts)
    dg.metadata["sentence_ids"] = " ".join(doc.sentence_ids)
    resolver = _Resolver(doc, renames, graphs, strict)
    endpoints: dict[str, str] = {}
    for chain in doc.chains:
        _add_chain(dg, chain, resolver, endpoints)
    for chain in doc.singletons:
        _add_singleton(dg, chain, resolver, endpoints)
    for bridge in doc.bridges:
        role = "subset" if bridge.kind == "set-member" else "part"
        head = endpoints.get(bridge.head)
        if head is None:
            resolver.problem(bridge.relation_id, f"bridging refers to {bridge.head}, which is no chain or singleton")
            continue
        # the reference converter keeps the last member only (each one overwrites the one before)
        for member in bridge.members[-1:] if bridging == "reference" else bridge.members:
            node = endpoints.get(member)
            if node is None:
                resolver.problem(bridge.relation_id, f"bridging refers to {member}, which is no chain or singleton")
                continue
            edge = (head, role, node)
            if head != node and edge not in dg.edges:
                dg.edges.append(edge)
    return dg


def _add_chain(dg: DocGraph, chain: Chain, resolver: _Resolver, endpoints: dict[str, str]) -> None:
    members = []
    for m in chain.mentions:
        node = resolver.node(chain.relation_id, m.sentence_id, m.variable, m.concept)
        if node is not None and node not in members:
            members.append(node)
    roles = []
    for ir in chain.implicit_roles:
        node = resolver.node(chain.relation_id, ir.sentence_id, ir.parent_variable, ir.parent_concept)
        role = resolver.role(chain.relation_id, ir.argument)
        if node is not None and role is not None:
            roles.append((node, role))
    if not members and not roles:
        return
    var = resolver.chain_node(dg, chain.relation_id)
    dg.concepts[var] = "coref-entity"
    for member in members:
        dg.edges.append((var, "coref", member))
    for pred, arg in roles:
        dg.edges.append((pred, arg, var))
    dg.chains.append(ChainState(var, members))
    endpoints.setdefault(chain.relation_id, var)


def _add_singleton(dg: DocGraph, chain: Chain, resolver: _Resolver, endpoints: dict[str, str]) -> None:
    for m in chain.mentions:
        node = resolver.node(chain.relation_id, m.sentence_id, m.variable, m.concept)
        if node is not None:
            endpoints.setdefault(chain.relation_id, node)
    for ir in chain.implicit_roles:
        pred = resolver.node(chain.relation_id, ir.sentence_id, ir.parent_variable, ir.parent_concept)
        role = resolver.role(chain.relation_id, ir.argument)
        if pred is None or role is None:
            continue
        var = base = f"{pred}i"
        n = 1
        while var in dg.concepts:
            n += 1
            var = f"{base}{n}"
        dg.concepts[var] = "implicit-role"
        dg.edges.append((pred, role, var))
        endpoints.setdefault(chain.relation_id, var)


def normalize_graph(graph: Graph, rep: str = "docamr") -> Graph:
    """Normalise a document graph in ``no-merge`` form to any representation.

    Chains are the ``coref-entity`` nodes; their members are the targets of
    their ``:coref`` edges (``:coref-of`` written the other way), ordered as the
    nodes appear in the graph.
    """
    rep = check_representation(rep)
    dg = DocGraph.from_graph(graph)
    order = {v: k for k, v in enumerate(dg.concepts)}
    for node, concept in list(dg.concepts.items()):
        if concept == "coref-entity":
            members = sorted(dg.children(node, "coref"), key=order.__getitem__)
            dg.chains.append(ChainState(node, members))
    dg.normalize(rep)
    return dg.to_graph()


def chains_from_pairs(graph: Graph, relation: str = "same-as", rep: str = "docamr") -> Graph:
    """Build chains from pairwise coreference edges (transitive closure), then normalise.

    Every connected group of nodes linked by ``:<relation>`` edges becomes a
    ``coref-entity`` chain; the pairwise edges are removed.
    """
    rep = check_representation(rep)
    dg = DocGraph.from_graph(graph)
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.get(x, x) != x:
            parent[x] = parent.get(parent[x], parent[x])
            x = parent[x]
        return x

    kept = []
    for s, r, t in dg.edges:
        if r == relation or canonical_role(r) == (relation, True):  # also :<relation>-of as written
            a, b = root(s), root(t)
            if a != b:
                parent[b] = a
        else:
            kept.append((s, r, t))
    dg.edges = kept
    groups: dict[str, list[str]] = {}
    for v in dg.concepts:
        if v in parent or any(p == v for p in parent.values()):
            groups.setdefault(root(v), []).append(v)
    n = 0
    for members in groups.values():
        if len(members) < 2:
            continue
        while f"rel-{n}" in dg.concepts:
            n += 1
        rid = f"rel-{n}"
        n += 1
        dg.concepts[rid] = "coref-entity"
        dg.edges.extend((rid, "coref", m) for m in members)
        dg.chains.append(ChainState(rid, members))
    dg.normalize(rep)
    return dg.to_graph()


def convert_documents(
    docs: Iterable[MsAmrDocument],
    amrs: Mapping[str, Graph],
    rep: str = "docamr",
    *,
    strict: bool = False,
    bridging: str = "all",
) -> list[Graph]:
    """Convert several documents (see :func:`convert_document`)."""
    rep = check_representation(rep)
    check_bridging(bridging)
    return [convert_document(d, amrs, rep, strict=strict, bridging=bridging) for d in docs]
