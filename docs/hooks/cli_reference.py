"""MkDocs hook: the command-line reference, written at build time from the ``amreval`` parsers themselves.

A page holding the marker ``<!-- amreval-cli-reference -->`` gets, in its place, one section per command of
:data:`amreval.cli.COMMANDS` (in that order): the command's description, its usage line and every option with
its help, read from the subparser that :func:`amreval.cli.build_parser` registers for it. Nothing is written
by hand, so the page cannot drift from the command line.
"""

from __future__ import annotations

import argparse
import html

MARKER = "<!-- amreval-cli-reference -->"


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise LookupError("the amreval parser has no commands")


def _option_name(action: argparse.Action, formatter: argparse.HelpFormatter) -> str:
    """The option as ``--help`` writes it: ``-f FILE FILE``, ``--pr``, or a positional's name."""
    return formatter._format_action_invocation(action)


def _help(action: argparse.Action, formatter: argparse.HelpFormatter) -> str:
    if not action.help:
        return ""
    return formatter._expand_help(action)


def _options(parser: argparse.ArgumentParser) -> str:
    formatter = parser._get_formatter()
    parts: list[str] = []
    for group in parser._action_groups:
        actions = [a for a in group._group_actions if a.help != argparse.SUPPRESS]
        if not actions:
            continue
        title = group.title or "options"
        parts.append(f'<p class="amreval-cli-group"><strong>{html.escape(title)}</strong></p>')
        if group.description:
            parts.append(f"<p>{html.escape(group.description)}</p>")
        parts.append("<dl>")
        for action in actions:
            name = html.escape(_option_name(action, formatter))
            parts.append(f"<dt><code>{name}</code></dt>")
            parts.append(f"<dd>{html.escape(_help(action, formatter)) or '&nbsp;'}</dd>")
        parts.append("</dl>")
    return "\n".join(parts)


def _usage(parser: argparse.ArgumentParser) -> str:
    first, *rest = parser.format_usage().strip().removeprefix("usage: ").split("\n")
    usage = "\n".join([first, *(line.removeprefix(" " * len("usage: ")) for line in rest)])
    return f"```text\n{usage}\n```"


def cli_reference() -> str:
    """The reference of every command, as Markdown (with HTML option lists)."""
    from amreval.cli import COMMANDS, build_parser

    parser = build_parser()
    commands = _subparsers(parser)
    sections = [
        "## amreval",
        "",
        html.escape(parser.description or ""),
        "",
        _usage(parser),
        "",
        _options(parser),
        "",
        html.escape(parser.epilog or ""),
    ]
    for name, summary in COMMANDS.items():
        sub = commands[name]
        sections += [
            "",
            f"## amreval {name}",
            "",
            f"*{html.escape(summary)}*",
            "",
            html.escape(sub.description or ""),
            "",
            _usage(sub),
            "",
            _options(sub),
        ]
        if sub.epilog:
            sections += ["", html.escape(sub.epilog)]
    return "\n".join(sections) + "\n"


def on_page_markdown(markdown: str, page, config, files) -> str:
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, cli_reference())
