"""Reference pages rendered from the code, so the documentation cannot drift from it: the
option table (:data:`fastsweep.options.OPTIONS`: defaults, flags, which agents read each
option) and the agent registry (:data:`fastsweep.AGENTS`).

``python -m fastsweep.reference DIR`` writes ``DIR/options.md`` and ``DIR/agents.md``; the
committed copies under docs/pages/reference/ (pages of the documentation site) are checked
against a fresh rendering by the tests. :func:`cli_markdown` renders the command line's
``--help`` texts: the site's build makes its CLI page from it (docs/hooks.py).

>>> print(options_markdown().splitlines()[2])
| option | default | CLI flag | read by | what it is |
"""
from __future__ import annotations

import os
import sys

from .agents import AGENTS
from .options import GAME, OPTIONS, reads

HEADER = ("<!-- rendered by `python -m fastsweep.reference docs/pages/reference` from the code; "
          "do not edit -->\n")


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def options_markdown() -> str:
    """The option table as Markdown: one row per option, with its default and CLI flag,
    and the agents that read it (every agent reads the game's options)."""
    rows = [HEADER, "| option | default | CLI flag | read by | what it is |",
            "|---|---|---|---|---|"]
    for o in OPTIONS:
        who = ("every agent (a game option)" if o.name in GAME
               else ", ".join(f"`{a}`" for a in AGENTS if o.name in reads(a)))
        flag = f"`{o.flag}`" if o.flag else "(Python only)"
        rows.append(f"| `{o.name}` | `{o.default!r}` | {flag} | {who} | {_cell(o.help)} |")
    return "\n".join(rows) + "\n"


def agents_markdown() -> str:
    """The agent registry as Markdown: name, family, what it does, the options it reads."""
    rows = [HEADER, "| agent | family | what it does | its own options |", "|---|---|---|---|"]
    for name, a in AGENTS.items():
        own = ", ".join(f"`{o}`" for o in a.options) or "none"
        rows.append(f"| `{name}` | {a.family} | {_cell(a.description)} | {own} |")
    return "\n".join(rows) + "\n"


PAGES = {"options.md": options_markdown, "agents.md": agents_markdown}


def cli_markdown(width: int = 86) -> str:
    """The command line's reference page: ``fastsweep --help`` and every command's
    ``--help``, as argparse prints them (``width`` columns)."""
    from .cli.main import build_parser

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(width)
    try:
        parser = build_parser()
        commands = parser._subparsers._group_actions[0].choices
        parts = ["# Command line reference", "",
                 "Rendered from the parser by the site's build (`fastsweep.reference.cli_markdown`);",
                 "what each command does, with examples: [Command line](../guide/command-line.md).",
                 "", "## `fastsweep`", "", "```text", parser.format_help().rstrip(), "```"]
        for name, sub in commands.items():
            parts += ["", f"## `fastsweep {name}`", "", "```text", sub.format_help().rstrip(), "```"]
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old
    return "\n".join(parts) + "\n"


def write(folder) -> list:
    """Write every page into ``folder``; returns the paths written."""
    os.makedirs(folder, exist_ok=True)
    paths = []
    for name, render in PAGES.items():
        path = os.path.join(folder, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(render())
        paths.append(path)
    return paths


if __name__ == "__main__":
    for p in write(sys.argv[1] if len(sys.argv) > 1 else os.path.join("docs", "pages", "reference")):
        print(f"wrote {p}")
