"""Document-level MFβ: a generated paragraph against a reference document.

* **Meaning.** The paragraph is split into sentences (:func:`split_sentences`,
  or the sentences given), each sentence is parsed (the parser, or the parses
  given), coreference across sentences is added by a text coreference system
  (a callable, or clusters given in the formats of
  :mod:`amreval.docamr.corefiles`) through the text-coreference → DocAMR path
  (:func:`~amreval.docamr.textcoref.chains_from_coref`, then
  :func:`~amreval.docamr.convert.convert_document`), and the document graph
  is scored against the gold DocAMR with DocSmatch
  (:func:`~amreval.scores.docsmatch.docsmatch`, corpus counts summed over
  documents). Meaning is its F1; the coreference sub-score is reported beside
  it as ``coreference``. Mentions map to nodes through the parses' token
  alignments (``~e.N`` markers, JAMR or IBM lines, as the text-coreference
  path reads them); a parse without alignments takes no coreference. A failed
  parse is the authors' one-node graph, counted.
* **Sentence counts.** Generated sentence k is aligned with gold sentence k
  (the DocSmatch sentence constraint): extra generated sentences match
  nothing, missing ones leave gold triples unmatched. Documents whose counts
  differ are counted (``sentence_mismatches``, positions in ``mismatched``).
* **Form.** The preference of the whole paragraph over the whole reference
  text (:mod:`amreval.mfbeta.paragraph_form`, long inputs in windows); Form
  is the share of acceptable documents.

The coreference system, when a callable, is called once per document with
the sentences' tokens (``list[list[str]]``: a parse's ``::tok`` when it has
one, else the sentence split on whitespace) and returns clusters of inclusive
``(start, end)`` spans over document-level token offsets (the jsonlines
convention), or a :class:`~amreval.docamr.corefiles.CorefDocument`. Given
clusters are one per document: a ``CorefDocument``, a jsonlines line (as
text), or a coreference file holding one document per paragraph in order.
Without coreference, the sentences are joined without chains.

Example:
    >>> split_sentences('He slept. Dr. Smith woke at 5 a.m. and left! "Why?" she asked.')
    ['He slept.', 'Dr. Smith woke at 5 a.m. and left!', '"Why?" she asked.']
"""

from __future__ import annotations

import copy
import os
import re
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from amreval.amr.graph import Graph
from amreval.amr.token_alignments import AlignedSentence
from amreval.docamr.convert import convert_document
from amreval.docamr.corefiles import CorefDocument, CorefSource, check_coref_format, loads_coref, read_coref
from amreval.docamr.docgraph import check_representation
from amreval.docamr.document import document_graph
from amreval.docamr.msamr import MsAmrDocument
from amreval.docamr.textcoref import chains_from_coref
from amreval.errors import AmrevalWarning, DecodeError, InputError, numbered
from amreval.match.options import SearchOptions
from amreval.mfbeta.combine import BETAS, mf_beta
from amreval.mfbeta.form import form_from_scores, get_scorer
from amreval.mfbeta.options import FormOptions, MeaningOptions, mfbeta_options
from amreval.mfbeta.paragraph_form import paragraph_scores, resolve_window
from amreval.mfbeta.parsers import FAILED_PARSE, get_parser, parse_sentences
from amreval.scores.checks import check_bool
from amreval.scores.docsmatch import docsmatch
from amreval.scores.f1 import prf_or_none
from amreval.scores.harness import strict_option
from amreval.scores.results import Config, Result
from amreval.scores.s2match import DEFAULT_CUTOFF, DEFAULT_DIFFSENSE
from amreval.scores.text import plural

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from amreval.mfbeta.options import MFBetaKeywords

__all__ = [
    "ABBREVIATIONS",
    "CorefLike",
    "CorefSystem",
    "DocumentLike",
    "DocumentMFResult",
    "SentenceParse",
    "document_mfbeta",
    "split_sentences",
]

#: Words written with a final period that do not end a sentence (compared in lower case).
ABBREVIATIONS = frozenset(
    "mr. mrs. ms. dr. prof. st. jr. sr. mt. vs. etc. e.g. i.e. a.m. p.m. no. fig. vol. cf. approx.".split()
)
_CLOSERS = "\"')]}»”’"
_OPENING = {")": "(", "]": "[", "}": "{", "»": "«", "”": "“", "’": "‘"}
_END = re.compile(r"[.!?…]+[" + re.escape(_CLOSERS) + r"]*$")

#: A coreference system: the tokens of each sentence -> clusters of document-level spans (or a CorefDocument).
CorefSystem = Callable[[list[list[str]]], CorefDocument | Sequence[Sequence[tuple[int, int]]]]
#: What ``coref=`` takes: a coreference system, a coreference file (its path, an open file or its lines), or
#: per paragraph a :class:`~amreval.docamr.corefiles.CorefDocument` or a jsonlines line; None for none.
CorefLike = CorefSystem | CorefSource | Sequence[CorefDocument | str] | None
#: A gold document: its DocAMR (PENMAN or a Graph) or the list of its sentence graphs.
DocumentLike = str | Graph | Sequence[str | Graph]
#: A sentence's parse given: PENMAN (with alignments for coreference), an aligned sentence, a Graph, or
#: None for a failed parse.
SentenceParse = str | Graph | AlignedSentence | None
#: The shortcuts document-level MFβ does not take: its Meaning is DocSmatch.
_S2MATCH_ONLY = ("vectors", "cutoff", "diffsense")
_S2MATCH_DEFAULTS = (None, DEFAULT_CUTOFF, DEFAULT_DIFFSENSE)


def split_sentences(paragraph: str) -> list[str]:
    """Split a paragraph into sentences, deterministically.

    The paragraph is read as whitespace-separated words. A sentence ends after
    a word ending in ``.``, ``!``, ``?`` or ``…`` (possibly followed by closing
    quotes or brackets), unless that word is a listed abbreviation
    (:data:`ABBREVIATIONS`), a single letter with a period (an initial:
    ``J.``), or the next word starts with a lower-case letter or a digit
    (``5 a.m. and``; ``3.5``-style numbers never end in a period). In
    tokenized text a closing quote or bracket written apart (``" Go . "``)
    stays with the sentence when it ends the paragraph, is followed by a
    lower-case word, or closes one opened before it (an odd number of ``"``
    in the sentence, or in the paragraph so far when the sentence has none;
    more ``(`` than ``)``); else it starts the next sentence.
    Each sentence is its words joined by one space; a paragraph of whitespace
    has no sentences.
    """
    words = paragraph.split()
    out: list[str] = []
    current: list[str] = []
    ended = False  # the word before ended the sentence, but a detached closing mark followed it
    for k, word in enumerate(words):
        current.append(word)
        if not (ended or _END.search(word)):
            continue
        ended = False
        bare = word.rstrip(_CLOSERS).lstrip("\"'([{«“‘")
        if bare.endswith(".") and (bare.lower() in ABBREVIATIONS or re.fullmatch(r"[A-Za-z]\.", bare)):
            continue
        following = words[k + 1] if k + 1 < len(words) else ""
        if _closes(following, words[k + 2] if k + 2 < len(words) else "", current, words[: k + 1]):
            ended = True  # tokenized text: the sentence ends after its closing quote or bracket
            continue
        if following[:1].islower() or following[:1].isdigit():
            continue
        out.append(" ".join(current))
        current = []
    if current:
        out.append(" ".join(current))
    return out


def _closes(word: str, after: str, sentence: list[str], before: list[str]) -> bool:
    """Whether ``word``, all closing marks and written apart, closes what the words ``before`` opened.

    In tokenized text (``he said : " Go . "``) a quote stands alone after the period. It closes (and
    stays with the sentence before it) when it is the paragraph's last word, when the word ``after``
    it starts in lower case (``! " he asked``), or when the ``sentence`` holds an odd number of that
    quote mark (more openings than closings of a bracket); a sentence with none of the mark leaves
    it to the paragraph so far (``before``). Else it opens the next sentence.
    """
    if not word or word.strip(_CLOSERS):
        return False
    if not after or after[:1].islower():
        return True
    mark = word[0]
    for words in (sentence, before):  # the sentence's own quotes decide; without any, the paragraph's
        if mark in "\"'":  # apostrophes are not quotes: a ' counts when written apart
            n = " ".join(words).count(mark) if mark == '"' else words.count(mark)
            if n:
                return n % 2 == 1
        else:
            text, opening = " ".join(words), _OPENING[mark]
            if text.count(opening) or text.count(mark):
                return text.count(opening) > text.count(mark)
    return False


@dataclass
class DocumentMFResult(Result):
    """Document-level MFβ of a corpus of paragraphs.

    Attributes:
        meaning, form, beta, mf_beta, scores: as in :class:`~amreval.mfbeta.score.MFResult`
            (Meaning is corpus DocSmatch F1).
        coreference: the DocSmatch coreference sub-score (F1), a part of Meaning reported on its own;
            None when neither side has coreference items (0/0).
        meaning_counts, coreference_counts: ``(match, test, gold)`` of each.
        sentences, reference_sentences: per document, the generated and the gold sentence counts.
        sentence_mismatches: documents whose counts differ (positions in ``mismatched``).
        parse_failures: generated sentences whose parse failed (``failed``: ``(document, sentence)``);
            ``reference_parse_failures`` likewise when the references were parsed.
        unmapped_mentions: coreference mentions that mapped to no node (left out, with a warning).
        chains: cross-sentence coreference chains built, per document.
        pref_scores, acceptable: per document (Form); ``docsmatch_f1`` per document (Meaning).
        over_budget: documents whose DocSmatch alignment problem was over the memory budget and was
            aligned within it (their match a lower bound; ``n_over_budget``).
        config: the settings (``level=document``, ``window``, ``stride``, ...).
    """

    meaning: float
    coreference: float | None
    form: float
    beta: float
    mf_beta: float
    scores: dict[str, float]
    meaning_counts: tuple[float, int, int]
    coreference_counts: tuple[int, int, int]
    sentences: list[int]
    reference_sentences: list[int]
    sentence_mismatches: int
    mismatched: list[int]
    parse_failures: int
    failed: list[tuple[int, int]]
    reference_parse_failures: int
    unmapped_mentions: int
    chains: list[int]
    pref_scores: list[float]
    acceptable: list[bool]
    docsmatch_f1: list[float]
    config: Config = field(default_factory=lambda: Config("mfbeta"))
    documents: list[Graph] = field(default_factory=list, repr=False)
    over_budget: list[int] = field(default_factory=list)

    def as_dict(self, per_example: bool = False) -> dict[str, Any]:
        """Flat numbers and the config; per-document lists when asked."""
        out: dict[str, Any] = {
            "mf_beta": self.mf_beta,
            **self.scores,
            "meaning": self.meaning,
            "coreference": self.coreference,
            "coreference_match": self.coreference_counts[0],
            "coreference_test": self.coreference_counts[1],
            "coreference_gold": self.coreference_counts[2],
            "form": self.form,
            "beta": self.beta,
            "sentence_mismatches": self.sentence_mismatches,
            "parse_failures": self.parse_failures,
            "reference_parse_failures": self.reference_parse_failures,
            "unmapped_mentions": self.unmapped_mentions,
            "n_over_budget": len(self.over_budget),
        }
        if per_example:
            out["pref_scores"] = list(self.pref_scores)
            out["acceptable"] = list(self.acceptable)
            out["docsmatch_f1"] = list(self.docsmatch_f1)
            out["sentences"] = list(self.sentences)
            out["reference_sentences"] = list(self.reference_sentences)
        out["score"] = self.config.score
        out["config"] = self.config.as_string()
        return out


def _paragraphs(texts: Sequence[str], label: str) -> list[str]:
    if isinstance(texts, str):
        raise InputError(f"{label}: expected a list of paragraphs, got a single string")
    out = list(texts)
    for k, t in enumerate(out):
        if not isinstance(t, str):
            raise InputError(f"{numbered(f'{label} paragraph', k)}: expected a string, got {type(t).__name__}")
        if not t.strip():
            raise InputError(
                f"{numbered(f'{label} paragraph', k)}: empty paragraph; a document needs at least one sentence"
            )
    return out


def _split(paragraphs: list[str], given: Sequence[Sequence[str]] | None, label: str) -> list[list[str]]:
    """The sentences of each paragraph: split, or given (one list per paragraph)."""
    if given is None:
        return [split_sentences(p) for p in paragraphs]
    if isinstance(given, str) or len(given) != len(paragraphs):
        n = "a string" if isinstance(given, str) else len(given)
        raise InputError(
            f"{len(paragraphs)} {label} paragraphs but {n} lists of sentences; they are paired by position"
        )
    out = []
    for d, sents in enumerate(given):
        paragraph = numbered(f"{label} paragraph", d)
        if isinstance(sents, str) or not sents:
            raise InputError(f"{paragraph}: expected a non-empty list of its sentences, got {sents!r:.40}")
        for k, s in enumerate(sents):
            if not isinstance(s, str) or not s.strip():
                raise InputError(f"{numbered(f'{paragraph}, sentence', k)}: expected a non-empty string, got {s!r:.40}")
        out.append([" ".join(s.split()) for s in sents])
    return out


def _aligned(item: Any) -> AlignedSentence | None:
    """A given or produced parse as an aligned sentence; None when it is a failed parse."""
    if isinstance(item, AlignedSentence):  # a copy: its graph gets the document's sentence id
        return None if item.graph.is_empty() or item.graph.top is None else copy.deepcopy(item)
    if isinstance(item, Graph):
        item = item.to_string()
    if not isinstance(item, str) or not item.strip() or "(" not in item:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AmrevalWarning)
            sent = AlignedSentence.from_penman(item)
    except (DecodeError, InputError):
        return None
    if sent.graph.is_empty() or sent.graph.top is None:
        return None
    return sent


def _parses(
    sentences: list[list[str]],
    given: Sequence[Sequence[Any]] | None,
    meaning: MeaningOptions,
    label: str,
    progress: bool | None,
) -> tuple[list[list[AlignedSentence]], list[tuple[int, int]]]:
    """Aligned parses of every sentence (the dummy graph where a parse failed) and the failed positions:
    given, or made by Meaning's parser."""
    if given is not None:
        if isinstance(given, str) or len(given) != len(sentences):
            n = "a string" if isinstance(given, str) else len(given)
            raise InputError(
                f"{len(sentences)} {label} paragraphs but {n} lists of parses; they are paired by position"
            )
        per_doc: list[list[Any]] = []
        for d, (sents, amrs) in enumerate(zip(sentences, given)):
            if not isinstance(amrs, (list, tuple)) or len(amrs) != len(sents):
                n = f"{len(amrs)} parses" if isinstance(amrs, (list, tuple)) else f"a {type(amrs).__name__}"
                raise InputError(
                    f"{numbered(f'{label} paragraph', d)}: {len(sents)} sentences but {n}; give one parse per sentence "
                    "(split_sentences shows the split)"
                )
            per_doc.append(list(amrs))
    else:
        assert meaning.parser is not None  # checked where the call comes in
        flat = [s for sents in sentences for s in sents]
        result = parse_sentences(
            get_parser(meaning.parser, batch_size=meaning.batch_size, device=meaning.device),
            flat,
            batch_size=meaning.batch_size,
            device=meaning.device,
            progress=progress,
            cache=meaning.cache,
        )
        texts = iter(result.penman)
        per_doc = [[next(texts) for _ in sents] for sents in sentences]
    out: list[list[AlignedSentence]] = []
    failed: list[tuple[int, int]] = []
    for d, items in enumerate(per_doc):
        doc = []
        for k, item in enumerate(items):
            sent = _aligned(item)
            if sent is None:
                failed.append((d, k))
                sent = AlignedSentence.from_penman(FAILED_PARSE)
            doc.append(sent)
        out.append(doc)
    return out, failed


def _coref_documents(
    coref: CorefLike, n: int, coref_format: str, label: str
) -> list[CorefDocument | None] | CorefSystem:
    """Given clusters, one document per paragraph, or the coreference system; None: no coreference."""
    if coref is None:
        return [None] * n
    if callable(coref) and not isinstance(coref, (str, os.PathLike)):
        return coref  # type: ignore[no-any-return]
    check_coref_format(coref_format)
    if isinstance(coref, (str, os.PathLike)) or hasattr(coref, "read"):
        docs: list[CorefDocument] = read_coref(cast("CorefSource", coref), coref_format)
    else:
        docs = []
        for d, item in enumerate(coref):
            if isinstance(item, CorefDocument):
                docs.append(item)
            elif isinstance(item, str):
                found = loads_coref(item, coref_format, name=numbered(f"{label} coreference", d))
                if len(found) != 1:
                    raise InputError(
                        f"{numbered(f'{label} coreference', d)}: expected one document, found {len(found)}"
                    )
                docs.append(found[0])
            else:
                raise InputError(
                    f"{numbered(f'{label} coreference', d)}: expected a CorefDocument or a jsonlines line, "
                    f"got {type(item).__name__}"
                )
    if len(docs) != n:
        raise InputError(f"{n} {label} paragraphs but {len(docs)} coreference documents; they are paired by position")
    return list(docs)


def _tokens(sent: AlignedSentence, text: str) -> list[str]:
    return list(sent.tokens) if sent.tokens is not None else text.split()


def _build(
    sentences: list[list[str]],
    parses: list[list[AlignedSentence]],
    coref: list[CorefDocument | None] | CorefSystem,
    rep: str,
    label: str,
) -> tuple[list[Graph], int, list[int]]:
    """The DocAMR of each paragraph, the unmapped mentions and the chains per document."""
    graphs: list[Graph] = []
    unmapped = 0
    chains: list[int] = []
    for d, (sents, aligned) in enumerate(zip(sentences, parses)):
        key = f"{label}-{d}"
        for k, sent in enumerate(aligned):
            sent.graph.metadata["id"] = f"{key}.{k + 1}"
        tokens = [_tokens(s, t) for s, t in zip(aligned, sents)]
        doc: CorefDocument | None
        if callable(coref):
            found = coref(tokens)
            if isinstance(found, CorefDocument):
                doc = found
            else:
                doc = CorefDocument(key, tokens, _clusters(found, numbered(f"{label} paragraph", d)))
                doc.source = f"the coreference system on {numbered(f'{label} paragraph', d)}"
        else:
            doc = coref[d]
        if doc is None:
            ms = MsAmrDocument(key, [s.graph.id for s in aligned])  # type: ignore[misc]
        else:
            if len(doc.sentences) != len(sents):
                raise InputError(
                    f"{numbered(f'{label} paragraph', d)}: the coreference document {doc.doc_key!r} has "
                    f"{plural(len(doc.sentences), 'sentence')} but the paragraph has {len(sents)}; "
                    "clusters name sentences by position"
                )
            ms, report = chains_from_coref(doc, aligned)
            unmapped += len(report.unmapped)
        chains.append(len(ms.chains))
        graphs.append(convert_document(ms, {s.graph.id: s.graph for s in aligned}, rep))  # type: ignore[misc]
    return graphs, unmapped, chains


def _clusters(found: Any, where: str) -> list[list[tuple[int, int]]]:
    try:
        return [[(int(s), int(e)) for s, e in cluster] for cluster in found]
    except (TypeError, ValueError):
        raise InputError(
            f"{where}: the coreference system returned {found!r:.60}; expected clusters of (start, end) spans"
        ) from None


def _gold_sentences(graph: Graph) -> int:
    """The sentences of a gold document graph: its highest ``:sntN`` (1 without ``:snt`` edges)."""
    numbers = [
        int(m.group(1))
        for e in graph.edges
        if e.source == graph.top
        for m in [re.match(r"snt(\d+)$", e.role, re.I)]
        if m
    ]
    return max(numbers, default=1)


def document_mfbeta(
    generated: Sequence[str],
    references: Sequence[str],
    *,
    reference_amrs: Sequence[DocumentLike] | None = None,
    sentences: Sequence[Sequence[str]] | None = None,
    prediction_amrs: Sequence[Sequence[SentenceParse]] | None = None,
    coref: CorefLike = None,
    coref_format: str = "jsonlines",
    reference_sentences: Sequence[Sequence[str]] | None = None,
    reference_parses: Sequence[Sequence[SentenceParse]] | None = None,
    reference_coref: CorefLike = None,
    rep: str = "docamr",
    window: int | None = None,
    stride: int | None = None,
    form: FormOptions | None = None,
    meaning: MeaningOptions | None = None,
    search: SearchOptions | None = None,
    beta: float = 1.0,
    progress: bool | None = None,
    strict: bool = False,
    **shortcuts: Unpack[MFBetaKeywords],
) -> DocumentMFResult:
    """Document-level MFβ of generated paragraphs against reference documents (see the module docs).

    Args:
        generated: the generated paragraphs, one per document (none may be empty).
        references: the reference texts (Form compares with them; parsed when no ``reference_amrs``).
        reference_amrs: the gold DocAMR of each document (PENMAN, a Graph, or a list of sentence graphs).
        sentences: the sentences of each generated paragraph (default: :func:`split_sentences`).
        prediction_amrs: per paragraph, one parse per sentence (PENMAN with alignments for coreference,
            an :class:`~amreval.amr.token_alignments.AlignedSentence`, a Graph, or None for a failed
            parse); otherwise Meaning's ``parser`` parses.
        coref: the coreference of the generated paragraphs: a callable (see the module docs), or
            clusters given (a coreference file, or per paragraph a ``CorefDocument`` or jsonlines line);
            None: no cross-sentence coreference.
        coref_format: ``jsonlines`` or ``conll``, for a coreference file or lines given.
        reference_sentences, reference_parses, reference_coref: the same for the references, when there
            are no ``reference_amrs`` (``reference_coref`` defaults to ``coref`` when that is a callable).
        rep: the DocAMR representation of the built documents (``docamr``, ``no-merge``, ...).
        window, stride: the language model's windows over long paragraphs
            (:mod:`amreval.mfbeta.paragraph_form`; default: the model's limit, half of it).
        form, meaning, search, beta, progress, **shortcuts: as for :func:`~amreval.mfbeta.score.mfbeta`.
            Meaning here is DocSmatch, not S²match: of :class:`~amreval.mfbeta.options.MeaningOptions` it
            takes the parser's ``parser``, ``batch_size``, ``device``, ``cache`` and DocSmatch's
            ``num_workers``; ``vectors``, ``cutoff`` and ``diffsense`` are not taken.
        strict: a document pair whose alignment problem is over the memory budget raises
            :class:`~amreval.errors.TooLargeError` (naming the pair) instead of being aligned within it
            and counted (``n_over_budget``); failed parses are counted either way.

    Raises:
        InputError: counts that differ, an empty paragraph, a parse count that is not the sentence
            count, coreference for a sentence or token that does not exist, neither parses nor a parser,
            a Meaning with S²match settings, or a bad setting (the message names the paragraph).
        TypeError: a keyword that is neither an argument nor a shortcut (``vectors=``, say).
    """
    form, meaning, search = mfbeta_options(form, meaning, search, shortcuts, refused=_S2MATCH_ONLY)
    strict = bool(check_bool("strict", strict))
    if (meaning.vectors, meaning.cutoff, meaning.diffsense) != _S2MATCH_DEFAULTS:
        raise InputError(
            "document-level Meaning is DocSmatch: meaning's vectors, cutoff and diffsense (S²match's) do not apply"
        )
    gen = _paragraphs(generated, "generated")
    refs = _paragraphs(references, "reference")
    n = len(gen)
    if len(refs) != n:
        raise InputError(f"{n} generated paragraphs but {plural(len(refs), 'reference')}; they are paired by position")
    if n == 0:
        raise InputError("nothing to score: no generated paragraphs")
    mf_beta(1.0, 1.0, beta)
    rep = check_representation(rep)
    if prediction_amrs is None and meaning.parser is None:
        raise InputError("Meaning needs the sentences' AMRs: pass parser= or prediction_amrs=")
    if reference_amrs is None and reference_parses is None and meaning.parser is None:
        raise InputError(
            "without reference_amrs, Meaning compares with parsed references: pass parser= or reference_parses="
        )
    sents = _split(gen, sentences, "generated")
    for d, s in enumerate(sents):
        if not s:
            raise InputError(f"{numbered('generated paragraph', d)}: no sentences")
    parses, failed = _parses(sents, prediction_amrs, meaning, "generated", progress)
    predicted, unmapped, chains = _build(
        sents, parses, _coref_documents(coref, n, coref_format, "generated"), rep, "generated"
    )
    ref_failed: list[tuple[int, int]] = []
    if reference_amrs is not None:
        if isinstance(reference_amrs, str) or len(reference_amrs) != n:
            count = "a string" if isinstance(reference_amrs, str) else len(reference_amrs)
            raise InputError(f"{n} generated paragraphs but {count} reference DocAMRs; they are paired by position")
        gold = [document_graph(g, "reference DocAMR", d) for d, g in enumerate(reference_amrs)]
    else:
        ref_sents = _split(refs, reference_sentences, "reference")
        ref_parses, ref_failed = _parses(ref_sents, reference_parses, meaning, "reference", progress)
        if reference_coref is None and callable(coref) and not isinstance(coref, (str, os.PathLike)):
            reference_coref = coref
        system = _coref_documents(reference_coref, n, coref_format, "reference")
        gold, _, _ = _build(ref_sents, ref_parses, system, rep, "reference")
    counts = [len(s) for s in sents]
    gold_counts = [_gold_sentences(g) for g in gold]
    mismatched = [d for d in range(n) if counts[d] != gold_counts[d]]
    ds = docsmatch(
        predicted,
        gold,
        coref=True,
        num_workers=meaning.num_workers,
        progress=progress,
        strict=strict,
        solver=search.solver,
        restarts=search.restarts,
        seed=search.seed,
        time_limit=search.time_limit,
        work_limit=search.work_limit,
    )
    scorer = form.scorer
    if scorer is None:
        scorer = get_scorer(
            form.lm, form.lm_kind, form.device, dtype=form.dtype, max_tokens=form.max_tokens, cache=form.cache
        )
    window, stride = resolve_window(scorer, window, stride)
    g_scores = paragraph_scores(scorer, gen, window=window, stride=stride, label="generated", progress=progress)
    r_scores = paragraph_scores(scorer, refs, window=window, stride=stride, label="reference", progress=progress)
    f = form_from_scores(g_scores, r_scores, form.tolerance)
    m = ds.f1
    coref_counts = ds.coref.total if ds.coref is not None else (0, 0, 0)
    config = Config(
        "mfbeta",
        search,
        (
            ("level", "document"),
            ("beta", beta),
            ("tolerance", form.tolerance),
            ("lm", getattr(scorer, "name_or_path", form.lm)),
            ("lm_kind", getattr(scorer, "kind", form.lm_kind)),
            *((("lm_dtype", dtype),) if (dtype := getattr(scorer, "dtype", "float32")) != "float32" else ()),
            ("window", window if window is not None else "none"),
            ("stride", stride if stride is not None else "none"),
            ("split", "given" if sentences is not None else "rules"),
            ("rep", rep),
            ("meaning", "docsmatch"),
            *strict_option(strict),
        ),
    )
    return DocumentMFResult(
        meaning=m,
        coreference=prf_or_none(*coref_counts)[2],
        form=f.form,
        beta=beta,
        mf_beta=mf_beta(m, f.form, beta),
        scores={f"mf_{b:g}": mf_beta(m, f.form, b) for b in BETAS},
        meaning_counts=(ds.match, ds.test, ds.gold),
        coreference_counts=coref_counts,
        sentences=counts,
        reference_sentences=gold_counts,
        sentence_mismatches=len(mismatched),
        mismatched=mismatched,
        parse_failures=len(failed),
        failed=failed,
        reference_parse_failures=len(ref_failed),
        unmapped_mentions=unmapped,
        chains=chains,
        pref_scores=list(f.pref_scores),
        acceptable=list(f.acceptable),
        docsmatch_f1=[p.f1 for p in ds.pairs],
        config=config,
        documents=predicted,
        over_budget=ds.over_budget,
    )
