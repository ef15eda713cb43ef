"""The document graph under construction: merging, pronoun dropping and the four representations.

:class:`DocGraph` holds a document while :mod:`amreval.docamr.convert` builds it
and normalises it to one of :data:`REPRESENTATIONS` (``docamr.md``, step 3).
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from amreval.amr.graph import Attribute, Edge, Graph, canonical_role
from amreval.errors import AmrevalError, AmrevalWarning, InputError

__all__ = ["REPRESENTATIONS", "PRONOUNS", "NAMED_ENTITY_TYPES", "DocGraph", "ChainState", "check_representation"]

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
class ChainState:
    """A chain's node and members while a document is converted."""

    node: str
    members: list[str]
    alive: bool = True


@dataclass
class DocGraph:
    """A mutable document graph used during conversion.

    Edges are ``(source, role, target)`` with inverted roles turned round
    (``:ARG0-of`` stored as ``ARG0``) except where the inverted edge opens its
    node (see :meth:`add_graph`), and ``:mod`` kept as written.
    """

    top: str = "d"
    concepts: dict[str, str] = field(default_factory=dict)
    edges: list[tuple[str, str, str]] = field(default_factory=list)
    attrs: list[tuple[str, str, str]] = field(default_factory=list)
    metadata: dict[str, str] = field(default_factory=dict)
    chains: list[ChainState] = field(default_factory=list)
    alias: dict[str, str] = field(default_factory=dict)
    label: str = "<document>"
    _pro_count: int = 0

    # -- building ---------------------------------------------------------
    def add_graph(self, graph: Graph, rename: Mapping[str, str]) -> None:
        """Add a sentence graph with its variables renamed.

        An inverted edge that opens its node (``:ARG1-of (d / draw-01)``) is kept as written, so that
        ``d`` is a child of the node above it when children of the same role and concept are merged,
        as the reference converter keeps such edges; every other edge is turned round.
        """
        for var, concept in graph.instances.items():
            self.concepts[rename[var]] = concept
        reached = {graph.top}  # nodes already written: a later edge to one is a re-entrancy
        for e in graph.edges:
            written_target = e.source if e.inverted else e.target
            opens = written_target not in reached
            reached.add(written_target)
            if e.written == "mod":
                self.edges.append((rename[e.target], "mod", rename[e.source]))
            elif opens and e.role not in _NO_RECURSIVE_MERGE and canonical_role(e.written)[1]:
                self.edges.append((rename[e.target], e.written, rename[e.source]))
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

    def chain_members(self, chain: ChainState) -> list[str]:
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

    def merge(self, keep: str, absorb: str, additional: bool = False, merge_kids: bool = True) -> None:
        """Merge node ``absorb`` into node ``keep`` (spec: "Merging two nodes").

        With ``merge_kids`` (the default), a child of ``absorb`` that has the same role and concept as a
        child of ``keep`` is merged into it, recursively; without, it moves to ``keep`` beside the other
        (pronoun dropping merges this way, as the reference converter does).
        """
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
                elif merge_kids and r not in _NO_RECURSIVE_MERGE:
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
        """Drop pronoun members (docamr): into the chain node, or a new pronoun head.

        A pronoun's children move to the head without merging into its children of the same role and
        concept (two ``eye`` nodes each ``:part-of`` a pronoun stay two).
        """
        for chain in self.chains:
            if not chain.alive:
                continue
            members = self.chain_members(chain)
            pronouns = [m for m in members if self.concepts[m] in _PRONOUN_SET]
            if not pronouns:
                continue
            if len(pronouns) < len(members):
                for p in pronouns:
                    self.merge(chain.node, p, merge_kids=False)
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
                self.merge(name, p, merge_kids=False)
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
            canon, swapped = canonical_role(r)
            if r == "mod":
                g.edges.append(Edge(t, "domain", s, "mod"))
            elif swapped:  # an inverted edge kept as written
                g.edges.append(Edge(t, canon, s, r))
            else:
                g.edges.append(Edge(s, r, t, r))
        g.attributes = [Attribute(s, r, v) for s, r, v in self.attrs]
        return g
