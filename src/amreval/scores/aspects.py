"""SMATCH++'s aspect scores: Smatch of the subgraphs that carry one meaning aspect each.

SMATCH++ 1.8 (Opitz 2023; its ``subgraph_extraction`` and ``formalism/amr`` modules) cuts a
standardized graph into one subgraph per aspect (:data:`ASPECTS`) and scores each subgraph pair
either under **one alignment** (``onealign``: the alignment of the whole graphs, each aspect's
triples counted under it) or with **one alignment per aspect** (``multialign``: the aspect
subgraphs aligned anew). Here both alignments are amreval's certified search, so each count is
proven like every other score. Counts are ``(match, test, gold)``, summed over pairs (micro).

An aspect's subgraph, on the string triples of :func:`amreval.amr.standardize.marked_triples`
(SMATCH++ extracts on its ``amr``-standardized triples; any SMATCH++ reading works here):

1. **Role relabelling** (only with a PropBank frame file, :func:`read_frames`): a core role
   ``:argN`` of a predicate whose frame describes that argument with an aspect's word (``" instrument
   "``, ``"instrumental"``, ``" location "``, ...) is renamed to the aspect's role (``control-01
   :arg2`` → ``:instrument``; ``" possession "`` gives ``:poss-of``, never turned round). Of several
   words that fit, the last aspect's last word wins. Without frames no role is renamed (what
   SMATCH++ does when its frame file cannot be loaded).
2. **Seeds**: the triples with one of the aspect's roles, and, when it has a concept group, every
   triple touching a node that is the source of a triple whose target is in the group (an instance
   triple, the root triple ``(top, :root, concept)`` or an attribute alike). The group lists are
   SMATCH++'s as written: ``"forest moon"`` and ``"voltage-quantity (zap!)"`` are single entries,
   so ``forest``, ``moon`` and ``voltage-quantity`` are in no group.
3. **Parents** (``QUESTION`` only): the triples into a seed's source.
4. **Context**: ``range`` times, every non-instance triple out of the target of a triple taken so
   far (from a constant too: nodes are strings, so two equal constants are one node).
5. **Predicates**: for every end of a triple taken, the triples into it (not ``:root``) from a node
   with no incoming and exactly one outgoing non-instance triple (the root triple is one, so the
   top is never such a node).
6. **Instances**: the instance triple of every variable touched. Duplicates go.

``REENTRANCIES`` is every non-instance triple into a variable with more than one incoming triple,
with its instances. ``CONCEPT`` is the instance triples, ``FOCUS`` the root triple with the top's
instance and predicates, ``WIKI`` the ``:wiki`` triples with their sources' instances.

Example:
    >>> from amreval.amr.read import loads_graph
    >>> a = loads_graph('(d / drive-01 :ARG0 (p / person) :location (c / city :name (n / name :op1 "Paris")))')
    >>> b = loads_graph('(d / drive-01 :ARG0 (p / person) :location (c / city))')
    >>> r = aspect_pair(a, b, "onealign")
    >>> r.counts["LOCATION (spatial)"], r.counts["NER"], r.counts["AGENT"]
    ((3, 6, 3), (0, 4, 0), (3, 3, 3))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from amreval.amr.read import GraphLike, as_graph
from amreval.amr.standardize import VAR, check_standardization, marked_triples
from amreval.errors import InputError
from amreval.match.options import SearchOptions
from amreval.match.standard import loose_matches, to_triples
from amreval.scores.f1 import prf, prf_or_none
from amreval.scores.harness import pair_search, read_predictions, warn_over_budget
from amreval.scores.results import Result
from amreval.scores.text import plural
from amreval.scores.workers import pair_name, score_named

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from amreval.amr.graph import Graph
    from amreval.match.options import SearchKeywords

__all__ = [
    "ASPECTS",
    "ASPECT_RULES",
    "ASPECT_KEYS",
    "ALIGNMENTS",
    "Aspect",
    "FrameTable",
    "RoleRules",
    "AspectPair",
    "AspectResult",
    "read_frames",
    "role_rules",
    "aspect_subgraphs",
    "counts_under",
    "aspect_pair",
    "aspect_scores",
    "warn_aspects_over_budget",
]

StringTriple = tuple[str, str, str]
Counts = tuple[int, int, int]
_INSTANCE = ":instance"
_ROOT = ":root"
_ARGS = tuple(f":arg{k}" for k in range(10))


class Aspect(NamedTuple):
    """One aspect's rules (SMATCH++'s ``graph_aspects.json`` entry)."""

    roles: tuple[str, ...]
    group: frozenset[str]
    range: int
    parents: bool
    predicates: bool
    words: tuple[tuple[str, str], ...] = ()


def _aspect(
    roles: Iterable[str],
    group: Iterable[str] = (),
    range: int = 2,
    *,
    parents: bool = False,
    preds: bool = True,
    words: Iterable[tuple[str, str]] = (),
) -> Aspect:
    return Aspect(tuple(roles), frozenset(group), range, parents, preds, tuple(words))


_QUANTITIES = (
    "monetary distance area volume temporal frequency speed acceleration mass force pressure energy power"
    " charge potential resistance inductance magnetic-field magnetic-flux radiation concentration temperature"
    " score fuel-consumption seismic"
)
_LOCATIONS = (
    "city city-district county state province territory country local-region country-region world-region"
    " continent ocean sea lake river gulf bay strait canal peninsula mountain volcano valley canyon island"
    " desert planet star constellation"
)

#: The aspects, by SMATCH++'s names, in its order (``REENTRANCIES`` has no rules: see the module docs).
ASPECT_RULES: dict[str, Aspect] = {
    "AGENT": _aspect([":arg0"]),
    "CAUSE": _aspect([":cause"], ["cause-01"], words=[(" cause ", ":cause")]),
    "CONCEPT": _aspect([_INSTANCE], range=0, preds=False),
    "FOCUS": _aspect([_ROOT]),
    "INSTRUMENT": _aspect(
        [":instrument"],
        words=[(" instrument ", ":instrument"), (" tool ", ":instrument"), ("instrumental", ":instrument")],
    ),
    "LOCATION (spatial)": _aspect(
        [":location", ":path", ":destination", ":direction"],
        [*_LOCATIONS.split(), "forest moon"],
        words=[(f" {w} ", f":{w}") for w in ("location", "path", "destination", "direction")],
    ),
    "MATHS": _aspect([], ["sum-of", "product-of"]),
    "NER": _aspect([":name"]),
    "PATIENT": _aspect(_ARGS[1:]),
    "POLARITY": _aspect([":polarity"]),
    "POSSESSION": _aspect([":poss"], words=[(" owner ", ":poss"), (" possession ", ":poss-of")]),
    "PURPOSE": _aspect([":purpose"], words=[(" purpose ", ":purpose")]),
    "QUANTIFIER": _aspect(
        [":quant"],
        [f"{q}-quantity" for q in _QUANTITIES.split()] + ["voltage-quantity (zap!)"],
        words=[(" quantity ", ":quant"), (" amount ", ":quant")],
    ),
    "QUESTION": _aspect([], ["amr-unknown"], range=0, parents=True),
    "SRL-core": _aspect(_ARGS),
    "TIME (temporal)": _aspect(
        [":time", ":duration", ":frequency"],
        ["date-entity", "date-interval"],
        words=[(f" {w} ", f":{w}") for w in ("time", "duration", "frequency")],
    ),
    "TOPIC": _aspect([":topic"], words=[(" topic ", ":topic")]),
    "WIKI": _aspect([":wiki"], range=0, preds=False),
}
ASPECTS: tuple[str, ...] = (*ASPECT_RULES, "REENTRANCIES")
#: Each aspect's name as a command-line word (``LOCATION (spatial)`` → ``location``), and back.
ASPECT_KEYS: dict[str, str] = {n.split()[0].lower(): n for n in ASPECTS}
#: The two ways of aligning: the whole graphs' alignment for every aspect, or one per aspect.
ALIGNMENTS = ("onealign", "multialign")


class FrameTable(Mapping[str, Mapping[str, str]]):
    """A PropBank frame description file as ``{predicate: {":argN": " description "}}`` (:func:`read_frames`);
    a predicate's line is read the first time it is asked for (a corpus needs few of the file's frames)."""

    def __init__(self, lines: dict[str, tuple[int, str]], path: str) -> None:
        self.lines = lines
        self.path = path
        self.known: dict[str, dict[str, str]] = {}

    def __getitem__(self, predicate: str) -> Mapping[str, str]:
        roles = self.known.get(predicate)
        if roles is None:
            number, line = self.lines[predicate]
            roles = {}
            for argument in line.split("  arg")[1:]:
                parts = argument.replace(", ", " ").replace(". ", " ").split(": ")
                if len(parts) < 2:
                    raise InputError(
                        f"{self.path}, line {number}: expected 'ARGn: description', got {'arg' + argument!r}"
                    )
                roles[":arg" + parts[0]] = " " + " ".join(parts[1].split()) + " "
            self.known[predicate] = roles
        return roles

    def __iter__(self) -> Iterator[str]:
        return iter(self.lines)

    def __len__(self) -> int:
        return len(self.lines)


def read_frames(path: str | Path) -> FrameTable:
    """A PropBank frame description file (``predicate  ARG0: description  ARG1: ...`` a line, the
    format of AMR-World's ``propbank-amr-frames-arg-descr.txt`` that SMATCH++ uses) as
    ``{predicate: {":argN": " description "}}``, lower-cased, ``", "`` and ``". "`` read as spaces
    (a predicate on several lines: its last).

    Raises:
        InputError: the file cannot be read; (when its predicate is looked up) a line's argument has no ``": "``.
    """
    from amreval.amr.read import read_text

    try:  # the one rule of every reader: UTF-8, a byte-order mark accepted, any line end
        text, _ = read_text(path, what="PropBank frame file")
    except (OSError, InputError) as e:
        raise InputError(f"{path}: cannot read the frame file: {e}") from None
    lines: dict[str, tuple[int, str]] = {}
    for number, line in enumerate(text.lower().split("\n"), 1):
        if line:
            end = line.find("  arg")
            lines[line if end < 0 else line[:end]] = (number, line)
    return FrameTable(lines, str(path))


class RoleRules(Mapping[str, Mapping[str, str]]):
    """``{predicate: {":argN": aspect role}}``: the core roles an aspect's word in their frame description
    renames (:func:`role_rules`); a predicate's rules are worked out the first time it is asked for."""

    def __init__(self, frames: Mapping[str, Mapping[str, str]]) -> None:
        self.frames = frames
        self.words = [(word, role) for aspect in ASPECT_RULES.values() for word, role in aspect.words]
        self.known: dict[str, dict[str, str]] = {}

    def get(self, predicate: str, default: object = None) -> Any:  # type: ignore[override]
        """The renamed roles of ``predicate`` (``default`` when it has none)."""
        rules = self.known.get(predicate)
        if rules is None:
            rules = self.known[predicate] = {}
            for arg, description in self.frames.get(predicate, {}).items():
                for word, role in self.words:  # the last aspect's last word that fits wins
                    if word in description:
                        rules[arg] = role
        return rules or default

    def __getitem__(self, predicate: str) -> Mapping[str, str]:
        rules = self.get(predicate)
        if rules is None:
            raise KeyError(predicate)
        return rules  # type: ignore[no-any-return]

    def __iter__(self) -> Iterator[str]:
        return (p for p in self.frames if self.get(p))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __bool__(self) -> bool:  # without working out every predicate's rules
        return bool(self.frames)


def role_rules(frames: Mapping[str, Mapping[str, str]]) -> RoleRules:
    """The roles the aspects' words rename in a frame table (:func:`read_frames`), as SMATCH++ does: a
    core role ``:argN`` whose description holds an aspect's word becomes that aspect's role; of several
    words that fit, the last aspect's last one wins.

    Example:
        >>> dict(role_rules({"control-01": {":arg0": " controller ", ":arg2": " instrumental with "}}))
        {'control-01': {':arg2': ':instrument'}}
    """
    return RoleRules(frames)


def _relabelled(triples: list[StringTriple], rules: Mapping[str, Mapping[str, str]]) -> list[StringTriple]:
    if not rules:
        return triples
    concept = {s: t for s, r, t in triples if r == _INSTANCE}
    out = []
    for s, r, t in triples:
        rule = rules.get(concept.get(s, ""))
        out.append((s, rule[r], t) if rule and r in rule else (s, r, t))
    return out


class _Graph:
    """What the extraction asks of one graph's triples, indexed once."""

    def __init__(self, triples: list[StringTriple]) -> None:
        self.concept = {s: t for s, r, t in triples if r == _INSTANCE}
        self.edges = [tr for tr in triples if tr[1] != _INSTANCE]
        self.by_role: dict[str, list[StringTriple]] = {}
        self.into: dict[str, list[StringTriple]] = {}
        self.out: dict[str, list[StringTriple]] = {}  # non-instance triples only
        self.touching: dict[str, list[StringTriple]] = {}
        for tr in triples:
            self.by_role.setdefault(tr[1], []).append(tr)
            self.into.setdefault(tr[2], []).append(tr)
            self.touching.setdefault(tr[0], []).append(tr)
            if tr[2] != tr[0]:
                self.touching.setdefault(tr[2], []).append(tr)
        for tr in self.edges:
            self.out.setdefault(tr[0], []).append(tr)
        incoming = Counter(t for _, _, t in self.edges)
        self.reached: dict[tuple[str, int], frozenset[StringTriple]] = {}
        self.predicates: dict[str, list[StringTriple]] = {}
        for tr in self.edges:
            if tr[1] != _ROOT and incoming[tr[0]] == 0 and len(self.out[tr[0]]) == 1:
                self.predicates.setdefault(tr[2], []).append(tr)

    def subgraph(self, rules: Aspect) -> set[StringTriple]:
        seeds = [tr for role in rules.roles for tr in self.by_role.get(role, ())]
        if rules.group:
            nodes = {tr[0] for member in rules.group for tr in self.into.get(member, ())}
            seeds += [tr for node in nodes for tr in self.touching.get(node, ())]
        if not seeds:
            return set()
        taken = set(seeds)
        parents = []
        if rules.parents:
            for s, _, _ in seeds:
                parents += [tr for tr in self.into.get(s, ()) if tr not in taken]
        if rules.range:  # the steps taken level by level reach what is in reach of the seeds' targets
            for target in {tr[2] for tr in seeds}:
                taken |= self.reach(target, rules.range)
        if parents:
            taken = taken | set(parents)
        return self.with_instances(taken, rules.predicates)

    def reach(self, node: str, steps: int) -> frozenset[StringTriple]:
        """The non-instance triples at most ``steps`` triples down from ``node``."""
        found = self.reached.get((node, steps))
        if found is None:
            out = self.out.get(node, ())
            more = set(out)
            if steps > 1:
                for tr in out:
                    more |= self.reach(tr[2], steps - 1)
            found = self.reached[(node, steps)] = frozenset(more)
        return found

    def with_instances(self, triples: set[StringTriple], predicates: bool = False) -> set[StringTriple]:
        """``triples``, (``predicates``) the predicates of their ends, and the instances of the variables."""
        ends = {end for s, _, t in triples for end in (s, t)}
        if predicates and self.predicates:
            extra = [p for end in ends.intersection(self.predicates) for p in self.predicates[end]]
            if extra:
                triples = triples | set(extra)
                ends.update(p[0] for p in extra)
        concept = self.concept
        return triples | {(v, _INSTANCE, concept[v]) for v in ends.intersection(concept)}

    def reentrancies(self) -> set[StringTriple]:
        shared = [tr for tr in self.edges if tr[2] in self.concept and len(self.into[tr[2]]) > 1]
        return self.with_instances(set(shared)) if shared else set()


def aspect_subgraphs(
    triples: list[StringTriple], rules: Mapping[str, Mapping[str, str]] | None = None
) -> dict[str, set[StringTriple]]:
    """Each aspect's subgraph (:data:`ASPECTS`, see the module docs) of a graph's standardized string
    triples, after the roles ``rules`` (:func:`role_rules`) rename.

    Example:
        >>> t = [("c", ":root", "cat"), ("c", ":instance", "cat"), ("c", ":polarity", "-")]
        >>> sorted(aspect_subgraphs(t)["POLARITY"])
        [('c', ':instance', 'cat'), ('c', ':polarity', '-')]
    """
    graph = _Graph(_relabelled(list(triples), rules or {}))
    out = {name: graph.subgraph(aspect) for name, aspect in ASPECT_RULES.items()}
    out["REENTRANCIES"] = graph.reentrancies()
    return out


@dataclass
class AspectPair:
    """One pair's aspect counts.

    Attributes:
        counts: ``(match, test, gold)`` of each aspect (:data:`ASPECTS`).
        main: ``(match, test, gold)`` of the whole graphs (their Smatch under the reading).
        optimal: every alignment made was proven optimal.
        over_budget: one of the alignments made (the whole graphs', or with ``multialign`` an aspect's)
            was over the memory budget and was aligned within it (:mod:`amreval.match.approximate`): its
            matches are a lower bound.
    """

    counts: dict[str, Counts]
    main: Counts
    optimal: bool
    over_budget: bool = False


def _top(triples: list[StringTriple], standardize: str) -> str:
    return triples[0][0] if standardize == "smatchpp-amr" else triples[0][2]


def _align(
    a: list[StringTriple], b: list[StringTriple], top_a: str | None, top_b: str | None, search: SearchOptions
) -> tuple[int, dict[str, str], bool, bool]:
    """The certified alignment of two string-triple graphs: matches, the marked variable map, proven, and
    whether its problem was over the memory budget (aligned within it)."""
    from amreval.match.alignment import align_triples

    (ta, loose_a), (tb, loose_b) = to_triples(a, top_a), to_triples(b, top_b)
    extra = loose_matches(loose_a, loose_b)
    if not ta.variables or not tb.variables:
        return extra, {}, True, False
    found = align_triples(ta, tb, search)
    mapping = {VAR + ta.variables[i]: VAR + tb.variables[j] for i, j in enumerate(found.mapping.tolist()) if j >= 0}
    return int(round(found.score)) + extra, mapping, bool(found.optimal), bool(found.over_budget)


def counts_under(a: set[StringTriple], b: set[StringTriple], mapping: Mapping[str, str]) -> Counts:
    """``(match, test, gold)`` of two subgraphs (marked string triples, see
    :func:`~amreval.amr.standardize.marked_triples`) under an alignment: ``a``'s triples found in ``b``
    once ``a``'s variables are renamed by ``mapping`` (an unmapped variable matches nothing).

    Example:
        >>> a = {(VAR + "x", ":instance", "cat")}
        >>> counts_under(a, {(VAR + "y", ":instance", "cat")}, {VAR + "x": VAR + "y"}), counts_under(a, a, {})
        ((1, 1, 1), (0, 1, 1))
    """

    renamed = _renamed(a, mapping)
    return sum(renamed[tr] in b for tr in a), len(a), len(b)


def _renamed(triples: Iterable[StringTriple], mapping: Mapping[str, str]) -> dict[StringTriple, StringTriple]:
    def rename(x: str) -> str:
        return mapping.get(x, "\x02" + x) if x.startswith(VAR) else x

    return {(s, r, t): (rename(s), r, rename(t)) for s, r, t in triples}


def aspect_pair(
    prediction: Graph,
    gold: Graph,
    alignment: str = "onealign",
    search: SearchOptions = SearchOptions(),
    *,
    standardize: str = "smatchpp-amr",
    rules: Mapping[str, Mapping[str, str]] | None = None,
) -> AspectPair:
    """The aspect counts of one pair under ``alignment`` (:data:`ALIGNMENTS`) and a SMATCH++ reading.

    An alignment whose problem is over the memory budget is made within it (its pair marked
    :attr:`AspectPair.over_budget`), or with ``search.strict`` raises :class:`~amreval.errors.TooLargeError`.

    Raises:
        InputError: an unknown alignment or reading, or the ``smatch`` reading (it has no string triples).
    """
    if alignment not in ALIGNMENTS:
        raise InputError(f"aspects: expected an alignment in {', '.join(ALIGNMENTS)}, got {alignment!r}")
    a, b = marked_triples(prediction, standardize), marked_triples(gold, standardize)
    top_a, top_b = (_top(x, standardize) if x else None for x in (a, b))
    matched, mapping, optimal, over_budget = _align(a, b, top_a, top_b, search)
    main = (matched, len(a), len(b))
    sa, sb = aspect_subgraphs(a, rules), aspect_subgraphs(b, rules)
    counts: dict[str, Counts] = {}
    renamed = _renamed(_relabelled(a, rules or {}), mapping) if alignment == "onealign" else {}
    for name in ASPECTS:
        if alignment == "onealign":
            x, y = sa[name], sb[name]
            counts[name] = (sum(renamed[tr] in y for tr in x), len(x), len(y))
            continue
        one, other = sorted(sa[name]), sorted(sb[name])
        m, _, proven, big = _align(one, other, None, None, search)
        counts[name] = (m, len(one), len(other))
        optimal, over_budget = optimal and proven, over_budget or big
    return AspectPair(counts, main, optimal, over_budget)


@dataclass
class AspectResult(Result):
    """Corpus aspect scores.

    Attributes:
        alignment: ``onealign`` or ``multialign``.
        standardize: the reading of the triples.
        counts: each aspect's ``(match, test, gold)`` summed over the pairs (micro).
        main: the whole graphs' counts, summed.
        pairs: each pair's :class:`AspectPair`.
        frames: whether role relabelling by PropBank frames was on.
    """

    alignment: str
    standardize: str
    counts: dict[str, Counts]
    main: Counts
    pairs: list[AspectPair] = field(repr=False)
    frames: bool = False
    #: the indices (from 0; messages print them from 1) of the predictions that could not be read (scored as
    #: empty graphs)
    unreadable_predictions: list[int] = field(default_factory=list)

    @property
    def optimal(self) -> bool:
        """Every alignment of every pair was proven optimal."""
        return all(p.optimal for p in self.pairs)

    @property
    def over_budget(self) -> list[int]:
        """Positions of the pairs one of whose alignments was over the memory budget (aligned within it)."""
        return [k for k, p in enumerate(self.pairs) if p.over_budget]

    def prf(self, name: str) -> tuple[float | None, float | None, float | None]:
        """Precision, recall and F1 of an aspect (``main`` for the whole graphs, Smatch's convention: 0
        where a side is empty); an aspect with nothing to score is None (:func:`~amreval.scores.f1.undefined`)."""
        if name == "main":
            return prf(*self.main)
        return prf_or_none(*self.counts[name])

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready summary: the settings, the pairs (``n_unreadable``: predictions scored as empty
        graphs; ``n_over_budget``: pairs one of whose alignments was over the memory budget), and each
        aspect's counts with P, R, F1."""
        rows = {}
        for name in ("main", *ASPECTS):
            m, t, g = self.main if name == "main" else self.counts[name]
            p, r, f = self.prf(name)
            rows[name] = {"match": m, "test": t, "gold": g, "precision": p, "recall": r, "f1": f}
        return {
            "alignment": self.alignment,
            "standardize": self.standardize,
            "frames": self.frames,
            "pairs": len(self.pairs),
            "n_unreadable": len(self.unreadable_predictions),
            "n_over_budget": len(self.over_budget),
            "optimal": self.optimal,
            "aspects": rows,
        }


def aspect_scores(
    predictions: Iterable[GraphLike],
    references: Iterable[GraphLike],
    *,
    alignment: str = "onealign",
    standardize: str = "smatchpp-amr",
    frames: str | Path | Mapping[str, Mapping[str, str]] | None = None,
    strict: bool = False,
    **search: Unpack[SearchKeywords],
) -> AspectResult:
    """SMATCH++'s aspect scores of predicted against gold graphs, paired by position (see the module docs).

    Args:
        predictions, references: PENMAN strings or graphs, the same number.
        alignment: ``onealign`` (the whole graphs' certified alignment) or ``multialign`` (one per aspect).
        standardize: a SMATCH++ reading (``smatchpp-amr``, SMATCH++'s own for aspects; ``smatchpp-generic``, ``none``).
        frames: for the role relabelling, a PropBank frame description file, its table (:func:`read_frames`)
            or the rules made of it (:func:`role_rules`, to make them once for several corpora).
        strict: a prediction that cannot be read raises its error (otherwise it is scored as an empty
            graph, counted in ``unreadable_predictions`` and named in a warning, as every scorer does), and
            so does a pair whose alignment problem is over the memory budget
            (:class:`~amreval.errors.TooLargeError`, naming the pair; otherwise it is aligned within the
            budget, counted in :attr:`AspectResult.over_budget` and named in a warning).
        **search: the search settings, as for :func:`amreval.scores.smatch.smatch`.

    Raises:
        InputError: unequal or empty lists, a reference that cannot be read, (``strict``) a prediction
            that cannot be read or a pair over the memory budget, a bad setting.
    """
    check_standardization(standardize)
    if standardize == "smatch":
        raise InputError("aspects: the aspects are SMATCH++'s; expected a SMATCH++ reading, got 'smatch'")
    if alignment not in ALIGNMENTS:
        raise InputError(f"aspects: expected an alignment in {', '.join(ALIGNMENTS)}, got {alignment!r}")
    table = read_frames(frames) if isinstance(frames, (str, Path)) else frames
    rules: Mapping[str, Mapping[str, str]] = (
        (table if isinstance(table, RoleRules) else role_rules(table)) if table else {}
    )
    preds, golds = list(predictions), list(references)
    if len(preds) != len(golds) or not golds:
        raise InputError(
            f"aspects: expected equal, non-empty lists; got {len(preds)} and {plural(len(golds), 'graph')}"
        )
    options = SearchOptions.from_keywords(**search).as_strict(strict)
    read, failed = read_predictions(preds, strict=strict)
    refs = [as_graph(g, "reference", k) for k, g in enumerate(golds)]

    def pair(p: Graph, g: Graph, k: int) -> AspectPair:
        return aspect_pair(p, g, alignment, pair_search(options, k), standardize=standardize, rules=rules)

    pairs = [score_named(pair, k, p, g, k) for k, (p, g) in enumerate(zip(read, refs))]
    counts = {n: _total(p.counts[n] for p in pairs) for n in ASPECTS}
    result = AspectResult(alignment, standardize, counts, _total(p.main for p in pairs), pairs, bool(rules), failed)
    warn_aspects_over_budget(result, read, refs)
    return result


def warn_aspects_over_budget(result: AspectResult, predictions: Sequence[object], references: Sequence[object]) -> None:
    """The one warning naming the pairs of ``result`` one of whose aspect alignments was over the memory
    budget (:func:`~amreval.scores.harness.warn_over_budget`; a pair by where its graphs were read from,
    where they are graphs that say so); nothing where none was."""
    over = result.over_budget
    if over:
        names = [pair_name(k, (predictions[k], references[k])) for k in over[:10]]
        warn_over_budget(names, len(over), len(result.pairs), where=f"in the aspect scores ({result.alignment})")


def _total(rows: Iterable[Counts]) -> Counts:
    m = t = g = 0
    for a, b, c in rows:
        m, t, g = m + a, t + b, g + c
    return m, t, g
