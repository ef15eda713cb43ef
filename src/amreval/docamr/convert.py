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
   kept);
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
import warnings
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from amreval.amr.graph import Attribute, Edge, Graph
from amreval.docamr.document import DOCUMENT_TOP, numbered_sentences
from amreval.docamr.msamr import Chain, MsAmrDocument
from amreval.errors import AmrevalError, AmrevalWarning, InputError

__all__ = [
    "REPRESENTATIONS",
    "PRONOUNS",
    "NAMED_ENTITY_TYPES",
    "DocGraph",
    "convert_document",
    "normalize_graph",
    "chains_from_pairs",
    "check_representation",
]

logger = logging.getLogger(__name__)

REPRESENTATIONS = ("docamr", "no-merge", "merge-names", "merge-all")

#: Pronoun concepts, in the order used to pick the head of an all-pronoun chain.
PRONOUNS = (
    "i we you he she that this these those it they all another anybody anyone anything any both each "
    "either everybody everyone everything neither nobody none nothing one few most many other several "
    "some somebody someone something such whatever whichever whoever whomever"
).split()
_PRONOUN_SET = frozenset(PRONOUNS)

#: AMR named-entity types from specific to general (subtypes before their
#: supertypes), ending with the spec's ``nationality, language, animal,
#: family, person, thing``. Used to pick the head of a chain whose named
#: members have different types.
NAMED_ENTITY_TYPES = tuple(
    """
    city-district city county state province territory local-region country-region world-region
    country continent ocean sea lake river gulf bay strait canal peninsula mountain volcano valley
    canyon island desert forest moon planet star constellation
    airport station port tunnel bridge road railway-line canal building theater museum palace hotel
    worship-place market sports-facility park zoo amusement-park
    incident natural-disaster earthquake war conference game festival
    aircraft-type aircraft ship spaceship car-make vehicle work-of-art picture music show
    broadcast-program book newspaper magazine journal publication
    company government-organization military criminal-organization political-party market-sector
    school university research-institute team league organization
    award law court-decision treaty music-key musical-note food-dish writing-script variable program
    natural-object product event facility location
    ethnic-group regional-group religious-group political-movement
    nationality language animal family person thing
    """.split()
)
_NE_RANK = {t: k for k, t in enumerate(dict.fromkeys(NAMED_ENTITY_TYPES))}

_NO_RECURSIVE_MERGE = frozenset({"name", "coref", "additional-type", "wiki"})

# a relation id that can be a chain node's variable as it is; others get a name of our own
_PLAIN_NODE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
# a role as PENMAN writes it
_ROLE = re.compile(r'^[^\s"()/:~]+$')


def check_representation(rep: str) -> str:
    """Normalise a representation name (``docAMR`` is accepted for ``docamr``).

    Raises:
        InputError: the name is not one of the four.
    """
    key = rep.strip().lower() if isinstance(rep, str) else rep
    if key not in REPRESENTATIONS:
        raise InputError(f"unknown representation {rep!r}; expected one of {', '.join(REPRESENTATIONS)}")
    return key


def _unquote(value: str) -> str:
    return value[1:-1] if len(value) >= 2 and value[0] == '"' and value[-1] == '"' else value


@dataclass
class _ChainState:
    node: str
    members: list[str]
    alive: bool = True


@dataclass
class DocGraph:
    """A mutable document graph used during conversion.

    Edges are ``(source, role, target)`` with inverted roles turned round
    (``:ARG0-of`` stored as ``ARG0``) and ``:mod`` kept as written.
    """

    top: str = "d"
    concepts: dict[str, str] = field(default_factory=dict)
    edges: list[tuple[str, str, str]] = field(default_factory=list)
    attrs: list[tuple[str, str, str]] = field(default_factory=list)
    metadata: dict[str, str] = field(default_factory=dict)
    chains: list[_ChainState] = field(default_factory=list)
    alias: dict[str, str] = field(default_factory=dict)
    label: str = "<document>"
    _pro_count: int = 0

    # -- building ---------------------------------------------------------
    def add_graph(self, graph: Graph, rename: Mapping[str, str]) -> None:
        """Add a sentence graph with its variables renamed."""
        for var, concept in graph.instances.items():
            self.concepts[rename[var]] = concept
        for e in graph.edges:
            if e.written == "mod":
                self.edges.append((rename[e.target], "mod", rename[e.source]))
            else:
                self.edges.append((rename[e.source], e.role, rename[e.target]))
        for a in graph.attributes:
            self.attrs.append((rename[a.source], a.role, a.value))

    @classmethod
    def from_graph(cls, graph: Graph, label: str | None = None) -> DocGraph:
        """A document graph already in PENMAN (e.g. a parser's ``no-merge`` output)."""
        doc = cls(top=graph.top or "d", metadata=dict(graph.metadata), label=label or graph.origin)
        doc.add_graph(graph, {v: v for v in graph.instances})
        return doc

    def find(self, node: str) -> str:
        """The node that ``node`` was merged into (itself if none)."""
        while node in self.alias:
            node = self.alias[node]
        return node

    # -- queries ----------------------------------------------------------
    def children(self, node: str, role: str) -> list[str]:
        return [t for s, r, t in self.edges if s == node and r == role]

    def name_string(self, name_node: str) -> str:
        ops = sorted(
            (
                (int(r[2:]) if r[2:].isdigit() else 0, _unquote(v))
                for s, r, v in self.attrs
                if s == name_node and r.startswith("op")
            ),
        )
        return " ".join(v for _, v in ops)

    def concepts_of(self, node: str) -> set[str]:
        out = {self.concepts.get(node, "")}
        out.update(self.concepts.get(c, "") for c in self.children(node, "additional-type"))
        return out

    def chain_members(self, chain: _ChainState) -> list[str]:
        seen: dict[str, None] = {}
        for m in chain.members:
            r = self.find(m)
            if r != chain.node and r in self.concepts:
                seen[r] = None
        return list(seen)

    # -- editing ----------------------------------------------------------
    def _delete_node(self, node: str) -> None:
        self.concepts.pop(node, None)
        self.attrs = [a for a in self.attrs if a[0] != node]
        self.edges = [e for e in self.edges if e[0] != node and e[2] != node]

    def rename(self, old: str, new: str, concept: str | None = None) -> None:
        """Rename a node (keeping its place) and optionally change its concept."""
        self.concepts = {
            (new if k == old else k): (concept if k == old and concept else v) for k, v in self.concepts.items()
        }
        self.edges = [(new if s == old else s, r, new if t == old else t) for s, r, t in self.edges]
        self.attrs = [(new if s == old else s, r, v) for s, r, v in self.attrs]
        for ch in self.chains:
            if ch.node == old:
                ch.node = new
        self.alias[old] = new

    def merge(self, keep: str, absorb: str, additional: bool = False) -> None:
        """Merge node ``absorb`` into node ``keep`` (spec: "Merging two nodes")."""
        n1, n2 = self.find(keep), self.find(absorb)
        if n1 == n2 or n2 not in self.concepts or n1 not in self.concepts:
            return
        self.alias[n2] = n1
        seen = set(self.edges)
        n1_names = {self.name_string(c) for c in self.children(n1, "name")}
        n1_children = {(r, self.concepts.get(t)): t for s, r, t in self.edges if s == n1}
        new_edges: list[tuple[str, str, str]] = []
        recursive: list[tuple[str, str]] = []
        dropped_names: list[str] = []
        for e in self.edges:
            s, r, t = e
            if s != n2 and t != n2:
                new_edges.append(e)
                continue
            if s == n2 and t == n2:
                continue
            if t == n2:  # incoming
                moved = (s, r, n1)
                if s == n1 or moved in seen:
                    continue
            else:  # outgoing
                if t == n1:
                    continue
                if r == "name":
                    text = self.name_string(t)
                    if text in n1_names:
                        dropped_names.append(t)
                        continue
                    n1_names.add(text)
                elif r not in _NO_RECURSIVE_MERGE:
                    twin = n1_children.get((r, self.concepts.get(t)))
                    if twin is not None and twin != t:
                        recursive.append((twin, t))
                        continue
                moved = (n1, r, t)
                if moved in seen:
                    continue
            seen.add(moved)
            new_edges.append(moved)
        self.edges = new_edges
        self._merge_attributes(n1, n2)
        for t in dropped_names:
            if not any(e[2] == t for e in self.edges):
                self._delete_node(t)
        if additional and self.concepts[n2] not in self.concepts_of(n1):
            self.edges.append((n1, "additional-type", n2))
        else:
            del self.concepts[n2]
        for twin, t in recursive:
            self.merge(twin, t, additional=False)

    def _merge_attributes(self, n1: str, n2: str) -> None:
        keep = [a for a in self.attrs if a[0] != n2]
        have = set(keep)
        for _, role, value in (a for a in self.attrs if a[0] == n2):
            if role == "wiki":
                wikis = [v for s, r, v in keep if s == n1 and r == "wiki"]
                real = _unquote(value)
                if real == "-" and wikis:
                    continue
                if any(_unquote(w) == real for w in wikis):
                    continue
                if wikis and all(_unquote(w) == "-" for w in wikis):
                    keep = [a for a in keep if not (a[0] == n1 and a[1] == "wiki")]
                elif wikis:
                    warnings.warn(
                        f"{self.label}: merging {n2} into {n1}: two different :wiki values "
                        f"{wikis[0]} and {value}; both kept",
                        AmrevalWarning,
                        stacklevel=3,
                    )
            item = (n1, role, value)
            if item not in have:
                keep.append(item)
                have.add(item)
        self.attrs = keep

    # -- normalisation ----------------------------------------------------
    def merge_names(self, additional: bool = True) -> None:
        """Merge the named members of each chain into a head."""
        for chain in self.chains:
            if not chain.alive:
                continue
            named = [m for m in self.chain_members(chain) if self.children(m, "name")]
            if len(named) < 2:
                continue
            head = self._name_head(named)
            for m in named:
                if m != head:
                    self.merge(head, m, additional=additional)

    def _name_head(self, named: list[str]) -> str:
        concepts = [self.concepts[m] for m in named]
        if len(set(concepts)) == 1:
            return named[0]
        if all(c in _NE_RANK for c in concepts):
            return min(named, key=lambda m: (_NE_RANK[self.concepts[m]], named.index(m)))
        counts = Counter(concepts)
        return min(named, key=lambda m: (-counts[self.concepts[m]], named.index(m)))

    def drop_pronouns(self) -> None:
        """Drop pronoun members (docamr): into the chain node, or a new pronoun head."""
        for chain in self.chains:
            if not chain.alive:
                continue
            members = self.chain_members(chain)
            pronouns = [m for m in members if self.concepts[m] in _PRONOUN_SET]
            if not pronouns:
                continue
            if len(pronouns) < len(members):
                for p in pronouns:
                    self.merge(chain.node, p)
                continue
            forms = list(dict.fromkeys(self.concepts[m] for m in pronouns))
            if len(forms) == 1:
                concept = forms[0]
            elif "i" in forms or "you" in forms:
                concept = "interlocutor-entity"
            else:
                concept = min(forms, key=PRONOUNS.index)
            name = "pro" if self._pro_count == 0 else f"pro{self._pro_count}"
            self._pro_count += 1
            while name in self.concepts:
                name += "x"
            old = chain.node
            self.rename(old, name, concept)
            for p in pronouns:
                self.merge(name, p)
            chain.alive = False

    def merge_all(self) -> None:
        """Merge every member of each chain into its first member."""
        for chain in self.chains:
            if not chain.alive:
                continue
            members = self.chain_members(chain)
            for m in members[1:]:
                self.merge(members[0], m, additional=True)

    def drop_singleton_chains(self) -> None:
        """A chain left with exactly one member disappears into that member."""
        for chain in self.chains:
            if not chain.alive:
                continue
            members = self.chain_members(chain)
            if len(members) == 1:
                self.merge(members[0], chain.node)
                chain.alive = False

    def normalize(self, rep: str = "docamr") -> None:
        """Apply the steps of a representation (see the module docs)."""
        rep = check_representation(rep)
        if rep in ("merge-names", "docamr"):
            self.merge_names(additional=True)
        if rep == "docamr":
            self.drop_pronouns()
        if rep == "merge-all":
            self.merge_all()
        self.drop_singleton_chains()

    # -- output -----------------------------------------------------------
    def check_connected(self) -> None:
        """Every node must be reachable from the top (in either direction).

        Raises:
            AmrevalError: a node is not; this is a bug, never dropped silently.
        """
        adj: dict[str, list[str]] = {v: [] for v in self.concepts}
        for s, _, t in self.edges:
            adj.setdefault(s, []).append(t)
            adj.setdefault(t, []).append(s)
        seen = {self.top}
        stack = [self.top]
        while stack:
            for n in adj.get(stack.pop(), ()):
                if n not in seen:
                    seen.add(n)
                    stack.append(n)
        lost = [v for v in self.concepts if v not in seen]
        if lost:
            raise AmrevalError(f"{self.label}: nodes not reachable from the top: {', '.join(lost[:10])}")

    def to_graph(self) -> Graph:
        """The document as a :class:`~amreval.amr.graph.Graph`."""
        self.check_connected()
        g = Graph(top=self.top, instances=dict(self.concepts), metadata=dict(self.metadata), origin=self.label)
        for s, r, t in self.edges:
            if r == "mod":
                g.edges.append(Edge(t, "domain", s, "mod"))
            else:
                g.edges.append(Edge(s, r, t, r))
        g.attributes = [Attribute(s, r, v) for s, r, v in self.attrs]
        return g


def _warn(message: str) -> None:
    warnings.warn(message, AmrevalWarning, stacklevel=4)


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
) -> Graph:
    """Convert one MS-AMR document to a DocAMR graph.

    Args:
        doc: the coreference document.
        amrs: sentence graphs keyed by ``::id``.
        rep: ``docamr`` (default), ``no-merge``, ``merge-names`` or ``merge-all``.
        strict: raise on a reference to a missing sentence or variable
            (default: warn and skip that sentence or mention).

    Returns:
        The document :class:`~amreval.amr.graph.Graph` (top ``d``), with the
        document id, sentence ids and sentence texts in its metadata.

    Raises:
        InputError: unknown representation; in strict mode, a missing sentence
            or variable (the message names the document, relation and item).
    """
    rep = check_representation(rep)
    dg = build_document(doc, amrs, strict=strict)
    dg.normalize(rep)
    return dg.to_graph()


def build_document(doc: MsAmrDocument, amrs: Mapping[str, Graph], *, strict: bool = False) -> DocGraph:
    """Steps 1 and 2: the joined sentences with the coreference layer, not yet normalised."""
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
        for member in bridge.members:
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
    dg.chains.append(_ChainState(var, members))
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
            dg.chains.append(_ChainState(node, members))
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
        if r == relation:
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
        dg.chains.append(_ChainState(rid, members))
    dg.normalize(rep)
    return dg.to_graph()


def convert_documents(
    docs: Iterable[MsAmrDocument],
    amrs: Mapping[str, Graph],
    rep: str = "docamr",
    *,
    strict: bool = False,
) -> list[Graph]:
    """Convert several documents (see :func:`convert_document`)."""
    rep = check_representation(rep)
    return [convert_document(d, amrs, rep, strict=strict) for d in docs]
