"""DocAMR from sentence AMRs with alignments plus coreference found in the text.

This is the DocAMR paper's baseline pipeline: a sentence-level AMR parser
gives graphs whose nodes are aligned to tokens
(:mod:`amreval.amr.token_alignments`), an off-the-shelf text coreference
system gives clusters of token spans (:mod:`amreval.docamr.corefiles`), and
the two are joined as ``docamr.md`` ("The text-coreference pipeline")
specifies:

1. **Node spans.** The span of a node is the smallest token span covering
   every token aligned to the node or to one of its descendants in the
   PENMAN tree (re-entrant references are not followed; see
   :func:`~amreval.amr.token_alignments.node_spans`).
2. **Mention to node.** A mention (within one sentence) goes to the node with
   the shortest span that contains it; among ties, to the node with the
   greatest height (the one that subsumes the others, so "Barack Obama"
   becomes the ``person``, not its ``name``), then to the first in written
   order. Tokens at the edges of a mention that are aligned to no node at all
   (typically determiners: "*the* city") are trimmed first, since they can
   only push the mention onto a larger ancestor (pass
   ``trim_unaligned=False`` for the untrimmed rule).
3. **Within-sentence coreference is ignored.** Of the mentions of one cluster
   in one sentence only the first (in token order) that maps to a node is
   kept; a cluster whose mapped mentions all lie in one sentence gives no
   chain.
4. The clusters become identity chains ``rel-0``, ``rel-1`` ... of an
   :class:`~amreval.docamr.msamr.MsAmrDocument`, which goes through the same
   :func:`~amreval.docamr.convert.convert_document` as gold MS-AMR.

Mentions that map to no node (or that cross a sentence boundary) are never
dropped silently: they are listed in the :class:`MappingReport` and warned
about (:class:`~amreval.errors.AmrevalWarning`), or raise in strict mode.

Sources follow the rule of :mod:`amreval.amr.read`: :func:`map_text_coref`
and :func:`text_coref_to_docamr` read **files** (a path or an open text file,
a string always being a path; several AMR files as a list), or take what the
readers return. Text goes through the ``loads_*`` twins first:
:func:`~amreval.amr.token_alignments.loads_aligned_amrs` and
:func:`~amreval.docamr.corefiles.loads_coref`.

Example:
    >>> amrs = '''# ::tok Barack Obama visited Paris .
    ... (v / visit-01~e.2 :ARG0 (p / person :name (n / name :op1 "Barack"~e.0 :op2 "Obama"~e.1))
    ...    :ARG1 (c / city :name (n2 / name :op1 "Paris"~e.3)))
    ...
    ... # ::tok He liked it .
    ... (l / like-01~e.1 :ARG0 (h / he~e.0) :ARG1 (i / it~e.2))'''
    >>> coref = '{"doc_key": "D", "sentences": [["Barack", "Obama", "visited", "Paris", "."], ' \\
    ...         '["He", "liked", "it", "."]], "clusters": [[[0, 1], [5, 5]], [[3, 3], [7, 7]]]}'
    >>> from amreval.amr.token_alignments import loads_aligned_amrs
    >>> from amreval.docamr.corefiles import loads_coref
    >>> [doc] = text_coref_to_docamr(loads_aligned_amrs(amrs), loads_coref(coref))
    >>> print(doc.to_string(indent=None))  # doctest: +NORMALIZE_WHITESPACE
    # ::id D
    # ::tok Barack Obama visited Paris . <next_sent> He liked it .
    # ::sentence_ids D.1 D.2
    (d / document :snt1 (s1.v / visit-01 :ARG0 (s1.p / person :name (s1.n / name :op1 "Barack" :op2 "Obama"))
        :ARG1 (s1.c / city :name (s1.n2 / name :op1 "Paris"))) :snt2 (s2.l / like-01 :ARG0 s1.p :ARG1 s1.c))
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

from amreval._progress import progress_bar
from amreval._warn import warn_caller
from amreval.amr.graph import Graph
from amreval.amr.read import FileSource
from amreval.amr.token_alignments import AlignedSentence, Span, read_aligned_amrs
from amreval.docamr.convert import convert_document
from amreval.docamr.corefiles import CorefDocument, CorefSource, check_coref_format, read_coref
from amreval.docamr.docgraph import check_representation
from amreval.docamr.msamr import Chain, Mention, MsAmrDocument
from amreval.errors import InputError, plural

__all__ = [
    "AmrSource",
    "MappingReport",
    "MentionMapping",
    "chains_from_coref",
    "map_text_coref",
    "text_coref_to_docamr",
]

#: The aligned sentence AMRs of :func:`map_text_coref`: a file (a path, a
#: string always being a path, or an open text file), a list of files, or
#: :class:`~amreval.amr.token_alignments.AlignedSentence` objects (as
#: :func:`~amreval.amr.token_alignments.loads_aligned_amrs` returns).
AmrSource = Union[FileSource, Iterable[FileSource], Iterable[AlignedSentence]]


def _warn(message: str) -> None:
    warn_caller(message)


# ====================================================================== mapping


@dataclass(frozen=True)
class MentionMapping:
    """What became of one mention.

    Attributes:
        cluster: the cluster's index in its document (0-based).
        span: ``(start, end)``, inclusive document-level token offsets.
        sentence: the sentence (0-based) holding the mention; ``None`` when
            it crosses a sentence boundary.
        variable: the node it maps to, or ``None``.
        status: ``chain`` (a member of a chain), ``same-sentence`` (left out:
            an earlier mention of its cluster in the same sentence is kept),
            ``within-sentence`` (its cluster's mapped mentions all lie in one
            sentence: no chain), ``no-node`` or ``crosses-sentences``
            (unmapped).
        text: the mention's words.
    """

    cluster: int
    span: Span
    sentence: int | None
    variable: str | None
    status: str
    text: str = ""


@dataclass
class MappingReport:
    """How the mentions of one document were mapped to nodes.

    Attributes:
        doc_key: the document.
        mentions: one :class:`MentionMapping` per mention, by cluster then span.
        chains: cluster index -> relation id of the chain it became.
    """

    doc_key: str
    mentions: list[MentionMapping] = field(default_factory=list)
    chains: dict[int, str] = field(default_factory=dict)

    @property
    def mapped(self) -> list[MentionMapping]:
        """Mentions that map to a node (whether or not they ended in a chain)."""
        return [m for m in self.mentions if m.variable is not None]

    @property
    def unmapped(self) -> list[MentionMapping]:
        """Mentions that map to no node."""
        return [m for m in self.mentions if m.variable is None]

    @property
    def n_clusters(self) -> int:
        return len({m.cluster for m in self.mentions})

    @property
    def within_sentence(self) -> list[int]:
        """Clusters left without a chain because their mapped mentions share one sentence."""
        return sorted({m.cluster for m in self.mentions if m.status == "within-sentence"})

    def summary(self) -> str:
        """One line: mentions, clusters, mapped, unmapped, chains."""
        return (
            f"document {self.doc_key}: {len(self.mentions)} mentions in {self.n_clusters} clusters, "
            f"{len(self.mapped)} mapped to nodes, {len(self.unmapped)} unmapped; {len(self.chains)} chains, "
            f"{len(self.within_sentence)} clusters within one sentence"
        )


def _as_sentence(item: AlignedSentence | str) -> AlignedSentence:
    if isinstance(item, AlignedSentence):
        return item
    if isinstance(item, str):
        return AlignedSentence.from_penman(item)
    raise InputError(f"expected an AlignedSentence or PENMAN text, got {type(item).__name__}")


def chains_from_coref(
    doc: CorefDocument,
    sentence_graphs: Sequence[AlignedSentence | str],
    *,
    strict: bool = False,
    trim_unaligned: bool = True,
) -> tuple[MsAmrDocument, MappingReport]:
    """Map the clusters of a document onto its sentence graphs.

    Args:
        doc: the coreference document.
        sentence_graphs: one aligned graph per sentence of ``doc``, in order
            (:class:`AlignedSentence` or PENMAN text). A graph without
            ``::id`` gets ``<doc_key>.<k>`` (k 1-based), written into its
            metadata so that it can be looked up by that id.
        strict: raise on a mention that maps to no node or crosses a sentence
            boundary (default: warn and leave it out).
        trim_unaligned: drop unaligned tokens at a mention's edges before
            mapping (see the module docs).

    Returns:
        The identity chains as an :class:`~amreval.docamr.msamr.MsAmrDocument`
        (``rel-0``, ``rel-1`` ... in cluster order; mentions in token order)
        and the :class:`MappingReport`.

    Raises:
        InputError: a different number of sentences or of tokens in a
            sentence (names the document, the sentence and both counts), an
            alignment beyond a sentence, a bad span, duplicate sentence ids,
            or in strict mode an unmapped mention.

    Example:
        >>> doc = CorefDocument("D", [["Obama", "slept"], ["He", "woke"]], [[(0, 0), (2, 2)]])
        >>> ms, report = chains_from_coref(doc, ['(s / sleep-01~e.1 :ARG0 (p / person~e.0))',
        ...                                      '(w / wake-01~e.1 :ARG0 (h / he~e.0))'])
        >>> [(m.sentence_id, m.variable) for m in ms.chains[0].mentions], report.chains
        ([('D.1', 'p'), ('D.2', 'h')], {0: 'rel-0'})
    """
    doc.validate()
    sentences = [_as_sentence(s) for s in sentence_graphs]
    if len(sentences) != len(doc.sentences):
        raise InputError(
            f"{doc.where} has {plural(len(doc.sentences), 'sentence')} but {len(sentences)} AMR graphs "
            "were given for it"
        )
    ids: list[str] = []
    for k, (sent, words) in enumerate(zip(sentences, doc.sentences)):
        sid = sent.graph.id
        if not sid:
            sid = f"{doc.doc_key}.{k + 1}"
            sent.graph.metadata["id"] = sid
        if sid in ids:
            raise InputError(f"{doc.where}: sentences {ids.index(sid) + 1} and {k + 1} both have the id {sid}")
        ids.append(sid)
        if sent.tokens is not None and len(sent.tokens) != len(words):
            raise InputError(
                f"{doc.where}, sentence {k + 1} (id {sid}): the coreference file has {len(words)} "
                f"tokens but the AMR graph {sent.label} has {len(sent.tokens)}"
            )
        if sent.tokens is None:
            sent.check_range(len(words))
    offsets = doc.offsets
    tokens = doc.tokens
    report = MappingReport(doc.doc_key)
    ms = MsAmrDocument(doc.doc_key, ids, source=doc.source)
    for c, cluster in enumerate(doc.clusters):
        entries: list[MentionMapping] = []
        members: dict[int, MentionMapping] = {}
        for start, end in sorted(set(cluster)):
            text = " ".join(tokens[start : end + 1])
            # the last sentence starting at or before the mention (so never an empty one)
            k = bisect.bisect_right(offsets, start) - 1
            if end >= offsets[k] + len(doc.sentences[k]):
                entry = MentionMapping(c, (start, end), None, None, "crosses-sentences", text)
                _unmapped(doc, entry, f"crosses the boundary after sentence {k + 1} ({ids[k]})", strict)
                entries.append(entry)
                continue
            var = sentences[k].node_for(start - offsets[k], end - offsets[k], trim_unaligned=trim_unaligned)
            if var is None:
                entry = MentionMapping(c, (start, end), k, None, "no-node", text)
                _unmapped(doc, entry, f"maps to no node of sentence {k + 1} ({ids[k]})", strict)
                entries.append(entry)
                continue
            if k in members:
                entries.append(MentionMapping(c, (start, end), k, var, "same-sentence", text))
                continue
            entry = MentionMapping(c, (start, end), k, var, "chain", text)
            members[k] = entry
            entries.append(entry)
        if len(members) >= 2:
            rid = f"rel-{len(report.chains)}"
            report.chains[c] = rid
            ms.chains.append(
                Chain(
                    rid,
                    [
                        Mention(ids[k], m.variable, sentences[k].graph.instances.get(m.variable, ""), m.text)  # type: ignore[arg-type]
                        for k, m in sorted(members.items())
                    ],
                )
            )
        else:
            entries = [
                MentionMapping(e.cluster, e.span, e.sentence, e.variable, "within-sentence", e.text)
                if e.variable is not None
                else e
                for e in entries
            ]
        report.mentions.extend(entries)
    return ms, report


def _unmapped(doc: CorefDocument, entry: MentionMapping, why: str, strict: bool) -> None:
    msg = f"{doc.where}, cluster {entry.cluster}: mention [{entry.span[0]}, {entry.span[1]}] {entry.text!r} {why}"
    if strict:
        raise InputError(msg)
    _warn(msg + "; left out")


def _sentences_of(amr_source: AmrSource) -> list[AlignedSentence]:
    if isinstance(amr_source, (str, os.PathLike, bytes, bytearray)) or hasattr(amr_source, "read"):
        return read_aligned_amrs(amr_source)  # type: ignore[arg-type]
    items: list[Any] = list(amr_source)  # type: ignore[arg-type]
    if items and all(isinstance(s, AlignedSentence) for s in items):
        return items
    return read_aligned_amrs(items)


def _documents_of(coref_source: CorefSource | Iterable[CorefDocument], coref_format: str) -> list[CorefDocument]:
    if isinstance(coref_source, (str, os.PathLike, bytes, bytearray)) or hasattr(coref_source, "read"):
        return read_coref(coref_source, coref_format)  # type: ignore[arg-type]
    items: list[Any] = list(coref_source)  # type: ignore[arg-type]
    if items and all(isinstance(d, CorefDocument) for d in items):
        return items
    return read_coref(items, coref_format)


def map_text_coref(
    amr_source: AmrSource,
    coref_source: CorefSource | Iterable[CorefDocument],
    *,
    coref_format: str = "jsonlines",
    strict: bool = False,
    trim_unaligned: bool = True,
) -> list[tuple[MsAmrDocument, dict[str, Graph], MappingReport]]:
    """Map a coreference file onto aligned sentence AMRs, document by document.

    The k-th document of the coreference file takes the next
    ``len(sentences)`` graphs of the AMR source; every graph must be used.

    Args:
        amr_source: the aligned sentence AMRs of all documents, in order: a
            PENMAN file (a path or an open text file; a string is always a
            path), a list of files, or a list of
            :class:`~amreval.amr.token_alignments.AlignedSentence` (for text:
            :func:`~amreval.amr.token_alignments.loads_aligned_amrs`).
        coref_source: the coreference file (a path or an open text file; a
            string is always a path), its lines as a list, or a list of
            :class:`~amreval.docamr.corefiles.CorefDocument` (for text:
            :func:`~amreval.docamr.corefiles.loads_coref`).
        coref_format: ``jsonlines`` (default) or ``conll``, for a file.
        strict: see :func:`chains_from_coref`.
        trim_unaligned: see :func:`chains_from_coref`.

    Returns:
        For each document: its chains, its sentence graphs by id (ready for
        :func:`~amreval.docamr.convert.convert_document`) and its report.

    Raises:
        InputError: an unknown coreference format, no such file, too few or
            too many graphs, and what :func:`chains_from_coref` and the
            readers raise.
        DecodeError: a file that is not UTF-8 text, a malformed graph.
    """
    check_coref_format(coref_format)
    sentences = _sentences_of(amr_source)
    docs = _documents_of(coref_source, coref_format)
    out: list[tuple[MsAmrDocument, dict[str, Graph], MappingReport]] = []
    used = 0
    for doc in docs:
        need = len(doc.sentences)
        if used + need > len(sentences):
            raise InputError(
                f"{doc.where} needs {need} sentence graphs, but only {len(sentences) - used} of the "
                f"{len(sentences)} AMR graphs are left (graphs are taken in order, document by document)"
            )
        mine = sentences[used : used + need]
        used += need
        ms, report = chains_from_coref(doc, mine, strict=strict, trim_unaligned=trim_unaligned)
        out.append((ms, {s.graph.id: s.graph for s in mine if s.graph.id}, report))  # type: ignore[misc]
    if used != len(sentences):
        raise InputError(
            f"the coreference file's {len(docs)} documents have {plural(used, 'sentence')}, but there are "
            f"{len(sentences)} AMR graphs"
        )
    return out


def text_coref_to_docamr(
    amr_source: AmrSource,
    coref_source: CorefSource | Iterable[CorefDocument],
    *,
    coref_format: str = "jsonlines",
    rep: str = "docamr",
    strict: bool = False,
    trim_unaligned: bool = True,
    reports: list[MappingReport] | None = None,
    progress: bool | None = None,
) -> list[Graph]:
    """DocAMR graphs from aligned sentence AMRs plus a text coreference file.

    Args:
        amr_source: PENMAN with alignments, the graphs of all documents in
            order: a file (a path or an open text file; a string is always a
            path), a list of files, or aligned sentences (for text:
            :func:`~amreval.amr.token_alignments.loads_aligned_amrs`).
        coref_source: the coreference file (a path or an open text file; a
            string is always a path), its lines as a list, or its documents
            (for text: :func:`~amreval.docamr.corefiles.loads_coref`).
        coref_format: ``jsonlines`` (default) or ``conll``, for a file.
        rep: ``docamr`` (default), ``no-merge``, ``merge-names`` or ``merge-all``.
        strict: raise on an unmapped mention (default: warn and leave it out).
        trim_unaligned: see :func:`chains_from_coref`.
        reports: if given, the :class:`MappingReport` of each document is
            appended to it.
        progress: progress bar over documents (default: on a terminal only).

    Returns:
        One document graph per coreference document (see
        :func:`~amreval.docamr.convert.convert_document`).

    Raises:
        InputError: see :func:`map_text_coref`; an unknown representation.
    """
    rep = check_representation(rep)
    out = []
    mapped = map_text_coref(
        amr_source, coref_source, coref_format=coref_format, strict=strict, trim_unaligned=trim_unaligned
    )
    for ms, amrs, report in progress_bar(mapped, enable=progress, desc="converting", unit="doc"):
        out.append(convert_document(ms, amrs, rep, strict=strict))
        if reports is not None:
            reports.append(report)
    return out
