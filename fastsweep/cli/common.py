"""What every command of the command line shares: the one-line-error parser, the game
flags from the option table, and the re-wording of the API's errors in flag names."""
from __future__ import annotations

import argparse
import re

from ..agents import AGENTS
from ..options import OPTIONS, add_flags


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line (and a pointer to ``--help``)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


_GIVEN = "_fastsweep_given"  # the namespace's record of the single-value options given


class _StoreOnce(argparse._StoreAction):
    """A single-value option given twice is refused: argparse keeps the last silently
    (``run --size 9 --size 10`` played 10x10)."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = namespace.__dict__.setdefault(_GIVEN, set())
        if self.dest in given:
            parser.error(f"{'/'.join(self.option_strings)}: given twice; give it once")
        given.add(self.dest)
        super().__call__(parser, namespace, values, option_string)


def refuse_repeats(parser):
    """Make every single-value option of ``parser``'s subcommands refuse a repeat
    (:class:`_StoreOnce`); :func:`forget_given` removes the record after parsing."""
    for sp in parser._subparsers._group_actions[0].choices.values():
        for action in sp._actions:
            if type(action) is argparse._StoreAction and action.option_strings:
                action.__class__ = _StoreOnce


def forget_given(namespace):
    namespace.__dict__.pop(_GIVEN, None)


def _at_least(lo):
    def parse(s):
        try:
            v = int(s)
        except ValueError:
            v = None
        if v is None or v < lo:
            raise argparse.ArgumentTypeError(f"must be an integer >= {lo}, got {s!r}")
        return v
    return parse


def _add_game_args(p):
    """--agent, a flag per row of the option table (options.add_flags), and --seed."""
    p.add_argument("--agent", default="basic",
                   help=f"one of: {', '.join(AGENTS)} (default basic); or your own agent "
                        "by import path: module:attr or path/to/file.py:attr")
    add_flags(p)
    p.add_argument("--seed", type=int, default=0, help="root seed (default 0)")


def _options(a):
    """The option table's values from the parsed flags (make_config's keywords)."""
    return {o.name: getattr(a, o.name) for o in OPTIONS if o.flag and o.name != "size"}


_ASSIGN = re.compile(r"\b([a-z_]+)=('([^']*)'|[A-Za-z_]+)")


def cli_wording(message, parser) -> str:
    """A wrapper's error message in the command's terms: a leading ``name:`` (or
    ``a/b:``) and ``name=VALUE`` become the flags of ``parser``, on one line.

    >>> from fastsweep.cli.main import build_parser
    >>> p = build_parser()._subparsers._group_actions[0].choices["run"]
    >>> cli_wording("mines/density: give exactly one of mines=M or density=rho", p)
    '--mines/--density: give exactly one of --mines M or --density RHO'
    >>> cli_wording("first_click: use first_click='any' or fewer mines", p)
    '--first-click: use --first-click any or fewer mines'
    >>> s = build_parser()._subparsers._group_actions[0].choices["sweep"]
    >>> cli_wording("out: play them afresh with fresh='a.py:A' (fresh=True: all)", s)
    '--out: play them afresh with --fresh a.py:A (--fresh: all)'
    """
    flags = {}
    for act in parser._actions:
        long = [s for s in act.option_strings if s.startswith("--")]
        if long and act.dest != "help":
            flags[act.dest] = long[0]
    for o in OPTIONS:  # the Python names of options whose sweep keyword differs
        if o.flag in flags.values():
            flags.setdefault(o.name, o.flag)
    for dest in list(flags):  # "agent: unknown agent" in a command that takes --agents
        if dest.endswith("s"):
            flags.setdefault(dest[:-1], flags[dest])

    def assign(m):
        if m.group(1) not in flags:
            return m.group(0)
        if m.group(2) == "True":  # a flag given alone (fresh=True: --fresh)
            return flags[m.group(1)]
        value = m.group(3) if m.group(3) is not None else m.group(2).upper()  # placeholder
        return f"{flags[m.group(1)]} {value}"

    message = " ".join(str(message).split("\n"))
    head, sep, body = message.partition(": ")
    names = head.split("/")
    if sep and all(n in flags for n in names):
        return "/".join(flags[n] for n in names) + sep + _ASSIGN.sub(assign, body)
    return _ASSIGN.sub(assign, message)
