"""Reading PENMAN: one reader for files, one for text, never a guess.

* :func:`read_graphs` / :func:`iter_graphs` read a **file** (a path, or an
  open text file). A string is always a path: a missing file is an
  :class:`~amreval.errors.InputError` that names it ("no such file").
* :func:`loads_graphs` reads PENMAN **text**; :func:`loads_graph` reads text
  that holds exactly one graph.
* :func:`as_graph` is the door of every scorer: a :class:`Graph` (checked) or
  one graph's PENMAN text.

Blocks are split at blank lines and parsed in one fast pass with the token
patterns of PENMAN; anything irregular goes to :func:`penman.iterparse`,
which gives the error. ISI alignment markers (``~e.3``) are stripped,
metadata (``::id``, ``::snt``, ``::tok`` ...) is kept, and a block of
comments without a graph (a release header) is skipped. A malformed graph
raises :class:`~amreval.errors.DecodeError` naming the source, the graph's
number and id, and the line.

Example:
    >>> [g.id for g in loads_graphs("# ::id a\\n(x / y)\\n\\n# ::id b\\n(z / w)")]
    ['a', 'b']
    >>> loads_graph("(w / want-01 :ARG0 (b / boy))").instances
    {'w': 'want-01', 'b': 'boy'}
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TextIO, Union

from amreval.amr.graph import Graph
from amreval.amr.parse import Block, blank_line_parts, graph_start_parts, line_blocks, parse_block, split_blocks
from amreval.errors import DecodeError, InputError, numbered

__all__ = [
    "read_graphs",
    "iter_graphs",
    "loads_graphs",
    "loads_graph",
    "read_text",
    "open_blocks",
    "graphs_of_blocks",
    "as_graph",
    "check_graph",
    "read_bytes",
    "decode_text",
    "UnreadableGraph",
    "GraphLike",
    "FileSource",
]

#: What the scorers accept for one graph: a :class:`Graph` or its PENMAN text.
GraphLike = Union[Graph, str]
#: A file to read: a path or an open text file.
FileSource = Union[str, "os.PathLike[str]", TextIO]


@dataclass
class UnreadableGraph(Graph):
    """An empty graph standing for one that could not be read; ``error`` says why.

    Lenient readers (``errors=[...]``) put it where the graph would have been, so
    graphs keep their positions; the scorers count it as an unreadable
    prediction, and raise its ``error`` where a graph is required (a reference).
    """

    error: InputError | None = None

    @classmethod
    def of(cls, error: InputError, origin: str = "<unreadable>") -> UnreadableGraph:
        return cls(top=None, origin=origin, error=error)


def iter_graphs(
    source: FileSource,
    *,
    name: str | None = None,
    warn_unbound: bool = True,
    errors: list[InputError] | None = None,
) -> Iterator[Graph]:
    """Read the PENMAN graphs of a file one by one.

    Args:
        source: a path (a string is always a path) or an open text file.
        name: what to call the source in messages (default: the path).
        warn_unbound: warn when a role points to an undefined variable.
        errors: read leniently: a graph that cannot be read is yielded as an
            :class:`UnreadableGraph` in its place and its error appended here
            (a block that runs over blank lines because of unbalanced
            parentheses is read part by part, so the graphs after it keep
            their positions).

    Yields:
        One :class:`Graph` per graph in the file, in order.

    Raises:
        InputError: no such file, or a folder.
        DecodeError: the file is not UTF-8 text (the message names the line), or
            a graph is malformed (without ``errors``); the message names the
            file, the graph's position and id, and the line.
    """
    label, blocks = open_blocks(source, name)
    yield from graphs_of_blocks(blocks, label, warn_unbound, errors)


def read_graphs(
    source: FileSource,
    *,
    name: str | None = None,
    warn_unbound: bool = True,
    errors: list[InputError] | None = None,
) -> list[Graph]:
    """Read all PENMAN graphs of a file (see :func:`iter_graphs`)."""
    with _collector_paused():
        return list(iter_graphs(source, name=name, warn_unbound=warn_unbound, errors=errors))


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector off while a whole file is read: parsed graphs hold no reference cycles,
    and the collector would otherwise walk the growing list of graphs again and again."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def loads_graphs(
    text: str, *, name: str | None = None, warn_unbound: bool = True, errors: list[InputError] | None = None
) -> list[Graph]:
    """Read all PENMAN graphs of a string.

    Args:
        text: PENMAN text (never a file name: see :func:`read_graphs`).
        name: what to call the text in messages (default ``"<string>"``).
        warn_unbound: warn when a role points to an undefined variable.
        errors: read leniently (see :func:`iter_graphs`).

    Raises:
        DecodeError: a graph is malformed (the message names it and its line),
            or ``text`` is not a string.
    """
    label = name or "<string>"
    if not isinstance(text, str):
        raise DecodeError(f"expected PENMAN text, got {type(text).__name__}", source=label)
    with _collector_paused():
        return list(_iter_text(_without_bom(text), label, warn_unbound, errors))


def loads_graph(text: str, *, name: str | None = None) -> Graph:
    """Read exactly one graph from a PENMAN string.

    Raises:
        DecodeError: the string holds no graph or more than one, or is malformed.
    """
    label = name or "<string>"
    graphs = loads_graphs(text, name=label)
    if len(graphs) != 1:
        raise DecodeError(f"expected exactly one graph, found {len(graphs)}", source=label)
    return graphs[0]


def _without_bom(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text


def _iter_text(text: str, label: str, warn_unbound: bool, errors: list[InputError] | None = None) -> Iterator[Graph]:
    return graphs_of_blocks(split_blocks(text), label, warn_unbound, errors)


def graphs_of_blocks(
    blocks: Iterable[Block],
    label: str,
    warn_unbound: bool = True,
    errors: list[InputError] | None = None,
    index: int = 0,
) -> Iterator[Graph]:
    """The graphs of PENMAN blocks (see :func:`open_blocks`), read as :func:`iter_graphs` reads a file's;
    ``index`` is the position in the file of the first block's first graph (for messages)."""
    for block in blocks:
        try:
            graphs = parse_block(block, label, index, warn_unbound)
        except DecodeError as exc:
            if errors is None:
                # the first part that cannot be read names its own graph and line
                found: list[InputError] = []
                for _ in _read_leniently(block, exc, label, index, warn_unbound, found):
                    pass
                raise (found[0] if found else exc) from None
            graphs = list(_read_leniently(block, exc, label, index, warn_unbound, errors))
        yield from graphs
        index += len(graphs)


def _read_leniently(
    block: Block, error: DecodeError, label: str, index: int, warn_unbound: bool, errors: list[InputError]
) -> Iterator[Graph]:
    """The graphs of a block that cannot be read as a whole, an :class:`UnreadableGraph` for each bad part.

    A block that runs over blank lines (unbalanced parentheses) is read part by part, each part cut again
    where a graph starts after another in it (:func:`~amreval.amr.parse.graph_start_parts`: two graphs with no
    blank line between them, one not closed).
    """
    parts = [cut for part in blank_line_parts(block) for cut in graph_start_parts(part)]
    for part in parts if len(parts) > 1 else [block]:
        try:
            graphs = parse_block(part, label, index, warn_unbound) if len(parts) > 1 else []
        except DecodeError as exc:
            error = exc
            graphs = []
        if not graphs:
            errors.append(error)
            graphs = [UnreadableGraph.of(error, f"{label}, graph #{index + 1}, line {part.line}")]
        yield from graphs
        index += len(graphs)


def check_graph(g: Graph, what: str, index: int | None) -> Graph:
    """A :class:`Graph` built by hand must point only to its own variables.

    Raises:
        InputError: naming the graph (``what #index+1``, see :func:`~amreval.errors.numbered`) and the
            unknown variable.
    """
    known = g.instances
    if g.top is not None and g.top not in known:
        raise InputError(f"{numbered(what, index)}: the top {g.top!r} is not a variable of the graph")
    for e in g.edges:
        for v in (e.source, e.target):
            if v not in known:
                raise InputError(
                    f"{numbered(what, index)}: edge {e.source} :{e.written} {e.target} names the unknown variable {v!r}"
                )
    for at in g.attributes:
        if at.source not in known:
            raise InputError(f"{numbered(what, index)}: attribute :{at.role} of the unknown variable {at.source!r}")
    return g


def as_graph(g: GraphLike, what: str, index: int | None, *, errors: list[InputError] | None = None) -> Graph:
    """One graph as the scorers take it: a :class:`Graph` (checked) or its PENMAN text.

    Args:
        g: the graph or its PENMAN text.
        what, index: how messages name it: ``what`` and the 0-based ``index`` of the list it was given
            in, printed from 1 (``"prediction", 0`` is ``prediction #1``; ``index=None``: ``what`` alone).
        errors: read leniently: text that cannot be read (malformed, empty)
            gives an :class:`UnreadableGraph` and its error is appended here.
            Without it an :class:`UnreadableGraph` raises its error.

    Raises:
        InputError: an empty string or an object of another type (naming
            the graph as ``what`` and ``index`` say).
        DecodeError: malformed PENMAN.
    """
    if isinstance(g, UnreadableGraph):
        error = g.error or DecodeError("a graph that could not be read", source=g.origin)
        if errors is None:
            raise error
        errors.append(error)
        return g
    if isinstance(g, Graph):
        return check_graph(g, what, index)
    if isinstance(g, str):
        try:
            if not g.strip():
                raise InputError(f"{numbered(what, index)}: empty string; expected a PENMAN graph")
            return loads_graph(g, name=numbered(what, index))
        except InputError as exc:
            if errors is None:
                raise
            errors.append(exc)
            return UnreadableGraph.of(exc, numbered(what, index))
    raise InputError(f"{numbered(what, index)}: expected a PENMAN string or a Graph, got {type(g).__name__}")


def _open_label(source: FileSource, name: str | None) -> tuple[str, str] | None:
    """``(path, label)`` for a path, None for an open file; the error for anything else."""
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        return path, name or path
    if hasattr(source, "read"):
        return None
    raise InputError(
        f"expected a file path or an open text file, got {type(source).__name__} (text goes to the loads_* readers)"
    )


def read_bytes(source: FileSource, name: str | None = None, what: str = "file") -> tuple[bytes | str, str]:
    """The raw bytes of a file (or the text of an open text file) and its label, by the rules of :func:`read_text`.

    For formats that declare their own encoding (XML).

    Raises:
        InputError: no such file, a folder, something that is not a file.
    """
    opened = _open_label(source, name)
    if opened is None:
        label = str(name or getattr(source, "name", "<file>"))
        data = _read_open_file(source, label)  # type: ignore[arg-type]
        return data, label
    path, label = opened
    try:
        with open(path, "rb") as fh:
            return fh.read(), label
    except FileNotFoundError:
        raise InputError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a folder; expected a {what}") from None


def _read_open_file(source: TextIO, label: str) -> str | bytes:
    try:
        return source.read()
    except UnicodeDecodeError as exc:
        raise DecodeError(f"not {exc.encoding} text (byte {exc.start}: {_byte(exc)})", source=label) from None


def _byte(exc: UnicodeDecodeError) -> str:
    return repr(exc.object[exc.start : exc.start + 1])


def decode_text(data: bytes, label: str) -> str:
    """UTF-8 bytes as text: a byte-order mark is dropped, line ends become ``\\n``.

    Raises:
        DecodeError: a byte that is not UTF-8, or a NUL byte (a binary file),
            naming ``label`` and the line.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DecodeError(
            f"not UTF-8 text (byte {exc.start}: {_byte(exc)}); convert the file to UTF-8",
            source=label,
            line=line,
        ) from None
    return _checked_text(text, label)


def _checked_text(text: str, label: str) -> str:
    text = _without_bom(text)
    nul = text.find("\0")
    if nul >= 0:
        raise DecodeError("a binary file, not text (a NUL byte)", source=label, line=text.count("\n", 0, nul) + 1)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


#: Bytes read at a time by :func:`open_blocks`.
STREAM_CHUNK = 1 << 20


def open_blocks(source: FileSource, name: str | None = None) -> tuple[str, Iterator[Block]]:
    """The label of a file of PENMAN graphs and its blocks, read as a stream: a file given by its path is
    read a megabyte at a time, so the blocks come while the file is read, one at a time in memory. The
    blocks and their line numbers are those of :func:`read_text`'s text, and so are the errors: a file
    that is not UTF-8 text is read again whole for the message (line and byte) that names the problem.

    Raises:
        InputError: no such file, or a folder (at once); then, as the blocks are read, the errors of
            :func:`read_text`.
    """
    opened = _open_label(source, name)
    if opened is None:
        text, label = read_text(source, name)
        return label, split_blocks(text)
    path, label = opened
    if os.path.isdir(path):
        raise InputError(f"{path} is a folder; expected a file of PENMAN graphs")
    if not os.path.exists(path):
        raise InputError(f"no such file: {path}")
    return label, line_blocks(_stream_lines(path, source, name))


def _stream_lines(path: str, source: FileSource, name: str | None) -> Iterator[str]:
    """The lines of ``read_text(source)`` (its ``splitlines()``), a chunk at a time, from the file at ``path``."""
    with open(path, "rb") as fh:
        first = True
        rest = b""
        while True:
            data = fh.read(STREAM_CHUNK)
            chunk = rest + data
            cut = chunk.rfind(b"\n") + 1 if data else len(chunk)
            if not chunk:
                return
            if cut == 0:  # no line end yet: read on
                rest = chunk
                continue
            rest = chunk[cut:]
            try:
                text = chunk[:cut].decode("utf-8-sig" if first else "utf-8")
            except UnicodeDecodeError:
                text = "\0"  # read_text names the byte and its line
            if first:
                text = _without_bom(text)
                first = False
            if "\0" in text:
                read_text(source, name)
                raise DecodeError("not UTF-8 text", source=name or str(source))  # pragma: no cover
            if "\r" in text:
                text = text.replace("\r\n", "\n").replace("\r", "\n")
            yield from text.splitlines()
            if not data:
                return


def read_text(source: FileSource, name: str | None = None, what: str = "file of PENMAN graphs") -> tuple[str, str]:
    """The text of a file and its label for messages: the one rule for every reader of files.

    Files are UTF-8 (a byte-order mark is accepted); line ends are read as ``\\n``.

    Args:
        source: a path (a string is always a path) or an open text file.
        name: the label (default: the path, or the open file's name).
        what: what the file should hold, for the folder message.

    Raises:
        InputError: no such file, a folder, a file opened in binary mode.
        DecodeError: the file is not UTF-8 text, or is binary (the message
            names the file and the line).
    """
    data, label = read_bytes(source, name, what)
    if isinstance(data, str):
        return _checked_text(data, label), label
    if not isinstance(source, (str, os.PathLike)):
        raise InputError(f"{label}: opened in binary mode; open it as text (encoding='utf-8')")
    return decode_text(data, label), label
