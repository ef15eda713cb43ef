"""SMATCH++'s readings of a graph's triples, as strings (the choice of reading: :mod:`amreval.match.standard`).

``written_triples`` gives the triples as SMATCH++ reads them from PENMAN; ``standardized`` applies
its ``generic`` or ``amr`` standardization (see :mod:`amreval.match.standard` for what each does).

Example:
    >>> from amreval.amr.read import loads_graph
    >>> g = loads_graph('(c / Cat :ARG1-of (l / be-located-at-91 :ARG2 (h / house)))')
    >>> standardized(g, "smatchpp-amr")
    [('c', ':root', 'cat'), ('c', ':instance', 'cat'), ('h', ':instance', 'house'), ('c', ':location', 'h')]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from amreval.errors import InputError

if TYPE_CHECKING:
    from amreval.amr.graph import Graph

__all__ = [
    "STANDARDIZATIONS",
    "DEFAULT_STANDARDIZATION",
    "check_standardization",
    "written_triples",
    "standardized",
    "marked_triples",
    "unquote",
    "REIFICATIONS",
    "VAR",
]

STANDARDIZATIONS = ("none", "smatch", "smatchpp-generic", "smatchpp-amr")
DEFAULT_STANDARDIZATION = "smatch"

StringTriple = tuple[str, str, str]

#: The AMR guidelines' reifications: role, concept, the argument of the source, of the target.
#: SMATCH++ reads the concepts back as the role (``:poss`` only from ``own-01``, its first concept).
REIFICATIONS: tuple[tuple[str, str, str, str], ...] = (
    (":accompanier", "accompany-01", ":arg1", ":arg0"),
    (":age", "age-01", ":arg1", ":arg2"),
    (":beneficiary", "benefit-01", ":arg0", ":arg1"),
    (":concession", "have-concession-91", ":arg1", ":arg2"),
    (":condition", "have-condition-91", ":arg1", ":arg2"),
    (":degree", "have-degree-91", ":arg1", ":arg2"),
    (":destination", "be-destined-for-91", ":arg1", ":arg2"),
    (":duration", "last-01", ":arg1", ":arg2"),
    (":example", "exemplify-01", ":arg1", ":arg0"),
    (":extent", "have-extent-91", ":arg1", ":arg2"),
    (":frequency", "have-frequency-91", ":arg1", ":arg2"),
    (":instrument", "have-instrument-91", ":arg1", ":arg2"),
    (":li", "have-li-91", ":arg1", ":arg2"),
    (":location", "be-located-at-91", ":arg1", ":arg2"),
    (":manner", "have-manner-91", ":arg1", ":arg2"),
    (":mod", "have-mod-91", ":arg1", ":arg2"),
    (":name", "have-name-91", ":arg1", ":arg2"),
    (":ord", "have-ord-91", ":arg1", ":arg2"),
    (":part", "have-part-91", ":arg1", ":arg2"),
    (":polarity", "have-polarity-91", ":arg1", ":arg2"),
    (":poss", "own-01", ":arg1", ":arg0"),
    (":purpose", "have-purpose-91", ":arg1", ":arg2"),
    (":quant", "have-quant-91", ":arg1", ":arg2"),
    (":source", "be-from-91", ":arg1", ":arg2"),
    (":subevent", "have-subevent-91", ":arg1", ":arg2"),
    (":time", "be-temporally-at-91", ":arg1", ":arg2"),
    (":topic", "concern-02", ":arg0", ":arg1"),
    (":value", "have-value-91", ":arg1", ":arg2"),
)
_DEREIFY = {concept: (role, first, second) for role, concept, first, second in REIFICATIONS}
_ROOT = ":root"
#: What marks a variable's name in standardized triples (no written label holds it).
VAR = "\x01"
_INSTANCE = ":instance"


def check_standardization(name: str) -> str:
    """``name`` if it is one of :data:`STANDARDIZATIONS`.

    Raises:
        InputError: it is not.
    """
    if name not in STANDARDIZATIONS:
        raise InputError(f"standardize: expected one of {', '.join(STANDARDIZATIONS)}, got {name!r}")
    return name


def written_triples(graph: Graph) -> list[StringTriple]:
    """The graph's triples as written (SMATCH++'s reading): the root triple
    ``(ROOT_OF_GRAPH, :root, top)``, the instance triples, then the edges and attributes
    with their roles as written (``:ARG0-of`` from the variable it was written under)."""
    if graph.is_empty() or graph.top is None:
        return []
    out: list[StringTriple] = [("ROOT_OF_GRAPH", _ROOT, graph.top)]
    out += [(v, _INSTANCE, c) for v, c in graph.instances.items()]
    # an edge is inverted where its role as written is not its role
    out += [
        (e.target, ":" + e.written, e.source) if e.written != e.role else (e.source, ":" + e.role, e.target)
        for e in graph.edges
    ]
    out += [(a.source, ":" + a.role, a.value) for a in graph.attributes]
    # the root triple is the one ":root"; a written one is renamed, as SMATCH++'s reader does
    if any(r == _ROOT for _, r, _ in out[1:]):
        return out[:1] + [(s, r + "_but_not_the_graph_root" if r == _ROOT else r, t) for s, r, t in out[1:]]
    return out


def unquote(text: str) -> str:
    """``text`` without any quote (SMATCH++ removes every ``"`` and ``'``)."""
    return text.replace('"', "").replace("'", "")


def _clean(text: str) -> str:
    """``text`` lower-cased, without quotes (``unquote(text.lower())``)."""
    text = text.lower()
    if '"' in text or "'" in text:
        return text.replace('"', "").replace("'", "")
    return text


def _is_clean(text: str) -> bool:
    """Whether ``_clean(text) == text``."""
    return '"' not in text and "'" not in text and text == text.lower()


def _generic(triples: list[StringTriple], amr: bool) -> list[StringTriple]:
    """Lower-case, remove quotes, mark variables, (``amr``: ``:domain`` as ``:mod-of``), turn every ``-of`` round.

    A variable ``v`` becomes ``VAR + v``, so that no constant made later (the root concept)
    is taken for a variable; a constant that reads as a variable's name is that variable.
    """
    clean = [(unquote(s.lower()), unquote(r.lower()), unquote(t.lower())) for s, r, t in triples]
    variables = {s for s, r, _ in clean if r == _INSTANCE}
    out: list[StringTriple] = []
    for s, r, t in clean:
        if s in variables:
            s = VAR + s
        if t in variables and r != _INSTANCE:
            t = VAR + t
        r, turned = _turned(r, amr)
        out.append((t, r, s) if turned else (s, r, t))
    return out


def _turned(r: str, amr: bool) -> tuple[str, bool]:
    """A cleaned role read under ``generic`` (``amr`` False) or ``amr``: every ``-of`` taken off (and
    ``:domain`` read as the inverse of ``:mod`` under ``amr``), and whether the triple is turned round."""
    if amr and r == ":domain":
        r = ":mod-of"
    elif amr and r == ":domain-of":
        r = ":mod"
    turns = 0
    while r.endswith("-of"):
        r = r[:-3]
        turns += 1
    return r, turns % 2 == 1


#: How :func:`_generic` reads a written role (without its colon) of a triple other than the root one,
#: under ``generic`` (False) and ``amr`` (True): the role cleaned, the role it becomes, whether the
#: triple is turned round. Filled as roles are met (a corpus has few).
_ROLE_READINGS: dict[bool, dict[str, tuple[str, str, bool]]] = {False: {}, True: {}}


def _role_reading(role: str, amr: bool) -> tuple[str, str, bool]:
    """How :func:`_generic` reads the role ``":" + role`` written in a graph (remembered)."""
    r = ":" + role
    if r == _ROOT:
        r += "_but_not_the_graph_root"
    clean = _clean(r)
    reading = (clean, *_turned(clean, amr))
    _ROLE_READINGS[amr][role] = reading
    return reading


def _generic_of_graph(graph: Graph, amr: bool) -> list[StringTriple] | None:
    """``_generic(written_triples(graph), amr)``, made from the graph at once (each role read once per
    corpus, each variable once per graph); None for a graph that is not regular (its top, an edge's end
    or an attribute's source not one of its variables, a role read as ``:instance``), which is read
    the general way."""
    instances = graph.instances
    if _is_clean("".join(instances)):  # the usual case: every name is lower-case without quotes
        variables = set(instances)
        marked = {v: VAR + v for v in instances}
    else:
        names = {v: _clean(v) for v in instances}
        variables = set(names.values())
        marked = {v: VAR + name for v, name in names.items()}
    top = marked.get(graph.top)  # type: ignore[arg-type]
    if top is None:
        return None
    root = "root_of_graph"
    out: list[StringTriple] = [(VAR + root if root in variables else root, _ROOT, top)]
    if _is_clean("".join(instances.values())):
        out += [(marked[v], _INSTANCE, c) for v, c in instances.items()]
    else:
        out += [(marked[v], _INSTANCE, _clean(c)) for v, c in instances.items()]
    readings = _ROLE_READINGS[amr]
    append = out.append
    for e in graph.edges:
        if e.written != e.role:  # inverted: written from its target
            s, key, t = e.target, e.written, e.source
        else:
            s, key, t = e.source, e.role, e.target
        clean, r, turned = readings.get(key) or _role_reading(key, amr)
        ms, mt = marked.get(s), marked.get(t)
        if ms is None or mt is None or clean == _INSTANCE or r == _INSTANCE:
            return None
        append((mt, r, ms) if turned else (ms, r, mt))
    for a in graph.attributes:
        clean, r, turned = readings.get(a.role) or _role_reading(a.role, amr)
        ms = marked.get(a.source)
        if ms is None or clean == _INSTANCE or r == _INSTANCE:
            return None
        value = _clean(a.value)
        if value in variables:
            value = VAR + value
        append((value, r, ms) if turned else (ms, r, value))
    return out


def _dereify(triples: list[StringTriple]) -> list[StringTriple]:
    """Read a reified node (its concept in :data:`REIFICATIONS`, no edge into it, exactly its two
    arguments out of it) as the role between the arguments."""
    concepts: dict[str, str] = {}
    for s, r, t in triples:
        if r == _INSTANCE:
            concepts[s] = t
    has_incoming = {t for _, r, t in triples if r != _INSTANCE}
    outgoing: dict[str, list[int]] = {}
    for k, (s, r, _) in enumerate(triples):
        if r != _INSTANCE:
            outgoing.setdefault(s, []).append(k)
    instance_row = {s: k for k, (s, r, _) in reversed(list(enumerate(triples))) if r == _INSTANCE}
    drop: set[int] = set()
    new: list[StringTriple] = []
    for var, concept in concepts.items():
        rule = _DEREIFY.get(concept)
        if rule is None or var in has_incoming:
            continue
        role, first, second = rule
        rows = outgoing.get(var, [])
        a = [k for k in rows if triples[k][1] == first]
        b = [k for k in rows if triples[k][1] == second]
        if len(a) == 1 and len(b) == 1 and len(rows) == 2:
            new.append((triples[a[0]][2], role, triples[b[0]][2]))
            drop.update((a[0], b[0], instance_row[var]))
    return [tr for k, tr in enumerate(triples) if k not in drop] + new


def standardized(graph: Graph, standardize: str) -> list[StringTriple]:
    """The graph's triples under a SMATCH++ reading (``none``, ``smatchpp-generic``,
    ``smatchpp-amr``; see the module docs), as strings (SMATCH++'s, up to variable names).

    Raises:
        InputError: ``standardize`` is ``smatch`` (that reading is
            :func:`~amreval.match.triples.graph_triples`) or unknown.
    """
    n = len(VAR)
    return [
        (s[n:] if s.startswith(VAR) else s, r, t[n:] if t.startswith(VAR) else t)
        for s, r, t in marked_triples(graph, standardize)
    ]


def marked_triples(graph: Graph, standardize: str) -> list[StringTriple]:
    """:func:`standardized` with the variables marked by :data:`VAR`."""
    check_standardization(standardize)
    if standardize == "smatch":
        raise InputError("standardize: the smatch reading has no string triples; use graph_triples")
    if graph.is_empty() or graph.top is None:
        return written_triples(graph)
    if standardize == "none":
        # marked as under the other readings: a variable is never taken for a concept or a constant of
        # the same spelling (``(vx1 / vx1)``), so what is read of a graph does not depend on its names
        variables = graph.instances
        return [
            (VAR + s if s in variables else s, r, VAR + t if t in variables and r != _INSTANCE else t)
            for s, r, t in written_triples(graph)
        ]
    amr = standardize == "smatchpp-amr"
    fast = _generic_of_graph(graph, amr)
    triples = _generic(written_triples(graph), amr) if fast is None else fast
    if not amr:
        return triples
    top = triples[0][2]
    concept = next((t for s, r, t in triples if s == top and r == _INSTANCE), "")
    triples[0] = (top, _ROOT, concept)
    # only a node whose concept is a reification's can be read as a role (where none is, nothing changes)
    if fast is None or not _DEREIFY.keys().isdisjoint([t for _, _, t in triples[1 : len(graph.instances) + 1]]):
        triples = _dereify(triples)
    return list(dict.fromkeys(triples))
