"""Reading MS-AMR coreference documents (the XML files of the AMR 3.0 release).

One XML file describes one document: its ordered sentence ids, identity
chains (mentions and implicit roles), singletons, and bridging relations
(set-member, part-whole). Elements are found by tag, so the positional
layout does not matter; absent or empty ``<singletons>`` and ``<bridging>``
count as empty.

Example:
    >>> doc = loads_msamr_xml('''<document><sentences docid="D"><amr id="D.1"/></sentences>
    ... <relations><identity><identchain relationid="rel-0">
    ... <mention id="D.1" variable="b" concept="boy"/><mention id="D.1" variable="h" concept="he"/>
    ... </identchain></identity></relations></document>''')
    >>> doc.doc_id, doc.sentence_ids, [m.variable for m in doc.chains[0].mentions]
    ('D', ['D.1'], ['b', 'h'])
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Union

from amreval._warn import warn_caller
from amreval.amr.graph import Graph
from amreval.amr.read import FileSource, iter_graphs, read_bytes
from amreval.errors import DecodeError, InputError

if TYPE_CHECKING:
    import xml.etree.ElementTree as ET

__all__ = [
    "Mention",
    "ImplicitRole",
    "Chain",
    "Bridge",
    "MsAmrDocument",
    "read_msamr_xml",
    "loads_msamr_xml",
    "sentence_amrs",
    "read_sentence_amrs",
    "Amr3Layout",
    "SPLITS",
    "SPLIT_ALIASES",
    "check_split",
    "split_expectation",
    "DEV_DOCUMENTS",
    "TEST_DOCUMENTS",
]

PathLike = Union[str, "os.PathLike[str]"]

#: The 9 official test documents.
TEST_DOCUMENTS = tuple(f"msamr_dfa_{n}" for n in ("007", "027", "041", "063", "077", "081", "093", "095", "134"))
#: The 42 train documents with a second annotation: the DocAMR paper's dev set.
DEV_DOCUMENTS = tuple(
    [
        f"msamr_dfa_{n}"
        for n in (
            "004",
            "018",
            "022",
            "040",
            "044",
            "056",
            "064",
            "066",
            "073",
            "086",
            "092",
            "096",
            "097",
            "100",
            "104",
            "106",
            "108",
            "109",
            "138",
            "147",
        )
    ]
    + [
        f"msamr_dfb_{n}"
        for n in (
            "002",
            "003",
            "006",
            "010",
            "013",
            "015",
            "019",
            "021",
            "022",
            "026",
            "028",
            "032",
            "038",
            "041",
            "054",
            "055",
            "057",
            "061",
            "066",
            "121",
            "133",
            "134",
        )
    ]
)
#: The splits of the DocAMR paper, named as ``datasets`` names them: ``validation`` is its dev set (the 42
#: double-annotated train documents), ``validation_alternative`` their second annotation.
SPLITS = ("train", "validation", "test", "validation_alternative")
#: Older names accepted for the same splits.
SPLIT_ALIASES = {"dev": "validation", "dev-alternative": "validation_alternative"}


def check_split(split: str) -> str:
    """The split's name in :data:`SPLITS` (``dev`` and ``dev-alternative`` are accepted aliases).

    Raises:
        InputError: an unknown split.

    Example:
        >>> check_split("dev-alternative")
        'validation_alternative'
    """
    name = SPLIT_ALIASES.get(split, split)
    if name not in SPLITS:
        raise InputError(
            f"unknown split {split!r}; expected one of {', '.join(SPLITS)} (or the aliases {', '.join(SPLIT_ALIASES)})"
        )
    return name


def split_expectation(split: str) -> str:
    """What a split of the DocAMR paper holds, with the documents it expects by id (for messages and docs).

    Example:
        >>> split_expectation("test")[:76]
        'the test split is the 9 official test documents, in ms-amr-split/test: msamr'
    """
    split = check_split(split)
    dev = ", ".join(DEV_DOCUMENTS)
    if split == "test":
        return f"the test split is the 9 official test documents, in ms-amr-split/test: {', '.join(TEST_DOCUMENTS)}"
    if split == "validation":
        return (
            "the validation split is a fixed list of 42 train documents, those with a second annotation (the "
            f"DocAMR paper's dev set), each expected as <id>.xml in ms-amr-split/train: {dev}"
        )
    if split == "validation_alternative":
        return (
            "the validation_alternative split is the second annotation of the 42 validation documents, each "
            f"expected as <id>.alternative.xml in ms-amr-double-annotations: {dev}"
        )
    return f"the train split is every msamr_*.xml of ms-amr-split/train but the 42 validation documents ({dev})"


def _root_hint(root: Path) -> str:
    """Where the release root is, when ``root`` is inside it or just above it ("" when it is not found)."""

    def is_root(path: Path) -> bool:
        return (path / "data" / "amrs" / "unsplit").is_dir()

    resolved = root.resolve()
    for parent in list(resolved.parents)[:3]:
        if is_root(parent):
            return f" (is {parent} the release root? it contains data/amrs/unsplit)"
    try:
        children = sorted(p for p in resolved.iterdir() if p.is_dir() and is_root(p))
    except OSError:
        children = []
    if children:
        return f" (is {children[0]} the release root? it contains data/amrs/unsplit)"
    return ""


@dataclass(frozen=True)
class Mention:
    """A node named by sentence id and variable."""

    sentence_id: str
    variable: str
    concept: str = ""
    text: str = ""


@dataclass(frozen=True)
class ImplicitRole:
    """A missing ``:ARGk`` of the predicate node (sentence id, parent variable)."""

    sentence_id: str
    parent_variable: str
    argument: str
    parent_concept: str = ""


@dataclass
class Chain:
    """An identity chain (or a singleton) with its relation id."""

    relation_id: str
    mentions: list[Mention] = field(default_factory=list)
    implicit_roles: list[ImplicitRole] = field(default_factory=list)
    singleton: bool = False


@dataclass
class Bridge:
    """A bridging relation: ``kind`` is ``set-member`` or ``part-whole``.

    ``head`` is the superset / whole relation id; ``members`` the member / part ids (all kept).
    """

    relation_id: str
    kind: str
    head: str
    members: list[str] = field(default_factory=list)


@dataclass
class MsAmrDocument:
    """One MS-AMR document."""

    doc_id: str
    sentence_ids: list[str]
    chains: list[Chain] = field(default_factory=list)
    singletons: list[Chain] = field(default_factory=list)
    bridges: list[Bridge] = field(default_factory=list)
    source: str = "<string>"

    def relation(self, relation_id: str) -> Chain | None:
        """The chain or singleton with that relation id."""
        for c in self.chains:
            if c.relation_id == relation_id:
                return c
        for c in self.singletons:
            if c.relation_id == relation_id:
                return c
        return None


def _chain(el: ET.Element, singleton: bool, source: str) -> Chain:
    rid = el.get("relationid")
    if not rid:
        raise DecodeError("an <identchain> without relationid", source=source)
    chain = Chain(rid, singleton=singleton)
    for child in el:
        if child.tag == "mention":
            sid, var = child.get("id"), child.get("variable")
            if not sid or not var:
                raise DecodeError(f"{rid}: a <mention> needs 'id' and 'variable'", source=source)
            chain.mentions.append(Mention(sid, var, child.get("concept", ""), (child.text or "").strip()))
        elif child.tag == "implicitrole":
            sid, pvar, arg = child.get("id"), child.get("parentvariable"), child.get("argument")
            if not sid or not pvar or not arg:
                raise DecodeError(
                    f"{rid}: an <implicitrole> needs 'id', 'parentvariable' and 'argument'", source=source
                )
            chain.implicit_roles.append(ImplicitRole(sid, pvar, arg, child.get("parentconcept", "")))
    return chain


_BAD_ID = re.compile(r"\s|[\x00-\x1f\x7f]|::")
_BRIDGES = {"setmember": ("set-member", "superset", "member"), "partwhole": ("part-whole", "whole", "part")}


def read_msamr_xml(source: FileSource, *, strict: bool = False) -> MsAmrDocument:
    """Read one MS-AMR XML document from a file (a path or an open file).

    The file is read in the encoding its XML declaration names (UTF-8 by default).

    Raises:
        InputError: no such file.
        DecodeError: the XML is malformed, not in its declared encoding, or
            lacks the document structure, or (``strict``) names a sentence twice
            (see :func:`loads_msamr_xml`); the message names the file.
    """
    data, label = read_bytes(source, what="MS-AMR XML file")
    return loads_msamr_xml(data, name=label, strict=strict)


def loads_msamr_xml(text: str | bytes, *, name: str = "<string>", strict: bool = False) -> MsAmrDocument:
    """Read one MS-AMR XML document from a string, or from bytes in the encoding their declaration names
    (``name`` labels it in messages).

    A sentence id listed twice in ``<sentences>`` is one sentence: the repeat is dropped with a warning that
    names it (a document holds each sentence once; its coreference names sentences by id), and is an
    error with ``strict``.

    Raises:
        DecodeError: the XML is malformed or lacks the document structure, or (``strict``) a sentence id
            is listed twice.
    """
    import xml.etree.ElementTree as ET

    label = name
    if isinstance(text, str) and text.startswith("\ufeff"):
        text = text[1:]
    if not isinstance(text, (str, bytes)):
        raise DecodeError(f"expected XML text, got {type(text).__name__}", source=label)
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        line = exc.position[0] if exc.position else None
        raise DecodeError(f"malformed XML: {exc}", source=label, line=line) from None
    except (LookupError, ValueError) as exc:  # an encoding Python does not know
        raise DecodeError(f"cannot read the XML: {exc}", source=label) from None
    sentences = root.find(".//sentences")
    if sentences is None:
        raise DecodeError("expected a <sentences> element", source=label)
    doc_id = sentences.get("docid") or re.sub(r"\s+|::", "_", Path(label).stem)
    sentence_ids = [a.get("id", "") for a in sentences.iter("amr")]
    if not sentence_ids or not all(sentence_ids):
        raise DecodeError("expected <amr id=...> children in <sentences>", source=label)
    for what, value in [("docid", doc_id)] + [("sentence id", sid) for sid in sentence_ids]:
        # ids become PENMAN metadata (# ::id ..., # ::sentence_ids ...): one word each
        if _BAD_ID.search(value):
            raise DecodeError(
                f"the {what} {value!r} has a space, a control character or '::'; expected one word", source=label
            )
    repeated = [sid for k, sid in enumerate(sentence_ids) if sid in sentence_ids[:k]]
    if repeated:
        listed = ", ".join(dict.fromkeys(repeated))
        if strict:
            raise DecodeError(
                f"<sentences> lists the sentence {listed} more than once; expected each once", source=label
            )
        warn_caller(
            f"{label}: <sentences> lists the sentence {listed} more than once; each is read once (the repeat dropped)"
        )
        sentence_ids = list(dict.fromkeys(sentence_ids))
    doc = MsAmrDocument(doc_id, sentence_ids, source=label)
    for ident in root.iter("identity"):
        doc.chains.extend(_chain(c, False, label) for c in ident.iter("identchain"))
    for single in root.iter("singletons"):
        doc.singletons.extend(_chain(c, True, label) for c in single.iter("identchain"))
    for bridging in root.iter("bridging"):
        for el in bridging:
            if el.tag not in _BRIDGES:
                continue
            kind, head_tag, member_tag = _BRIDGES[el.tag]
            head = el.find(head_tag)
            rid = el.get("relationid", "")
            if head is None or not head.get("id"):
                raise DecodeError(f"{rid}: <{el.tag}> without <{head_tag} id=...>", source=label)
            members = [m.get("id", "") for m in el.iter(member_tag)]
            doc.bridges.append(Bridge(rid, kind, head.get("id", ""), [m for m in members if m]))
    return doc


def read_sentence_amrs(sources: Iterable[FileSource] | FileSource) -> dict[str, Graph]:
    """Read sentence AMRs from one or more PENMAN files into a dict keyed by ``::id``.

    Raises:
        InputError: no such file.
        DecodeError: a graph has no ``::id``, two graphs have the same ``::id``
            (in one file or in two; the message names both), or a graph is malformed.
    """
    if isinstance(sources, (str, os.PathLike)) or hasattr(sources, "read"):
        sources = [sources]  # type: ignore[list-item]
    amrs: dict[str, Graph] = {}
    for src in sources:  # type: ignore[union-attr]
        for gid, g in sentence_amrs(iter_graphs(src)).items():
            _check_unique(amrs, gid, g)
            amrs[gid] = g
    return amrs


def _check_unique(amrs: dict[str, Graph], gid: str, g: Graph) -> None:
    if gid in amrs:
        raise DecodeError(
            f"the sentence id {gid} is given twice: {amrs[gid].origin} and {g.origin}; expected each ::id once",
            source=g.origin.split(", graph #")[0],
        )


def sentence_amrs(graphs: Iterable[Graph]) -> dict[str, Graph]:
    """Sentence graphs keyed by their ``::id``.

    Raises:
        DecodeError: a graph has no ``::id``, or two graphs have the same one.
    """
    amrs: dict[str, Graph] = {}
    for g in graphs:
        if not g.id:
            raise DecodeError("a sentence AMR without '# ::id'", source=g.origin)
        _check_unique(amrs, g.id, g)
        amrs[g.id] = g
    return amrs


class Amr3Layout:
    """Where things are inside an AMR 3.0 release root (LDC2020T02).

    Raises:
        InputError: ``root`` is missing or is not an AMR 3.0 release root; the
            message names LDC2020T02 and the expected layout.
    """

    LAYOUT = (
        "expected an AMR 3.0 release root (LDC2020T02) containing data/amrs/unsplit/*.txt, "
        "data/multisentence/ms-amr-split/{train,test}/msamr_*.xml and "
        "data/multisentence/ms-amr-double-annotations/msamr_*.alternative.xml"
    )

    def __init__(self, root: PathLike | str) -> None:
        self.root = Path(root)
        if not self.root.is_dir():
            raise InputError(f"{self.root}: no such directory; {self.LAYOUT}")
        missing = [p for p in (self.unsplit, self.ms_train, self.ms_test) if not p.is_dir()]
        if missing:
            raise InputError(f"{self.root}: {missing[0]} not found{_root_hint(self.root)}; {self.LAYOUT}")

    @property
    def unsplit(self) -> Path:
        return self.root / "data" / "amrs" / "unsplit"

    @property
    def ms_train(self) -> Path:
        return self.root / "data" / "multisentence" / "ms-amr-split" / "train"

    @property
    def ms_test(self) -> Path:
        return self.root / "data" / "multisentence" / "ms-amr-split" / "test"

    @property
    def ms_double(self) -> Path:
        return self.root / "data" / "multisentence" / "ms-amr-double-annotations"

    def amr_files(self) -> list[Path]:
        """The sentence AMR files (``data/amrs/unsplit/*.txt``), sorted."""
        return sorted(self.unsplit.glob("*.txt"))

    def split_files(self, split: str) -> list[Path]:
        """The XML files of a split: ``train`` (242), ``validation`` (42), ``test`` (9),
        ``validation_alternative`` (42); ``dev`` and ``dev-alternative`` are aliases.

        Raises:
            InputError: an unknown split, or a split without any of its files (a partial copy of the
                release): the message names the split, its folder and the documents it expects
                (:func:`split_expectation`).
        """
        split = check_split(split)
        if split == "test":
            files = sorted(self.ms_test.glob("msamr_*.xml"))
        elif split == "validation_alternative":
            files = sorted(self.ms_double.glob("msamr_*.alternative.xml"))
        else:
            train = sorted(self.ms_train.glob("msamr_*.xml"))
            dev = set(DEV_DOCUMENTS)
            files = [p for p in train if (p.stem in dev) == (split == "validation")]
        if not files:
            folder = self.split_folder(split)
            others = sorted(folder.glob("msamr_*.xml")) if folder.is_dir() else []
            held = f"it holds {len(others)} other msamr_*.xml file(s)" if others else "it holds no msamr_*.xml file"
            where = f"in {folder} ({held})" if folder.is_dir() else f"({folder} does not exist)"
            raise InputError(
                f"{self.root}: no MS-AMR XML file of the {split} split {where}; {split_expectation(split)}"
            )
        return files

    def split_folder(self, split: str) -> Path:
        """The folder that holds the XML files of a split."""
        return {"test": self.ms_test, "validation_alternative": self.ms_double}.get(check_split(split), self.ms_train)


def iter_documents(files: Iterable[PathLike | str], *, strict: bool = False) -> Iterator[MsAmrDocument]:
    """Read several MS-AMR XML files in order (``strict``: see :func:`loads_msamr_xml`)."""
    for f in files:
        yield read_msamr_xml(f, strict=strict)
