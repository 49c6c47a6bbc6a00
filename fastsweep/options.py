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
import math
import numbers
from dataclasses import dataclass, fields
from typing import Callable

import numpy as np

from .agents import AGENTS, agent_id
from .values import cell_spec, int_list, mine_count_spec, range_spec, split_list
from .kernels.inference.count import MAX_BUDGET
from .config import (
    FIRST_CLICKS, RULES, GameConfig, _check_first_click, _is_int, check_density,
    parse_first_cell, parse_layout, parse_size, resolve_mines,
)


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

    @property
    def keyword(self) -> str:
        """The keyword ``sweep`` takes this option under."""
        return self.axis or self.name


# ---------------------------------------------------------------- validators

def _mines(v, c):
    if c["layout"] is not None:
        return int(c["layout"].sum())
    h, w = c["size"]
    return resolve_mines(v, c["raw"].get("density"), h * w)


def _density(v, c):
    return None if v is None or c["layout"] is not None else check_density(v)


def _layout(v, c):
    if v is None:
        return None
    if c["raw"].get("mines") is not None or c["raw"].get("density") is not None:
        raise ValueError("mines/density: do not give mines or density with an explicit layout")
    return parse_layout(v, *c["size"])


def _rules(v, c):
    if v not in RULES:
        raise ValueError(f"rules: unknown rules {v!r}; allowed: {', '.join(RULES)}")
    return v


def _first_click(v, c):
    if v is None:
        v = "safe" if c["rules"] == "classic" else "any"
    if v not in FIRST_CLICKS:
        raise ValueError(f"first_click: unknown rule {v!r}; allowed: {', '.join(FIRST_CLICKS)}")
    return v


def _first_cell(v, c):
    if v is None:
        v = "corner" if c["rules"] == "classic" else "random"
    return parse_first_cell(v, *c["size"])


def _mine_count(v, c):
    if not isinstance(v, (bool, np.bool_)):
        raise ValueError(f"mine_count: expected True or False, got {v!r}")
    return bool(v)


def _prior(v, c):
    if not isinstance(v, numbers.Real) or math.isnan(v) or not 0.0 < v < 1.0:
        raise ValueError(f"prior: must be a number strictly between 0 and 1, got {v!r}")
    return float(v)


def _budget(v, c):
    if not _is_int(v) or not 0 <= v <= MAX_BUDGET:
        raise ValueError(f"budget: must be an integer in [0, 2**24] (0 = the agent's default; "
                         f"memory grows with it), got {v!r}")
    return int(v)


MAX_COMPONENT = 30  # bruteforce enumerates up to 2**max_component layouts per component
RISK_RULES = ("complete", "basic")


def _threshold(v, c):
    if not isinstance(v, numbers.Real) or isinstance(v, bool) or math.isnan(v) or not 0.0 < v < 1.0:
        raise ValueError(f"threshold: must be a number strictly between 0 and 1, got {v!r}")
    return float(v)


def _risk_rules(v, c):
    if v not in RISK_RULES:
        raise ValueError(f"risk_rules: unknown rules {v!r}; allowed: {', '.join(RISK_RULES)}")
    return v


def _max_component(v, c):
    if not _is_int(v) or not 1 <= v <= MAX_COMPONENT:
        raise ValueError(f"max_component: must be an integer in [1, {MAX_COMPONENT}] (cells of "
                         f"the largest frontier component bruteforce enumerates), got {v!r}")
    return int(v)


MAX_ENDGAME = 20000  # layouts (the endgame trace packs wins and layouts below 2**15)
MAX_ENDGAME_NODES = 10**9


def _endgame(v, c):
    if not _is_int(v) or not 0 <= v <= MAX_ENDGAME:
        raise ValueError(f"endgame: must be an integer in [0, {MAX_ENDGAME}] (layouts; 0: "
                         f"no endgame search), got {v!r}")
    return int(v)


def _endgame_nodes(v, c):
    if not _is_int(v) or not 1 <= v <= MAX_ENDGAME_NODES:
        raise ValueError(f"endgame_nodes: must be an integer in [1, 10**9] (search nodes a "
                         f"move), got {v!r}")
    return int(v)


def _candidate_cut(v, c):
    if not isinstance(v, numbers.Real) or isinstance(v, bool) or math.isnan(v) or not 0.0 < v <= 1.0:
        raise ValueError(f"candidate_cut: must be a number in (0, 1] (1: only the safest "
                         f"cells), got {v!r}")
    return float(v)


def _switch(name):
    """The validator of an on/off option ``name``."""
    def check(v, c):
        if not isinstance(v, (bool, np.bool_)):
            raise ValueError(f"{name}: expected True or False, got {v!r}")
        return bool(v)
    return check


def _noise(v, c):
    from .noise import parse_noise

    return parse_noise(v).spec


def _noise_aware(v, c):
    agent = c["agent"]
    able = AGENTS[agent].noise_aware
    if v is None:
        return able and c["noise"] != "none"
    if not isinstance(v, (bool, np.bool_)):
        raise ValueError(f"noise_aware: expected True, False or None (the agent's own), got {v!r}")
    if v and not able:
        raise ValueError(f"noise_aware: agent {agent!r} cannot reason under noise; noise-aware "
                         f"agents: {', '.join(a for a, i in AGENTS.items() if i.noise_aware)}")
    return bool(v) and c["noise"] != "none"


def _flag_threshold(v, c):
    if not isinstance(v, numbers.Real) or isinstance(v, bool) or math.isnan(v) or not 0.5 <= v <= 1.0:
        raise ValueError(f"flag_threshold: must be a number in [0.5, 1] (1: flag only certain "
                         f"mines), got {v!r}")
    if v < 1.0 and not (c["agent"] == "probability" and c["noise_aware"]):
        raise ValueError("flag_threshold: below 1 only for the probability agent reasoning "
                         "under noise (a noise model, and not trusting the clues): under "
                         "exact clues every flag must be a mine")
    return float(v)


def _noise_slots(cfg, kg):
    from .noise import parse_noise

    m = parse_noise(cfg.noise)
    return m.model, m.cut_a, m.cut_b, m.a, m.b


# ---------------------------------------------------------------- the table

OPTIONS = (
    Option("size", None, "board size: d (d x d) or HxW, e.g. 16x30",
           lambda v, c: parse_size(v), flag="--size", metavar="SIZE", required=True,
           sweep="axis", axis="sizes",
           sweep_parse=split_list, sweep_help="comma-separated sizes: d or HxW, e.g. 10,30,16x30"),
    Option("layout", None, "a fixed mine layout: H x W bool array or list of (row, col)",
           _layout, sweep=None),
    Option("mines", None, "number of mines", _mines, flag="--mines", type=int, group="count",
           metavar="M", required=True, sweep="axis", axis="mines", sweep_parse=int_list,
           sweep_help="comma-separated mine counts",
           slot="P_MINES", to_kernel=lambda cfg, kg: cfg.mines),
    Option("density", None, "fraction of cells that are mines, in [0, 1]", _density,
           flag="--density", type=float, group="count", metavar="RHO", required=True,
           sweep="axis", axis="densities", sweep_parse=range_spec,
           sweep_help="mine densities: START:STOP:STEP (inclusive) or a comma list"),
    Option("rules", "keep-going", "keep-going (default) or classic", _rules, flag="--rules",
           metavar="RULES", sweep="axis", axis="rules", sweep_parse=split_list,
           sweep_help="comma list of keep-going, classic", slot="P_RULES",
           to_kernel=lambda cfg, kg: (kg.RULES_CLASSIC if cfg.rules == "classic"
                                      else kg.RULES_KEEP_GOING)),
    Option("first_click", None, "any | safe | zero (default: safe for classic, any otherwise)",
           _first_click, flag="--first-click", metavar="RULE", slot="P_FIRST_CLICK",
           to_kernel=lambda cfg, kg: FIRST_CLICKS.index(cfg.first_click)),
    Option("first_cell", None, "corner | center | random | ROW,COL (default: corner for "
           "classic, random otherwise)", _first_cell, flag="--first-cell",
           metavar="CELL", sweep_parse=cell_spec, slot="P_FIRST_CELL",
           to_kernel=lambda cfg, kg: cfg.first_cell_index()),
    Option("mine_count", False, "tell the agent the number of mines", _mine_count,
           flag="--mine-count", type=bool, sweep="axis", axis="mine_count",
           sweep_parse=mine_count_spec, sweep_default="both",
           sweep_help="tell agents the mine total: both | yes | no, or AGENT=both|yes|no,...",
           slot="P_MINE_COUNT", to_kernel=lambda cfg, kg: int(cfg.mine_count)),
    Option("prior", 0.5, "per-cell mine prior of probability agents that are not told the "
           "mine count (they do not see the density), in (0, 1)", _prior, flag="--prior",
           type=float, metavar="P", slot="F_PRIOR", to_kernel=lambda cfg, kg: cfg.prior),
    Option("budget", 0, "work budget of exact analyses, at most 2**24 (memory grows with it; "
           "0 = the agents' own, 2**20)", _budget,
           flag="--budget", type=int, metavar="B", slot="P_BUDGET",
           to_kernel=lambda cfg, kg: cfg.budget),
    Option("threshold", 0.125, "threshold agent: reveal at once every cell whose mine "
           "probability is below this, in (0, 1)", _threshold, flag="--threshold", type=float,
           metavar="T", slot="F_THRESHOLD", to_kernel=lambda cfg, kg: cfg.threshold),
    Option("risk_rules", "complete", "risk agent: what decides cells in its look-ahead, "
           "complete (deduction) or basic (the single-clue rules, as the report)",
           _risk_rules, flag="--risk-rules", metavar="RULES", slot="P_RISK_RULES",
           to_kernel=lambda cfg, kg: RISK_RULES.index(cfg.risk_rules)),
    Option("max_component", 20, "bruteforce agents: largest frontier component (cells) they "
           f"enumerate, in [1, {MAX_COMPONENT}]", _max_component, flag="--max-component",
           type=int, metavar="K", slot="P_MAX_COMPONENT",
           to_kernel=lambda cfg, kg: cfg.max_component),
    Option("noise", "none", "the sensor's noise: none | detector:p_neg=A,p_pos=B | reveal:p=P "
           "| optimistic[:p=P] | cautious[:p=P]", _noise, flag="--noise", metavar="SPEC",
           slot=("P_NOISE", "P_NOISE_CUT_A", "P_NOISE_CUT_B", "F_NOISE_A", "F_NOISE_B"),
           to_kernel=_noise_slots),
    Option("noise_aware", None, "under noise, inference and probability trust the shown "
           "clues instead of reasoning on the exact posterior (Python: noise_aware=False; "
           "default None: aware where the agent can)",
           _noise_aware, flag="--trust-clues", const=False, slot="P_NOISE_AWARE",
           to_kernel=lambda cfg, kg: int(cfg.noise_aware)),
    Option("flag_threshold", 1.0, "noise-aware probability agent: flag cells whose posterior "
           "mine probability is at least this, in [0.5, 1]", _flag_threshold,
           flag="--flag-threshold", type=float, metavar="T", slot="F_FLAG_THRESHOLD",
           to_kernel=lambda cfg, kg: cfg.flag_threshold),
)
OPTIONS += (
    Option("endgame", 1000, "lookahead agent: exact endgame search once at most this many "
           f"layouts are consistent (needs the mine total; 0: off), in [0, {MAX_ENDGAME}]",
           _endgame, flag="--endgame", type=int, metavar="L", slot="P_ENDGAME_MAX",
           to_kernel=lambda cfg, kg: cfg.endgame),
    Option("endgame_nodes", 1_000_000, "lookahead agent: node budget of one endgame "
           "search (over it: the look-ahead instead), in [1, 10**9]", _endgame_nodes,
           flag="--endgame-nodes", type=int, metavar="N", slot="P_ENDGAME_NODES",
           to_kernel=lambda cfg, kg: cfg.endgame_nodes),
    Option("candidate_cut", 0.9, "lookahead agent: it scores the hidden cells at least this "
           "fraction as safe as the safest, in (0, 1]", _candidate_cut,
           flag="--candidate-cut", type=float, metavar="F", slot="F_CUT",
           to_kernel=lambda cfg, kg: cfg.candidate_cut),
    Option("pseudo_fifty", True, "lookahead agent: guess a pseudo-50/50 early (a cell that, "
           "were it a mine, would certainly be half of a 50/50 no reveal resolves: an "
           "orthogonal pair or a 2x2 block; on by default: --no-pseudo-fifty turns it off)",
           _switch("pseudo_fifty"), flag="--pseudo-fifty", type=bool, slot="P_PSEUDO",
           to_kernel=lambda cfg, kg: int(cfg.pseudo_fifty)),
    Option("corner_opening", True, "lookahead agent: when the opening cell shows a number "
           "and nothing is certain, guess the corner farthest from it (if no cell is safer; on "
           "by default: --no-corner-opening turns it off)",
           _switch("corner_opening"), flag="--corner-opening", type=bool, slot="P_CORNER",
           to_kernel=lambda cfg, kg: int(cfg.corner_opening)),
    Option("offedge_limit", False, "lookahead agent: off the frontier, score only the cells "
           "Hill's solver does (two steps from a clue, corners and nooks): cheaper",
           _switch("offedge_limit"), flag="--offedge-limit", type=bool, slot="P_OFFEDGE",
           to_kernel=lambda cfg, kg: int(cfg.offedge_limit)),
    Option("fifty_blocks", False, "lookahead agent: guess early also the unavoidable 50/50s "
           "over more than two cells (2x2 blocks and other sets linked by clues: two mine "
           "patterns no clue can ever tell apart), not only pairs", _switch("fifty_blocks"),
           flag="--fifty-blocks", type=bool, slot="P_BLOCKS",
           to_kernel=lambda cfg, kg: int(cfg.fifty_blocks)),
    Option("far_ties", True, "lookahead agent: of candidates equally safe and alike (for "
           "cells no clue touches, the same neighbourhood), prefer the one farthest from the "
           "revealed cells, not the guess order's first (on by default: --no-far-ties turns "
           "it off)", _switch("far_ties"),
           flag="--far-ties", type=bool, slot="P_FAR",
           to_kernel=lambda cfg, kg: int(cfg.far_ties)),
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


def given(loc) -> dict:
    """The options among a function's ``locals()`` (``run`` and ``play`` take every row by
    its name, as keywords; the size is their second positional argument)."""
    return {o.name: loc[o.name] for o in OPTIONS if o.name != "size"}


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
    own = set(AGENTS[agent].options)
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
            raise ValueError(f"{name}: {who}")


def make_config(agent, size, check=True, **options) -> GameConfig:
    """Validate user arguments (every option through its row of ``OPTIONS``); see
    :func:`fastsweep.run` for their meaning. An option the agent does not read is refused
    (:func:`check_reads`) unless ``check`` is false (a sweep checks its agents together).

    >>> make_config("basic", (16, 30), mines=99, rules="classic").first_cell
    'corner'
    """
    unknown = set(options) - set(BY_NAME)
    if unknown:
        raise TypeError(f"make_config() got unexpected keyword arguments {sorted(unknown)}")
    if not isinstance(agent, str) or agent not in AGENTS:
        raise ValueError(f"agent: unknown agent {agent!r}; known agents: {', '.join(AGENTS)}")
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
    looked up by name on :mod:`fastsweep.kernels.engine.game`, plus the agent's id, the board's
    size and the root ``seed``."""
    from .kernels.engine import game as kg

    params = np.zeros(kg.P_LEN, np.int64)
    fparams = np.zeros(kg.F_LEN, np.float64)
    params[kg.P_AGENT] = agent_id(cfg.agent)  # the agent comes from the registry, not a row
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
