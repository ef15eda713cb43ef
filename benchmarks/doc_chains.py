"""Deterministic coreference chains for a list of sentence graphs (benchmarks only).

:func:`build_chains` plays the part of a simple rule-based coreference system
that reads one side's own sentence graphs: run on the gold graphs it gives
the gold chains, run on a parser's graphs of the same sentences it gives the
chains a coreference system would plausibly produce on that parse (a concept
or pronoun the parser lost or changed changes the chains). The rules, applied
in document order (sentence by sentence, nodes in PENMAN order):

* **named entities**: nodes with a ``:name`` whose ``:opN`` strings read the
  same are one entity over the whole document;
* **recurring concepts**: nodes whose concept is in :data:`RECURRING` (the
  story's characters and things: prince, fox, rose, planet, sheep, king, ...)
  are one entity per concept over the whole document;
* **dialogue pronouns** ``i``, ``you``, ``we``, ``it``, ``they``: one entity
  per pronoun that goes on while the pronoun comes back within
  :data:`WINDOW` sentences; a longer gap starts a new entity;
* **he / she**: joined to the nearest preceding person-like mention (the
  nearest earlier sentence, within :data:`WINDOW`, holding one; in it the
  first in PENMAN order, the one nearest the root): for ``he`` a male or
  unmarked character (:data:`HE_ANTECEDENTS`, a named person, an earlier
  ``he``), for ``she`` the flower or a woman (:data:`SHE_ANTECEDENTS`, an
  earlier ``she``); with none, the pronoun starts an entity of its own. (A
  pronoun in the same sentence as its antecedent is, in AMR, a re-entrancy,
  not a node: same-sentence antecedents are not looked for.)
* **bridging**: a ``we`` entity is the superset (``set-member``) of the ``i``
  and ``you`` entities last mentioned within :data:`WINDOW` sentences before
  (or in) its first sentence; a part concept (:data:`PARTS`: thorn, petal of
  the flower; lamp, volcano, baobab of a planet) is a part (``part-whole``) of
  the whole's entity last mentioned within the window (in its sentence or
  before).

Entities with two or more mentions become chains (``rel-0``, ``rel-1``, ...
by first mention); an entity with one mention that a bridge names becomes a
singleton. Everything is a pure function of the graphs: the same input gives
the same chains.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from amreval.amr.graph import Graph
    from amreval.docamr import MsAmrDocument

#: Concepts that recur in the Little Prince and that a coreference system chains by their head noun.
RECURRING = frozenset(
    """prince fox rose flower planet sheep king star snake boa baobab volcano lamp lamplighter businessman
    geographer tippler drawing picture airplane desert well water asteroid""".split()
)
#: Pronouns chained by recurrence within the window.
WINDOW_PRONOUNS = frozenset({"i", "you", "we", "it", "they"})
#: Antecedents of ``he`` (besides a named person and an earlier ``he``).
HE_ANTECEDENTS = frozenset(
    """prince king fox man boy person businessman geographer lamplighter tippler snake friend he""".split()
)
#: Antecedents of ``she`` (besides an earlier ``she``): the flower is "she" in the story.
SHE_ANTECEDENTS = frozenset({"flower", "rose", "woman", "girl", "she"})
#: Part concept -> the concepts of its whole.
PARTS = {
    "thorn": ("flower", "rose"),
    "petal": ("flower", "rose"),
    "lamp": ("planet",),
    "volcano": ("planet",),
    "baobab": ("planet",),
}
#: Sentences a pronoun chain, an antecedent search and a bridge look back.
WINDOW = 5


@dataclass
class _Mention:
    sentence: int  # position in the document
    sid: str
    var: str
    concept: str
    named_person: bool = False


def _names(g: Graph) -> dict[str, str]:
    """Variable -> its name string (``:op1 ... :opN`` joined by spaces) for nodes with a ``:name``."""
    out = {}
    for e in g.edges:
        if e.role == "name" and not e.inverted:
            ops = sorted(
                (int(a.role[2:]), a.value.strip('"'))
                for a in g.attributes
                if a.source == e.target and a.role.startswith("op") and a.role[2:].isdigit()
            )
            if ops:
                out[e.source] = " ".join(v for _, v in ops)
    return out


class _Entities:
    """Union of mentions into entities, in first-mention order."""

    def __init__(self) -> None:
        self.mentions: list[_Mention] = []
        self.entity: list[int] = []  # mention -> entity
        self.members: list[list[int]] = []  # entity -> mentions

    def add(self, m: _Mention, entity: int | None = None) -> int:
        """Add ``m`` to ``entity`` (a new one when None); its mention index."""
        index = len(self.mentions)
        self.mentions.append(m)
        if entity is None:
            entity = len(self.members)
            self.members.append([])
        self.entity.append(entity)
        self.members[entity].append(index)
        return index


def build_chains(sentences: Sequence[Graph], doc_id: str) -> MsAmrDocument:
    """The coreference document of ``sentences`` (graphs with ``::id``) by the rules in the module docs."""
    from amreval.docamr import Bridge, Chain, Mention, MsAmrDocument

    ents = _Entities()
    by_key: dict[tuple[str, str], int] = {}  # name / concept -> entity
    window_last: dict[str, tuple[int, int]] = {}  # pronoun -> (entity, last sentence)
    # per sentence, its mention indices in PENMAN order (what antecedent and bridge searches scan)
    per_sentence: list[list[int]] = []
    for k, g in enumerate(sentences):
        sid = g.id or f"{doc_id}.{k + 1}"
        names = _names(g)
        here: list[int] = []
        for var, concept in g.instances.items():
            if var in names:
                m = _Mention(k, sid, var, concept, named_person=concept == "person")
                key = ("name", names[var])
                index = ents.add(m, by_key.get(key))
                by_key.setdefault(key, ents.entity[index])
            elif concept in RECURRING:
                key = ("concept", concept)
                index = ents.add(_Mention(k, sid, var, concept), by_key.get(key))
                by_key.setdefault(key, ents.entity[index])
            elif concept in WINDOW_PRONOUNS:
                last = window_last.get(concept)
                entity = last[0] if last is not None and k - last[1] <= WINDOW else None
                index = ents.add(_Mention(k, sid, var, concept), entity)
                window_last[concept] = (ents.entity[index], k)
            elif concept in ("he", "she"):
                index = ents.add(_Mention(k, sid, var, concept), _antecedent(ents, per_sentence, k, concept))
            elif concept in HE_ANTECEDENTS or concept in SHE_ANTECEDENTS or concept in PARTS:
                # a possible antecedent or part: an entity of its own until something joins it
                index = ents.add(_Mention(k, sid, var, concept))
            else:
                continue
            here.append(index)
        per_sentence.append(here)

    # bridging: (kind, head entity, member entity)
    bridges: list[tuple[str, int, int]] = []
    seen_we: set[int] = set()
    for index, m in enumerate(ents.mentions):
        entity = ents.entity[index]
        if m.concept == "we" and entity not in seen_we:
            seen_we.add(entity)
            for form in ("i", "you"):
                member = _last_entity(ents, per_sentence, m.sentence, lambda c, f=form: c == f)
                if member is not None and member != entity:
                    bridges.append(("set-member", entity, member))
        elif m.concept in PARTS:
            wholes = PARTS[m.concept]
            head = _last_entity(ents, per_sentence, m.sentence, lambda c, w=wholes: c in w)
            if head is not None and head != entity:
                bridges.append(("part-whole", head, entity))
    bridges = list(dict.fromkeys(bridges))

    named = {e for _, h, p in bridges for e in (h, p)}
    relation: dict[int, str] = {}
    chains, singletons = [], []
    for entity, members in enumerate(ents.members):
        if len(members) < 2 and entity not in named:
            continue
        rid = f"rel-{len(relation)}"
        relation[entity] = rid
        mentions = [Mention(ents.mentions[i].sid, ents.mentions[i].var, ents.mentions[i].concept) for i in members]
        if len(members) >= 2:
            chains.append(Chain(rid, mentions))
        else:
            singletons.append(Chain(rid, mentions, singleton=True))
    out = []
    for kind, head, member in bridges:
        out.append(Bridge(f"bridge-{len(out)}", kind, relation[head], [relation[member]]))
    return MsAmrDocument(
        doc_id, [g.id or f"{doc_id}.{k + 1}" for k, g in enumerate(sentences)], chains, singletons, out
    )


def _antecedent(ents: _Entities, per_sentence: list[list[int]], k: int, pronoun: str) -> int | None:
    """The entity of the nearest preceding person-like mention of ``he`` / ``she`` (earlier sentences only)."""
    allowed = HE_ANTECEDENTS if pronoun == "he" else SHE_ANTECEDENTS
    for j in range(k - 1, max(-1, k - 1 - WINDOW), -1):
        for index in per_sentence[j]:
            m = ents.mentions[index]
            if m.concept in allowed or (pronoun == "he" and m.named_person):
                return ents.entity[index]
    return None


def _last_entity(ents: _Entities, per_sentence: list[list[int]], k: int, wanted: Callable[[str], bool]) -> int | None:
    """The entity of a mention whose concept ``wanted`` accepts in the latest of sentences ``k - WINDOW .. k``
    that has one (in it, the first in PENMAN order)."""
    for j in range(k, max(-1, k - 1 - WINDOW), -1):
        for index in per_sentence[j]:
            if wanted(ents.mentions[index].concept):
                return ents.entity[index]
    return None


def chain_stats(doc: MsAmrDocument) -> dict[str, int]:
    """Counts of one coreference document: chains, their mentions, singletons and bridges by kind."""
    return {
        "chains": len(doc.chains),
        "mentions": sum(len(c.mentions) for c in doc.chains),
        "singletons": len(doc.singletons),
        "set_member": sum(b.kind == "set-member" for b in doc.bridges),
        "part_whole": sum(b.kind == "part-whole" for b in doc.bridges),
    }
