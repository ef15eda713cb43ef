"""Parsing PENMAN blocks into :class:`~amreval.amr.graph.Graph` objects.

Text is split into blank-line separated blocks (:func:`split_blocks`), and
each block is parsed (:func:`parse_block`) in one fast pass with the token
patterns of PENMAN; anything irregular goes to :func:`penman.iterparse`,
which gives the error. ISI alignment markers (``~e.3``) are stripped and
metadata (``::id``, ``::snt``, ``::tok`` ...) is kept. Where the text comes
from is :mod:`amreval.amr.read`'s business.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import penman

from amreval._warn import warn_caller
from amreval.amr.graph import Attribute, Edge, Graph, canonical_role
from amreval.errors import DecodeError

__all__ = ["Block", "split_blocks", "blank_line_parts", "parse_block", "nesting_depth", "metadata_id"]

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


# The same patterns without names: ``findall`` gives the tokens as strings, whose first character tells
# their kind (a lone ``"`` or ``~`` is UNEXPECTED, a longer one a STRING or ALIGNMENT; ``#`` opens a
# COMMENT wherever a token starts, since COMMENT is tried first). The white space before a token is taken
# with it, outside the group that is the token: no token starts with white space, so the tokens are the
# same, found in fewer tries.
_TOKENS_RE = re.compile(f"[{_SPACE}]*(" + "|".join(pattern for _, pattern in _TOKENS) + ")", flags=re.MULTILINE)
_NOT_SYMBOL = frozenset('#"()/:~')


def _is_value(tok: str) -> bool:
    """A SYMBOL or a STRING."""
    first = tok[0]
    return first not in _NOT_SYMBOL or (first == '"' and len(tok) > 1)


def _is_alignment(tok: str) -> bool:
    return tok[0] == "~" and len(tok) > 1


def _fast_parse(text: str) -> list[_Flat] | None:
    """Parse well-formed PENMAN with penman's own token pattern.

    Returns None at the first irregularity; the caller then lets
    :func:`penman.iterparse` parse the block (and report the error).
    """
    toks = _TOKENS_RE.findall(text)
    n = len(toks)
    pos = 0
    out: list[_Flat] = []
    while pos < n:
        metadata: dict[str, str] = {}
        pos = _read_comments(toks, pos, metadata)
        if pos == n:
            break
        if toks[pos] != "(":
            if out:
                start = [m.start(1) for m in _TOKENS_RE.finditer(text)][pos]
                raise _TrailingText(toks[pos], text.count("\n", 0, start))
            return None
        graph = _read_graph(toks, pos)
        if graph is None:
            return None
        pos, top, instances, branches = graph
        out.append((metadata, top, instances, branches))
    return out


def _read_comments(toks: list[str], pos: int, metadata: dict[str, str]) -> int:
    """Read the comments from ``toks[pos]`` into ``metadata``; the position of the first other token."""
    n = len(toks)
    while pos < n and toks[pos][0] == "#":
        _parse_comment(toks[pos], metadata)
        pos += 1
    return pos


def _read_graph(toks: list[str], pos: int) -> tuple[int, str, list, list] | None:
    """Read the graph whose first LPAREN is ``toks[pos]``: (the position after it, top, instances, branches).

    None at the first irregularity. (:func:`_is_value` and :func:`_is_alignment` are written out.)
    """
    n = len(toks)
    not_symbol = _NOT_SYMBOL
    instances: list[tuple[str, str | None]] = []
    branches: list[tuple[str, str, str, bool]] = []
    add_branch = branches.append
    stack: list[str] = []
    role = ""  # the role of the edge to the node that opens (none for the top)
    while True:
        # at an LPAREN: open a node
        if pos + 1 >= n or toks[pos + 1][0] in not_symbol:
            return None
        var = toks[pos + 1]
        pos += 2
        concept = None
        if pos < n and toks[pos] == "/":
            pos += 1
            if pos >= n:
                return None
            concept = toks[pos]
            first = concept[0]
            if first in not_symbol and (first != '"' or len(concept) == 1):
                return None
            pos += 1
            if pos < n and toks[pos][0] == "~" and len(toks[pos]) > 1:
                pos += 1
        if stack:
            add_branch((stack[-1], role, var, True))
        instances.append((var, concept))
        stack.append(var)
        # edges until the node closes; descend on a nested node
        while True:
            if pos >= n:
                return None
            tok = toks[pos]
            if tok == ")":
                pos += 1
                stack.pop()
                if not stack:
                    return pos, instances[0][0], instances, branches
                continue
            if tok[0] != ":" or len(tok) < 2:
                return None
            role = tok[1:]
            pos += 1
            if pos >= n:
                return None
            tok = toks[pos]
            if tok[0] == "~" and len(tok) > 1:
                pos += 1
                if pos >= n:
                    return None
                tok = toks[pos]
            first = tok[0]
            if first not in not_symbol or (first == '"' and len(tok) > 1):
                add_branch((stack[-1], role, tok, False))
                pos += 1
                if pos < n and toks[pos][0] == "~" and len(toks[pos]) > 1:
                    pos += 1
            elif tok == "(":
                break
            else:
                return None


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


#: :func:`~amreval.amr.graph.canonical_role` of each role met (a corpus has few).
_CANONICAL: dict[str, tuple[str, bool]] = {}
_CANONICAL_MAX = 10_000


def _build_graph(flat: _Flat, origin: str, warn_unbound: bool = True) -> Graph:
    metadata, top, inst_list, branches = flat
    instances: dict[str, str] = {}
    for var, concept in inst_list:
        if concept is None:
            _warn(f"{origin}: ({var}) has no concept; read with the empty concept")
            concept = ""
        elif "~" in concept:
            concept = _ALIGNMENT.sub("", concept)
        if var in instances:
            _warn(f"{origin}: variable {var!r} is defined twice; kept the first concept")
            continue
        instances[var] = concept
    graph = Graph(top=top, instances=instances, metadata=metadata, origin=origin)
    add_edge = graph.edges.append
    add_attribute = graph.attributes.append
    canonical = _CANONICAL
    new = tuple.__new__  # Edge and Attribute made as the tuples they are, without their Python __new__
    for source, role, target, is_node in branches:
        if not role:
            _warn(f"{origin}: {source} : {target}: an empty role ':'; read as the role ''")
        if not is_node:
            if "~" in target:
                target = _ALIGNMENT.sub("", target)
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
                add_attribute(new(Attribute, (source, role, target)))
                continue
        found = canonical.get(role)
        if found is None:
            found = canonical_role(role)
            if len(canonical) < _CANONICAL_MAX:
                canonical[role] = found
        canon, swapped = found
        if swapped:
            add_edge(new(Edge, (target, canon, source, role)))
        else:
            add_edge(new(Edge, (source, canon, target, role)))
    return graph


def _warn(message: str) -> None:
    warn_caller(message)


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
    return line_blocks(text.splitlines())


def line_blocks(lines: Iterable[str]) -> Iterator[Block]:
    """:func:`split_blocks` of the text whose ``splitlines()`` are ``lines``, one line at a time (a file
    read as a stream holds one block at a time)."""
    block: list[str] = []
    start = None
    depth = 0
    has_graph = False
    append = block.append
    for n, line in enumerate(lines):
        if not line or line.isspace():  # a blank line (what strip() empties)
            if start is not None and depth <= 0:
                if has_graph:
                    yield Block("\n".join(block), start + 1)
                start, depth, has_graph = None, 0, False
                block = []
                append = block.append
            elif start is not None:
                append(line)
            continue
        if start is None:
            start = n
        append(line)
        if depth <= 0 and line.lstrip().startswith("#"):
            continue
        has_graph = True
        if '"' in line:
            line = _STRING.sub("", line)
        depth += line.count("(") - line.count(")")
    if start is not None and has_graph:
        yield Block("\n".join(block), start + 1)


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def metadata_id(block: str) -> str | None:
    m = re.search(r"::id\s+(\S+)", block)
    return m.group(1) if m else None


def blank_line_parts(block: Block) -> list[Block]:
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


def graph_start_parts(block: Block) -> list[Block]:
    """A block cut where a new graph starts after a graph in it: before a metadata line (``# ::id``,
    ``# ::snt`` ...) that follows a line of a graph (metadata comes before a graph, never inside one), and
    before a line that opens a graph once the graph before it is closed (its parentheses balanced). Parts holding
    only comments are left out. For a block that runs on because a graph in it is not closed (two graphs
    with no blank line between them, one cut short); a graph that is not closed and has no metadata in it
    is never cut.

    Example:
        >>> [(p.line, p.text) for p in graph_start_parts(Block("# ::id a\\n(x / y\\n# ::id b\\n(z / w)", 3))]
        [(3, '# ::id a\\n(x / y'), (5, '# ::id b\\n(z / w)')]
        >>> [p.text for p in graph_start_parts(Block("(x / y)\\n(z / w", 1))]
        ['(x / y)', '(z / w']
        >>> [p.text for p in graph_start_parts(Block("(x / y :ARG0\\n(z / w)", 1))]
        ['(x / y :ARG0\\n(z / w)']
    """
    lines = block.text.split("\n")
    parts: list[Block] = []
    start = 0
    in_graph = False  # the last line that is not blank was a line of a graph (not a comment)
    depth = 0  # open parentheses of the graphs so far (outside strings)
    for n, line in enumerate(lines):
        stripped = line.lstrip()
        comment = stripped.startswith("#")
        if in_graph and n > start and (stripped.startswith("# ::") or (depth <= 0 and stripped.startswith("("))):
            parts.append(Block("\n".join(lines[start:n]), block.line + start))
            start, depth = n, 0
        if stripped:
            in_graph = not comment
        if stripped and not comment:
            text = _STRING.sub("", line) if '"' in line else line
            depth += text.count("(") - text.count(")")
    parts.append(Block("\n".join(lines[start:]), block.line + start))
    return [p for p in parts if any(x.strip() and not x.lstrip().startswith("#") for x in p.text.split("\n"))]


def parse_block(block: Block, label: str, index: int, warn_unbound: bool) -> list[Graph]:
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
            graph_id=metadata_id(block.text),
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


def nesting_depth(text: str) -> int:
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
    import penman  # the reader for what the fast path does not take, loaded when first needed

    try:
        trees = list(penman.iterparse(block.text))
    except RecursionError:
        raise DecodeError(
            f"malformed PENMAN nested {nesting_depth(block.text)} levels deep (too deep to say more); "
            "well-formed graphs are read at any depth",
            source=label,
            index=index,
            graph_id=metadata_id(block.text),
            line=block.line,
        ) from None
    except penman.DecodeError as exc:
        line = block.line + exc.lineno - 1 if exc.lineno else block.line
        near = exc.text.strip() if exc.text else ""
        raise DecodeError(
            f"malformed PENMAN: {exc.message}" + (f" in {near!r}" if near else ""),
            source=label,
            index=index,
            graph_id=metadata_id(block.text),
            line=line,
        ) from None
    if not trees:
        raise DecodeError(
            "expected a graph starting with '('",
            source=label,
            index=index,
            graph_id=metadata_id(block.text),
            line=block.line,
        )
    return [_flatten_tree(t) for t in trees]
