"""What MFβ is scored with, checked once: :class:`FormOptions` and :class:`MeaningOptions`.

MFβ has two sides, each with its own settings, and the alignment search beside them:

* **Form** (:class:`FormOptions`): the language model (``lm``, ``lm_kind``, or a loaded ``scorer``),
  how it runs (``device``, ``dtype``, ``max_tokens``), where its scores are kept (``cache``) and
  how far below an even preference a generated sentence may fall (``tolerance``);
* **Meaning** (:class:`MeaningOptions`): the parser and its batches (``parser``, ``batch_size``,
  ``device``, ``cache``), S²match's word vectors, ``cutoff`` and ``diffsense``, and the processes
  that align the pairs (``num_workers``);
* the **search** for the best alignment: :class:`~amreval.match.options.SearchOptions`.

The MFβ functions (:func:`~amreval.mfbeta.score.mfbeta`,
:func:`~amreval.mfbeta.document.document_mfbeta`,
:func:`~amreval.mfbeta.robustness.parser_robustness`) take them as ``form=``, ``meaning=`` and
``search=``. Each field can also be given on its own as a keyword of the same name (``lm=``,
``tolerance=``, ``parser=``, ``cutoff=``, ``solver=``, ...): a shortcut for the option value with
that field set and the others at their defaults. Every setting is checked when its value is made,
so a wrong one stops the call before a model is loaded or a sentence parsed. A shortcut together with
the option value that holds its field is an error: one of the two would be silently ignored.

``device`` and ``cache`` are fields of both sides: the parser and the language model run on the
same device and keep their results in the same cache unless told otherwise, so the shortcut sets
both; the option values set each side's on its own.

:func:`mfbeta_options` is the one place where shortcuts become option values.

Example:
    >>> FormOptions(tolerance=0.1).tolerance, MeaningOptions(cutoff=0.4).cutoff
    (0.1, 0.4)
    >>> form, meaning, search = mfbeta_options(shortcuts={"lm": "distilgpt2", "device": "cpu", "restarts": 4})
    >>> form.lm, form.device, meaning.device, search.restarts
    ('distilgpt2', 'cpu', 'cpu', 4)
    >>> FormOptions(lm_kind="casual")
    Traceback (most recent call last):
    ...
    amreval.errors.InputError: unknown lm_kind 'casual'; expected one of causal, masked
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass, fields
from typing import Any

from amreval.errors import InputError
from amreval.match.options import SearchKeywords, SearchOptions
from amreval.mfbeta.cache import CacheLike, ResultCache
from amreval.mfbeta.form import DEFAULT_TOLERANCE, check_tolerance
from amreval.mfbeta.lm import DEFAULT_KIND, DEFAULT_MODEL, DTYPES, KINDS, SentenceScorer
from amreval.mfbeta.parsers import DEFAULT_BATCH_SIZE, ParserLike
from amreval.scores.s2match import DEFAULT_CUTOFF, DEFAULT_DIFFSENSE, check_settings
from amreval.scores.vectors import WordVectors

__all__ = [
    "FormOptions",
    "MeaningOptions",
    "MFBetaKeywords",
    "SHORTCUTS",
    "VectorsLike",
    "mfbeta_options",
]

#: Word vectors for S²match: a table, a GloVe text file, a name such as ``glove-6b-100d``, or None
#: (the default vectors).
VectorsLike = WordVectors | str | os.PathLike[str] | None


def _count(name: str, value: object, *, optional: bool = False) -> int | None:
    """A positive integer (a NumPy one too, made an ``int``); None when ``optional`` allows it."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise InputError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def _number(name: str, value: object) -> None:
    """A real number (not a bool): the ranges are checked by the scores' own checks, with their messages."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InputError(f"{name} must be a number, got {value!r}")


def _device(value: object) -> None:
    if value is not None and (not isinstance(value, str) or not value.strip()):
        raise InputError(f"device must be a device name (cpu, cuda, cuda:1, mps, auto) or None, got {value!r}")


def _cache(value: object) -> None:
    """What :func:`~amreval.mfbeta.cache.resolve_cache` takes, checked without opening a file."""
    if isinstance(value, str) and not value.strip():
        raise InputError("cache is an empty string; expected memory, disk, none or a folder")
    if not (value is None or isinstance(value, (bool, str, os.PathLike, ResultCache))):
        raise InputError(f"cache must be 'memory', 'disk', a folder, False or a ResultCache, got {value!r}")


@dataclass(frozen=True)
class FormOptions:
    """How Form is scored: the language model and how it runs (see :mod:`amreval.mfbeta.form`).

    Attributes:
        lm: a Hugging Face model name or local folder (default ``"gpt2"``, the paper's model).
        lm_kind: ``"causal"`` (mean token probability) or ``"masked"`` (pseudo-likelihood).
        scorer: a loaded scorer (a :class:`~amreval.mfbeta.lm.LanguageModelScorer`, or anything with
            ``sentence_scores(sentences, *, progress=None)``); when given, it is used as it is, and
            ``lm``, ``lm_kind``, ``device``, ``dtype``, ``max_tokens`` and ``cache`` do not load another.
        tolerance: a generated sentence is acceptable when its prefScore is at least ``0.5 - tolerance``.
        device: ``"cpu"``, ``"cuda"``, ``"cuda:1"``, ``"mps"``; None or ``"auto"``: CUDA, else MPS, else CPU.
        dtype: ``"float32"`` (None, the default), ``"bfloat16"``, ``"float16"`` or ``"auto"``; an alias
            (``"bf16"``, ``"half"``, a torch dtype) is kept as its name.
        max_tokens: padded tokens per forward pass (None: the device's default).
        cache: where the scores are kept (:mod:`amreval.mfbeta.cache`): ``"memory"``, ``"disk"``, a
            folder, a :class:`~amreval.mfbeta.cache.ResultCache`, or ``False``.

    Raises:
        InputError: an unknown kind or dtype, a tolerance outside [0, 0.5], a count below 1, a scorer
            without ``sentence_scores``, or a device or cache of the wrong type (each names the option).
    """

    lm: str | os.PathLike[str] = DEFAULT_MODEL
    lm_kind: str = DEFAULT_KIND
    scorer: SentenceScorer | None = None
    tolerance: float = DEFAULT_TOLERANCE
    device: str | None = None
    dtype: str | None = None
    max_tokens: int | None = None
    cache: CacheLike = "memory"

    def __post_init__(self) -> None:
        if not isinstance(self.lm, (str, os.PathLike)) or not os.fspath(self.lm).strip():
            raise InputError(f"lm must be a language model's name or folder, got {self.lm!r}")
        object.__setattr__(self, "lm", os.fspath(self.lm))
        if self.lm_kind not in KINDS:
            raise InputError(f"unknown lm_kind {self.lm_kind!r}; expected one of {', '.join(KINDS)}")
        if self.scorer is not None and not callable(getattr(self.scorer, "sentence_scores", None)):
            raise InputError(
                "scorer must have a sentence_scores(sentences, *, progress=None) method (a LanguageModelScorer), "
                f"got {type(self.scorer).__name__}"
            )
        _number("tolerance", self.tolerance)
        check_tolerance(self.tolerance)
        _device(self.device)
        if self.dtype is not None:
            name = str(self.dtype).removeprefix("torch.")
            if name != "auto" and name not in DTYPES:
                raise InputError(f"unknown dtype {self.dtype!r}; expected auto, float32, bfloat16 or float16")
            object.__setattr__(self, "dtype", DTYPES.get(name, name))
        object.__setattr__(self, "max_tokens", _count("max_tokens", self.max_tokens, optional=True))
        _cache(self.cache)


@dataclass(frozen=True)
class MeaningOptions:
    """How Meaning is scored: the parser and S²match (see :mod:`amreval.mfbeta.parsers` and
    :mod:`amreval.scores.s2match`).

    Attributes:
        parser: an amrlib model folder, a callable ``list[str] -> list[str | None]`` or an object with
            ``parse``; None when the parses are given (``prediction_amrs=``, and the gold AMRs).
        batch_size: sentences per call to the parser.
        device: the parser's device (an amrlib model's; None: a GPU when there is one).
        cache: where the parses are kept, as :attr:`FormOptions.cache`.
        vectors: S²match's word vectors: a table, a GloVe text file, a name such as ``glove-6b-100d``,
            or None (the default vectors).
        cutoff, diffsense: S²match's settings (:func:`~amreval.scores.s2match.s2match`).
        num_workers: the pairs are aligned in this many processes.

    Sentence-level Meaning only: document-level Meaning is DocSmatch, which has no vectors, cutoff or
    diffsense.

    Raises:
        InputError: a parser that is none of the above, a count below 1, a cutoff outside [0, 1) or
            a diffsense outside [0, 1], or vectors, a device or a cache of the wrong type.
    """

    parser: ParserLike | None = None
    batch_size: int = DEFAULT_BATCH_SIZE
    device: str | None = None
    cache: CacheLike = "memory"
    vectors: VectorsLike = None
    cutoff: float = DEFAULT_CUTOFF
    diffsense: float = DEFAULT_DIFFSENSE
    num_workers: int = 1

    def __post_init__(self) -> None:
        parser = self.parser
        if not (parser is None or isinstance(parser, (str, os.PathLike)) or callable(parser)):
            if not callable(getattr(parser, "parse", None)):
                raise InputError(
                    "parser must be an amrlib model folder, a callable or an object with a parse method, "
                    f"got {type(parser).__name__}"
                )
        object.__setattr__(self, "batch_size", _count("batch_size", self.batch_size))
        _device(self.device)
        _cache(self.cache)
        if not (self.vectors is None or isinstance(self.vectors, (WordVectors, str, os.PathLike))):
            raise InputError(
                "vectors must be word vectors, a GloVe text file, a name such as glove-6b-100d, or None; "
                f"got {type(self.vectors).__name__}"
            )
        _number("cutoff", self.cutoff)
        _number("diffsense", self.diffsense)
        check_settings(self.cutoff, self.diffsense)
        object.__setattr__(self, "num_workers", _count("num_workers", self.num_workers))


class MFBetaKeywords(SearchKeywords, total=False):
    """The shortcuts, each optional: every field of :class:`FormOptions`, :class:`MeaningOptions` and
    :class:`~amreval.match.options.SearchOptions` as a keyword of its own (``device`` and ``cache`` set
    both sides'). What the MFβ functions take as ``**shortcuts``."""

    lm: str | os.PathLike[str]
    lm_kind: str
    scorer: SentenceScorer | None
    tolerance: float
    device: str | None
    dtype: str | None
    max_tokens: int | None
    cache: CacheLike
    parser: ParserLike | None
    batch_size: int
    vectors: VectorsLike
    cutoff: float
    diffsense: float
    num_workers: int


_GROUPS: tuple[tuple[str, type[Any]], ...] = (
    ("form", FormOptions),
    ("meaning", MeaningOptions),
    ("search", SearchOptions),
)
_FIELDS = {name: tuple(f.name for f in fields(cls)) for name, cls in _GROUPS}
#: Every shortcut keyword, in the order of the option values' fields.
SHORTCUTS: tuple[str, ...] = tuple(dict.fromkeys(name for group in _FIELDS.values() for name in group))


def mfbeta_options(
    form: FormOptions | None = None,
    meaning: MeaningOptions | None = None,
    search: SearchOptions | None = None,
    shortcuts: Mapping[str, object] | None = None,
    *,
    refused: Collection[str] = (),
) -> tuple[FormOptions, MeaningOptions, SearchOptions]:
    """The option values of a call: those given, or made from the shortcuts (the others at their defaults).

    Args:
        form, meaning, search: the option values given (None: made from the shortcuts).
        shortcuts: the flat keywords given (:class:`MFBetaKeywords`).
        refused: shortcuts the calling function does not take (a function that cannot use them).

    Raises:
        TypeError: a keyword that is no shortcut, or a refused one (named, as Python names an
            unexpected keyword).
        InputError: a shortcut given with the option value that holds its field (naming both), an
            option value of the wrong class, or a wrong setting (as the option values check them).
    """
    given = dict(shortcuts or {})
    unknown = [name for name in given if name not in SHORTCUTS or name in refused]
    if unknown:  # named as every scoring function names it: the search settings first
        others = ", ".join(name for name in SHORTCUTS if name not in refused and name not in _FIELDS["search"])
        raise TypeError(
            f"unexpected keyword argument {unknown[0]!r} "
            f"(search settings: {', '.join(_FIELDS['search'])}; MFβ settings: {others})"
        )
    values: dict[str, object] = {"form": form, "meaning": meaning, "search": search}
    for name, cls in _GROUPS:
        value = values[name]
        if value is not None and not isinstance(value, cls):
            raise InputError(f"{name} must be a {cls.__name__}, got {type(value).__name__}")
        both = [key for key in given if key in _FIELDS[name]] if value is not None else []
        if both:
            raise InputError(
                f"{both[0]}= and {name}= given together: {both[0]} is a field of {name}; "
                f"set it in the {cls.__name__} (or drop {name}= and give {both[0]}= alone)"
            )
    made: dict[str, Any] = {
        name: values[name]
        if values[name] is not None
        else cls(**{k: v for k, v in given.items() if k in _FIELDS[name]})
        for name, cls in _GROUPS
    }
    return made["form"], made["meaning"], made["search"]
