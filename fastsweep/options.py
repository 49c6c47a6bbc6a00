"""The table of game options: one row per option, and everything driven by it.

A row says what an option is called, its default, its one-line help (CLI ``--help``), how
it is validated, its CLI flag, whether a sweep takes a list of values for it (a grid axis)
or one value for every configuration, and which kernel parameter slot it fills (the name
of a constant in :mod:`fastsweep.kernels.engine.game`) with which number. :func:`make_config`,
``run`` / ``play`` / ``sweep``, the command line and :func:`kernel_params` all walk
``OPTIONS``: an option added here (plus its kernel code) appears everywhere.
The parsers and their error messages live in :mod:`fastsweep.config`; the command line's
list and range values are read by :mod:`fastsweep.values`.
"""
from __future__ import annotations

import argparse
import inspect
from dataclasses import dataclass, fields
from typing import Callable

import numpy as np

from .agents import AGENTS, agent_info, variant_of
from .user.resolve import resolve_agent
from .values import cell_spec, int_list, mine_count_spec, range_spec, split_list
from .option_checks import (
    MAX_COMPONENT, MAX_ENDGAME, RISK_RULES, check_mines, check_density_option, check_layout,
    check_rules, check_first_click, check_first_cell, check_mine_count, check_prior,
    check_budget, check_threshold, check_risk_rules, check_max_component, check_endgame,
    check_endgame_nodes, check_candidate_cut, check_switch, check_noise,
    check_noise_aware, check_flag_threshold, noise_slots,
)
from .config import (
    FIRST_CLICKS, GameConfig, _check_first_click, parse_size,
)


ORIGINAL = "original"  # ``Option.neutral`` of the options sweep folders held from the start


@dataclass(frozen=True)
class Option:
    """One game option. ``check(value, ctx)`` returns the validated value (``ctx``: the
    options validated so far, and ``ctx["raw"]`` the caller's values) or raises a
    ValueError naming the option."""

    name: str
    default: object
    help: str
    check: Callable
    flag: str | None = None      # CLI flag of run / play / sweep (None: Python only)
    metavar: str | None = None   # run / play CLI placeholder of the value (--mines M)
    required: bool = False       # CLI: the flag (or one flag of its group) must be given
    type: Callable | None = None  # argparse type for run / play (bool: an on/off switch)
    const: object = None         # a switch that stores this value (its flag takes no value)
    group: str | None = None     # CLI flags in one group are mutually exclusive
    sweep: str | None = "single"  # "axis": sweep takes a list; "single": one value; None: not
    axis: str | None = None      # sweep's keyword for an axis (e.g. "densities")
    sweep_parse: Callable | None = None  # sweep CLI string -> sweep()'s argument
    sweep_default: object = None  # sweep CLI default (string) when it differs from ``default``
    sweep_help: str | None = None  # sweep CLI help when it differs from ``help``
    slot: str | tuple | None = None  # kernel slot: "P_*" (int64 params) or "F_*" (float64
    #                                  fparams), or a tuple of them
    to_kernel: Callable | None = None  # (cfg, kernels.game) -> the slot's number (a tuple
    #                                    for a tuple of slots)
    neutral: object = ORIGINAL  # an option added after sweep folders' first format: the
    #                             value that plays the games of before it existed (it
    #                             enters a record's digest only away from it)

    @property
    def keyword(self) -> str:
        """The keyword ``sweep`` takes this option under."""
        return self.axis or self.name


# ---------------------------------------------------------------- the table

OPTIONS = (
    Option("size", None, "board size: d (d x d) or HxW, e.g. 16x30",
           lambda v, c: parse_size(v), flag="--size", metavar="SIZE", required=True,
           sweep="axis", axis="sizes",
           sweep_parse=split_list, sweep_help="comma-separated sizes: d or HxW, e.g. 10,30,16x30"),
    Option("layout", None, "a fixed mine layout: H x W bool array or list of (row, col)",
           check_layout, sweep=None),
    Option("mines", None, "number of mines", check_mines, flag="--mines", type=int, group="count",
           metavar="M", required=True, sweep="axis", axis="mines", sweep_parse=int_list,
           sweep_help="comma-separated mine counts",
           slot="P_MINES", to_kernel=lambda cfg, kg: cfg.mines),
    Option("density", None, "fraction of cells that are mines, in [0, 1]",
           check_density_option,
           flag="--density", type=float, group="count", metavar="RHO", required=True,
           sweep="axis", axis="densities", sweep_parse=range_spec,
           sweep_help="mine densities: START:STOP:STEP (inclusive) or a comma list"),
    Option("rules", "keep-going", "keep-going (default) or classic", check_rules, flag="--rules",
           metavar="RULES", sweep="axis", axis="rules", sweep_parse=split_list,
           sweep_help="comma list of keep-going, classic", slot="P_RULES",
           to_kernel=lambda cfg, kg: (kg.RULES_CLASSIC if cfg.rules == "classic"
                                      else kg.RULES_KEEP_GOING)),
    Option("first_click", None, "any | safe | zero (default: safe for classic, any otherwise)",
           check_first_click, flag="--first-click", metavar="RULE", slot="P_FIRST_CLICK",
           to_kernel=lambda cfg, kg: FIRST_CLICKS.index(cfg.first_click)),
    Option("first_cell", None, "corner | center | random | ROW,COL (default: corner for "
           "classic, random otherwise)", check_first_cell, flag="--first-cell",
           metavar="CELL", sweep_parse=cell_spec, slot="P_FIRST_CELL",
           to_kernel=lambda cfg, kg: cfg.first_cell_index()),
    Option("mine_count", False, "tell the agent the number of mines", check_mine_count,
           flag="--mine-count", type=bool, sweep="axis", axis="mine_count",
           sweep_parse=mine_count_spec, sweep_default="both",
           sweep_help="tell agents the mine total: both | yes | no, or AGENT=both|yes|no,...",
           slot="P_MINE_COUNT", to_kernel=lambda cfg, kg: int(cfg.mine_count)),
    Option("prior", 0.5, "per-cell mine prior of probability agents that are not told the "
           "mine count (they do not see the density), in (0, 1)", check_prior, flag="--prior",
           type=float, metavar="P", slot="F_PRIOR", to_kernel=lambda cfg, kg: cfg.prior),
    Option("budget", 0, "work budget of exact analyses, at most 2**24 (memory grows with it; "
           "0 = the agents' own, 2**20)", check_budget,
           flag="--budget", type=int, metavar="B", slot="P_BUDGET",
           to_kernel=lambda cfg, kg: cfg.budget),
    Option("threshold", 0.125, "threshold agent: reveal at once every cell whose mine "
           "probability is below this, in (0, 1)", check_threshold, flag="--threshold", type=float,
           metavar="T", slot="F_THRESHOLD", to_kernel=lambda cfg, kg: cfg.threshold,
           neutral=0.125),
    Option("risk_rules", "complete", "risk agent: what decides cells in its look-ahead, "
           "complete (deduction) or basic (the single-clue rules, as the report)",
           check_risk_rules, flag="--risk-rules", metavar="RULES", slot="P_RISK_RULES",
           to_kernel=lambda cfg, kg: RISK_RULES.index(cfg.risk_rules),
           neutral="complete"),
    Option("max_component", 20, "bruteforce agents: largest frontier component (cells) they "
           f"enumerate, in [1, {MAX_COMPONENT}]", check_max_component, flag="--max-component",
           type=int, metavar="K", slot="P_MAX_COMPONENT",
           to_kernel=lambda cfg, kg: cfg.max_component,
           neutral=20),
    Option("noise", "none", "the sensor's noise: none | detector:p_neg=A,p_pos=B | reveal:p=P "
           "| optimistic[:p=P] | cautious[:p=P]", check_noise, flag="--noise", metavar="SPEC",
           slot=("P_NOISE", "P_NOISE_CUT_A", "P_NOISE_CUT_B", "F_NOISE_A", "F_NOISE_B"),
           to_kernel=noise_slots,
           neutral="none"),
    Option("noise_aware", None, "under noise, inference and probability trust the shown "
           "clues instead of reasoning on the exact posterior (Python: noise_aware=False; "
           "default None: aware where the agent can)",
           check_noise_aware, flag="--trust-clues", const=False, slot="P_NOISE_AWARE",
           to_kernel=lambda cfg, kg: int(cfg.noise_aware),
           neutral=None),
    Option("flag_threshold", 1.0, "noise-aware probability agent: flag cells whose posterior "
           "mine probability is at least this, in [0.5, 1]", check_flag_threshold,
           flag="--flag-threshold", type=float, metavar="T", slot="F_FLAG_THRESHOLD",
           to_kernel=lambda cfg, kg: cfg.flag_threshold,
           neutral=1.0),
)
OPTIONS += (
    Option("endgame", 1000, "lookahead agent: exact endgame search once at most this many "
           f"layouts are consistent (needs the mine total; 0: off), in [0, {MAX_ENDGAME}]",
           check_endgame, flag="--endgame", type=int, metavar="L", slot="P_ENDGAME_MAX",
           to_kernel=lambda cfg, kg: cfg.endgame,
           neutral=1000),
    Option("endgame_nodes", 1_000_000, "lookahead agent: node budget of one endgame "
           "search (over it: the look-ahead instead), in [1, 10**9]", check_endgame_nodes,
           flag="--endgame-nodes", type=int, metavar="N", slot="P_ENDGAME_NODES",
           to_kernel=lambda cfg, kg: cfg.endgame_nodes,
           neutral=1_000_000),
    Option("candidate_cut", 0.9, "lookahead agent: it scores the hidden cells at least this "
           "fraction as safe as the safest, in (0, 1]", check_candidate_cut,
           flag="--candidate-cut", type=float, metavar="F", slot="F_CUT",
           to_kernel=lambda cfg, kg: cfg.candidate_cut,
           neutral=0.9),
    Option("pseudo_fifty", True, "lookahead agent: guess a pseudo-50/50 early (a cell that, "
           "were it a mine, would certainly be half of a 50/50 no reveal resolves: an "
           "orthogonal pair or a 2x2 block; on by default: --no-pseudo-fifty turns it off)",
           check_switch("pseudo_fifty"), flag="--pseudo-fifty", type=bool, slot="P_PSEUDO",
           to_kernel=lambda cfg, kg: int(cfg.pseudo_fifty),
           neutral=False),
    Option("corner_opening", True, "lookahead agent: when the opening cell shows a number "
           "and nothing is certain, guess the corner farthest from it (if no cell is safer; on "
           "by default: --no-corner-opening turns it off)",
           check_switch("corner_opening"), flag="--corner-opening", type=bool, slot="P_CORNER",
           to_kernel=lambda cfg, kg: int(cfg.corner_opening),
           neutral=False),
    Option("offedge_limit", False, "lookahead agent: off the frontier, score only the cells "
           "Hill's solver does (two steps from a clue, corners and nooks): cheaper",
           check_switch("offedge_limit"), flag="--offedge-limit", type=bool, slot="P_OFFEDGE",
           to_kernel=lambda cfg, kg: int(cfg.offedge_limit),
           neutral=False),
    Option("fifty_blocks", False, "lookahead agent: guess early also the unavoidable 50/50s "
           "over more than two cells (2x2 blocks and other sets linked by clues: two mine "
           "patterns no clue can ever tell apart), not only pairs", check_switch("fifty_blocks"),
           flag="--fifty-blocks", type=bool, slot="P_BLOCKS",
           to_kernel=lambda cfg, kg: int(cfg.fifty_blocks),
           neutral=False),
    Option("far_ties", True, "lookahead agent: of candidates equally safe and alike (for "
           "cells no clue touches, the same neighbourhood), prefer the one farthest from the "
           "revealed cells, not the guess order's first (on by default: --no-far-ties turns "
           "it off)", check_switch("far_ties"),
           flag="--far-ties", type=bool, slot="P_FAR",
           to_kernel=lambda cfg, kg: int(cfg.far_ties),
           neutral=False),
)
BY_NAME = {o.name: o for o in OPTIONS}
DEFAULTS = {o.name: o.default for o in OPTIONS}
_CONFIG_FIELDS = {f.name for f in fields(GameConfig)}


def sweep_options(kind=None):
    """Rows a sweep takes (``kind``: "axis" or "single" only)."""
    return [o for o in OPTIONS if o.sweep is not None and (kind is None or o.sweep == kind)]


def add_flags(parser, sweep=False, only=None):
    """Add a CLI flag for every row of ``OPTIONS`` that has one (the one place CLI flags of
    game options are made: ``run`` and ``play`` call it, and so can ``sweep``).

    ``sweep=False`` (run, play): one typed value per flag, under the row's name; the
    help says a numeric default. ``sweep=True``: rows a sweep does not take are left out;
    a grid axis is a string (``o.sweep_parse`` reads it into a list) under the sweep
    keyword, with ``o.sweep_help`` (use ``argparse.ArgumentDefaultsHelpFormatter`` for
    the defaults). Rows of one ``group`` are mutually exclusive; a ``required`` row, or one
    row of a required group, must be given. ``only``: the names of the rows to add (all
    by default).

    >>> import argparse
    >>> p = argparse.ArgumentParser(prog="demo")
    >>> add_flags(p)
    >>> a = p.parse_args(["--size", "16x30", "--mines", "99", "--prior", "0.2"])
    >>> a.size, a.mines, a.density, a.prior, a.budget
    ('16x30', 99, None, 0.2, 0)
    >>> s = argparse.ArgumentParser(prog="demo")
    >>> add_flags(s, sweep=True)
    >>> s.parse_args(["--size", "10,30", "--density", "0.1:0.3:0.1"]).densities
    '0.1:0.3:0.1'
    """
    groups = {}
    for o in OPTIONS:
        if o.flag is None or (sweep and o.sweep is None) or (only and o.name not in only):
            continue
        if sweep and o.sweep == "axis":  # a list, as a string that o.sweep_parse reads
            kw = dict(dest=o.axis, default=o.sweep_default or o.default,
                      help=o.sweep_help or o.help)
        else:
            kw = dict(dest=o.keyword if sweep else o.name, help=o.help)
            if o.type is bool:  # a switch; one on by default also gets --no-<name>
                kw.update(action=argparse.BooleanOptionalAction if o.default else "store_true",
                          default=o.default)
            elif o.const is not None:
                kw.update(action="store_const", const=o.const, default=o.default)
            else:
                kw.update(default=o.default, type=o.type)
                if not sweep:
                    kw["metavar"] = o.metavar
                    if type(o.default) in (int, float):
                        kw["help"] += f" (default {o.default})"
        if o.group is None:
            parser.add_argument(o.flag, required=o.required, **kw)
            continue
        if o.group not in groups:
            req = any(r.required for r in OPTIONS if r.group == o.group)
            groups[o.group] = parser.add_mutually_exclusive_group(required=req)
        groups[o.group].add_argument(o.flag, **kw)


def takes_options(rows):
    """Decorator: ``fn(..., **options)`` shows the option table's ``rows`` as keyword
    arguments with the table's defaults (its ``__signature__``, which ``help()``,
    ``inspect`` and editors read), so each default is written once, in the table. ``fn``
    receives only the options its caller gave and passes them on (:func:`make_config`
    fills in the rest and refuses names that are not options).

    >>> import inspect
    >>> @takes_options([BY_NAME["prior"], BY_NAME["budget"]])
    ... def f(agent, budget=0, **options):
    ...     return options
    >>> str(inspect.signature(f)), f("basic", prior=0.3)
    ('(agent, budget=0, *, prior=0.5)', {'prior': 0.3})
    """
    def wrap(fn):
        sig = inspect.signature(fn)
        own = [p for p in sig.parameters.values() if p.kind is not p.VAR_KEYWORD]
        names = {p.name for p in own}
        extra = [inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY, default=o.default)
                 for o in rows if o.name not in names]
        fn.__signature__ = sig.replace(parameters=own + extra)
        return fn
    return wrap


# the game's options: every agent plays under them (the others are agents' options,
# read by the agents whose registry entry lists them)
GAME = ("size", "layout", "mines", "density", "rules", "first_click", "first_cell",
        "mine_count", "noise")


def reads(agent) -> tuple:
    """The options agent ``agent`` reads: the game's and its own (registry), in table
    order.

    >>> reads("basic")
    ('size', 'layout', 'mines', 'density', 'rules', 'first_click', 'first_cell', 'mine_count', 'noise')
    """
    own = set(agent_info(agent).options)
    return tuple(o.name for o in OPTIONS if o.name in GAME or o.name in own)


def _is_default(name, value) -> bool:
    d = DEFAULTS[name]
    if value is d:
        return True
    if isinstance(value, bool) != isinstance(d, bool):  # (True == 1 in Python)
        return False
    try:
        return bool(value == d)
    except (TypeError, ValueError):  # e.g. an array: not a default
        return False


# why an agent does not read an option, where the option's name alone does not say it
WHY_NOT_READ = {"noise_aware": "an agent that cannot reason under noise always trusts the "
                               "clues: only a noise-aware agent can be told to trust them"}


def check_reads(agents, options) -> None:
    """Refuse an option that no agent of ``agents`` reads, unless it has its default
    value (the entry points take every option as a keyword with its default, so a
    default is indistinguishable from an option not given, and changes no game).

    >>> check_reads(["basic"], {"endgame": 5})
    Traceback (most recent call last):
    ...
    ValueError: endgame: agent 'basic' does not read this option; it reads size, layout, mines, density, rules, first_click, first_cell, mine_count, noise
    """
    read = {n for a in agents for n in reads(a)}
    for name, value in options.items():
        if name in BY_NAME and name not in read and not _is_default(name, value):
            who = (f"agent {agents[0]!r} does not read this option; it reads "
                   f"{', '.join(reads(agents[0]))}" if len(agents) == 1 else
                   f"no agent of this sweep ({', '.join(agents)}) reads this option; "
                   f"agents that do: {', '.join(a for a in AGENTS if name in reads(a))}")
            raise ValueError(f"{name}: {who}" + (f" ({WHY_NOT_READ[name]})"
                                                 if name in WHY_NOT_READ else ""))


def make_config(agent, size, check=True, **options) -> GameConfig:
    """Validate user arguments (every option through its row of ``OPTIONS``); see
    :func:`fastsweep.run` for their meaning. An option the agent does not read is refused
    (:func:`check_reads`) unless ``check`` is false (a sweep checks its agents together).

    >>> make_config("basic", (16, 30), mines=99, rules="classic").first_cell
    'corner'
    """
    unknown = sorted(set(options) - set(BY_NAME) - {"size"})
    if unknown:
        raise TypeError(f"{unknown[0]}: not an option of the game or of any agent; options: "
                        f"{', '.join(o.name for o in OPTIONS if o.name != 'size')}")
    agent = resolve_agent(agent)  # a user's agent is registered under its name
    raw = dict(DEFAULTS, **options, size=size)
    ctx = {"raw": raw, "agent": agent}
    for o in OPTIONS:  # values first: a bad value is named as such, read or not
        ctx[o.name] = o.check(raw[o.name], ctx)
    if check:
        check_reads([agent], options)
    h, w = ctx["size"]
    cfg = GameConfig(agent=agent, height=h, width=w,
                     **{k: v for k, v in ctx.items() if k in _CONFIG_FIELDS and k != "agent"})

    def nbr_count(cell):
        r, c = divmod(cell, w)
        return (min(r + 1, h - 1) - max(r - 1, 0) + 1) * (min(c + 1, w - 1) - max(c - 1, 0) + 1) - 1

    _check_first_click(cfg, nbr_count)
    return cfg


def kernel_params(cfg: GameConfig, seed: int = 0):
    """The (int64 params, float64 fparams) arrays the kernels take: every row's kernel slot,
    looked up by name on :mod:`fastsweep.kernels.engine.game`, plus the agent's variant, the board's
    size and the root ``seed``."""
    from .kernels.engine import game as kg

    params = np.zeros(kg.P_LEN, np.int64)
    fparams = np.zeros(kg.F_LEN, np.float64)
    params[kg.P_VARIANT] = variant_of(cfg.agent)  # the agent's variant: from the registry
    params[kg.P_H] = cfg.height
    params[kg.P_W] = cfg.width
    params[kg.P_SEED] = np.array([seed], np.uint64).view(np.int64)[0]  # the uint64's bits
    for o in OPTIONS:
        if o.slot is None:
            continue
        slots, vals = ((o.slot, o.to_kernel(cfg, kg)) if isinstance(o.slot, tuple)
                       else ((o.slot,), (o.to_kernel(cfg, kg),)))
        for slot, v in zip(slots, vals):
            (fparams if slot.startswith("F_") else params)[getattr(kg, slot)] = v
    return params, fparams


agent_params = kernel_params  # the old name (scripts and older revisions use it)
