"""The command-line reference: every command and option of ``agentd``'s argparse parser."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from agentd.cli.main import _parser
from docsgen.markdown import GENERATED, cell, code, table


def commands(
    parser: argparse.ArgumentParser | None = None, path: tuple[str, ...] = ("agentd",)
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser, str]]:
    """Each command as (its words, its parser, its one-line help), depth first."""
    parser = parser or _parser()
    yield path, parser, parser.description or ""
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
        seen: set[int] = set()
        for name, child in action.choices.items():
            if id(child) in seen:  # an alias of a command already listed
                continue
            seen.add(id(child))
            yield from _with_help(commands(child, (*path, name)), helps.get(name, ""))


def _with_help(
    found: Iterator[tuple[tuple[str, ...], argparse.ArgumentParser, str]], help_text: str
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser, str]]:
    first = True
    for path, parser, text in found:
        yield path, parser, (help_text or text) if first else text
        first = False


def _flags(action: argparse.Action) -> str:
    if action.option_strings:
        return ", ".join(action.option_strings)
    return action.metavar if isinstance(action.metavar, str) else action.dest


def _default(action: argparse.Action) -> str:
    if action.default in (None, False, argparse.SUPPRESS) or action.option_strings == []:
        return "-"
    return code(action.default)


#: The global options, listed once under ``agentd`` although every command takes them.
GLOBAL = {"config", "log_format"}


def _arguments(parser: argparse.ArgumentParser, *, top: bool) -> str:
    rows = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        if action.dest in GLOBAL and not top:
            continue
        choices = f" (one of {', '.join(map(str, action.choices))})" if action.choices else ""
        rows.append([code(_flags(action)), cell((action.help or "") + choices), _default(action)])
    if not rows:
        return ""
    return table(["argument", "what it does", "default"], rows)


INTRO = """# Command line

Every `agentd` command, from the command line's own parser. The options `--config` and
`--log-format` are accepted before or after the command (`agentd run --config x.json`); given
twice, the last one wins.

"""


def cli_page() -> str:
    """The CLI reference page."""
    parts = [INTRO, GENERATED]
    for path, parser, help_text in commands():
        depth = min(len(path) + 1, 4)
        parts.append(f"\n{'#' * depth} `{' '.join(path)}`\n")
        if help_text:
            parts.append(cell(help_text) + "\n")
        if parser.description and parser.description != help_text:
            parts.append(cell(parser.description) + "\n")
        usage = parser.format_usage().removeprefix("usage: ").strip()
        parts.append(f"```\n{usage}\n```\n")
        arguments = _arguments(parser, top=len(path) == 1)
        if arguments:
            parts.append(arguments + "\n")
    return "\n".join(parts)
