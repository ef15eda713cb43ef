"""SMATCH++'s tab-separated triple format, read and written.

A graph is one triple a line, ``source<TAB>target<TAB>role`` (the role last, with its colon),
graphs separated by a blank line; lines that start with ``#`` are comments. The root is the
triple ``ROOT_OF_GRAPH<TAB>v<TAB>:root``, a variable is a source of ``:instance``. This is what
SMATCH++'s ``TSVWriter`` writes and its ``TSVReader`` reads (``-input_format tsv``); it splits a
line at any white space, amreval at tabs when the line has one.

Example:
    >>> g = loads_tsv("ROOT_OF_GRAPH\\tw\\t:root\\nw\\twant-01\\t:instance\\nb\\tboy\\t:instance\\n"
    ...               "b\\tw\\t:ARG0-of\\n")[0]
    >>> g.top, g.instances, g.edges
    ('w', {'w': 'want-01', 'b': 'boy'}, [Edge(source='w', role='ARG0', target='b', written='ARG0-of')])
    >>> dumps_tsv([g]).splitlines()[-1]
    'b\\tw\\t:ARG0-of'
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Union

from amreval.amr.graph import Attribute, Edge, Graph, canonical_role
from amreval.amr.read import UnreadableGraph, read_text
from amreval.errors import InputError

__all__ = ["loads_tsv", "read_tsv", "dumps_tsv", "write_tsv"]

PathLike = Union[str, "os.PathLike[str]"]


def _graph(rows: list[tuple[int, list[str]]], label: str, index: int) -> Graph:
    origin = f"{label}, graph #{index + 1}"
    instances: dict[str, str] = {}
    for _, (source, target, role) in rows:
        if role == ":instance":
            instances.setdefault(source, target)
    # the root: (ROOT_OF_GRAPH, :root, v), or (v, :root, concept) as SMATCH++'s amr standardization has it
    root = next((k for k, (_, (_, _, role)) in enumerate(rows) if role == ":root"), None)
    top: str | None = None
    if root is not None:
        source, target, _ = rows[root][1]
        top = source if source in instances and target not in instances else target
    graph = Graph(top=top, instances=instances, origin=origin)
    for k, (line, (source, target, role)) in enumerate(rows):
        if role == ":instance" or k == root:
            continue
        if not role.startswith(":"):
            raise InputError(f"{label}, line {line}: expected a role that starts with ':' last, got {role!r}")
        name = role[1:]
        if target in instances and source in instances:
            canon, swapped = canonical_role(name)
            graph.edges.append(Edge(target, canon, source, name) if swapped else Edge(source, canon, target, name))
        elif source in instances:
            graph.attributes.append(Attribute(source, name, target))
        elif target in instances:  # a constant into a variable: the variable's inverse role to it
            graph.attributes.append(Attribute(target, name[:-3] if name.endswith("-of") else name + "-of", source))
        else:
            raise InputError(f"{label}, line {line}: neither {source!r} nor {target!r} is a variable (no :instance)")
    if graph.top is None and instances:
        graph.top = next(iter(instances))
    if graph.top is not None and graph.top not in instances:
        raise InputError(f"{origin}: the root {graph.top!r} has no :instance triple")
    return graph


def loads_tsv(text: str, label: str = "<string>", *, errors: list[InputError] | None = None) -> list[Graph]:
    """The graphs of a text in SMATCH++'s tab-separated format (see the module docs).

    Args:
        text: the triples.
        label: what to call the text in messages.
        errors: read leniently: a graph that cannot be read is an
            :class:`~amreval.amr.read.UnreadableGraph` in its place (the scorers count it as an unreadable
            prediction) and its error is appended here.

    Raises:
        InputError: (without ``errors``) a line without three fields, a role without its colon, a triple
            with no variable, or a root with no instance (the message names the line or graph).
    """
    graphs: list[Graph] = []
    rows: list[tuple[int, list[str]]] = []
    bad: InputError | None = None  # the first error of the graph being read
    start = 1
    for number, raw in enumerate([*text.splitlines(), ""], start=1):
        line = raw.strip()
        if line.startswith("#"):
            continue
        if not line:
            if rows or bad is not None:
                try:
                    if bad is not None:
                        raise bad
                    graphs.append(_graph(rows, label, len(graphs)))
                except InputError as exc:
                    if errors is None:
                        raise
                    errors.append(exc)
                    graphs.append(UnreadableGraph.of(exc, f"{label}, graph #{len(graphs) + 1}, line {start}"))
                rows, bad = [], None
            continue
        if not rows and bad is None:
            start = number
        fields = [f.strip() for f in line.split("\t")] if "\t" in line else line.split()
        if len(fields) != 3:
            bad = bad or InputError(
                f"{label}, line {number}: expected source, target and role, got {len(fields)} fields"
            )
            continue
        rows.append((number, fields))
    return graphs


def read_tsv(path: PathLike, *, errors: list[InputError] | None = None) -> list[Graph]:
    """The graphs of a file in SMATCH++'s tab-separated format (see :func:`loads_tsv`), read by the one
    rule of every reader (:func:`~amreval.amr.read.read_text`: UTF-8, a byte-order mark accepted, any
    line end): a file that is not UTF-8 text is a :class:`~amreval.errors.DecodeError` naming its line."""
    text, label = read_text(path, what="file of SMATCH++ triples")
    return loads_tsv(text, label, errors=errors)


def dumps_tsv(graphs: Iterable[Graph], standardize: str = "none") -> str:
    """Graphs in SMATCH++'s tab-separated format: their triples as written (``standardize="none"``,
    what SMATCH++ reads from their PENMAN), or under one of SMATCH++'s standardizations
    (``"smatchpp-generic"``, ``"smatchpp-amr"``: what its standardizer makes of them).

    Raises:
        InputError: another ``standardize``, a graph that is empty, or a value that the format cannot
            hold (a tab or line break in it, white space around it: the format has no escape), or that
            UTF-8 cannot (a lone surrogate); the message names the graph and the value.
    """
    from amreval.amr.standardize import standardized

    if standardize not in ("none", "smatchpp-generic", "smatchpp-amr"):
        raise InputError(f"standardize: expected none, smatchpp-generic or smatchpp-amr, got {standardize!r}")
    out: list[str] = []
    for g in graphs:
        triples = standardized(g, standardize)
        if not triples:
            raise InputError(f"{g.origin}: an empty graph has no triples to write")
        for triple in triples:
            if triple[0].startswith("#"):
                raise InputError(f"{g.origin}: the source {triple[0]!r} would start a comment line")
            for value in triple:
                _check_field(value, g.origin)
        out.append("".join(f"{s}\t{t}\t{r}\n" for s, r, t in triples))
    return "\n".join(out)


def _check_field(value: str, origin: str) -> None:
    """A field :func:`loads_tsv` reads back as written: no tab or line break in it (the format has no
    escape: SMATCH++ splits at white space), no white space around it, and text UTF-8 can store."""
    if value != value.strip() or "\t" in value or len(value.splitlines()) > 1:
        raise InputError(
            f"{origin}: the value {value!r} has a tab, a line break or white space around it, which the "
            "tab-separated format cannot hold (it has no escape); write the graph as PENMAN instead"
        )
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(
            f"{origin}: the value {value!r} is not valid Unicode text ({value[exc.start]!r} at character "
            f"{exc.start} is a lone surrogate), which a UTF-8 file cannot hold"
        ) from None


def write_tsv(path: PathLike, graphs: Iterable[Graph], standardize: str = "none") -> None:
    """Write graphs to a file in SMATCH++'s tab-separated format (see :func:`dumps_tsv`)."""
    Path(path).write_text(dumps_tsv(graphs, standardize), encoding="utf-8")
