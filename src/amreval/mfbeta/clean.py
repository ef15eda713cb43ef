"""Sentence cleaning before MFβ's parsing and Form scoring, as the authors do it.

The MFβ authors run every generated and reference sentence through a
"basic" cleaner before parsing it and scoring it with the language model
(``src/clean.py`` and ``BasicCleaner.clean_sents`` in ``src/sent_cleaners.py``
of their MFscore scripts). :class:`SentenceCleaner` does the same, on spaCy
and sacremoses:

1. lower-case the sentence;
2. split it into tokens and tag their parts of speech with a spaCy pipeline
   (the authors': ``en_core_web_sm``); whitespace tokens are dropped;
3. re-case the tokens, the first rule that applies winning:

   * the first token is capitalised, and so is a token right after a ``.``
     token (a second sentence);
   * a proper noun (``PROPN``) is upper-cased when its upper-case form is in
     the acronym list (``nato`` → ``NATO``) and capitalised otherwise
     (``obama`` → ``Obama``);
   * another token is capitalised when its capitalised form is in the list
     (the authors' list of country adjectivals: ``chinese`` → ``Chinese``);
   * the pronoun ``i`` is capitalised;
   * every other token stays lower-case;

4. join the tokens with Moses' English detokeniser (sacremoses).

The authors' scripts pass two word lists of their repository as the acronym
list (``data/dict/acronyms.txt``: NATO, UN, ...; ``data/dict/country_adjectivals.txt``:
Afghan, Algerian, ...); pass such lists as ``acronyms`` (words, or the path of
a file with one word per line). Without a list no token is upper-cased and
only proper nouns, sentence starts and ``i`` are capitalised.

An empty sentence stays empty. Both packages are optional
(``pip install 'amreval[lm]'``); spaCy's English pipeline is installed
separately (``python -m spacy download en_core_web_sm``), or any loaded spaCy
pipeline with part-of-speech tags can be passed instead of a name.

Example:
    A sketch (needs ``en_core_web_sm``)::

        cleaner = SentenceCleaner(acronyms=["NATO", "Chinese"])
        cleaner.clean(["the nato summit in paris .", "i met a chinese diplomat . he smiled"])
        # ['The NATO summit in Paris.', 'I met a Chinese diplomat. He smiled']
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from amreval.amr.read import read_text
from amreval.errors import AmrevalError, InputError, MissingDependencyError, numbered
from amreval.scores.text import plural

__all__ = [
    "CleanLike",
    "DEFAULT_PIPELINE",
    "SpacyPipeline",
    "SentenceCleaner",
    "clean_sentences",
    "cleaner_name",
    "get_cleaner",
]

#: The spaCy pipeline of the authors' cleaner.
DEFAULT_PIPELINE = "en_core_web_sm"
_PURPOSE = "sentence cleaning"

# pipeline name -> loaded spaCy pipeline
_PIPELINES: dict[str, Any] = {}
# pipeline name -> cleaner without acronyms, for get_cleaner
_CLEANERS: dict[str, SentenceCleaner] = {}
_LOCK = threading.Lock()


class SpacyPipeline(Protocol):
    """A loaded spaCy pipeline, as ``clean=`` takes one: :func:`get_cleaner` knows it by ``pipe`` and ``meta``."""

    @property
    def meta(self) -> Mapping[str, object]: ...  # pragma: no cover

    def pipe(self, texts: Iterable[str], *args: object, **kwargs: object) -> Iterator[object]: ...  # pragma: no cover


#: What ``clean=`` of the MFβ functions takes (see :func:`get_cleaner`): False or None (no cleaning), True,
#: a spaCy pipeline's name, folder or object, a :class:`SentenceCleaner`, or a callable
#: ``list[str] -> list[str]``.
CleanLike = bool | str | os.PathLike[str] | SpacyPipeline | Callable[[list[str]], Sequence[str]] | None


def _require() -> Any:
    """Import sacremoses and spaCy, or explain how to install them; return the detokeniser class."""
    try:
        from sacremoses import MosesDetokenizer
    except ImportError as exc:
        raise MissingDependencyError("sacremoses", "lm", _PURPOSE) from exc
    try:
        import spacy  # noqa: F401
    except ImportError as exc:
        raise MissingDependencyError("spacy", "lm", _PURPOSE) from exc
    return MosesDetokenizer


def _load_pipeline(name: str) -> Any:
    """A spaCy pipeline by name or path, loaded once."""
    with _LOCK:
        nlp = _PIPELINES.get(name)
        if nlp is None:
            import spacy

            try:
                nlp = spacy.load(name)
            except OSError as exc:
                raise AmrevalError(
                    f"the spaCy pipeline {name!r} is not installed (python -m spacy download {name}), "
                    f"or pass a loaded spaCy pipeline: {exc}"
                ) from exc
            _PIPELINES[name] = nlp
        return nlp


def _pipeline_name(nlp: Any) -> str:
    meta = getattr(nlp, "meta", None) or {}
    lang, name = meta.get("lang"), meta.get("name")
    if lang and name:
        return f"{lang}_{name}"
    return type(nlp).__name__


def _word_list(acronyms: Iterable[str] | str | os.PathLike[str] | None) -> frozenset[str]:
    if acronyms is None:
        return frozenset()
    if isinstance(acronyms, (str, os.PathLike)):
        try:  # the one rule of every reader: UTF-8, a byte-order mark accepted, any line end
            text, _ = read_text(acronyms, what="word list")
        except InputError as exc:
            raise InputError(f"{os.fspath(acronyms)}: cannot read the word list: {exc}") from None
        return frozenset(line.strip() for line in text.splitlines() if line.strip())
    words = list(acronyms)
    for w in words:
        if not isinstance(w, str):
            raise InputError(f"acronyms: expected words (strings), got {type(w).__name__}")
    return frozenset(w.strip() for w in words if w.strip())


class SentenceCleaner:
    """The authors' "basic" cleaner (see the module documentation for its steps).

    Args:
        nlp: a spaCy pipeline name or path (loaded on first use and cached),
            or a loaded pipeline that sets part-of-speech tags
            (default ``en_core_web_sm``, the authors').
        acronyms: words written as they should appear: an upper-case form
            that a proper noun takes (``NATO``), or a capitalised form that
            any token takes (``Chinese``); a list of words, or the path of a
            file with one word per line.

    Raises:
        MissingDependencyError: sacremoses or spaCy is not installed.
        InputError: the acronym file cannot be read.
    """

    def __init__(
        self,
        nlp: str | os.PathLike[str] | Any = DEFAULT_PIPELINE,
        *,
        acronyms: Iterable[str] | str | os.PathLike[str] | None = None,
    ) -> None:
        detokenizer = _require()
        self._detokenizer = detokenizer(lang="en")
        if isinstance(nlp, (str, os.PathLike)):
            self.pipeline = os.fspath(nlp)
            self._nlp: Any = None
        else:
            if not callable(nlp):
                raise TypeError(f"nlp must be a spaCy pipeline or its name, got {type(nlp).__name__}")
            self.pipeline = _pipeline_name(nlp)
            self._nlp = nlp
        self.acronyms = _word_list(acronyms)

    @property
    def nlp(self) -> Any:
        """The spaCy pipeline (loaded on first access when given by name)."""
        if self._nlp is None:
            self._nlp = _load_pipeline(self.pipeline)
        return self._nlp

    @property
    def name(self) -> str:
        """How the configuration records the cleaner: ``basic(en_core_web_sm)``, plus the acronym count."""
        extra = f";acronyms={len(self.acronyms)}" if self.acronyms else ""
        return f"basic({self.pipeline}{extra})"

    def __repr__(self) -> str:
        return f"SentenceCleaner({self.pipeline!r}, acronyms={len(self.acronyms)} words)"

    def _recase(self, doc: Any) -> list[str]:
        out: list[str] = []
        for token in doc:
            if token.is_space:
                continue
            text = token.text
            if not out or out[-1] == ".":
                out.append(text.capitalize())
            elif token.pos_ == "PROPN":
                out.append(text.upper() if text.upper() in self.acronyms else text.capitalize())
            elif text.capitalize() in self.acronyms:
                out.append(text.capitalize())
            elif token.pos_ == "PRON" and text == "i":
                out.append(text.capitalize())
            else:
                out.append(text)
        return out

    def clean(self, sentences: Sequence[str]) -> list[str]:
        """Clean sentences (one string per sentence, order kept).

        Raises:
            InputError: ``sentences`` is a single string, or holds something
                that is not a string.
            AmrevalError: the spaCy pipeline named cannot be loaded.
        """
        if isinstance(sentences, str):
            raise InputError("expected a list of sentences, got a single string")
        lowered = []
        for k, s in enumerate(sentences):
            if not isinstance(s, str):
                raise InputError(f"{numbered('sentence', k)}: expected a string, got {type(s).__name__}")
            lowered.append(s.lower())
        if not lowered:
            return []
        return [self._detokenizer.detokenize(self._recase(doc)) for doc in self.nlp.pipe(lowered)]

    __call__ = clean


def get_cleaner(clean: CleanLike) -> Any:
    """What ``mfbeta(clean=...)`` asks for, as a cleaner (or None for no cleaning).

    Args:
        clean: ``False`` or ``None`` (no cleaning); ``True`` (the authors'
            cleaner on ``en_core_web_sm``); a spaCy pipeline name or path; a
            loaded spaCy pipeline; a :class:`SentenceCleaner`; or any callable
            ``list[str] -> list[str]``. Cleaners made from ``True`` or a name
            are cached.

    Raises:
        MissingDependencyError: sacremoses or spaCy is not installed (not for
            a callable of your own).
        TypeError: ``clean`` is none of the above.

    Example:
        >>> get_cleaner(False) is None and get_cleaner(None) is None
        True
        >>> def lower(sentences):
        ...     return [s.lower() for s in sentences]
        >>> get_cleaner(lower) is lower, cleaner_name(lower)
        (True, 'lower')
    """
    if clean is None or clean is False:
        return None
    if clean is True or isinstance(clean, (str, os.PathLike)):
        name = DEFAULT_PIPELINE if clean is True else os.fspath(clean)  # type: ignore[arg-type]
        with _LOCK:
            cached = _CLEANERS.get(name)
        if cached is None:
            cached = SentenceCleaner(name)
            with _LOCK:
                cached = _CLEANERS.setdefault(name, cached)
        return cached
    if isinstance(clean, SentenceCleaner):
        return clean
    if hasattr(clean, "pipe") and hasattr(clean, "meta"):
        return SentenceCleaner(clean)
    if callable(clean):
        return clean
    raise TypeError(
        "clean must be a bool, a spaCy pipeline (name or object), a SentenceCleaner or a callable "
        f"list[str] -> list[str], got {type(clean).__name__}"
    )


def cleaner_name(cleaner: Any) -> str:
    """The name the configuration records for a cleaner."""
    name = getattr(cleaner, "name", None)
    if isinstance(name, str) and name:
        return name
    return getattr(cleaner, "__qualname__", None) or getattr(cleaner, "__name__", None) or type(cleaner).__name__


def clean_sentences(cleaner: Callable[[list[str]], Sequence[str]], sentences: Sequence[str], label: str) -> list[str]:
    """Run a cleaner and check its answer: one string per sentence.

    Raises:
        InputError: the cleaner returned another number of sentences, or
            something that is not a string (named by list and position).
    """
    sentences = list(sentences)
    out = cleaner(sentences)
    if isinstance(out, str) or not hasattr(out, "__iter__"):
        raise InputError(f"the cleaner must return a list of {len(sentences)} strings, got {type(out).__name__}")
    out = list(out)
    if len(out) != len(sentences):
        raise InputError(f"the cleaner returned {plural(len(out), 'sentence')} for {len(sentences)} {label} sentences")
    for k, s in enumerate(out):
        if not isinstance(s, str):
            raise InputError(f"the cleaner returned a {type(s).__name__} for {numbered(label, k)}, expected a string")
    return out
