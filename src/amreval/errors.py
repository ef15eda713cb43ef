"""The exception hierarchy of amreval.

Every error the package raises on purpose derives from :class:`AmrevalError`.
Errors about the user's input are also :class:`ValueError` so that callers
that only know the standard library can catch them.
"""

from __future__ import annotations

__all__ = [
    "AmrevalError",
    "InputError",
    "UsageError",
    "DecodeError",
    "MissingDependencyError",
    "TooLargeError",
    "TooLarge",
    "OutOfMemory",
    "AmrevalWarning",
    "RenamedSettingWarning",
]


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, with an ``s`` unless ``n`` is 1 (for words whose plural is regular): every message
    that counts something words it so ("1 graph", "3 graphs").

    Example:
        >>> plural(1, "sentence"), plural(3, "sentence"), plural(0, "graph")
        ('1 sentence', '3 sentences', '0 graphs')
    """
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def numbered(what: str, index: int | None) -> str:
    """How a message names the item at the 0-based ``index`` of the list it was given in: its noun and its
    position counted from 1, as every position amreval prints is (the first prediction is
    ``prediction #1``, ``predictions[0]`` in Python); without an index (an item given alone), its noun.

    Example:
        >>> numbered("prediction", 0), numbered("reference", 35), numbered("prediction", None)
        ('prediction #1', 'reference #36', 'prediction')
    """
    return what if index is None else f"{what} #{index + 1}"


class AmrevalError(Exception):
    """Root of every error raised by amreval."""


class InputError(AmrevalError, ValueError):
    """The input does not have the expected shape or content."""


class UsageError(InputError):
    """Settings that do not go together, or a setting's value out of its range (``frames`` without an
    aspect score, ``standardize`` with the coreference sub-score). An :class:`InputError` for callers of
    the API; the command line reports it as a bad command line (exit status 2), wherever it is raised."""


class DecodeError(InputError):
    """A PENMAN graph could not be read.

    Attributes:
        source: the file name (or ``"<string>"``) the graph came from.
        index: the 0-based position of the graph in its source.
        graph_id: the graph's ``::id`` when it has one.
        line: the 1-based line in the source where the problem was found.
        reason: what was wrong or what was expected.
    """

    def __init__(
        self,
        reason: str,
        *,
        source: str | None = None,
        index: int | None = None,
        graph_id: str | None = None,
        line: int | None = None,
    ) -> None:
        self.reason = reason
        self.source = source
        self.index = index
        self.graph_id = graph_id
        self.line = line
        super().__init__(self._format())

    def _format(self) -> str:
        where = []
        if self.source is not None:
            where.append(str(self.source))
        if self.index is not None:
            label = f"graph #{self.index + 1}"
            if self.graph_id:
                label += f" (id {self.graph_id})"
            where.append(label)
        elif self.graph_id:
            where.append(f"graph id {self.graph_id}")
        if self.line is not None:
            where.append(f"line {self.line}")
        prefix = ", ".join(where)
        return f"{prefix}: {self.reason}" if prefix else self.reason


class TooLargeError(InputError):
    """An alignment problem over its memory budget (``n_terms`` pairwise terms, ``n_entries`` unary entries):
    refused before anything was allocated for it. The kernels raise it with the counts;
    :func:`amreval.match.build_problem` with a message that gives the sizes and the memory needed, and
    the corpus scores with the pair named first."""

    def __init__(self, n_terms: int, n_entries: int, message: str | None = None) -> None:
        super().__init__(message or f"{n_terms} pairwise terms and {n_entries} unary entries over the memory budget")
        self.n_terms = n_terms
        self.n_entries = n_entries

    def __reduce__(self) -> tuple[type[TooLargeError], tuple[int, int, str]]:
        return (type(self), (self.n_terms, self.n_entries, str(self)))


#: The name :class:`TooLargeError` had before it was named like its siblings: the same class, so that code
#: catching ``TooLarge`` catches what is raised under either name, and what was pickled under it loads.
TooLarge = TooLargeError


class OutOfMemory(AmrevalError, MemoryError):
    """Scoring a pair ran out of memory (a ``MemoryError`` in the kernels, NumPy or HiGHS); the message
    names the pair. A :class:`MemoryError`, so code that catches those catches it too."""


class MissingDependencyError(AmrevalError, ImportError):
    """An optional dependency is missing; the message is the install command."""

    def __init__(self, package: str, extra: str | None = None, purpose: str = "") -> None:
        hint = f"pip install 'amreval[{extra}]'" if extra else f"pip install {package}"
        what = f" for {purpose}" if purpose else ""
        super().__init__(f"{package} is needed{what}: {hint}")
        self.name = package


class AmrevalWarning(UserWarning):
    """Warnings about lenient handling of questionable input."""


class RenamedSettingWarning(FutureWarning):
    """A setting given by its old name, which still works: the message names the new one. A
    :class:`FutureWarning`, so that it is shown to the people who run the script (not only to those who
    test it), once per process and old name (:func:`amreval._warn.warn_renamed`)."""
