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

import os
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple, TextIO, Union

import penman

from amreval.amr.graph import Attribute, Edge, Graph, canonical_role
from amreval.errors import AmrevalWarning, DecodeError, InputError

__all__ = [
    "read_graphs",
    "iter_graphs",
    "loads_graphs",
    "loads_graph",
    "read_text",
    "as_graph",
    "check_graph",
    "read_bytes",
    "decode_text",
    "UnreadableGraph",
    "GraphLike",
    "FileSource",
    "split_blocks",
    "Block",
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


_ALIGNMENT = re.compile(r"~[A-Za-z]*\.?\d+(?:,\d+)*$")
# What an unbound variable looks like: a short letter prefix and optional
# digits (``e``, ``b2``, ``vx12``) or a document variable (``s3.x``).
_VARIABLE_LIKE = re.compile(r"^(?:[a-z]{1,2}\d*|[a-z]+\d+|s\d+\.[a-z]+\d*)$")
_CONSTANT_ROLES = frozenset({"polarity", "mode", "li", "quant", "value", "wiki"})
# The token patterns of PENMAN notation (as penman 1.x's lexer defines them),
# in the order they are tried, over a whole block at once.
_SPACE = r" \t\r\n\v\f"
_TOKENS = (
    ("COMMENT", r"\#.*$"),
    ("STRING", r'"[^"\\]*(?:\\.[^"\\]*)*"'),
    ("LPAREN", r"\("),
    ("RPAREN", r"\)"),
    ("SLASH", r"\/"),
    ("ROLE", rf':[^{_SPACE}"()\/:~]*'),
    ("SYMBOL", rf'[^{_SPACE}"()\/:~]+'),
    ("ALIGNMENT", r"~(?:[a-z]\.?)?[0-9]+(?:,[0-9]+)*"),
    ("UNEXPECTED", rf"[^{_SPACE}]"),
)
_TOKEN_RE = re.compile("|".join(f"(?P<{name}>{pattern})" for name, pattern in _TOKENS), flags=re.MULTILINE)


def _strip_alignment(text: str) -> str:
    if "~" in text:
        return _ALIGNMENT.sub("", text)
    return text


# A parsed graph before variables and constants are told apart:
# (metadata, top, [(var, concept)], [(source, role, target, target_is_node)])
_Flat = tuple[dict, str, list, list]


def _parse_comment(comment: str, metadata: dict[str, str]) -> None:
    # the same rule as penman: split ``::key value`` fields from the right
    while comment:
        comment, found, meta = comment.rpartition("::")
        if found:
            key, _, value = meta.partition(" ")
            metadata[key] = value.rstrip()


class _TrailingText(Exception):
    def __init__(self, token: str, line_offset: int) -> None:
        super().__init__(token)
        self.token = token
        self.line_offset = line_offset


def _fast_parse(text: str) -> list[_Flat] | None:
    """Parse well-formed PENMAN with penman's own token pattern.

    Returns None at the first irregularity; the caller then lets
    :func:`penman.iterparse` parse the block (and report the error).
    """
    toks = [(m.lastgroup, m.group(), m.start()) for m in _TOKEN_RE.finditer(text)]
    n = len(toks)
    pos = 0
    out: list[_Flat] = []
    while pos < n:
        metadata: dict[str, str] = {}
        while pos < n and toks[pos][0] == "COMMENT":
            _parse_comment(toks[pos][1], metadata)
            pos += 1
        if pos == n:
            break
        if toks[pos][0] != "LPAREN":
            if out:
                raise _TrailingText(toks[pos][1], text.count("\n", 0, toks[pos][2]))
            return None
        instances: list[tuple[str, str | None]] = []
        branches: list[tuple[str, str, str, bool]] = []
        stack: list[str] = []
        top = None
        while True:
            # at an LPAREN: open a node
            if pos + 1 >= n or toks[pos + 1][0] != "SYMBOL":
                return None
            var = toks[pos + 1][1]
            pos += 2
            concept = None
            if pos < n and toks[pos][0] == "SLASH":
                pos += 1
                if pos < n and toks[pos][0] in ("SYMBOL", "STRING"):
                    concept = toks[pos][1]
                    pos += 1
                    if pos < n and toks[pos][0] == "ALIGNMENT":
                        pos += 1
                else:
                    return None
            instances.append((var, concept))
            if top is None:
                top = var
            stack.append(var)
            # edges until the node closes; descend on a nested node
            descended = False
            while not descended:
                if pos >= n:
                    return None
                kind, tok, _ = toks[pos]
                if kind == "RPAREN":
                    pos += 1
                    stack.pop()
                    if not stack:
                        break
                    continue
                if kind != "ROLE" or len(tok) < 2:
                    return None
                role = tok[1:]
                pos += 1
                if pos < n and toks[pos][0] == "ALIGNMENT":
                    pos += 1
                if pos >= n:
                    return None
                kind, tok, _ = toks[pos]
                if kind in ("SYMBOL", "STRING"):
                    branches.append((stack[-1], role, tok, False))
                    pos += 1
                    if pos < n and toks[pos][0] == "ALIGNMENT":
                        pos += 1
                elif kind == "LPAREN":
                    if pos + 1 >= n or toks[pos + 1][0] != "SYMBOL":
                        return None
                    branches.append((stack[-1], role, toks[pos + 1][1], True))
                    descended = True
                else:
                    return None
            if not stack:
                break
        out.append((metadata, top, instances, branches))
    return out


def _flatten_tree(tree: penman.Tree) -> _Flat:
    instances: list[tuple[str, str | None]] = []
    branches: list[tuple[str, str, str, bool]] = []

    def visit(node: tuple) -> None:
        var, edges = node
        concept = None
        for role, target in edges:
            if role == "/":
                concept = target
                break
        instances.append((var, concept))
        for role, target in edges:
            if role == "/":
                continue
            role = _strip_alignment(role)[1:]
            if isinstance(target, tuple):
                branches.append((var, role, target[0], True))
                visit(target)
            else:
                branches.append((var, role, target if target is not None else "", False))

    visit(tree.node)
    return dict(tree.metadata), tree.node[0], instances, branches


def _build_graph(flat: _Flat, origin: str, warn_unbound: bool = True) -> Graph:
    metadata, top, inst_list, branches = flat
    instances: dict[str, str] = {}
    for var, concept in inst_list:
        if concept is None:
            _warn(f"{origin}: ({var}) has no concept; read with the empty concept")
        concept = _strip_alignment(concept) if concept is not None else ""
        if var in instances:
            _warn(f"{origin}: variable {var!r} is defined twice; kept the first concept")
            continue
        instances[var] = concept
    graph = Graph(top=top, instances=instances, metadata=metadata, origin=origin)
    edges = graph.edges
    attributes = graph.attributes
    for source, role, target, is_node in branches:
        if not role:
            _warn(f"{origin}: {source} : {target}: an empty role ':'; read as the role ''")
        if not is_node:
            target = _strip_alignment(target)
            if target[:1] == '"' or target not in instances:
                if (
                    warn_unbound
                    and target[:1] != '"'
                    and _VARIABLE_LIKE.match(target)
                    and role.lower() not in _CONSTANT_ROLES
                ):
                    _warn(
                        f"{origin}: {source} :{role} {target}: {target!r} looks like a variable but "
                        "is not defined in this graph; read as a constant"
                    )
                if not target:
                    _warn(f"{origin}: {source} :{role} has no value; read as an empty constant")
                attributes.append(Attribute(source, role, target))
                continue
        canon, swapped = canonical_role(role)
        if swapped:
            edges.append(Edge(target, canon, source, role))
        else:
            edges.append(Edge(source, canon, target, role))
    return graph


def _warn(message: str) -> None:
    warnings.warn(message, AmrevalWarning, stacklevel=5)


class Block(NamedTuple):
    """A blank-line separated block of PENMAN text."""

    text: str
    line: int  # 1-based line of the block's first line


def split_blocks(text: str) -> Iterator[Block]:
    """Split PENMAN text into blank-line separated blocks that hold a graph.

    Example:
        >>> [(b.line, b.text) for b in split_blocks("# header\\n\\n(a / b)\\n\\n\\n# ::id x\\n(c / d)")]
        [(3, '(a / b)'), (6, '# ::id x\\n(c / d)')]
    """
    lines = text.splitlines()
    start = None
    depth = 0
    has_graph = False
    for n, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            if start is not None and depth <= 0:
                if has_graph:
                    yield Block("\n".join(lines[start:n]), start + 1)
                start, depth, has_graph = None, 0, False
            continue
        if start is None:
            start = n
        if stripped.startswith("#") and depth <= 0:
            continue
        has_graph = True
        if '"' in stripped:
            stripped = re.sub(r'"(?:[^"\\]|\\.)*"', "", stripped)
        depth += stripped.count("(") - stripped.count(")")
    if start is not None and has_graph:
        yield Block("\n".join(lines[start:]), start + 1)


def _metadata_id(block: str) -> str | None:
    m = re.search(r"::id\s+(\S+)", block)
    return m.group(1) if m else None


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
    text, label = read_text(source, name)
    yield from _iter_text(text, label, warn_unbound, errors)


def read_graphs(
    source: FileSource,
    *,
    name: str | None = None,
    warn_unbound: bool = True,
    errors: list[InputError] | None = None,
) -> list[Graph]:
    """Read all PENMAN graphs of a file (see :func:`iter_graphs`)."""
    return list(iter_graphs(source, name=name, warn_unbound=warn_unbound, errors=errors))


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
    index = 0
    for block in split_blocks(text):
        try:
            graphs = _read_block(block, label, index, warn_unbound)
        except DecodeError as exc:
            if errors is None:
                raise
            graphs = list(_read_leniently(block, exc, label, index, warn_unbound, errors))
        yield from graphs
        index += len(graphs)


def _read_leniently(
    block: Block, error: DecodeError, label: str, index: int, warn_unbound: bool, errors: list[InputError]
) -> Iterator[Graph]:
    """The graphs of a block that cannot be read as a whole, an :class:`UnreadableGraph` for each bad part.

    A block that runs over blank lines (unbalanced parentheses) is read part by part.
    """
    parts = _blank_line_parts(block)
    for part in parts if len(parts) > 1 else [block]:
        try:
            graphs = _read_block(part, label, index, warn_unbound) if len(parts) > 1 else []
        except DecodeError as exc:
            error = exc
            graphs = []
        if not graphs:
            errors.append(error)
            graphs = [UnreadableGraph.of(error, f"{label}, graph #{index + 1}, line {part.line}")]
        yield from graphs
        index += len(graphs)


def _blank_line_parts(block: Block) -> list[Block]:
    """A block cut at every blank line (parts holding only comments are left out)."""
    parts: list[Block] = []
    lines = block.text.split("\n")
    start = 0
    for n in range(len(lines) + 1):
        if n == len(lines) or not lines[n].strip():
            chunk = lines[start:n]
            if any(line.strip() and not line.lstrip().startswith("#") for line in chunk):
                parts.append(Block("\n".join(chunk), block.line + start))
            start = n + 1
    return parts


def _read_block(block: Block, label: str, index: int, warn_unbound: bool) -> list[Graph]:
    """The graphs of one block (usually one).

    Raises:
        DecodeError: the block is malformed.
    """
    try:
        flats = _fast_parse(block.text)
    except _TrailingText as exc:
        raise DecodeError(
            f"unexpected {exc.token!r} after the end of the graph (unbalanced parentheses?)",
            source=label,
            index=index,
            graph_id=_metadata_id(block.text),
            line=block.line + exc.line_offset,
        ) from None
    if flats is None:
        flats = _penman_parse(block, label, index)
    graphs = []
    for flat in flats:
        gid = flat[0].get("id")
        if not flat[1]:
            raise DecodeError(
                "a graph without a variable ('()'); expected (var / concept ...)",
                source=label,
                index=index,
                graph_id=gid,
                line=block.line,
            )
        origin = f"{label}, graph #{index + 1}" + (f" (id {gid})" if gid else "") + f", line {block.line}"
        graphs.append(_build_graph(flat, origin, warn_unbound=warn_unbound))
        index += 1
    return graphs


def _nesting(text: str) -> int:
    """The deepest parenthesis nesting of PENMAN text (outside strings)."""
    depth = deepest = 0
    for m in re.finditer(r'"(?:[^"\\]|\\.)*"|[()]', text):
        tok = m.group()
        if tok == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif tok == ")":
            depth -= 1
    return deepest


def _penman_parse(block: Block, label: str, index: int) -> list[_Flat]:
    try:
        trees = list(penman.iterparse(block.text))
    except RecursionError:
        raise DecodeError(
            f"malformed PENMAN nested {_nesting(block.text)} levels deep (too deep to say more); "
            "well-formed graphs are read at any depth",
            source=label,
            index=index,
            graph_id=_metadata_id(block.text),
            line=block.line,
        ) from None
    except penman.DecodeError as exc:
        line = block.line + exc.lineno - 1 if exc.lineno else block.line
        near = exc.text.strip() if exc.text else ""
        raise DecodeError(
            f"malformed PENMAN: {exc.message}" + (f" in {near!r}" if near else ""),
            source=label,
            index=index,
            graph_id=_metadata_id(block.text),
            line=line,
        ) from None
    if not trees:
        raise DecodeError(
            "expected a graph starting with '('",
            source=label,
            index=index,
            graph_id=_metadata_id(block.text),
            line=block.line,
        )
    return [_flatten_tree(t) for t in trees]


def check_graph(g: Graph, what: str, index: int) -> Graph:
    """A :class:`Graph` built by hand must point only to its own variables.

    Raises:
        InputError: naming ``what``, ``index`` and the unknown variable.
    """
    known = g.instances
    if g.top is not None and g.top not in known:
        raise InputError(f"{what} #{index}: the top {g.top!r} is not a variable of the graph")
    for e in g.edges:
        for v in (e.source, e.target):
            if v not in known:
                raise InputError(
                    f"{what} #{index}: edge {e.source} :{e.written} {e.target} names the unknown variable {v!r}"
                )
    for at in g.attributes:
        if at.source not in known:
            raise InputError(f"{what} #{index}: attribute :{at.role} of the unknown variable {at.source!r}")
    return g


def as_graph(g: GraphLike, what: str, index: int, *, errors: list[InputError] | None = None) -> Graph:
    """One graph as the scorers take it: a :class:`Graph` (checked) or its PENMAN text.

    Args:
        g: the graph or its PENMAN text.
        what, index: how messages name it (``prediction #3``).
        errors: read leniently: text that cannot be read (malformed, empty)
            gives an :class:`UnreadableGraph` and its error is appended here.
            Without it an :class:`UnreadableGraph` raises its error.

    Raises:
        InputError: an empty string or an object of another type (naming
            ``what`` and ``index``).
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
                raise InputError(f"{what} #{index}: empty string; expected a PENMAN graph")
            return loads_graph(g, name=f"{what} #{index}")
        except InputError as exc:
            if errors is None:
                raise
            errors.append(exc)
            return UnreadableGraph.of(exc, f"{what} #{index}")
    raise InputError(f"{what} #{index}: expected a PENMAN string or a Graph, got {type(g).__name__}")


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
