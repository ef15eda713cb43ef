"""Linearized graphs, as sequence-to-sequence parsers write them, to PENMAN and back.

Three linearizations (``style``):

* ``"penman"``: PENMAN itself, on one line (``indent=None``) or indented.
* ``"spring"``: the DFS linearization of SPRING (Bevilacqua, Blloshmi &
  Navigli 2021, ``SapienzaNLP/spring``: PENMAN with pointer tokens): tokens
  separated by spaces, a variable written as ``<pointer:N>`` (numbered in
  the order the nodes are written) and its slash left out, a quoted string
  written as ``<lit> words </lit>``:
  ``( <pointer:0> want-01 :ARG0 ( <pointer:1> boy ) :ARG1 ( <pointer:2> go-02 :ARG0 <pointer:1> ) )``.
  Framing tokens (``<s>``, ``</s>``, ``<AMR>``, ``<stop>``, ...) are ignored
  when reading. (SPRING also writes a string's underscores as spaces; here
  they are kept, so a string reads back as it was.)
* ``"amrlib"``: the variable-free serialization of amrlib's ``parse_xfm``
  models (``bjascob/amrlib``, ``penman_serializer.py``): each node is
  ``( concept ... )``, a node met again is its concept alone, and a concept
  that several nodes share gets a suffix per node (``person_0``,
  ``person_1``) in the order the nodes are written:
  ``( want-01 :ARG0 ( boy ) :ARG1 ( go-02 :ARG0 boy ) )``. Reading follows
  amrlib's deserializer: a concept after a role that no bracket opened is a
  new node; ``-``, ``+``, numbers, quoted strings and ``interrogative``,
  ``imperative``, ``expressive`` are constants.

:func:`linearize` writes a graph in a style; :func:`delinearize` reads a
generation back to PENMAN, with the repair of :mod:`amreval.amr.repair`
(``repair=True``) or as written (``repair=False``, where what cannot be
read is left to the scorers' empty-graph rule).

Example:
    >>> linearize("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))", "spring")
    '( <pointer:0> want-01 :ARG0 ( <pointer:1> boy ) :ARG1 ( <pointer:2> go-02 :ARG0 <pointer:1> ) )'
    >>> linearize("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))", "amrlib")
    '( want-01 :ARG0 ( boy ) :ARG1 ( go-02 :ARG0 boy ) )'
    >>> d = delinearize("( <pointer:0> want-01 :ARG0 ( <pointer:1> boy ) :ARG1 ( <pointer:2> go-02", "spring")
    >>> d.penman, d.status
    ('(p0 / want-01 :ARG0 (p1 / boy) :ARG1 (p2 / go-02))', 'repaired')
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Literal

from amreval.amr.graph import Graph
from amreval.amr.repair import Node, penman_tokens, repair_tokens, write_tree
from amreval.errors import InputError

__all__ = ["STYLES", "Style", "Delinearized", "linearize", "delinearize", "spring_to_penman", "amrlib_to_penman"]

Style = Literal["penman", "spring", "amrlib"]
#: The linearizations :func:`linearize` and :func:`delinearize` know.
STYLES: tuple[str, ...] = ("penman", "spring", "amrlib")

# a special token cut in the middle (``<pointer:1``) is a token too, and is dropped
_SPRING_TOKEN_RE = re.compile(r'</?lit>|<pointer:\d+>|<[^<>\s]*>?|"(?:[^"\\]|\\.)*"?|[()]|[^\s()<>"]+')
_POINTER_RE = re.compile(r"<pointer:(\d+)>$")
_AMRLIB_TOKEN_RE = re.compile(r'"(?:[^"\\]|\\.)*"?|[()/]|[^\s()/"]+')
_UID_RE = re.compile(r"_\d+$")
_AMRLIB_MODES = frozenset({"interrogative", "imperative", "expressive", "-", "+"})


def _check_style(style: str) -> None:
    if style not in STYLES:
        raise InputError(f"unknown linearization {style!r}: expected one of {', '.join(STYLES)}")


def _tree(graph: Graph | str) -> Node:
    text = graph.to_string(indent=None) if isinstance(graph, Graph) else graph
    read = repair_tokens(penman_tokens(text))
    # a variable defined nowhere is a constant, as the reader takes it; anything else is not one graph
    damage = [c for c in read.changes if not c.startswith("an unbound variable made a constant")]
    if read.tree is None or damage:
        what = "; ".join(damage) or "no graph"
        raise InputError(f"cannot linearize {text[:60]!r}: not a well-formed PENMAN graph ({what})")
    return read.tree


def linearize(graph: Graph | str, style: Style | str = "penman", *, indent: int | None = None) -> str:
    """A graph (a :class:`Graph` or one graph's PENMAN text) written in a linearization.

    Args:
        graph: the graph; its metadata is left out.
        style: ``"penman"``, ``"spring"`` or ``"amrlib"`` (see the module's description).
        indent: for ``"penman"``, the indentation of nested nodes (None: one line).

    Raises:
        InputError: an unknown style, or text that is not one well-formed graph (a variable
            defined nowhere is written as a quoted constant, which it is in a :class:`Graph`).

    Example:
        >>> print(linearize('(n / name :op1 "Little" :op2 "Prince")', "spring"))
        ( <pointer:0> name :op1 <lit> Little </lit> :op2 <lit> Prince </lit> )
        >>> print(linearize("(a / and :op1 (b / boy) :op2 (b2 / boy))", "amrlib"))
        ( and :op1 ( boy_0 ) :op2 ( boy_1 ) )
    """
    _check_style(style)
    top = _tree(graph)
    if style == "spring":
        return " ".join(_spring_tokens(top))
    if style == "amrlib":
        return " ".join(_amrlib_tokens(top))
    if indent is None:
        return write_tree(top)
    return _indented(top, indent)


def _indented(top: Node, indent: int) -> str:
    """PENMAN indented as :func:`penman.format` indents it (``indent`` columns a level; -1: under the
    node's variable), written by an explicit stack: any depth that :meth:`Graph.to_string` writes."""
    parts: list[str] = []
    # (node, next branch, column of the node's branches); the concept is branch -1
    stack: list[tuple[Node, int, int]] = []

    def start(node: Node, column: int) -> None:
        if node.concept is None and not node.branches:
            parts.append(f"({node.var})")
            return
        parts.append(f"({node.var} ")
        inner = column + (len(node.var) + 2 if indent == -1 else indent)
        if node.concept is not None:
            parts.append(f"/ {node.concept}")
            stack.append((node, 0, inner))
        else:
            stack.append((node, -1, inner))

    start(top, 0)
    while stack:
        node, k, column = stack.pop()
        first = k < 0
        k = max(k, 0)
        if k == len(node.branches):
            parts.append(")")
            continue
        role, target = node.branches[k]
        stack.append((node, k + 1, column))
        if not first:
            parts.append("\n" + " " * column)
        parts.append(f":{role} ")
        if isinstance(target, Node):
            start(target, column + (len(role) + 2 if indent == -1 else 0))
        else:
            parts.append(target)
    return "".join(parts)


def _walk(top: Node, name: dict[str, str]) -> list[str]:
    """PENMAN tokens of a tree, each variable (defined or referred to) written as ``name`` gives it."""
    out: list[str] = []
    stack: list[tuple[Node, int]] = [(top, -1)]
    while stack:
        node, k = stack.pop()
        if k < 0:
            out += ["(", name[node.var]] + ([] if node.concept is None else ["/", node.concept])
            k = 0
        if k < len(node.branches):
            role, target = node.branches[k]
            stack.append((node, k + 1))
            out.append(":" + role)
            if isinstance(target, Node):
                stack.append((target, -1))
            else:
                out.append(name.get(target, target))
        else:
            out.append(")")
    return out


def _spring_tokens(top: Node) -> list[str]:
    pointers = {node.var: f"<pointer:{k}>" for k, node in enumerate(top.nodes())}
    tokens = _walk(top, pointers)
    out: list[str] = []
    for tok in tokens:
        if tok == "/":
            continue
        if tok[0] == '"' and len(tok) > 1:
            out += ["<lit>", *tok[1:-1].split(), "</lit>"]
        else:
            out.append(tok)
    return out


def _amrlib_tokens(top: Node) -> list[str]:
    nodes = top.nodes()
    counts = Counter(n.concept for n in nodes)
    seen: Counter[str | None] = Counter()
    names: dict[str, str] = {}
    for node in nodes:
        concept = node.concept if node.concept is not None else node.var
        if counts[node.concept] > 1:
            names[node.var] = f"{concept}_{seen[node.concept]}"
            seen[node.concept] += 1
        else:
            names[node.var] = concept
    tokens = _walk(top, names)
    out: list[str] = []
    for k, tok in enumerate(tokens):
        if tok == "/" or (k >= 2 and tokens[k - 1] == "/"):
            continue  # the concept is in the name
        out.append(tok)
    return out


def spring_to_penman(text: str) -> list[str]:
    """The PENMAN tokens of a SPRING DFS linearization (pointers as variables ``pN``, literals as strings).

    Example:
        >>> spring_to_penman("<s> ( <pointer:0> name :op1 <lit> Little Prince </lit> ) </s>")
        ['(', 'p0', '/', 'name', ':op1', '"Little Prince"', ')']
    """
    toks = _SPRING_TOKEN_RE.findall(text)
    out: list[str] = []
    k, n = 0, len(toks)
    while k < n:
        tok = toks[k]
        pointer = _POINTER_RE.match(tok)
        if tok == "<lit>":
            words = []
            k += 1
            while k < n and toks[k] != "</lit>":
                words.append(toks[k].strip('"'))
                k += 1
            out.append('"' + " ".join(words) + '"')
        elif pointer:
            out.append(f"p{pointer.group(1)}")
            follows = toks[k + 1] if k + 1 < n else ""
            if out[-2:-1] == ["("] and follows and follows[0] not in "(<:)":
                out += ["/", follows]
                k += 1
        elif tok[0] != "<":  # framing tokens (<s>, </s>, <AMR>, <stop>, a stray </lit>) are not the graph's
            out.append(tok)
        k += 1
    return out


def _amrlib_constant(tok: str) -> bool:
    if tok in _AMRLIB_MODES or tok[0] == '"' or tok[-1] == '"' or tok[0].isdigit():
        return True
    try:
        float(tok)
    except ValueError:
        return False
    return True


def amrlib_to_penman(text: str) -> list[str]:
    """The PENMAN tokens of amrlib's variable-free serialization (variables ``v0``, ``v1``, ... by first use).

    Example:
        >>> " ".join(amrlib_to_penman("( want-01 :ARG0 ( person_0 ) :ARG1 ( person_1 :ARG0-of go-02 ) )"))
        '( v0 / want-01 :ARG0 ( v1 / person ) :ARG1 ( v2 / person :ARG0-of ( v3 / go-02 ) ) )'
    """
    toks = [t for t in _AMRLIB_TOKEN_RE.findall(text) if t != "/"]
    opened = {toks[k] for k in range(1, len(toks)) if toks[k - 1] == "("}
    names: dict[str, str] = {}

    def define(concept: str) -> list[str]:
        names[concept] = f"v{len(names)}"
        # a uid alone (``_1``) is the concept as written: there is nothing before the suffix to read
        return [names[concept], "/", _UID_RE.sub("", concept) or concept]

    out: list[str] = []
    for k, tok in enumerate(toks):
        before = toks[k - 1] if k else ""
        if tok in "()" or tok[0] == ":" or (before != "(" and not before.startswith(":")):
            out.append(tok)  # brackets, roles, and stray values (left to the reader)
        elif before == "(":
            out += [names[tok]] if tok in names else define(tok)
        elif _amrlib_constant(tok):
            out.append(tok)
        elif tok in opened or tok in names:
            out.append(names[tok] if tok in names else f"<{tok}>")
        else:
            out += ["(", *define(tok), ")"]  # amrlib's reading: a new node without brackets
    if any(t.startswith("<") for t in out):  # references to nodes opened later: resolved now that all are named
        out = [names[t[1:-1]] if t.startswith("<") and t[1:-1] in names else t for t in out]
    return out


@dataclass(frozen=True)
class Delinearized:
    """A generation read back: its PENMAN text, ``status`` and what the repair changed.

    ``status`` is ``"intact"`` (read as written), ``"repaired"`` (read after the
    changes named in ``changes``) or ``"unreadable"`` (nothing to read: the
    scorers count it as an unreadable prediction and score it as an empty graph).
    """

    penman: str
    status: Literal["intact", "repaired", "unreadable"]
    changes: tuple[str, ...] = ()


def _tokens(text: str, style: str) -> list[str]:
    """PENMAN tokens, as the reader splits them (a value such as ``a:b`` is two tokens there)."""
    if style == "spring":
        return penman_tokens(" ".join(spring_to_penman(text)))
    if style == "amrlib":
        return penman_tokens(" ".join(amrlib_to_penman(text)))
    return penman_tokens(text)


def delinearize(text: str, style: Style | str = "penman", *, repair: bool = True) -> Delinearized:
    """One generation in a linearization, read back to PENMAN.

    Args:
        text: the generated text (special tokens may be left in for ``"spring"``).
        style: ``"penman"``, ``"spring"`` or ``"amrlib"``.
        repair: keep the readable prefix of a malformed generation (see :mod:`amreval.amr.repair`);
            False: the generation as written, which a scorer reads or scores as an empty graph.

    Example:
        >>> delinearize("(w / want-01 :ARG0 (b / boy)").status
        'repaired'
        >>> d = delinearize("(w / want-01 :ARG0 (b / boy)", repair=False)
        >>> d.penman, d.status
        ('(w / want-01 :ARG0 (b / boy)', 'unreadable')
    """
    _check_style(style)
    tokens = _tokens(text, style)
    if repair:
        read = repair_tokens(tokens)
        if read.tree is None:
            return Delinearized(" ".join(tokens) or text, "unreadable", read.changes)
        written = write_tree(read.tree)
        # the status is what the scorers make of the text: one the reader cannot read (a string across
        # lines under an empty role, say) is scored as an empty graph, so it is unreadable, not intact
        if not _readable(written):
            return Delinearized(written, "unreadable", read.changes)
        return Delinearized(written, "repaired" if read.changed else "intact", read.changes)
    written = text if style == "penman" else " ".join(tokens)
    return Delinearized(written, "intact" if _readable(written) else "unreadable")


def _readable(text: str) -> bool:
    """Whether the scorers read ``text`` as one graph (they score anything else as an empty graph); the
    reader's warnings are left to the scorers, which read the text again and say them there."""
    import warnings

    from amreval.amr.read import loads_graphs

    errors: list[InputError] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        graphs = loads_graphs(text, warn_unbound=False, errors=errors) if text.strip() else []
    return len(graphs) == 1 and not errors
