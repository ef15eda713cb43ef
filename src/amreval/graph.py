"""AMR graphs: the data model and reading from PENMAN.

A :class:`Graph` keeps what scoring and conversion need: the top variable,
the concept of every variable, the edges between variables (stored in
canonical direction, with the role as written) and the edges to constants.
Reading goes through :func:`penman.parse`; ISI alignment markers (``~e.3``)
are stripped, metadata (``::id``, ``::snt``, ``::tok`` ...) is kept, and a
block of comments without a graph (a release header) is skipped.

Example:
    >>> g = read_graph('(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))')
    >>> g.top, g.instances["b"], len(g.edges)
    ('w', 'boy', 3)
"""

from __future__ import annotations

import logging
import os
import re
import warnings
from dataclasses import dataclass, field
from typing import Iterable, Iterator, NamedTuple, Union

import penman
import penman._lexer

from .errors import AmrevalWarning, DecodeError

__all__ = [
    "Edge",
    "Attribute",
    "Graph",
    "read_graph",
    "read_graphs",
    "iter_graphs",
    "canonical_role",
    "NON_INVERTED_OF_ROLES",
]

logger = logging.getLogger(__name__)

#: Roles that end in ``-of`` but are not inverses.
NON_INVERTED_OF_ROLES = frozenset({"consist-of", "prep-on-behalf-of", "prep-out-of"})

_ALIGNMENT = re.compile(r"~[A-Za-z]*\.?\d+(?:,\d+)*$")
# What an unbound variable looks like: a short letter prefix and optional
# digits (``e``, ``b2``, ``vx12``) or a document variable (``s3.x``).
_VARIABLE_LIKE = re.compile(r"^(?:[a-z]{1,2}\d*|[a-z]+\d+|s\d+\.[a-z]+\d*)$")
_CONSTANT_ROLES = frozenset({"polarity", "mode", "li", "quant", "value", "wiki"})
# penman's own token patterns, in penman's order, over a whole block at once
_TOKEN_RE = re.compile(
    "|".join(
        f"(?P<{name}>{penman._lexer.PATTERNS[name]})"
        for name in ("COMMENT", "STRING", "LPAREN", "RPAREN", "SLASH", "ROLE", "SYMBOL", "ALIGNMENT", "UNEXPECTED")
    ),
    flags=re.MULTILINE,
)

PathLike = Union[str, "os.PathLike[str]"]


class Edge(NamedTuple):
    """An edge between two variables, in canonical direction.

    ``role`` is canonical (``ARG0`` for a written ``:ARG0-of``; ``domain``
    for a written ``:mod``); ``written`` is the role as it appeared.
    """

    source: str
    role: str
    target: str
    written: str

    @property
    def inverted(self) -> bool:
        """True when the edge was written in the other direction."""
        return self.written != self.role


class Attribute(NamedTuple):
    """An edge from a variable to a constant (value as written, quotes kept)."""

    source: str
    role: str
    value: str


@dataclass
class Graph:
    """One AMR graph.

    Attributes:
        top: the root variable (``None`` only for an empty graph).
        instances: concept of each variable, in order of appearance.
        edges: edges between variables.
        attributes: edges to constants.
        metadata: ``::key value`` pairs of the comment block.
        origin: where the graph was read from (file, index, line) for messages.
    """

    top: str | None
    instances: dict[str, str] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)
    attributes: list[Attribute] = field(default_factory=list)
    metadata: dict[str, str] = field(default_factory=dict)
    origin: str = "<string>"

    @property
    def id(self) -> str | None:
        """The ``::id`` of the graph, if any."""
        return self.metadata.get("id")

    def __len__(self) -> int:
        return len(self.instances)

    def is_empty(self) -> bool:
        """True for a graph without any node."""
        return not self.instances

    @classmethod
    def empty(cls, metadata: dict[str, str] | None = None, origin: str = "<empty>") -> "Graph":
        """A graph without nodes (scores 0 against anything but itself)."""
        return cls(top=None, metadata=dict(metadata or {}), origin=origin)

    def to_penman(self) -> penman.Graph:
        """Convert to a :class:`penman.Graph` (for writing)."""
        triples: list[tuple[str, str, str]] = []
        for var, concept in self.instances.items():
            triples.append((var, ":instance", concept))
        for e in self.edges:
            if e.inverted and e.written == "mod":
                triples.append((e.target, ":mod", e.source))
            elif e.inverted:
                triples.append((e.target, ":" + e.written, e.source))
            else:
                triples.append((e.source, ":" + e.role, e.target))
        for a in self.attributes:
            triples.append((a.source, ":" + a.role, a.value))
        return penman.Graph(triples, top=self.top, metadata=dict(self.metadata))

    def to_string(self, indent: int | None = 4) -> str:
        """Serialise as PENMAN (metadata first)."""
        return penman.encode(self.to_penman(), indent=indent)


def canonical_role(role: str) -> tuple[str, bool]:
    """Return the canonical role and whether the written role was inverted.

    Args:
        role: a role without the leading colon, as written.

    Returns:
        ``(canonical, swapped)``; when ``swapped`` the edge's source and target
        are exchanged. ``:X-of`` becomes ``X`` (except the real role names in
        :data:`NON_INVERTED_OF_ROLES`) and ``:mod`` becomes ``domain``.

    Example:
        >>> canonical_role("ARG0-of"), canonical_role("mod"), canonical_role("consist-of")
        (('ARG0', True), ('domain', True), ('consist-of', False))
    """
    swapped = False
    if role.endswith("-of") and role.lower() not in NON_INVERTED_OF_ROLES:
        role = role[:-3]
        swapped = True
    if role.lower() == "mod":
        role = "domain"
        swapped = not swapped
    return role, swapped


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
        instances: list[tuple[str, str]] = []
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
        concept = _strip_alignment(concept) if concept is not None else ""
        if var in instances:
            _warn(f"{origin}: variable {var!r} is defined twice; kept the first concept")
            continue
        instances[var] = concept
    graph = Graph(top=top, instances=instances, metadata=metadata, origin=origin)
    edges = graph.edges
    attributes = graph.attributes
    for source, role, target, is_node in branches:
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


class _Block(NamedTuple):
    text: str
    line: int  # 1-based line of the block's first line


def _blocks(text: str) -> Iterator[_Block]:
    """Split PENMAN text into blank-line separated blocks that hold a graph."""
    lines = text.splitlines()
    start = None
    depth = 0
    has_graph = False
    for n, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            if start is not None and depth <= 0:
                if has_graph:
                    yield _Block("\n".join(lines[start:n]), start + 1)
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
        yield _Block("\n".join(lines[start:]), start + 1)


def _metadata_id(block: str) -> str | None:
    m = re.search(r"::id\s+(\S+)", block)
    return m.group(1) if m else None


def iter_graphs(
    source: str | PathLike | Iterable[str],
    *,
    name: str | None = None,
    warn_unbound: bool = True,
) -> Iterator[Graph]:
    """Read PENMAN graphs one by one.

    Args:
        source: a path to a file, a string of PENMAN text, or an iterable of
            lines (an open file).
        name: what to call the source in messages (default: the path or
            ``"<string>"``).
        warn_unbound: warn when a role points to an undefined variable.

    Yields:
        One :class:`Graph` per graph in the source, in order.

    Raises:
        DecodeError: a graph is malformed; the message names the source, the
            graph's position and id, and the line.

    Example:
        >>> [g.id for g in iter_graphs("# ::id a\\n(x / y)\\n\\n# ::id b\\n(z / w)")]
        ['a', 'b']
    """
    text, label = _read_source(source, name)
    yield from _iter_text(text, label, warn_unbound)


def _iter_text(text: str, label: str, warn_unbound: bool) -> Iterator[Graph]:
    index = 0
    for block in _blocks(text):
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
        for flat in flats:
            gid = flat[0].get("id")
            if not flat[1]:
                raise DecodeError("a graph without a variable ('()'); expected (var / concept ...)",
                                  source=label, index=index, graph_id=gid, line=block.line)
            origin = f"{label}, graph #{index + 1}" + (f" (id {gid})" if gid else "") + f", line {block.line}"
            yield _build_graph(flat, origin, warn_unbound=warn_unbound)
            index += 1


def _penman_parse(block: _Block, label: str, index: int) -> list[_Flat]:
    try:
        trees = list(penman.iterparse(block.text))
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


def read_graphs(
    source: str | PathLike | Iterable[str],
    *,
    name: str | None = None,
    warn_unbound: bool = True,
) -> list[Graph]:
    """Read all PENMAN graphs of a file, a string or an iterable of lines.

    See :func:`iter_graphs` for the arguments.
    """
    return list(iter_graphs(source, name=name, warn_unbound=warn_unbound))


def read_graph(text: str, *, name: str | None = None) -> Graph:
    """Read exactly one graph from a PENMAN string (never a file name: see :func:`read_graphs`).

    Raises:
        DecodeError: the string holds no graph or more than one.
    """
    label = name or "<string>"
    if not isinstance(text, str):
        raise DecodeError(f"expected a PENMAN string, got {type(text).__name__}", source=label)
    graphs = list(_iter_text(text, label, True))
    if len(graphs) != 1:
        raise DecodeError(f"expected exactly one graph, found {len(graphs)}", source=label)
    return graphs[0]


def _read_source(source: str | PathLike | Iterable[str], name: str | None) -> tuple[str, str]:
    if isinstance(source, os.PathLike) or (
        isinstance(source, str) and "(" not in source and "\n" not in source and os.path.exists(source)
    ):
        path = os.fspath(source)
        with open(path, encoding="utf-8") as fh:
            return fh.read(), name or path
    if isinstance(source, str):
        return source, name or "<string>"
    return "".join(source), name or getattr(source, "name", "<lines>")
