"""Repair of generated PENMAN: the readable prefix of an unbalanced or truncated graph.

A sequence-to-sequence parser early in training (or cut at ``max_length``)
writes graphs that stop in the middle of a node or close one bracket too few.
:func:`repair_tokens` reads PENMAN tokens with a lenient tree builder and
keeps what can be read, each change named:

* open brackets are closed (``closed 2 brackets``);
* a role without a target is dropped (``dropped a dangling role``), and so
  is a node opened without a variable or a concept;
* stray tokens (a value without a role, a second graph, text before the
  first bracket) are dropped;
* a variable defined twice keeps its first node; the second gets a new name
  (``renamed a duplicate variable``);
* a target that looks like a variable but is defined nowhere becomes a quoted
  constant (``an unbound variable made a constant``), which is how the reader
  scores it too, without its warning.

A graph without any of these problems comes back unchanged (no change
named), written on one line. A text with no node at all has no readable
prefix (``tree`` is None).

Example:
    >>> r = repair_penman("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0")
    >>> r.text
    '(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02))'
    >>> r.changes
    ('dropped a dangling role', 'closed 2 brackets')
    >>> repair_penman("(w / want-01)").changes
    ()
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Node", "Repaired", "penman_tokens", "repair_tokens", "repair_penman", "write_tree", "VARIABLE_LIKE"]

# PENMAN's tokens: a comment, a (possibly unterminated) string, brackets, slash, role, symbol.
# An alignment marker (``~e.2``) is the reader's ALIGNMENT token: it ends where its digits end, so
# ``y~e.2)`` keeps its bracket; any other ``~`` is a stray token of one character, as the reader has it.
_TOKEN_RE = re.compile(r'\#[^\n]*|"(?:[^"\\]|\\.)*"?|[()/]|:[^\s"()/:~]*|[^\s"()/:~]+|~(?:[A-Za-z]\.?)?\d+(?:,\d+)*|~')
#: What an unbound variable looks like (``e``, ``b2``, ``vx12``, ``s3.x``, ``p0``): made a constant by the repair.
VARIABLE_LIKE = re.compile(r"^(?:[a-z]{1,2}\d*|[a-z]+\d+|s\d+\.[a-z]+\d*)$")


@dataclass
class Node:
    """A node of a PENMAN tree: its variable, its concept (None when not written) and its branches.

    A branch is ``(role, target)`` with the role without its colon; the target
    is a :class:`Node` or a value as written (a variable, a symbol or a quoted string).
    """

    var: str
    concept: str | None = None
    branches: list[tuple[str, Node | str]] = field(default_factory=list)

    def nodes(self) -> list[Node]:
        """This node and every node below it, in the order they are written."""
        out: list[Node] = []
        stack = [self]
        while stack:
            node = stack.pop()
            out.append(node)
            stack.extend(t for _, t in reversed(node.branches) if isinstance(t, Node))
        return out


@dataclass(frozen=True)
class Repaired:
    """What :func:`repair_tokens` read: the tree (None when no node could be read), and the changes made."""

    tree: Node | None
    changes: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        """True when anything had to be repaired."""
        return bool(self.changes)

    @property
    def text(self) -> str | None:
        """The tree as one line of PENMAN (None without a tree)."""
        return None if self.tree is None else write_tree(self.tree)


def penman_tokens(text: str) -> list[str]:
    """The PENMAN tokens of ``text``: comments and alignment markers left out, an unterminated string closed.

    Example:
        >>> penman_tokens('(n / name :op1 "Little Pri')
        ['(', 'n', '/', 'name', ':op1', '"Little Pri"']
    """
    out: list[str] = []
    for tok in _TOKEN_RE.findall(text):
        if tok[0] == "#" or (tok[0] == "~" and len(tok) > 1):
            continue
        if tok[0] == '"' and (len(tok) == 1 or not tok.endswith('"') or tok.endswith('\\"')):
            tok += '"'
        out.append(tok)
    return out


def _is_value(tok: str) -> bool:
    return tok not in ("(", ")", "/", "~") and not tok.startswith(":")


class _Builder:
    """The lenient reader: one token at a time, the changes counted by kind."""

    def __init__(self) -> None:
        self.top: Node | None = None
        self.stack: list[tuple[Node, bool]] = []  # (node, attached)
        self.role: str | None = None
        self.counts: dict[str, int] = {}
        self.done = False

    def change(self, kind: str, n: int = 1) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + n

    def drop_role(self) -> None:
        if self.role is not None:
            self.change("dropped a dangling role")
            self.role = None

    def open(self, toks: list[str], pos: int) -> int:
        """Read a node's opening (``( var / concept``) from ``toks[pos]`` (the bracket); the next position."""
        n = len(toks)
        var = toks[pos + 1] if pos + 1 < n and _is_value(toks[pos + 1]) else None
        pos += 2 if var is not None else 1
        concept = None
        if pos < n and toks[pos] == "/":
            if pos + 1 < n and _is_value(toks[pos + 1]):
                concept = toks[pos + 1]
                pos += 2
            else:
                pos += 1
                var = None  # a slash without a concept: the node is not there
        if concept is None and pos >= n:
            var = None  # cut before its concept: the node is not there yet
        if var is None:
            self.change("dropped a node without a variable or concept")
            self.drop_role()
            self.stack.append((Node("", None), False))
            return pos
        node = Node(var, concept)
        attached = True
        if self.stack:
            parent, parent_attached = self.stack[-1]
            if self.role is None or not parent_attached:
                if parent_attached:
                    self.change("dropped a node without a role")
                attached = False
            else:
                parent.branches.append((self.role, node))
        else:
            self.top = node
        self.role = None
        self.stack.append((node, attached))
        return pos

    def feed(self, toks: list[str]) -> None:
        pos, n = 0, len(toks)
        while pos < n and not self.done:
            tok = toks[pos]
            if self.top is not None and not self.stack:
                self.change("dropped text after the graph")
                self.done = True
            elif tok == "(":
                pos = self.open(toks, pos)
                continue
            elif self.top is None:
                self.change("dropped text before the graph")
            elif tok == ")":
                self.drop_role()
                self.stack.pop()
            elif tok.startswith(":"):
                self.drop_role()
                self.role = tok[1:]
            elif tok in ("/", "~") or self.role is None:
                self.change("dropped a stray token")
            else:
                node, attached = self.stack[-1]
                if attached:
                    node.branches.append((self.role, tok))
                self.role = None
            pos += 1

    def finish(self) -> None:
        self.drop_role()
        if self.stack:
            self.change("closed 1 bracket" if len(self.stack) == 1 else f"closed {len(self.stack)} brackets")
            self.stack.clear()


def _fix_variables(top: Node, builder: _Builder) -> None:
    """Merge written-again nodes without a concept, rename duplicate variables, make unbound variables constants."""
    nodes = top.nodes()
    defined: dict[str, Node] = {}
    for node in nodes:
        if node.concept is not None and node.var not in defined:
            defined[node.var] = node
    used = {node.var for node in nodes}
    suffix: dict[str, int] = {}  # the next number to try for a name: each name is tried once (linear time)
    seen: set[str] = set()
    for node in nodes:
        for k, (role, target) in enumerate(node.branches):
            if not isinstance(target, Node):
                continue
            home = defined.get(target.var)
            if target.concept is None and home is not None and home is not target:
                home.branches.extend(target.branches)  # the same node, written again: one node
                node.branches[k] = (role, target.var)
    for node in top.nodes():
        if node.var in seen:
            fresh, j = node.var, suffix.get(node.var, 2)
            while fresh in used:
                fresh, j = f"{node.var}_{j}", j + 1
            suffix[node.var] = j
            used.add(fresh)
            node.var = fresh
            builder.change("renamed a duplicate variable")
        seen.add(node.var)
    for node in top.nodes():
        for k, (role, target) in enumerate(node.branches):
            if isinstance(target, str) and target not in seen and VARIABLE_LIKE.match(target):
                node.branches[k] = (role, f'"{target}"')
                builder.change("an unbound variable made a constant")


def repair_tokens(tokens: list[str]) -> Repaired:
    """Read PENMAN tokens leniently (see the module's description): the readable tree and the changes made."""
    builder = _Builder()
    builder.feed(tokens)
    builder.finish()
    top = builder.top
    if top is not None:
        _fix_variables(top, builder)
    changes = tuple(
        kind if n == 1 or kind.startswith("closed") else f"{kind} ({n}×)" for kind, n in builder.counts.items()
    )
    return Repaired(top, changes)


def repair_penman(text: str) -> Repaired:
    """The readable prefix of one generated PENMAN graph (see the module's description).

    Example:
        >>> repair_penman("(a / and :op1 (b / boy) :op2 (b / girl) :op3 e))").text
        '(a / and :op1 (b / boy) :op2 (b_2 / girl) :op3 "e")'
    """
    return repair_tokens(penman_tokens(text))


def write_tree(top: Node) -> str:
    """One line of PENMAN for a tree (written without recursion)."""
    parts: list[str] = []
    stack: list[tuple[Node, int]] = [(top, -1)]
    while stack:
        node, k = stack.pop()
        if k < 0:
            parts.append(f"({node.var}" if node.concept is None else f"({node.var} / {node.concept}")
            k = 0
        if k < len(node.branches):
            role, target = node.branches[k]
            stack.append((node, k + 1))
            parts.append(f" :{role} ")
            if isinstance(target, Node):
                stack.append((target, -1))
            else:
                parts.append(target)
        else:
            parts.append(")")
    return "".join(parts)
