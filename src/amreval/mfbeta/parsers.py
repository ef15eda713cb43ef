"""Text-to-AMR parsers behind one small interface.

MF-beta's Meaning score parses generated and reference sentences into AMR
and compares the graphs. Anything that turns a list of sentences into a list
of PENMAN strings can serve as the parser:

* :class:`CallableParser` wraps a plain function;
* :class:`AmrlibParser` runs an `amrlib <https://github.com/bjascob/amrlib>`_
  sentence-to-graph model folder (optional dependency: ``amreval[parser]``);
* any object with a ``parse(sentences)`` method satisfies :class:`Parser`.

:func:`parse_sentences` runs a parser in batches and decodes its output into
:class:`~amreval.amr.graph.Graph` objects. A sentence whose parse fails gets
the one-node graph ``(er / serialization-error)`` (:data:`FAILED_PARSE`), the
dummy that the MFβ authors' parser wrapper puts in place of a failed parse
(``AMRLibT5.parse_sents`` in ``src/sent_parsers.py`` of their MFscore
scripts); its index is recorded in :attr:`ParseResult.failures`, and a failed
parse never stops the run. Against a gold graph the dummy earns what its
concept and TOP triple earn (usually nothing) and adds two triples to the
parse side, so a failure lowers precision as well as recall, as it did for
the authors.

A parse fails when the parser's output for the sentence

* is ``None`` (amrlib's models return ``None`` when no beam deserialises);
* is empty or only whitespace;
* holds no ``(`` (it cannot be a graph);
* does not decode as exactly one PENMAN graph (:func:`~amreval.amr.read.loads_graph`
  raises :class:`~amreval.errors.DecodeError`);
* decodes to a graph without a root variable (``"()"``, what amrlib's
  deserialiser makes of hopeless output).

Output that decodes only thanks to lenient reading (a role pointing to an
undefined variable, read as a constant; a variable defined twice) is kept as
a successful parse, and the :class:`~amreval.errors.AmrevalWarning` such
reading would emit is silenced: machine output is often slightly off, and
the failure count is what reports its quality.

Example:
    >>> result = parse_sentences(
    ...     lambda sents: ["(b / boy)" if "boy" in s else None for s in sents],
    ...     ["A boy.", "Rain."],
    ... )
    >>> result.graphs[0].instances, result.failures, result.graphs[1].instances
    ({'b': 'boy'}, [1], {'er': 'serialization-error'})
"""

from __future__ import annotations

import importlib.util
import logging
import os
import threading
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from amreval._progress import progress_counter
from amreval.amr.graph import Graph
from amreval.amr.read import loads_graph
from amreval.errors import (
    AmrevalError,
    AmrevalWarning,
    DecodeError,
    InputError,
    MissingDependencyError,
    numbered,
)
from amreval.mfbeta.cache import CacheLike, model_fingerprint, resolve_cache
from amreval.scores.text import plural

__all__ = [
    "AMRLIB_META",
    "DEFAULT_BATCH_SIZE",
    "FAILED_PARSE",
    "AmrlibParser",
    "CallableParser",
    "ParseResult",
    "Parser",
    "clear_parser_cache",
    "failed_parse_graph",
    "get_parser",
    "parse_sentences",
]

logger = logging.getLogger(__name__)

#: Sentences per call to the parser.
DEFAULT_BATCH_SIZE = 16
#: The file that marks a folder as an amrlib model.
AMRLIB_META = "amrlib_meta.json"
#: What a failed parse becomes: the MFβ authors' one-node dummy graph.
FAILED_PARSE = "(er / serialization-error)"


def failed_parse_graph(sentence: str | None = None) -> Graph:
    """The graph that stands in for a failed parse: :data:`FAILED_PARSE`, with the sentence as ``::snt``.

    Example:
        >>> g = failed_parse_graph("Rain.")
        >>> g.top, g.instances, g.edges, g.attributes, g.metadata
        ('er', {'er': 'serialization-error'}, [], [], {'snt': 'Rain.'})
    """
    metadata = {"snt": sentence} if sentence is not None else {}
    return Graph(top="er", instances={"er": "serialization-error"}, metadata=metadata, origin="<failed parse>")


@runtime_checkable
class Parser(Protocol):
    """Anything that parses sentences into PENMAN strings.

    ``parse`` returns one entry per sentence, in order: a PENMAN string, or
    ``None`` when the sentence could not be parsed.
    """

    def parse(self, sentences: Sequence[str]) -> list[str | None]:
        """Parse ``sentences``; one PENMAN string (or ``None``) per sentence."""
        ...  # pragma: no cover


#: What :func:`get_parser` and :func:`parse_sentences` accept as a parser.
ParserLike = str | os.PathLike[str] | Callable[[list[str]], Sequence[str | None]] | Parser


def _describe(obj: Any) -> str:
    """A short name for a parser or callable, for messages."""
    if isinstance(obj, (CallableParser, AmrlibParser)):
        return repr(obj)
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if name is None:
        name = type(obj).__qualname__
    return name


class CallableParser:
    """A parser made of a function from sentences to PENMAN strings.

    Args:
        func: called with a list of sentences; must return a sequence of the
            same length holding a PENMAN string or ``None`` per sentence.
        name: what to call the parser in messages (default: the function's
            name).

    Example:
        >>> parser = CallableParser(lambda sents: ["(x / " + s.lower() + ")" for s in sents])
        >>> parser.parse(["Dog", "Cat"])
        ['(x / dog)', '(x / cat)']
    """

    def __init__(self, func: Callable[[list[str]], Sequence[str | None]], *, name: str | None = None) -> None:
        if not callable(func):
            raise TypeError(f"CallableParser needs a callable, got {type(func).__name__}")
        self.func = func
        self.name = name or _describe(func)

    def parse(self, sentences: Sequence[str]) -> list[str | None]:
        """Call the function on ``sentences`` and check the length of its answer.

        Args:
            sentences: the sentences to parse.

        Returns:
            One PENMAN string or ``None`` per sentence.

        Raises:
            InputError: the function returned a different number of results
                than it was given sentences (or something that is not a
                sequence).
        """
        sentences = list(sentences)
        out = self.func(sentences)
        if isinstance(out, (str, bytes)) or not hasattr(out, "__iter__"):
            raise InputError(
                f"parser {self.name} must return a list of {len(sentences)} PENMAN strings or None, "
                f"got {type(out).__name__}"
            )
        out = list(out)
        if len(out) != len(sentences):
            raise InputError(
                f"parser {self.name} returned {len(out)} results for {plural(len(sentences), 'sentence')} "
                f"(expected {len(sentences)})"
            )
        return out

    def __repr__(self) -> str:
        return f"CallableParser({self.name})"


def _require_amrlib() -> None:
    """Raise :class:`MissingDependencyError` unless amrlib and unidecode are importable."""
    if importlib.util.find_spec("amrlib") is None:
        raise MissingDependencyError("amrlib", "parser", "parsing with an amrlib model")
    if importlib.util.find_spec("unidecode") is None:
        raise MissingDependencyError(
            "unidecode",
            "parser",
            "parsing with an amrlib model (amrlib imports it but does not declare it as a dependency)",
        )


def _check_model_dir(path: str | os.PathLike[str]) -> Path:
    folder = Path(path).expanduser()
    if not folder.is_dir():
        raise InputError(
            f"{os.fspath(path)!s}: not a directory; expected an amrlib model folder "
            f"(a folder holding {AMRLIB_META} and the model files)"
        )
    if not (folder / AMRLIB_META).is_file():
        raise InputError(
            f"{os.fspath(path)!s}: not an amrlib model folder; expected a file {AMRLIB_META} beside the model files"
        )
    return folder.resolve()


class AmrlibParser:
    """An amrlib sentence-to-graph model, loaded on first use.

    The folder is checked when the parser is made (it must hold
    ``amrlib_meta.json``); the model itself is loaded once, on the first call
    to :meth:`parse`.

    Args:
        model_dir: the amrlib model folder.
        batch_size: sentences per forward pass.
        device: a torch device name; ``None`` means ``"cuda"`` when a GPU is
            available, else ``"cpu"``.
        **options: further keyword arguments for the amrlib model
            (``num_beams``, ``tok_name_or_path`` ...); they override the
            ``kwargs`` of ``amrlib_meta.json``.

    Raises:
        InputError: ``model_dir`` is not a folder holding ``amrlib_meta.json``.
        MissingDependencyError: amrlib or unidecode is not installed.

    Example:
        >>> AmrlibParser("no/such/folder")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        amreval.errors.InputError: no/such/folder: not a directory; expected an amrlib model folder ...
    """

    def __init__(
        self,
        model_dir: str | os.PathLike[str],
        *,
        batch_size: int = DEFAULT_BATCH_SIZE,
        device: str | None = None,
        **options: Any,
    ) -> None:
        if batch_size < 1:
            raise InputError(f"batch_size must be at least 1, got {batch_size}")
        self.model_dir = _check_model_dir(model_dir)
        _require_amrlib()
        self.batch_size = batch_size
        self.device = device
        self.options = dict(options)
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        """True once the model is in memory."""
        return self._model is not None

    def _load(self) -> Any:
        with self._lock:
            if self._model is not None:
                return self._model
            try:
                import torch
                from amrlib import load_inference_model
            except ModuleNotFoundError as exc:
                missing = exc.name or "amrlib"
                raise MissingDependencyError(missing, "parser", "parsing with an amrlib model") from exc
            device = self.device
            if device is None:
                device = "cuda" if torch.cuda.is_available() else "cpu"
            kwargs = {"batch_size": self.batch_size, "device": device, **self.options}
            try:
                model = load_inference_model(str(self.model_dir), **kwargs)
            except ModuleNotFoundError as exc:
                if exc.name == "unidecode":
                    raise MissingDependencyError(
                        "unidecode",
                        "parser",
                        "parsing with an amrlib model (amrlib imports it but does not declare it as a dependency)",
                    ) from exc
                raise MissingDependencyError(exc.name or str(exc), "parser", "parsing with an amrlib model") from exc
            except (OSError, ValueError, KeyError) as exc:
                raise AmrevalError(f"{self.model_dir}: could not load the amrlib model: {exc}") from exc
            logger.debug("loaded amrlib model %s on %s", self.model_dir, device)
            self._model = model
            return model

    @property
    def cache_key(self) -> str:
        """Names this model and its settings in a cache of parses (see :func:`parse_sentences`)."""
        import json

        options = json.dumps(self.options, sort_keys=True, default=str)
        return f"amrlib:{model_fingerprint(self.model_dir)}:{options}:{self.device or 'auto'}"

    def parse(self, sentences: Sequence[str]) -> list[str | None]:
        """Parse ``sentences`` with the amrlib model (loading it on first use).

        Args:
            sentences: the sentences to parse.

        Returns:
            One PENMAN string (without metadata) or ``None`` per sentence.

        Raises:
            MissingDependencyError: amrlib, torch, transformers or unidecode
                is missing.
            AmrevalError: the model folder could not be loaded.
        """
        sentences = list(sentences)
        if not sentences:
            return []
        model = self._load()
        return list(model.parse_sents(sentences, add_metadata=False))

    def __repr__(self) -> str:
        device = self.device if self.device is not None else "auto"
        return f"AmrlibParser({str(self.model_dir)!r}, batch_size={self.batch_size}, device={device!r})"


_CACHE: dict[tuple[str, str | None, int], AmrlibParser] = {}
_CACHE_LOCK = threading.Lock()


def clear_parser_cache() -> None:
    """Forget the amrlib parsers :func:`get_parser` has made (and their models)."""
    with _CACHE_LOCK:
        _CACHE.clear()


def get_parser(
    parser: ParserLike,
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    device: str | None = None,
) -> Parser:
    """Turn a path, a function or a parser object into a :class:`Parser`.

    Args:
        parser: an amrlib model folder (``str`` or path), an object with a
            ``parse`` method (returned as is), or a callable from a list of
            sentences to a list of PENMAN strings or ``None``.
        batch_size: batch size of an amrlib model.
        device: torch device of an amrlib model (``None``: GPU if available).

    Returns:
        The parser. Amrlib parsers are cached: the same folder, device and
        batch size give the same object (and the model is loaded once).

    Raises:
        InputError: a path that is not an amrlib model folder.
        MissingDependencyError: a path was given but amrlib (or unidecode) is
            not installed.
        TypeError: ``parser`` is none of the above.

    Example:
        >>> get_parser(lambda sents: ["(x / y)"] * len(sents)).parse(["a", "b"])
        ['(x / y)', '(x / y)']
    """
    if isinstance(parser, (str, os.PathLike)):
        folder = _check_model_dir(parser)
        key = (str(folder), device, batch_size)
        with _CACHE_LOCK:
            cached = _CACHE.get(key)
            if cached is None:
                cached = AmrlibParser(folder, batch_size=batch_size, device=device)
                _CACHE[key] = cached
        return cached
    if callable(getattr(parser, "parse", None)):
        return parser  # type: ignore[return-value]
    if callable(parser):
        return CallableParser(parser)
    raise TypeError(
        "parser must be an amrlib model folder, a callable or an object with a parse method, "
        f"got {type(parser).__name__}"
    )


@dataclass
class ParseResult:
    """Parsed graphs of a list of sentences.

    Attributes:
        graphs: one graph per sentence; the dummy graph of
            :func:`failed_parse_graph` where the parse failed. Every graph
            gets the sentence as ``::snt`` metadata unless the parser wrote one.
        failures: indices (from 0; messages print them from 1) of the sentences whose parse failed,
            ascending.
        penman: the parser's PENMAN output per sentence; ``None`` exactly at
            the failures.
    """

    graphs: list[Graph] = field(default_factory=list)
    failures: list[int] = field(default_factory=list)
    penman: list[str | None] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.graphs)

    @property
    def failure_rate(self) -> float:
        """Failures over sentences (0.0 for no sentences)."""
        return len(self.failures) / len(self.graphs) if self.graphs else 0.0


def _decode(output: str | None, index: int) -> tuple[Graph | None, str]:
    """Decode one parser output; return the graph, or ``None`` and the reason."""
    if output is None:
        return None, "the parser returned None"
    if not output.strip():
        return None, "the parser returned an empty string"
    if "(" not in output:
        return None, "the output holds no '(' and is not a PENMAN graph"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AmrevalWarning)
            graph = loads_graph(output, name=f"parse of {numbered('sentence', index)}")
    except DecodeError as exc:
        return None, f"the output does not decode: {exc}"
    if graph.top is None or not graph.instances or None in graph.instances:
        return None, "the output decodes to a graph without a root variable"
    return graph, ""


def parse_sentences(
    parser: ParserLike,
    sentences: Sequence[str],
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    device: str | None = None,
    progress: bool | None = None,
    cache: CacheLike = None,
) -> ParseResult:
    """Parse sentences into AMR graphs, counting failed parses.

    The parser is called on consecutive batches of ``batch_size`` sentences.
    What counts as a failed parse is listed in the module documentation;
    each failure is logged at debug level.

    With a ``cache`` (``"memory"``, ``"disk"``, a folder or a
    :class:`~amreval.mfbeta.cache.ResultCache`) and a parser that names
    itself by a ``cache_key`` string (:class:`AmrlibParser` does; any parser
    object may), the parser's output for each distinct sentence is kept and
    reused: a sentence parsed before, by this model with these settings, is
    not parsed again. Parsers without a ``cache_key`` (plain functions) are
    always called.

    Args:
        parser: anything :func:`get_parser` accepts (an amrlib model folder,
            a callable, a :class:`Parser`).
        sentences: the sentences; none may be empty.
        batch_size: sentences per call to the parser (and per amrlib batch).
        device: torch device of an amrlib model (``None``: GPU if available).
        progress: show a progress bar over sentences (``None``: on a terminal).
        cache: where outputs are kept (default ``None``: nowhere).

    Returns:
        A :class:`ParseResult` with one graph per sentence.

    Raises:
        InputError: a sentence is empty or not a string; ``batch_size`` is
            below 1; the parser returned the wrong number of results or a
            result that is neither a string nor ``None``.
        AmrevalError: the parser raised; the message names the parser and the
            index of the batch's first sentence (the original exception is
            chained).
        MissingDependencyError: an amrlib model was asked for but amrlib is
            not installed.

    Example:
        >>> outputs = {"Dogs bark.": "(b / bark-01 :ARG0 (d / dog))", "Hm": "(oops"}
        >>> result = parse_sentences(lambda sents: [outputs[s] for s in sents], ["Dogs bark.", "Hm"])
        >>> result.failures, result.penman[1], result.graphs[1].instances
        ([1], None, {'er': 'serialization-error'})
        >>> result.graphs[0].metadata["snt"]
        'Dogs bark.'
    """
    if isinstance(sentences, str):
        raise InputError("sentences must be a list of strings, not a single string")
    sentences = list(sentences)
    if batch_size < 1:
        raise InputError(f"batch_size must be at least 1, got {batch_size}")
    for i, sentence in enumerate(sentences):
        if not isinstance(sentence, str):
            raise InputError(f"{numbered('sentence', i)} is a {type(sentence).__name__}, expected a string")
        if not sentence.strip():
            raise InputError(f"{numbered('sentence', i)} is empty")
    result = ParseResult()
    if not sentences:
        return result
    resolved = get_parser(parser, batch_size=batch_size, device=device)
    store = resolve_cache(cache)
    key = getattr(resolved, "cache_key", None)
    if store is None or not isinstance(key, str):
        outputs = _call_parser(resolved, sentences, list(range(len(sentences))), batch_size, progress)
    else:
        first: dict[str, int] = {}
        for k, s in enumerate(sentences):
            first.setdefault(s, k)
        known = store.get(key, first)
        todo = [s for s in first if s not in known]
        if todo:
            fresh = _call_parser(resolved, todo, [first[s] for s in todo], batch_size, progress)
            store.put(key, dict(zip(todo, fresh)))
            known = {**known, **dict(zip(todo, fresh))}
        outputs = [known[s] for s in sentences]
    for index, (sentence, output) in enumerate(zip(sentences, outputs)):
        graph, reason = _decode(output, index)
        if graph is None:
            logger.debug("parse of sentence #%d failed: %s", index + 1, reason)
            result.failures.append(index)
            result.graphs.append(failed_parse_graph(sentence))
            result.penman.append(None)
        else:
            graph.metadata.setdefault("snt", sentence)
            result.graphs.append(graph)
            result.penman.append(output)
    return result


def _call_parser(
    parser: Parser, sentences: list[str], origin: list[int], batch_size: int, progress: bool | None
) -> list[str | None]:
    """The parser's outputs for ``sentences``, in batches; ``origin[k]`` is sentence ``k``'s index in messages."""
    name = _describe(parser)
    out: list[str | None] = []
    with progress_counter(len(sentences), enable=progress, desc="parsing", unit="sentence") as bar:
        for start in range(0, len(sentences), batch_size):
            batch = sentences[start : start + batch_size]
            first = origin[start]
            try:
                outputs = parser.parse(batch)
            except AmrevalError:
                raise
            except Exception as exc:
                raise AmrevalError(
                    f"parser {name} raised on the batch starting at {numbered('sentence', first)}: "
                    f"{type(exc).__name__}: {exc}"
                ) from exc
            outputs = list(outputs)
            if len(outputs) != len(batch):
                raise InputError(
                    f"parser {name} returned {len(outputs)} results for the {plural(len(batch), 'sentence')} of the "
                    f"batch starting at {numbered('sentence', first)} (expected {len(batch)})"
                )
            for offset, output in enumerate(outputs):
                if output is not None and not isinstance(output, str):
                    raise InputError(
                        f"parser {name} returned a {type(output).__name__} for "
                        f"{numbered('sentence', origin[start + offset])}, expected a PENMAN string or None"
                    )
            out.extend(outputs)
            bar.update(len(batch))
    return out
